"""The set-up wizard's game: the referee picks heroes, Lord and rooms; the table checks them, then starts it.

Catacombs 3E reference: "Setup" (the heroes and the Catacomb Lord are chosen before the first room).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.game_script import GameScript


@pytest.fixture
def table() -> Iterator[GameScript]:
    running = GameScript()
    try:
        yield running
    finally:
        running.close()


def test_the_wizard_closes_the_game_on_the_table_and_starts_the_chosen_one(table: GameScript) -> None:
    assert table.state["characters"][-1]["id"] != "lord-hmotha-the-lich-lord"
    chosen = ["xoric", "elani", "roosan", "varesh"]
    answer = table.send("setup_game", heroes=chosen, lord="hmotha-the-lich-lord", rooms=["the-barracks"])
    assert answer["ok"], answer
    kinds = [r.kind for r in table.eventlog.records()]
    assert kinds[-2:] == ["new_game", "setup"]
    setup = table.eventlog.records()[-1]
    assert setup.by == "referee:anna"
    assert (setup.payload["heroes"], setup.payload["lord"], setup.payload["rooms"]) == (
        chosen,
        "hmotha-the-lich-lord",
        ["the-barracks"],
    )
    assert setup.payload["seed"] == table.table.game.seed + 1  # the second game of this log draws anew
    heroes = [c["id"] for c in table.state["characters"] if c["kind"] == "hero"]
    assert heroes == [f"hero-{h}" for h in chosen]
    assert table.state["table"]["game"] == 2


def test_a_choice_the_rules_refuse_changes_nothing_and_says_why(table: GameScript) -> None:
    before = table.eventlog.last_seq()
    refused = table.send("setup_game", heroes=["xoric"], lord="hmotha-the-lich-lord", rooms=["the-barracks"])
    assert refused["error"].startswith(
        "cannot start the game: a game needs four different heroes, got ['xoric']"
    )
    assert table.send("setup_game", heroes=[], lord="hmotha-the-lich-lord")["error"] == (
        "setup_game: 'heroes' must be a list of 1 to 4 heroes, got []"
    )
    assert table.send("setup_game", heroes=["xoric"], lord="hmotha-the-lich-lord", seed=3)["error"] == (
        "setup_game does not take 'seed' (it takes armour_tokens, board_side, expansions, first, "
        "game_length, heroes, lord, match, mode, quick_start, rooms, sides)"
    )
    assert table.eventlog.last_seq() == before


def test_a_tracker_the_table_file_does_not_list_cannot_be_assigned(table: GameScript) -> None:
    before = table.eventlog.last_seq()
    assert table.send("assign_tracker", tracker="board-9", character="hero-xoric")["error"] == (
        "no tracker 'board-9' at this table (trackers: none in the table file)"
    )
    assert table.eventlog.last_seq() == before
    assert "trackers" not in table.character("hero-xoric")  # a table without trackers publishes as before
