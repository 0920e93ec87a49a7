"""The shipped Catacombs 1E example logs (a whole catacomb against the Dragon) replayed to their recorded end
states (examples/logs/catacombs1e-expected.json; regenerate with
``python examples/logs/generate_catacombs1e.py``). ``catacombs1e-dragon-before-round-end.jsonl`` was written
when a room ended at its last monster's fall: it still replays, every record accepted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from examples.logs.generate_catacombs1e import expected as summary  # what the generator recorded
from service.cli import main
from service.gamelog.records import read_log
from service.gamelog.replay import replay
from service.games.catacombs.flow.state import GameState

EXAMPLES = Path(__file__).resolve().parents[4] / "examples" / "logs"
EXPECTED: dict[str, dict[str, Any]] = json.loads((EXAMPLES / "catacombs1e-expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=str)
def test_the_example_log_replays_to_its_expected_end_state(name: str) -> None:
    """catacombs-1e-rules-italian.txt: Riassunto delle regole (every phase, room after room, to the Lord:
    1. Fase Esplorazione, 2. Fase di Preparazione, 3. Fase combattimento, Fine del Round, 4. La Fase di
    Risoluzione);
    Il viaggio attraverso la Catacomba (the four phases of each room); Obiettivo del gioco (the heroes survive
    every room and defeat the Lord); Preparazione degli eroi (two Frenzies and a level gained: rage 1)"""
    result = replay(read_log(EXAMPLES / name))
    assert result.rejected == []
    assert isinstance(result.state, GameState) and result.state.ruleset == "catacombs-1e"
    assert summary(result.state) == EXPECTED[name]


def test_smartmat_replay_prints_the_first_edition_game(capsys: pytest.CaptureFixture[str]) -> None:
    """catacombs-1e-rules-italian.txt: Condizioni di Vittoria"""
    assert main(["replay", str(EXAMPLES / "catacombs1e-dragon.jsonl")]) == 0
    text = capsys.readouterr().out
    assert text.startswith("catacombs-1e") and "outcome: the heroes win" in text
    assert "Il Signore della Catacomba" in text
    assert "400 gold rage 1 items:" in text  # the Barbarian's rage track (Preparazione degli eroi)
