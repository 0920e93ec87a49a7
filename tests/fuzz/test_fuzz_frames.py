"""Fuzzing the serial input: whatever bytes arrive, the decoder hands on good frames and names bad ones
(firmware_bridge/PROTOCOL.md §1-3); nothing else escapes it."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from tests.fuzz.targets import CAPABILITIES_JSON, FRAMES

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(FUZZ, max_examples=500)
@given(FRAMES.strategy)
def test_any_byte_stream_gives_good_frames_and_named_errors_only(example: Any) -> None:
    FRAMES.check(example)


@settings(FUZZ, max_examples=300)
@given(CAPABILITIES_JSON.strategy)
def test_any_hello_capabilities_are_read_or_refused_as_a_malformed_body(example: Any) -> None:
    CAPABILITIES_JSON.check(example)
