"""Each Catacombs 3E example log ends in the state recorded beside it (examples/logs/expected/), perft-style:
any change of the rules' behaviour shows up as a difference to look at."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from examples.logs.expected.write import end_state
from service.gamelog.records import read_log

LOGS = Path(__file__).resolve().parents[2] / "examples" / "logs"
EXPECTED = sorted((LOGS / "expected").glob("*.json"))


def test_every_3e_example_log_has_its_expected_end_state() -> None:
    """docs/game-log.md ("the same log always gives the same game")."""
    # The other rule sets' logs have checks of their own
    # (tests/games/castles, tests/games/catacombs/first_edition).
    logs = {
        p.stem
        for p in LOGS.glob("*.jsonl")
        if read_log(p)[0].payload.get("ruleset", "catacombs-3e") == "catacombs-3e"
    }
    assert logs == {p.stem for p in EXPECTED}


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: p.stem)
def test_an_example_log_replays_to_its_recorded_end_state(expected: Path) -> None:
    """docs/game-log.md; catacombs-3e-reference.txt: Game Phases (every phase the examples play)."""
    recorded = json.loads(expected.read_text())
    replayed = json.loads(json.dumps(end_state(LOGS / f"{expected.stem}.jsonl")))
    assert replayed["rejected"] == recorded["rejected"]
    assert replayed["public"] == recorded["public"]
    assert replayed["state"] == recorded["state"]
