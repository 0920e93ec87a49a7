"""Physical decks: the referee names the card the table drew, checked against what can still be in it."""

from __future__ import annotations

import pytest

from service.gamelog.replay import replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.table_draws import CardNotInDeckError, CardNotNamedError
from tests.helpers.game_setups import catacombs_3e

PHYSICAL = Settings(physical_decks=True)


def test_a_physical_table_flips_the_room_card_the_referee_names() -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb (the Overseer flips the next Room
    card); Addendum: Alternate Room Card Layouts (the Lair is the last card)."""
    table = catacombs_3e(["the-barracks", "rat-nest", "catacomb-lords-lair"], settings=PHYSICAL)
    with pytest.raises(CardNotNamedError, match="rooms deck"):
        table.do(A.EnterRoom())
    with pytest.raises(CardNotInDeckError):
        table.do(A.DrawCards("rooms", ("oakheart-hall",)))  # not in this game's deck
    table.do(A.DrawCards("rooms", ("catacomb-lords-lair",)))
    with pytest.raises(CardNotInDeckError, match="cannot be drawn"):
        table.do(A.EnterRoom())  # the Lair is at the bottom while other cards remain
    table = catacombs_3e(["the-barracks", "rat-nest", "catacomb-lords-lair"], settings=PHYSICAL)
    table.do(A.DrawCards("rooms", ("rat-nest",)))
    table.do(A.EnterRoom())
    assert table.state.room_id == "rat-nest"
    assert [e.card for e in table.last if e.type == "card_drawn"] == ["rat-nest"]  # type: ignore[attr-defined]


def test_the_poison_card_drawn_is_the_one_the_table_drew() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Poison Cards ("A Poison card displays a number
    indicating the strength of the dose")."""
    table = catacombs_3e(["rat-nest", "the-barracks"], settings=PHYSICAL, poison_deck=(1, 1, 2, 3))
    table.do(A.DrawCards("rooms", ("rat-nest",)))
    table.enter_battle()
    table.side_passes()
    table.declare("monster-sewer-rat-1")
    hit = A.ResolveShot("monster-sewer-rat-1", "melee", direct_hits=("hero-varesh",))
    with pytest.raises(CardNotNamedError, match="poison deck"):
        table.do(hit)
    with pytest.raises(CardNotInDeckError, match="could be"):
        table.do(A.DrawCards("poison", ("5",)))
    table.do(A.DrawCards("poison", ("3",)))
    table.do(hit)
    assert table.state.character("hero-varesh").poison == (3,)
    assert sorted(table.state.poison_deck) == [1, 1, 2]
    assert table.state.public_view()["characters"][1]["poison"] == [3]


def test_a_named_monster_metre_card_is_placed_and_both_kinds_of_deck_replay_identically() -> None:
    """catacombs-3e-reference.txt: Room Cards: Monster Metre Icons (drawn at random); docs/game-log.md."""
    for physical in (True, False):
        log = LogWriter()
        log.setup(
            {
                "ruleset": "catacombs-3e",
                "content": "sample",
                "heroes": ["xoric", "varesh", "roosan", "elani"],
                "lord": "hmotha-the-lich-lord",
                "rooms": ["the-mitholaq-hive", "the-barracks"],
                "seed": 3,
                "settings": {"physical_decks": physical},
            }
        )
        log.action(A.DrawCards("rooms", ("the-mitholaq-hive",)))
        log.action(A.EnterRoom())
        log.action(A.DrawCards("monster_metre", ("centaur",)))
        log.action(A.Decide("d1", "random"))
        result = replay(log.records)
        assert result.rejected == []
        assert {c.card for c in result.state.room_monsters} == {"centaur"}
        assert result.state.table_draws == ()


def test_the_tavern_bag_and_the_inns_portrait_are_the_ones_the_table_drew() -> None:
    """catacombs-3e-reference.txt: Room Cards: Alewife Tavern (three pieces drawn from the bag); Amaranth Inn
    (a Hero Portrait drawn for the ally); Advanced Concepts: Allies."""
    table = catacombs_3e(["alewife-tavern", "amaranth-inn", "the-barracks"], settings=PHYSICAL)
    table.do(A.DrawCards("rooms", ("alewife-tavern",)))
    table.do(A.EnterRoom())
    table.edit("hero-xoric", gold=10)
    with pytest.raises(CardNotNamedError, match="tavern deck"):
        table.do(A.UseService("bet", target="hero-xoric"))
    with pytest.raises(CardNotInDeckError):
        table.do(A.DrawCards("tavern", ("orc", "orc", "orc", "orc", "orc")))  # the bag holds four Orcs
    table.do(A.DrawCards("tavern", ("orc", "fire-spirit", "hero")))
    table.do(A.UseService("bet", target="hero-xoric"))
    draw = next(e for e in table.last if e.type == "tavern_draw")
    assert draw.drawn == ("orc", "fire-spirit", "hero")  # type: ignore[attr-defined]
    table = catacombs_3e(["amaranth-inn", "the-barracks"], settings=PHYSICAL)
    table.do(A.DrawCards("rooms", ("amaranth-inn",)))
    table.do(A.EnterRoom())
    table.edit("hero-xoric", gold=10)
    with pytest.raises(CardNotInDeckError):
        table.do(A.DrawCards("allies", ("xoric",)))  # Xoric is playing: his portrait is not in the pile
    table.do(A.DrawCards("allies", ("marorg",)))
    table.do(A.UseService("meal", target="hero-xoric"))
    assert table.state.character("ally-marorg").owner == "hero-xoric"
