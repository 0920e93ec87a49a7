"""Specials audit: the Catacomb Lords, the Monster cards with special rules, Room cards that suppress shots,
fire walls, and the heroes' real cards, played with the shipped card data the way the table daemon drives a
game (``rules.choices``, ``state.expected_shot()``, declare / resolve / skip / end turn / decide).

Each scenario is read from the rulebook text it cites (catacombs-3e-reference.txt unless another file is
named; catacombs-3e-shot-modifiers.txt wins on modifier wording).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from service.content import load_content
from service.gamelog.content_adapter import rules_content
from service.rules import Settings
from service.rules import actions as A
from service.rules.cards import CardIndex
from service.rules.errors import (
    CharacterCannotActError,
)
from service.rules.evolve import evolve
from service.rules.shots import Shot

from .conftest import Table

REF = "catacombs-3e-reference.txt"
MOD = "catacombs-3e-shot-modifiers.txt"
PARTY = ("xoric", "varesh", "roosan", "elani")


@pytest.fixture(scope="module")
def shipped() -> CardIndex:
    return rules_content(load_content("catacombs-3e", None))


def table(
    shipped: CardIndex,
    rooms: Sequence[str],
    lord: str = "hmotha-the-lich-lord",
    heroes: Sequence[str] = PARTY,
    settings: Settings | None = None,
    items: dict[str, Sequence[str]] | None = None,
    spells: dict[str, Sequence[str]] | None = None,
    metre: Sequence[str] = (),
) -> Table:
    """A game of the shipped cards, in the Battle Phase of its first room (Monster Metre picks in order)."""
    t = Table(rooms, heroes=heroes, lord=lord, content=shipped, settings=settings, items=items, spells=spells)
    t.do(A.EnterRoom())
    for pick in metre:
        decide(t, pick, "choose_monster")
    t.do(A.StartBattle())
    return t


def decide(t: Table, option: str, kind: str | None = None) -> None:
    pending = t.state.pending
    assert pending is not None, "a decision was expected"
    if kind is not None:
        assert pending.kind == kind, pending
    t.do(A.Decide(pending.id, option))


def clear_all_but(t: Table, *keep: str) -> None:
    """The referee takes every other monster of the room off the playmat (setting the scene)."""
    for monster in [
        c.id for c in t.state.room_monsters if c.alive and c.kind == "monster" and c.id not in keep
    ]:
        t.edit(monster, alive=False, health=0)


def expected(t: Table) -> dict[str, Any]:
    shot = t.state.expected_shot()
    assert shot is not None, "a shot was expected"
    return shot


def actors(t: Table) -> list[str]:
    return [c.id for c in t.rules.actors(t.state)]


def monsters_by_card(t: Table) -> Counter[str]:
    return Counter(c.card for c in t.state.room_monsters if c.alive)


def to_overseer(t: Table) -> None:
    t.heroes_pass()
    assert t.state.side == "overseer"


# == the Catacomb Lords ==================================================================================


@pytest.mark.parametrize(
    ("lord", "lord_id", "health", "minions"),
    [
        ("vasesak-the-sorcerer", "lord-vasesak", 6, {"zombie": 4, "troll": 2, "flame-wraith": 2}),
        ("shargila-the-gorgon", "lord-shargila", 6, {"centaur": 4, "minotaur": 2, "cerberus": 2}),
        ("hmotha-the-lich-lord", "lord-hmotha", 8, {"skeleton-warrior": 4, "skeleton-archer": 2, "ghoul": 2}),
        (
            "phoshar-the-dragon",
            "lord-phoshar",
            10,
            {"fire-spirit": 4, "flame-wraith": 2, "giant-scorpion": 2},
        ),
    ],
)
def test_each_lords_setup_card_gives_its_health_and_minions_in_the_lair(
    shipped: CardIndex, lord: str, lord_id: str, health: int, minions: dict[str, int]
) -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair ("Starting Health ... Put a Catacomb Lord Tracker on
    the indicated blood drop"; "Take the monsters shown on the card from the Monster Pool. Place them in the
    Monster Start Zone ... along with the Catacomb Lord piece itself")."""
    t = table(shipped, ["catacomb-lords-lair"], lord=lord)
    view = {c["id"]: c for c in t.state.public_view()["characters"]}
    assert (view[lord_id]["health"], view[lord_id]["max_health"], view[lord_id]["kind"]) == (
        health,
        health,
        "lord",
    )
    assert monsters_by_card(t) == Counter({**minions, lord: 1})
    assert sorted(actors(t)) == ["hero-elani", "hero-roosan", "hero-varesh", "hero-xoric"]


