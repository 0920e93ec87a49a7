"""The shipped Catacombs & Castles 2E example logs, one per mode, replayed to their recorded end states (a
perft-style data suite: examples/logs/castles-2e-expected.json; regenerate with
``python examples/logs/generate_castles.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.cli import main
from service.gamelog.records import read_log
from service.gamelog.replay import replay
from service.games.castles.core.state import MODES, CastlesState

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "logs"
EXPECTED: dict[str, dict[str, Any]] = json.loads((EXAMPLES / "castles-2e-expected.json").read_text())


def summary(s: CastlesState) -> dict[str, Any]:
    return {
        "mode": s.mode,
        "phase": s.phase,
        "round": s.round,
        "outcome": s.outcome,
        "pools": {side.id: side.health for side in s.sides},
        "reinforcements": {side.id: side.reinforcements for side in s.sides},
        "charges": {c.id: dict(c.charges) for c in s.characters if any(n for _, n in c.charges)},
        "armour": {c.id: list(c.armour) for c in s.characters if c.armour},
        "off_mat": [c.id for c in s.characters if not c.on_mat],
    }


def test_every_mode_has_an_example_log() -> None:
    """catacombs-and-castles-2e-manual.md: Important Concepts (Mode)"""
    assert sorted(e["mode"] for e in EXPECTED.values()) == sorted(MODES)


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=str)
def test_the_example_log_replays_to_its_expected_end_state(name: str) -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Objective (each log is played until a pool is empty)"""
    result = replay(read_log(EXAMPLES / name))
    assert result.rejected == []
    assert isinstance(result.state, CastlesState)
    assert summary(result.state) == EXPECTED[name]
    assert result.state.outcome is not None


def test_smartmat_replay_prints_the_pools_of_a_castles_log(capsys: pytest.CaptureFixture[str]) -> None:
    """catacombs-and-castles-2e-manual.md: Health and Transfer Types (the pools a referee checks)"""
    assert main(["replay", str(EXAMPLES / "castles-2e-team.jsonl"), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["mode"] == "team"
    assert {s["id"]: s["health"] for s in view["sides"]} == EXPECTED["castles-2e-team.jsonl"]["pools"]
    assert main(["replay", str(EXAMPLES / "castles-2e-boss.jsonl")]) == 0
    text = capsys.readouterr().out
    assert "catacomb: 0/14 Health Tokens" in text
    assert main(["replay", str(EXAMPLES / "castles-2e-one-versus-one.jsonl"), "--state"]) == 0
    line = capsys.readouterr().out.strip()
    assert CastlesState.from_json(line).outcome == EXPECTED["castles-2e-one-versus-one.jsonl"]["outcome"]
