"""Small rules from the Battle Phase and setup chapters (catacombs-3e-reference.txt)."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import HeroCard, MonsterCard
from service.games.catacombs.flow.shots import CHARACTER_SHOTS, RANGED_SHOTS, Shot, UnknownShotError
from service.rules import IllegalActionError
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.sample_content import seq

from .content import room_of, with_cards


def test_a_game_has_four_different_heroes() -> None:
    """catacombs-3e-reference.txt: The Hero Players ("There are always four heroes chosen")."""
    with pytest.raises(IllegalActionError, match="four different heroes"):
        catacombs_3e(["the-barracks"], heroes=("xoric", "varesh", "roosan"))
    with pytest.raises(IllegalActionError, match="four different heroes"):
        catacombs_3e(["the-barracks"], heroes=("xoric", "xoric", "roosan", "elani"))


def test_the_damage_table() -> None:
    """catacombs-3e-reference.txt: Character Shots; Ranged Shots (RULINGS.md 1)."""
    assert {k: CHARACTER_SHOTS[k] for k in ("rush", "melee", "bite")} == {"rush": 0, "melee": 1, "bite": 2}
    assert dict(RANGED_SHOTS) == {
        "missile": 1,
        "fireball": 1,
        "target": 1,
        "giant_fireball": 2,
        "boulder": 3,
        "ice": 0,
        "shield": 0,
    }
    with pytest.raises(UnknownShotError):
        Shot("laser")


@pytest.mark.parametrize(
    ("shot", "troll_health"),
    [("bite", 0), ("giant_fireball", 0), ("boulder", 0), ("shield", 2), ("fireball", 1)],
)
def test_each_shot_deals_its_damage_at_the_table(shot: str, troll_health: int) -> None:
    """catacombs-3e-reference.txt: Character Shots; Ranged Shots; Shield Shots (no damage)."""
    hero = HeroCard("xoric", "Xoric the Barbarian", 9, (seq(shot),))
    table = catacombs_3e(["the-barracks"], content=with_cards(heroes=[hero]))
    table.enter_battle()
    table.turn("hero-xoric", (shot, "monster-troll-1"))
    assert table.health("monster-troll-1") == troll_health


GOBLIN = HeroCard("xoric", "Xoric the Barbarian", 9, (seq("chain melee", "chain missile", elastic=True),))


def test_the_elastic_connector_allows_any_order() -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (the Goblin Fighter's Elastic example)."""
    table = catacombs_3e(["the-barracks"], content=with_cards(heroes=[GOBLIN]))
    table.enter_battle()
    table.declare("hero-xoric")
    assert table.state.expected_shot()["any_of"] == ["melee", "missile"]  # type: ignore[index]
    table.shot("hero-xoric", "missile", "monster-orc-1")
    table.shot("hero-xoric", "melee", "monster-orc-2")
    assert not table.state.character("monster-orc-2").alive and table.state.turn is None


def test_the_monster_pool_limits_the_pieces_placed() -> None:
    """catacombs-3e-reference.txt: The Setup Phase (the supply of pieces is a hard limit)."""
    room = room_of("troll-hall", ("troll", 5))
    table = catacombs_3e(["troll-hall"], content=with_cards(rooms=[room]))
    table.do(A.EnterRoom())
    assert len(table.state.room_monsters) == 2  # the pool holds two Troll pieces


def test_devoured_heroes_are_released_when_the_room_is_completed() -> None:
    """catacombs-3e-reference.txt: Devour Shot ("released once the room is completed successfully")."""
    maw = MonsterCard("maw", "Maw", 2, "dungeon", 2, 2, (seq("devour"),), pieces=1)
    table = catacombs_3e(
        ["maw-pit"], content=with_cards(monsters=[maw], rooms=[room_of("maw-pit", ("maw", 1), ("zombie", 1))])
    )
    table.enter_battle()
    table.side_passes()
    table.turn("monster-maw-1", ("devour", "hero-elani"))
    assert table.status("hero-elani") == ("devoured",)
    table.side_passes()
    table.edit("monster-maw-1", health=1)
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    table.edit("monster-maw-1", alive=False, health=0)
    table.turn("hero-roosan", ("rush",))  # the room is complete once the Maw is gone
    assert table.state.phase == "resolution" and table.status("hero-elani") == ()


def test_catacomb_lords_cannot_be_devoured_and_their_shots_are_never_suppressed() -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair."""
    hungry = HeroCard("xoric", "Xoric the Barbarian", 9, (seq("devour"),))
    table = catacombs_3e(["catacomb-lords-lair"], content=with_cards(heroes=[hungry]))
    table.enter_battle()
    table.turn("hero-xoric", ("devour", "lord-hmotha"))
    assert table.health("lord-hmotha") == 7 and table.status("lord-hmotha") == ()
    lord = table.state.character("lord-hmotha")
    from service.rules.evolve import evolve

    suppressed = evolve(table.state, suppresses=(Shot("melee"),))
    assert not table.rules.plan(suppressed, lord, Shot("melee"), 0).suppressed


def test_a_devoured_hero_is_no_longer_stunned() -> None:
    """catacombs-3e-reference.txt: Devour Shot (devouring cancels the stun)."""
    maw = MonsterCard("maw", "Maw", 2, "dungeon", 2, 2, (seq("devour"),), pieces=1)
    table = catacombs_3e(
        ["maw-pit"], content=with_cards(monsters=[maw], rooms=[room_of("maw-pit", ("maw", 1))])
    )
    table.enter_battle()
    table.edit("hero-elani", status=("stunned",))
    table.side_passes()
    table.turn("monster-maw-1", ("devour", "hero-elani"))
    assert table.status("hero-elani") == ("devoured",)