@pytest.mark.parametrize(
    ("lord", "mercenary"),
    [
        ("vasesak-the-sorcerer", "skeleton-warrior"),
        ("shargila-the-gorgon", "centaur"),
        ("hmotha-the-lich-lord", "zombie"),
        ("phoshar-the-dragon", "fire-spirit"),
    ],
)
def test_each_lords_mercenary_fills_krhlots_four_mercenary_icons(
    shipped: CardIndex, lord: str, mercenary: str
) -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair ("Mercenary monster ... is substituted, one for one,
    with any Mercenary Monster icons"); Room Cards: Mercenary Monster Icons (Hmotha: four Zombies)."""
    t = table(shipped, ["krhlot"], lord=lord)
    assert monsters_by_card(t) == Counter({mercenary: 4, "troll": 2, "giant-scorpion": 2})


def test_the_lord_performs_one_of_its_sequences_once_per_round(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair ("Catacomb Lords have multiple shot sequences ... but
    only one may be performed by the Overseer per round of the Battle Phase"); Shot Sequences and
    Connectors ("A player must declare which shot sequence they are choosing before performing it")."""
    t = table(shipped, ["catacomb-lords-lair"], lord="phoshar-the-dragon")
    to_overseer(t)
    t.declare("lord-phoshar")
    pending = t.state.pending
    assert pending is not None and pending.kind == "choose_alternative" and len(pending.options) == 4
    decide(t, "1")  # four chain melee shots
    assert t.state.turn is not None and t.state.turn.label == ", then ".join(["chain melee"] * 4)
    t.shot("lord-phoshar", "melee", "hero-xoric")
    t.do(A.EndTurn("lord-phoshar"))
    assert t.health("hero-xoric") == 9
    with pytest.raises(CharacterCannotActError):
        t.declare("lord-phoshar", 0)
    assert A.DeclareAction("lord-phoshar", 0) not in t.rules.choices(t.state)
    t.monsters_pass()
    assert t.state.round == 2 and "lord-phoshar" not in actors(t)  # the heroes act first
    to_overseer(t)
    assert "lord-phoshar" in actors(t)


def test_phoshars_chain_fireballs_spread_their_damage(shipped: CardIndex) -> None:
    """catacombs-3e-shot-modifiers.txt: Chain Shot ("the same target cannot be damaged consecutively in a
    shot sequence"); Catacomb Lord's Lair (Phoshar: "a stream of deadly fireballs")."""
    t = table(shipped, ["catacomb-lords-lair"], lord="phoshar-the-dragon")
    to_overseer(t)
    t.declare("lord-phoshar", 2)
    for target in ("hero-xoric", "hero-xoric", "hero-elani", "hero-xoric"):
        assert expected(t)["piece"] == "ranged-fireball" and expected(t)["modifier"] == "chain"
        t.shot("lord-phoshar", "fireball", target)
    assert (t.health("hero-xoric"), t.health("hero-elani")) == (10 - 2, 7 - 1)
    assert t.state.turn is None


def test_the_lords_modifiers_are_never_suppressed_but_a_minions_are(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair ("their own shots cannot be suppressed"); Room Cards:
    Suppression ("If a specific modified shot is listed, only the modifier is suppressed"). The referee puts
    a Suppresses box on the Lair to check both sides of the rule."""
    t = table(shipped, ["catacomb-lords-lair"], lord="shargila-the-gorgon")
    t.state = evolve(t.state, suppresses=(Shot("missile", "stun"), Shot("melee", "poison")))
    to_overseer(t)
    t.declare("lord-shargila", 1)  # poison melee, then poison melee
    assert expected(t)["modifier"] == "poison" and not expected(t)["suppressed"]
    t.shot("lord-shargila", "melee", "hero-xoric")
    assert t.health("hero-xoric") == 9 and len(t.state.character("hero-xoric").poison) == 1
    t.do(A.EndTurn("lord-shargila"))
    t.declare("monster-cerberus-1")  # rush, melee, chain missile, chain missile: nothing suppressed
    assert [p.shot.label for p in t.state.turn.queue] == ["rush", "melee", "chain missile", "chain missile"]  # type: ignore[union-attr]


def test_a_lord_is_not_frozen_by_the_potions_ice_and_keeps_acting(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair ("Catacomb Lords cannot be frozen by the ice shot");
    Combo Items (Raisthrim's Potion: "first perform an ice shot and then immediately perform the shot
    sequence listed on her Hero Rules card")."""
    t = table(
        shipped, ["catacomb-lords-lair"], lord="vasesak-the-sorcerer", items={"elani": ["raisthrims-potion"]}
    )
    t.do(A.PlayCard("hero-elani", "raisthrims-potion"))
    t.shot("hero-elani", "ice", "lord-vasesak")
    assert t.status("lord-vasesak") == ()
    assert t.state.turn is not None and t.state.turn.stage == "await_main"
    assert A.DeclareAction("hero-elani", 0) in t.rules.choices(t.state)
    t.declare("hero-elani")
    t.shot("hero-elani", "melee", "lord-vasesak")
    t.shot("hero-elani", "rush")
    assert t.health("lord-vasesak") == 5
    to_overseer(t)
    assert "lord-vasesak" in actors(t)


def test_vasesaks_shield_stun_and_melee_in_one_turn(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Shield Shots ("Shield shots do not inflict any damage"); Stun Shot
    Modifier; Catacomb Lord's Lair (Vasesak "conjure[s] an invulnerable shield")."""
    t = table(shipped, ["catacomb-lords-lair"], lord="vasesak-the-sorcerer")
    to_overseer(t)
    t.declare("lord-vasesak")
    assert expected(t)["piece"] == "ranged-shield"
    t.shot("lord-vasesak", "shield", "hero-xoric")
    t.shot("lord-vasesak", "melee", "hero-varesh")
    t.shot("lord-vasesak", "melee", "hero-varesh")
    assert (t.health("hero-xoric"), t.health("hero-varesh")) == (10, 6)
    assert t.status("hero-varesh") == ("stunned",)


def test_hmotha_summons_a_zombie_which_strikes_twice_before_he_goes_on(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Summon Shot ("the player performs a melee shot with the summoned character
    and then performs that character's full shot sequence. Afterwards, the character performing the summon
    shot continues"); Catacomb Lord's Lair."""
    t = table(shipped, ["catacomb-lords-lair"])
    to_overseer(t)
    t.declare("lord-hmotha", 1)  # rush, summon zombie, melee
    t.shot("lord-hmotha", "rush")
    t.shot("lord-hmotha", "summon")
    zombie = "monster-zombie-1"
    assert t.state.character(zombie).alive
    for _ in range(2):
        shot = expected(t)
        assert (shot["character"], shot["actor"], shot["piece"], shot["shot"]) == (
            "lord-hmotha",
            zombie,
            zombie,
            "melee",
        )
        t.shot("lord-hmotha", "melee", "hero-roosan")
    assert expected(t)["actor"] == "lord-hmotha"
    t.shot("lord-hmotha", "melee", "hero-roosan")
    assert t.health("hero-roosan") == 7 - 3
    assert zombie not in actors(t)  # it used its turn for this round


def test_hmothas_summon_finds_no_piece_until_a_skeleton_warrior_has_fallen(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Summon Shot ("the monster piece being summoned must be available from the
    Monster Pool"); Catacomb Lord's Lair ("Monsters destroyed during the encounter with the Catacomb Lord are
    returned to the Monster Pool")."""
    t = table(shipped, ["catacomb-lords-lair"])
    to_overseer(t)
    t.declare("lord-hmotha", 0)  # rush, summon skeleton warrior, melee
    t.shot("lord-hmotha", "rush")
    t.shot("lord-hmotha", "summon")
    assert monsters_by_card(t)["skeleton-warrior"] == 4
    assert expected(t)["actor"] == "lord-hmotha" and expected(t)["shot"] == "melee"
    t.do(A.EndTurn("lord-hmotha"))
    t.monsters_pass()
    t.turn("hero-xoric", ("rush",), ("melee", "monster-skeleton-warrior-2"))
    t.heroes_pass()
    t.declare("lord-hmotha", 0)
    t.shot("lord-hmotha", "rush")
    t.shot("lord-hmotha", "summon")
    assert monsters_by_card(t)["skeleton-warrior"] == 4
    ids = [c.id for c in t.state.characters]
    assert len(ids) == len(set(ids)) and t.state.character("monster-skeleton-warrior-5").alive
    assert expected(t)["actor"] == "monster-skeleton-warrior-5"


def test_a_fire_wall_is_still_the_fire_spirits_piece_so_phoshar_cannot_summon_it_again(
    shipped: CardIndex,
) -> None:
    """catacombs-3e-reference.txt: Fire Walls ("the option to flip the Fire Spirit piece ... It remains in
    this form for the remainder of the room"); Summon Shot ("must be available from the Monster Pool");
    Game Phases: The Setup Phase ("The supply of pieces ... represent hard limits")."""
    t = table(shipped, ["catacomb-lords-lair"], lord="phoshar-the-dragon")
    to_overseer(t)
    t.declare("monster-fire-spirit-2", 1)  # transform melee
    t.shot("monster-fire-spirit-2", "melee")
    decide(t, "yes", "transform")
    assert t.state.character("monster-fire-spirit-2").kind == "fire_wall"
    t.declare("lord-phoshar", 3)  # melee, summon fire spirit
    t.shot("lord-phoshar", "melee")
    t.shot("lord-phoshar", "summon")
    ids = [c.id for c in t.state.characters]
    assert len(ids) == len(set(ids))
    assert monsters_by_card(t)["fire-spirit"] == 3  # three Fire Spirits and a fire wall: all four pieces
    assert t.state.turn is None or t.state.turn.character == "lord-phoshar"


def test_a_destroyed_fire_spirits_piece_can_be_summoned_beside_a_fire_wall(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Summon Shot; Catacomb Lord's Lair ("Monsters destroyed during the encounter
    with the Catacomb Lord are returned to the Monster Pool"); Fire Walls."""
    t = table(shipped, ["catacomb-lords-lair"], lord="phoshar-the-dragon")
    t.turn("hero-xoric", ("rush",), ("melee", "monster-fire-spirit-4"))
    to_overseer(t)
    t.declare("monster-fire-spirit-1", 1)
    t.shot("monster-fire-spirit-1", "melee")
    decide(t, "yes", "transform")
    t.declare("lord-phoshar", 3)
    t.shot("lord-phoshar", "melee")
    t.shot("lord-phoshar", "summon")
    ids = [c.id for c in t.state.characters]
    assert len(ids) == len(set(ids))
    assert monsters_by_card(t)["fire-spirit"] == 3  # Fire Spirits 2, 3 and the newcomer
    assert expected(t)["actor"] == "monster-fire-spirit-5"
