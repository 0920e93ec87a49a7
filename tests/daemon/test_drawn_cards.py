"""The referee tells the table which card was drawn: a ``draw`` command becomes a logged ``draw_cards``."""

from __future__ import annotations

import pytest

from tests.daemon.table_harness import FakeTable


@pytest.fixture
def table():
    table = FakeTable(rooms=("rat-nest", "the-barracks"))
    yield table
    table.close()


def test_the_referee_names_the_room_card_the_table_flipped(table: FakeTable) -> None:
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


def test_a_card_that_cannot_be_in_the_deck_is_refused_and_nothing_is_logged(table: FakeTable) -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb."""
    before = table.eventlog.last_seq()
    answer = table.send("draw", deck="rooms", cards=["oakheart-hall"])
    assert not answer["ok"] and "cannot come from the rooms deck" in answer["error"]
    answer = table.send("draw", deck="rooms", cards="the-barracks")
    assert not answer["ok"] and "'cards' must list" in answer["error"]
    assert table.eventlog.last_seq() == before
