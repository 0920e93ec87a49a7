"""Every game log shipped in examples/logs/ replays with ``smartmat replay``, run as a user runs it: a
process of its own, where the tests' hand-made cards are not registered (docs/game-log.md: the examples)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.gamelog.records import read_log

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples" / "logs").glob("*.jsonl"))


def smartmat_replay(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "replay", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_examples_are_there_to_replay() -> None:
    assert len(EXAMPLES) >= 15
    assert "whole-game.jsonl" in {log.name for log in EXAMPLES}


@pytest.mark.parametrize("log", EXAMPLES, ids=[log.stem for log in EXAMPLES])
def test_smartmat_replay_replays_each_example_on_the_shipped_cards(log: Path) -> None:
    setup = read_log(log)[0].payload
    assert setup.get("content", "shipped") == "shipped", "an example plays the cards the service ships"
    result = smartmat_replay(str(log), "--json")
    assert result.returncode == 0, result.stderr
    view = json.loads(result.stdout)
    assert view["rejected"] == [], "every record of an example is accepted"
    assert view["seq"] == len(read_log(log)), "the replay reached the log's last record"


def test_the_whole_game_example_plays_to_the_heroes_win() -> None:
    result = smartmat_replay(str(REPO / "examples" / "logs" / "whole-game.jsonl"))
    assert result.returncode == 0, result.stderr
    assert "outcome: the heroes win" in result.stdout
