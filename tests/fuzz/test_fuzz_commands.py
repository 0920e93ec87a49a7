"""Fuzzing ``cmd/request``: every command with a txn is answered exactly once (a repeated txn with the same
answer), a refusal changes nothing, no fault of the daemon's own shows, and the live game always equals the
replay of its event log and what is published (docs/mqtt.md: Commands)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, example, given, settings

from tests.fuzz.targets import COMMAND_SESSIONS


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(COMMAND_SESSIONS.strategy)
# Found by this fuzzing: a malformed request reusing the txn of an applied command overwrote its remembered
# answer, so a QoS 1 duplicate of the applied command was answered "refused".
@example(
    (
        "fresh",
        [
            b'{"txn": "t-0", "actor": "referee:anna", "command": "enter_room", "args": {}}',
            b'{"txn": "t-0", "actor": "referee:anna", "command": "enter_room", "args": null}',
            b'{"txn": "t-0", "actor": "referee:anna", "command": "enter_room", "args": {}}',
        ],
    )
)
def test_fuzzed_commands_are_answered_and_the_game_stays_its_log(example: Any) -> None:
    COMMAND_SESSIONS.check(example)
