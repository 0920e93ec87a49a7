"""The tests' hand-made cards (``content: sample``) are not the service's: a real table cannot use them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from service.gamelog.replay import SetupError, new_game_from_setup, register_fixture_content
from service.sensing.tags import TableConfigError
from service.table.config import SHIPPED_TABLES, load_table

REPO = Path(__file__).resolve().parents[2]
HEROES = ["xoric", "varesh", "roosan", "elani"]
SETUP = {"ruleset": "catacombs-3e", "heroes": HEROES, "lord": "hmotha-the-lich-lord", "seed": 1}


def test_a_table_file_plays_the_shipped_cards_and_cannot_name_the_test_cards(tmp_path: Path) -> None:
    """docs/game-log.md (setup: "content")."""
    assert load_table().game.content == "shipped"  # the demo table the simulated mat runs by default
    data = yaml.safe_load((SHIPPED_TABLES / "demo.yaml").read_text())
    data["game"]["content"] = "sample"
    table_file = tmp_path / "table.yaml"
    table_file.write_text(yaml.safe_dump(data))
    refused = r"game.content: expected 'shipped' \(a table plays the shipped cards.*'sample'"
    with pytest.raises(TableConfigError, match=refused):
        load_table(table_file)


def test_without_the_tests_the_service_refuses_a_setup_naming_the_sample_cards() -> None:
    """docs/game-log.md (setup: "content"); the service ships no hand-made cards."""
    script = (
        "from service.gamelog.replay import SetupError, new_game_from_setup\n"
        f"setup = {{**{SETUP!r}, 'content': 'sample'}}\n"
        "try:\n"
        "    new_game_from_setup(setup)\n"
        "except SetupError as exc:\n"
        "    print(exc)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "setup 'content' must be 'shipped', got 'sample'"


def test_the_tests_register_their_cards_under_a_name_of_their_own() -> None:
    rules, state = new_game_from_setup({**SETUP, "content": "sample", "rooms": ["the-barracks"]})
    assert [h.card for h in state.heroes] == HEROES
    assert rules.content.room("the-barracks").name == "The Barracks"
    with pytest.raises(ValueError, match="a name of its own"):
        register_fixture_content("shipped", lambda: rules.content)
    with pytest.raises(SetupError, match=r"must be 'shipped' or 'sample', got 'homebrew'"):
        new_game_from_setup({**SETUP, "content": "homebrew"})
