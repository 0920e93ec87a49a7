"""The rules play the shipped card data: every room can be set up and fought, every Lord met."""

from __future__ import annotations

import pytest

from service.games.catacombs.adapter import rules_content
from service.games.catacombs.content import load_content
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex
from service.games.catacombs.third_edition.ruleset import Catacombs3E


@pytest.fixture(scope="module")
def shipped() -> CardIndex:
    return rules_content(load_content("catacombs-3e", None, expansions=("soloth",)))


def test_every_room_can_be_set_up_and_its_battle_started(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Game Phases: The Setup Phase (every Room card of the shipped content)."""
    rules = Catacombs3E(shipped)
    battle_rooms = [r.id for r in shipped.rooms() if r.kind == "battle"]
    assert len(battle_rooms) >= 28
    for lord in ("hmotha-the-lich-lord", "vasesak-the-sorcerer"):
        for room in battle_rooms:
            state = rules.new_game(["xoric", "varesh", "roosan", "elani"], lord, [room], seed=5)
            state, _ = rules.apply(state, A.EnterRoom())
            while state.pending is not None:
                state, _ = rules.apply(state, A.Decide(state.pending.id, "random"))
            state, _ = rules.apply(state, A.StartBattle())
            assert state.phase == "battle" and state.room_monsters, room
            for monster in state.room_monsters:
                assert monster.shot_sequences or monster.ordered_by_round, monster.card


def test_every_lair_sets_up_its_lord_and_minions(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair (starting health, minions)."""
    rules = Catacombs3E(shipped)
    for lord in ("hmotha-the-lich-lord", "phoshar-the-dragon", "shargila-the-gorgon", "vasesak-the-sorcerer"):
        state = rules.new_game(["xoric", "varesh", "roosan", "elani"], lord, ["catacomb-lords-lair"], seed=5)
        state, _ = rules.apply(state, A.EnterRoom())
        lords = [c for c in state.room_monsters if c.kind == "lord"]
        assert len(lords) == 1 and lords[0].health == shipped.lord(lord).starting_health
        assert len(state.room_monsters) > 1
