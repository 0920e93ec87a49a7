"""The shipped Catacombs & Castles 1E example logs replayed to their recorded end states (a perft-style
data suite: examples/logs/castles-1e-expected.json; regenerate with
``python examples/logs/generate_castles_1e.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.cli import main
from service.gamelog.records import read_log
from service.gamelog.replay import replay
from service.games.castles.core.state import CastlesState
from service.games.castles.first_edition.setup import MODES_1E
from tests.games.castles.test_example_logs import summary

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "logs"
EXPECTED: dict[str, dict[str, Any]] = json.loads((EXAMPLES / "castles-1e-expected.json").read_text())


def test_both_first_edition_modes_have_an_example_log() -> None:
    """catacombs-and-castles-1e-manual.txt: Game Overview (Team Mode and Boss Mode)"""
    assert sorted(e["mode"] for e in EXPECTED.values()) == sorted(MODES_1E)


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=str)
def test_the_example_log_replays_to_its_expected_end_state(name: str) -> None:
    """catacombs-and-castles-1e-manual.txt: Health and Damage Tokens (the game ends with an empty pool)"""
    result = replay(read_log(EXAMPLES / name))
    assert result.rejected == []
    assert isinstance(result.state, CastlesState)
    assert result.state.ruleset == "catacombs-and-castles-1e"
    assert summary(result.state) == EXPECTED[name]
    assert result.state.outcome is not None


def test_smartmat_replay_prints_a_first_edition_game(capsys: pytest.CaptureFixture[str]) -> None:
    """catacombs-and-castles-1e-manual.txt: Health and Damage Tokens (the pools a referee checks)"""
    assert main(["replay", str(EXAMPLES / "castles-1e-team.jsonl"), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["ruleset"] == "catacombs-and-castles-1e" and view["mode"] == "team"
    assert {s["id"]: s["health"] for s in view["sides"]} == EXPECTED["castles-1e-team.jsonl"]["pools"]
    assert main(["replay", str(EXAMPLES / "castles-1e-boss.jsonl")]) == 0
    assert "catacomb: 0/16 Health Tokens" in capsys.readouterr().out
