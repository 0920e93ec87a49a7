"""Fuzzing an organiser's overlay: any YAML (or not-YAML) in it gives either validated content or a
``ContentError`` whose problems name the file (docs/content.md); nothing else escapes ``load_content``."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from tests.fuzz.targets import CONTENT


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(CONTENT.strategy)
def test_any_overlay_is_loaded_or_refused_by_file_and_key(example: Any) -> None:
    CONTENT.check(example)
