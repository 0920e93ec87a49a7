"""The referee tells the table which card was drawn: a ``draw`` command becomes a logged ``draw_cards``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.table.config import load_table
from tests.helpers.game_script import GameScript


@pytest.fixture
def table():
    table = GameScript(rooms=("rat-nest", "the-barracks"))
    yield table
    table.close()


def test_the_referee_names_the_room_card_the_table_flipped(table: GameScript) -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb (the Room card flipped)."""
    answer = table.send("draw", deck="rooms", cards=["the-barracks"])
    assert answer["ok"], answer
    assert table.eventlog.records()[-1].payload == {
        "action": "draw_cards",
        "deck": "rooms",
        "cards": ["the-barracks"],
    }
    assert table.send("enter_room")["ok"]
    assert table.state["room"]["id"] == "the-barracks"


def test_a_card_that_cannot_be_in_the_deck_is_refused_and_nothing_is_logged(table: GameScript) -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb."""
    before = table.eventlog.last_seq()
    answer = table.send("draw", deck="rooms", cards=["oakheart-hall"])
    assert not answer["ok"] and "cannot come from the rooms deck" in answer["error"]
    answer = table.send("draw", deck="rooms", cards="the-barracks")
    assert not answer["ok"] and "'cards' must be the 1 to 16 cards drawn" in answer["error"]
    assert table.eventlog.last_seq() == before


def test_a_shot_entered_by_hand_carries_who_is_teleported_and_what_a_portal_switches() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Teleport Shots; Advanced Shots: Open Portal (the fields
    reach the rules, which refuse them on a melee)."""
    table = GameScript()
    try:
        assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
        assert table.declare("hero-xoric")["ok"]
        before = table.eventlog.last_seq()
        answer = table.send("manual_shot", character="hero-xoric", shot="melee", teleported="monster-orc-1")
        assert not answer["ok"] and "only a teleport shot teleports a character" in answer["error"]
        answer = table.send("manual_shot", character="hero-xoric", shot="melee", swapped=["hero-varesh"])
        assert not answer["ok"] and "only an open portal switches pieces" in answer["error"]
        assert table.eventlog.last_seq() == before
    finally:
        table.close()


def test_a_table_file_can_choose_physical_decks_and_the_referee_names_each_draw() -> None:
    """docs/game-log.md ("Physical decks"; settings.physical_decks); catacombs-3e-reference.txt: Game
    Phases: Exploring The Catacomb."""
    demo = load_table()
    game = replace(demo.game, rooms=("rat-nest", "the-barracks"), content="sample", seed=11)
    table = GameScript(table=replace(demo, game=replace(game, settings={"physical_decks": True})))
    try:
        assert table.eventlog.records()[0].payload["settings"] == {"physical_decks": True}
        assert table.state["decks"] == "physical"
        answer = table.send("enter_room")
        assert not answer["ok"] and "name the card the table drew from the rooms deck" in answer["error"]
        assert table.send("draw", deck="rooms", cards=["rat-nest"])["ok"]
        assert table.send("enter_room")["ok"]
        assert table.state["room"]["id"] == "rat-nest"
    finally:
        table.close()
