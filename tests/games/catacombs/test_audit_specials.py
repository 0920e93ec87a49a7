"""Specials audit: the Catacomb Lords, the Monster cards with special rules, Room cards that suppress shots,
fire walls, and the heroes' real cards, played with the shipped card data the way the table daemon drives a
game (``rules.choices``, ``state.expected_shot()``, declare / resolve / skip / end turn / decide).

Each scenario is read from the rulebook text it cites (catacombs-3e-reference.txt unless another file is
named; catacombs-3e-shot-modifiers.txt wins on modifier wording).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from service.gamelog import replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.adapter import rules_content
from service.games.catacombs.content import load_content
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.shots import Shot
from service.games.catacombs.flow.state import GameState
from service.rules.errors import (
    CharacterCannotActError,
    IllegalActionError,
    NoSuchAlternativeError,
    SuppressedShotError,
)
from service.rules.evolve import evolve
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript

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
    seed: int = 7,
) -> RulesScript:
    """A game of the shipped cards, in the Battle Phase of its first room (Monster Metre picks in order)."""
    t = catacombs_3e(
        rooms,
        heroes=heroes,
        lord=lord,
        seed=seed,
        content=shipped,
        settings=settings,
        items=items,
        spells=spells,
    )
    t.do(A.EnterRoom())
    for pick in metre:
        decide(t, pick, "choose_monster")
    t.do(A.StartBattle())
    return t


def decide(t: RulesScript, option: str, kind: str | None = None) -> None:
    pending = t.state.pending
    assert pending is not None, "a decision was expected"
    if kind is not None:
        assert pending.kind == kind, pending
    t.do(A.Decide(pending.id, option))


def clear_all_but(t: RulesScript, *keep: str) -> None:
    """The referee takes every other monster of the room off the playmat (setting the scene)."""
    for monster in [
        c.id for c in t.state.room_monsters if c.alive and c.kind == "monster" and c.id not in keep
    ]:
        t.edit(monster, alive=False, health=0)


def expected(t: RulesScript) -> dict[str, Any]:
    shot = t.state.expected_shot()
    assert shot is not None, "a shot was expected"
    return shot


def actors(t: RulesScript) -> list[str]:
    return [c.id for c in t.rules.actors(t.state)]


def monsters_by_card(t: RulesScript) -> Counter[str]:
    return Counter(c.card for c in t.state.room_monsters if c.alive)


def to_overseer(t: RulesScript) -> None:
    t.side_passes()
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
    t.side_passes()
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
    with pytest.raises(IllegalActionError, match="Summon Shot"):
        t.shot("lord-hmotha", "summon")  # refused: the Overseer skips it
    t.do(A.SkipShot("lord-hmotha"))
    assert monsters_by_card(t)["skeleton-warrior"] == 4
    assert expected(t)["actor"] == "lord-hmotha" and expected(t)["shot"] == "melee"
    t.do(A.EndTurn("lord-hmotha"))
    t.side_passes()
    t.turn("hero-xoric", ("rush",), ("melee", "monster-skeleton-warrior-2"))
    t.side_passes()
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
    with pytest.raises(IllegalActionError, match="no piece is left in the Monster Pool"):
        t.shot("lord-phoshar", "summon")
    t.do(A.SkipShot("lord-phoshar"))
    ids = [c.id for c in t.state.characters]
    assert len(ids) == len(set(ids))
    assert monsters_by_card(t)["fire-spirit"] == 3  # three Fire Spirits and a fire wall: all four pieces
    assert t.state.turn is None


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


# == Monster cards with special rules ====================================================================

VULNERABLE = Settings(monster_vulnerabilities=True)


def test_the_gelatinous_cube_follows_its_rounds_and_offers_no_other_sequence(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: The Gelatinous Cube Monster ("Round 1: Corrosion  Round 2: Fear  Round 3:
    Devour  Round 4: Critical  Round 5 (sequence restarts)")."""
    t = table(shipped, ["athenoch-mortuary"])
    cube = "monster-gelatinous-cube-1"
    seen = []
    for _ in range(5):
        to_overseer(t)
        # The explicit alternative is the printed one of this round; any other is refused, not replaced.
        this_round = (t.state.round - 1) % 4
        assert [A.DeclareAction(cube, this_round)] == [
            a for a in t.rules.choices(t.state) if isinstance(a, A.DeclareAction) and a.character == cube
        ]
        with pytest.raises(NoSuchAlternativeError, match="Gelatinous Cube"):
            t.rules.check(t.state, A.DeclareAction(cube, (this_round + 1) % 4))
        t.declare(cube)
        assert t.state.pending is None
        seen.append(t.state.turn.label)  # type: ignore[union-attr]
        t.do(A.EndTurn(cube))
        t.side_passes()
    assert seen == [
        "melee, then corrosion melee",
        "melee, then fear melee",
        "melee, then devour",
        "melee, then critical melee",
        "melee, then corrosion melee",
    ]


def test_the_cubes_devour_cancels_a_stun_and_the_hero_comes_back_ready_when_it_dies(
    shipped: CardIndex,
) -> None:
    """catacombs-3e-reference.txt: Devour Shot ("a character immediately takes one point of damage ... placed
    on the Devoured! card"; "When a hero is devoured, the effect of the stun shot modifier is cancelled";
    released when "the monster is destroyed ... ready to take their turn as normal")."""
    t = table(shipped, ["athenoch-mortuary"])
    cube = "monster-gelatinous-cube-1"
    clear_all_but(t, cube)
    for _ in range(2):
        t.side_passes()
        t.side_passes()
    t.edit("hero-varesh", status=("stunned",))
    t.side_passes()
    t.declare(cube)  # round 3: melee, then devour
    t.shot(cube, "melee")
    assert expected(t)["shot"] == "devour" and expected(t)["piece"] == cube
    t.shot(cube, "devour", "hero-varesh")
    varesh = t.state.character("hero-varesh")
    assert (varesh.health, varesh.status, varesh.devoured_by) == (7, ("devoured",), cube)
    assert t.state.round == 4 and "hero-varesh" not in actors(t)
    t.edit(cube, health=1)
    t.turn("hero-xoric", ("rush",), ("melee", cube))
    assert t.state.phase == "resolution"  # the Cube was the last monster: the room is complete
    assert t.status("hero-varesh") == () and t.state.character("hero-varesh").alive


def test_a_hero_freed_from_a_destroyed_devourer_takes_its_turn_that_round(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Devour Shot ("all characters are returned to the place on the playmat where
    the monster was destroyed, ready to take their turn as normal")."""
    t = table(shipped, ["athenoch-mortuary"])
    cube = "monster-gelatinous-cube-1"
    t.edit("hero-varesh", status=("devoured",), devoured_by=cube)
    t.edit(cube, health=1)
    assert "hero-varesh" not in actors(t)
    t.turn("hero-xoric", ("rush",), ("melee", cube))
    assert "hero-varesh" in actors(t) and t.state.side == "heroes"


def test_the_cubes_fear_melee_lets_the_overseer_rush_the_hero_away(shipped: CardIndex) -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier ("may immediately perform a single, unmodified rush
    shot with the character they damaged"); The Gelatinous Cube Monster (round 2)."""
    t = table(shipped, ["athenoch-mortuary"])
    cube = "monster-gelatinous-cube-1"
    t.side_passes()
    t.side_passes()
    to_overseer(t)
    t.declare(cube)
    t.shot(cube, "melee")
    t.shot(cube, "melee", "hero-elani", "hero-roosan")
    decide(t, "hero-elani", "choose_modifier_target")
    shot = expected(t)
    assert (shot["piece"], shot["shot"], shot["modifier"]) == ("hero-elani", "rush", None)
    t.shot(cube, "rush", "monster-zombie-1")  # the frightened Thief harms nobody
    assert (t.health("hero-elani"), t.health("hero-roosan"), t.health("monster-zombie-1")) == (6, 6, 1)
    assert t.state.turn is None


def test_the_cubes_critical_round_and_its_four_health_track(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: The Gelatinous Cube Monster (round 4: critical); Critical Shot Modifier;
    Tracking Health (only two-health monsters are flipped)."""
    t = table(shipped, ["athenoch-mortuary"])
    cube = "monster-gelatinous-cube-1"
    for _ in range(3):
        t.side_passes()
        t.side_passes()
    t.side_passes()
    t.declare(cube)
    t.shot(cube, "melee", "hero-xoric")
    t.shot(cube, "melee", "hero-xoric")
    assert t.health("hero-xoric") == 10 - 1 - 2
    t.side_passes()
    t.turn("hero-xoric", ("rush",), ("melee", cube))
    t.turn("hero-elani", ("melee", cube))
    t.turn("hero-roosan", ("rush",), ("melee", cube))
    assert t.health(cube) == 1 and not t.state.public_view()["characters"][-1]["flipped"]
    assert not any(e.type == "monster_flipped" for e in t.events if getattr(e, "character", "") == cube)


def test_the_cube_nullifies_the_potions_ice_and_the_thief_goes_on_with_her_action(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Nullifying Shots; Combo Items (Raisthrim's Potion); Monster Vulnerabilities
    ("These rules do not override any defensive properties")."""
    t = table(shipped, ["athenoch-mortuary"], settings=VULNERABLE, items={"elani": ["raisthrims-potion"]})
    cube = "monster-gelatinous-cube-1"
    t.do(A.PlayCard("hero-elani", "raisthrims-potion"))
    t.shot("hero-elani", "ice", cube)
    assert t.status(cube) == () and t.health(cube) == 4
    t.declare("hero-elani")
    t.shot("hero-elani", "melee", cube)
    assert t.health(cube) == 3


def test_a_damaged_troll_regenerates_and_is_flipped_back(shipped: CardIndex) -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier ("A Troll that has already taken damage
    successfully damages the Thief ... the Troll's piece flips back over to its normal state")."""
    t = table(shipped, ["the-barracks"])
    troll = "monster-troll-1"
    t.turn("hero-xoric", ("rush",), ("melee", troll))
    assert t.state.character(troll).flipped
    t.side_passes()
    t.declare(troll)
    assert expected(t)["modifier"] == "regeneration"
    t.shot(troll, "melee", "hero-elani", "hero-roosan")
    assert (t.health("hero-elani"), t.health("hero-roosan"), t.health(troll)) == (6, 6, 2)
    assert not t.state.character(troll).flipped


def test_a_troll_that_misses_or_hits_a_frozen_hero_regenerates_nothing(shipped: CardIndex) -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration ("restore one point of health after successfully
    damaging an enemy"); catacombs-3e-reference.txt: Ice Shot ("While frozen, a character ... does not take
    damage")."""
    t = table(shipped, ["the-barracks"])
    troll = "monster-troll-1"
    t.edit(troll, health=1)
    t.edit("hero-elani", status=("frozen",))
    t.side_passes()
    t.turn(troll, ("melee", "hero-elani"))
    assert (t.health("hero-elani"), t.health(troll)) == (7, 1)


def test_a_shadow_monster_is_frozen_but_not_destroyed_by_an_infernal_ice_vulnerability(
    shipped: CardIndex,
) -> None:
    """catacombs-3e-reference.txt: Shadow Monsters ("In order to be destroyed, shadow monsters must be pushed
    completely off the playmat"); Monster Vulnerabilities (infernal: "health being reduced by one point in
    addition to being frozen"); Ice Shot."""
    t = table(shipped, ["larkwrayth-prison"], settings=VULNERABLE, spells={"varesh": ["ice-blast"]})
    phantom = "monster-phantom-1"
    t.do(A.PlayCard("hero-varesh", "ice-blast"))
    t.shot("hero-varesh", "ice", phantom)
    assert t.state.character(phantom).alive and t.status(phantom) == ("frozen",)
    assert t.state.phase == "battle"


def test_a_phantom_pushed_off_the_mat_indirectly_survives(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Shadow Monsters ("must be pushed completely off the playmat by any direct
    hit from a character or ranged shot by the Heroic Forces"); Taking Damage (a pushed piece takes none)."""
    t = table(shipped, ["larkwrayth-prison"])
    phantom = "monster-phantom-1"
    t.declare("hero-xoric")
    t.shot("hero-xoric", "rush")
    t.do(
        A.ResolveShot(
            "hero-xoric", "melee", direct_hits=("monster-skeleton-warrior-1",), pushed_off_mat=(phantom,)
        )
    )
    assert t.state.character(phantom).alive
    t.declare("hero-elani")
    t.do(A.ResolveShot("hero-elani", "melee", direct_hits=(phantom,), pushed_off_mat=(phantom,)))
    assert not t.state.character(phantom).alive
    t.shot("hero-elani", "rush")
    assert phantom in t.state.character("hero-elani").trophies


def test_the_phantoms_fear_missile_and_the_rush_that_follows(shipped: CardIndex) -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier ("This includes characters that are stunned");
    Phantom: rush, then fear missile."""
    t = table(shipped, ["larkwrayth-prison"])
    t.edit("hero-roosan", status=("stunned",))
    t.side_passes()
    t.declare("monster-phantom-1")
    t.shot("monster-phantom-1", "rush")
    assert expected(t)["piece"] == "ranged-missile" and expected(t)["modifier"] == "fear"
    t.shot("monster-phantom-1", "missile", "hero-roosan")
    assert expected(t)["piece"] == "hero-roosan"
    t.shot("monster-phantom-1", "rush")
    assert t.health("hero-roosan") == 6 and t.status("hero-roosan") == ("stunned",)
    assert t.state.turn is None


def test_the_skeleton_warrior_nullifies_an_elven_arrow_and_the_card_is_still_used(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Nullifying Shots ("A Skeleton Warrior monster has a missile icon in its
    Nullifies box"); Playing Spell, Ability, or Item Cards (an Ability card is used once per room)."""
    t = table(shipped, ["bholoth-cemetery"], heroes=("xoric", "oleira", "roosan", "elani"))
    t.do(A.PlayCard("hero-oleira", "elven-arrow"))
    t.shot("hero-oleira", "missile", "monster-skeleton-warrior-1")
    assert t.health("monster-skeleton-warrior-1") == 1
    assert "ability:elven-arrow" in t.state.character("hero-oleira").face_down


def test_a_minotaur_reflects_the_throwing_axe_after_xorics_sequence(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Reflecting Shots ("one (and only one) point of damage is reflected back at
    the attacker"); Combo Items (Throwing Axe: "perform the shot sequence listed on his Hero Rules card ...
    and then immediately play the Throwing Axe Combo Item card")."""
    t = table(
        shipped,
        ["sepulcher-of-the-sisters"],
        heroes=("xoric", "oleira", "roosan", "elani"),
        items={"xoric": ["throwing-axe"]},
    )
    t.declare("hero-xoric")
    t.shot("hero-xoric", "rush")
    t.shot("hero-xoric", "melee", "monster-centaur-1")
    assert t.state.turn is not None and t.state.turn.stage == "await_post"
    assert A.PlayCard("hero-xoric", "throwing-axe", kind="item") in t.rules.choices(t.state)
    t.do(A.PlayCard("hero-xoric", "throwing-axe"))
    t.shot("hero-xoric", "missile", "monster-minotaur-1")
    assert (t.health("hero-xoric"), t.health("monster-minotaur-1")) == (9, 2)
    assert t.state.turn is None


@pytest.mark.parametrize(
    ("room", "monster", "how", "health_left"),
    [
        ("krhlot", "monster-troll-1", ("throwing-axe", "missile"), 0),  # dungeon: missile is critical
        ("athenoch-mortuary", "monster-ghoul-1", ("fireball", "fireball"), 0),  # undead: fireball critical
        ("athenoch-mortuary", "monster-gelatinous-cube-1", ("throwing-axe", "missile"), 4),  # nullified
        ("larkwrayth-prison", "monster-fire-demon-1", ("fireball", "fireball"), 2),  # nullified
    ],
)
def test_family_vulnerabilities_on_real_monsters_respect_their_nullifies_box(
    shipped: CardIndex, room: str, monster: str, how: tuple[str, str], health_left: int
) -> None:
    """catacombs-3e-reference.txt: Monster Vulnerabilities (dungeon: missile; undead: fireball; "These rules
    do not override any defensive properties that individual monsters may have")."""
    card, shot = how
    t = table(shipped, [room], settings=VULNERABLE, items={"xoric": ["throwing-axe"]})
    hero = "hero-xoric" if card == "throwing-axe" else "hero-varesh"
    if card == "throwing-axe":  # a post-Combo item follows the hero's action (both shots forfeited here)
        t.declare(hero)
        t.do(A.SkipShot(hero))
        t.do(A.SkipShot(hero))
    t.do(A.PlayCard(hero, card, kind="item" if card == "throwing-axe" else "ability"))
    t.shot(hero, shot, monster)
    assert t.health(monster) == health_left


def test_a_mythological_kill_heals_the_hero_and_a_vampire_bat_flees_in_fear(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Monster Vulnerabilities (mythological: melee "as having the regeneration
    modifier"; extra small vermin: melee or missile "as having the fear modifier")."""
    t = table(shipped, ["sepulcher-of-the-sisters"], settings=VULNERABLE)
    t.edit("hero-elani", health=5)
    t.declare("hero-elani")
    t.shot("hero-elani", "melee", "monster-centaur-1")
    assert t.health("hero-elani") == 6 and not t.state.character("monster-centaur-1").alive
    t.shot("hero-elani", "rush")
    t.declare("hero-xoric")
    t.shot("hero-xoric", "rush")
    t.shot("hero-xoric", "melee", "monster-vampire-bat-1")
    assert t.state.character("monster-vampire-bat-1").flipped
    assert expected(t)["piece"] == "monster-vampire-bat-1" and expected(t)["shot"] == "rush"
    t.shot("hero-xoric", "rush", "monster-fire-spirit-1")
    assert t.health("monster-fire-spirit-1") == 1 and t.state.turn is None


# == Room cards: suppression =============================================================================


def test_the_lava_pools_suppress_the_potions_ice_and_the_thief_still_takes_her_action(
    shipped: CardIndex,
) -> None:
    """catacombs-3e-reference.txt: Room Cards: Suppression ("that shot type and all its modified versions are
    suppressed"); RULINGS.md 8 (the card may be played, the suppressed shot only skipped); Combo Items."""
    t = table(
        shipped,
        ["the-lava-pools"],
        metre=("troll", "minotaur", "ghoul"),
        items={"elani": ["raisthrims-potion"]},
    )
    assert t.state.public_view()["room"]["suppresses"] == ["ice"]
    t.do(A.PlayCard("hero-elani", "raisthrims-potion"))
    assert expected(t)["suppressed"] and expected(t)["shot"] == "ice"
    assert A.SkipShot("hero-elani") in t.rules.choices(t.state)
    with pytest.raises(SuppressedShotError):
        t.shot("hero-elani", "ice", "monster-troll-1")
    t.do(A.SkipShot("hero-elani"))
    assert t.state.turn is not None and t.state.turn.stage == "await_main"
    offered = t.rules.choices(t.state)
    assert A.DeclareAction("hero-elani", 0) in offered
    assert A.PlayCard("hero-elani", "raisthrims-potion", kind="item") not in offered
    t.declare("hero-elani")
    t.shot("hero-elani", "melee", "monster-troll-1")
    assert t.health("monster-troll-1") == 1


def test_the_vermin_hovel_strips_the_archers_stun_but_leaves_its_missile(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Room Cards: Suppression ("If a specific modified shot is listed, only the
    modifier is suppressed, not the shot itself")."""
    t = table(shipped, ["the-vermin-hovel"], metre=("skeleton-archer", "troll", "minotaur"))
    t.side_passes()
    t.declare("monster-skeleton-archer-1", 1)
    shot = expected(t)
    assert (shot["shot"], shot["modifier"], shot["suppressed"]) == ("missile", None, False)
    t.shot("monster-skeleton-archer-1", "missile", "hero-roosan")
    assert (t.health("hero-roosan"), t.status("hero-roosan")) == (6, ())


def test_bloodsworn_crypt_suppresses_roals_rolls_and_its_turn_ends_when_skipped(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Room Cards: Suppression (roll and every modified roll); Battle Phase: Shot
    Sequences and Connectors ("All shots in a shot sequence are optional")."""
    t = table(shipped, ["bloodsworn-crypt"], metre=("troll", "roal:1"))
    roal = "monster-roal-1"
    t.side_passes()
    t.declare(roal, 0)
    assert expected(t)["suppressed"] and expected(t)["modifier"] == "critical"
    assert t.rules.choices(t.state) == [A.SkipShot(roal), A.EndTurn(roal)]
    t.do(A.SkipShot(roal))
    assert t.state.turn is None and roal in t.state.acted
    t.declare("monster-troll-1")
    t.do(A.EndTurn("monster-troll-1"))
    t.side_passes()
    t.side_passes()
    t.declare(roal, 1)  # rush, then roll
    t.shot(roal, "rush")
    assert expected(t)["suppressed"]
    t.do(A.SkipShot(roal))
    assert t.state.turn is None


def test_oakheart_hall_leaves_the_sewer_rats_melee_without_its_poison(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Room Cards: Suppression (poison melee listed: the melee stays, the Poison
    card is not drawn)."""
    t = table(shipped, ["oakheart-hall"], metre=("sewer-rat", "pit-viper"))
    t.side_passes()
    t.turn("monster-sewer-rat-1", ("melee", "hero-varesh"))
    t.declare("monster-pit-viper-1", 0)
    t.shot("monster-pit-viper-1", "missile", "hero-varesh")
    assert (t.health("hero-varesh"), t.state.character("hero-varesh").poison) == (6, ())


# == the daemon's loop: every expected shot can be resolved, the game never gets stuck ====================


SCENARIOS = [
    ("catacomb-lords-lair", "hmotha-the-lich-lord", ()),
    ("catacomb-lords-lair", "phoshar-the-dragon", ()),
    ("catacomb-lords-lair", "shargila-the-gorgon", ()),
    ("catacomb-lords-lair", "vasesak-the-sorcerer", ()),
    ("athenoch-mortuary", "hmotha-the-lich-lord", ()),
    ("larkwrayth-prison", "phoshar-the-dragon", ()),
    ("sepulcher-of-the-sisters", "shargila-the-gorgon", ()),
    ("the-vermin-hovel", "vasesak-the-sorcerer", ("random", "random", "random")),
    ("bloodsworn-crypt", "phoshar-the-dragon", ("random", "roal:1")),
    ("qurlathorm", "hmotha-the-lich-lord", ("random", "random", "random", "gelatinous-cube")),
]
ITEMS = {"xoric": ["berserker-battle-axe", "throwing-axe"], "elani": ["raisthrims-potion"]}
SPELLS = {"varesh": ["ice-blast", "drain-energy", "teleport-hero", "magic-gate", "heal", "shield"]}


def random_action(t: RulesScript, dice: random.Random) -> A.Action:
    """What a table might do next: answer, resolve the expected shot with some hits, or pick a choice."""
    state = t.state
    shot = state.expected_shot()
    on_mat = [c.id for c in state.characters if c.on_mat or c.kind == "fire_wall" and c.in_room]
    if shot is not None and dice.random() < 0.8:
        if shot["suppressed"]:
            return A.SkipShot(shot["character"])
        hits = tuple(dice.sample(on_mat, k=min(len(on_mat), dice.choice((0, 1, 1, 2)))))
        pushed = tuple(h for h in hits if dice.random() < 0.3)
        frozen = tuple(c.id for c in state.characters if "frozen" in c.status and dice.random() < 0.3)
        target = None
        if shot["shot"] == "target":
            previous = state.turn.queue[0].target if state.turn else None  # the declared target stays
            target = previous or (hits[0] if hits else dice.choice(on_mat))
        resolved = A.ResolveShot(shot["character"], shot["shot"], hits, pushed, frozen, target)
        # A summon with no piece in the Monster Pool is refused: the table skips it.
        return resolved if t.rules.is_legal(state, resolved) else A.SkipShot(shot["character"])
    offered = t.rules.choices(state)
    assert offered or shot is not None, f"stuck: nothing to do in {state.public_view()}"
    return dice.choice(offered) if offered else A.SkipShot(shot["character"])  # type: ignore[index]


def check_invariants(state: GameState) -> None:
    ids = [c.id for c in state.characters]
    assert len(ids) == len(set(ids)), "two characters share an id"
    for c in state.characters:
        assert 0 <= c.health, c
        if c.kind in ("monster", "lord"):
            assert c.health <= c.max_health, c
        if c.kind == "lord":
            assert not ({"frozen", "devoured", "stunned", "teleported"} & set(c.status)), c
        if not c.alive and c.kind != "hero":
            assert not c.on_mat or c.kind == "fire_wall", c
    for c in (c for c in state.characters if c.kind == "monster"):
        assert "stunned" not in c.status and "reckless" not in c.status, (
            c
        )  # only heroes are stunned / reckless
    if state.phase == "battle" and state.outcome is None and state.pending is None:
        shot = state.expected_shot()
        if shot is not None:
            assert shot["character"] == state.turn.character  # type: ignore[union-attr]


@pytest.mark.parametrize(("room", "lord", "metre"), SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_daemon_driven_game_never_gets_stuck_and_its_log_replays_to_the_same_state(
    shipped: CardIndex, room: str, lord: str, metre: tuple[str, ...], seed: int
) -> None:
    """docs/rules-api.md: How a daemon drives a turn (``choices``, ``expected_shot``; "A suppressed shot can
    only be skipped"); docs/game-log.md ("the same log always gives the same game"); catacombs-3e-
    reference.txt: Winning the Game; Battle Phase: Turn Order."""
    setup = {
        "ruleset": "catacombs-3e",
        "content": "shipped",
        "heroes": list(PARTY),
        "lord": lord,
        "rooms": [room, "the-barracks"],
        "seed": seed,
        "settings": {"monster_vulnerabilities": seed == 2},
        "items": ITEMS,
        "spells": SPELLS,
    }
    t = catacombs_3e(
        setup["rooms"],  # type: ignore[arg-type]
        lord=lord,
        seed=seed,
        content=shipped,
        settings=Settings(monster_vulnerabilities=seed == 2),
        items=ITEMS,  # type: ignore[arg-type]
        spells=SPELLS,  # type: ignore[arg-type]
    )
    log = LogWriter()
    log.setup(setup)
    dice = random.Random(seed)

    def do(action: A.Action) -> None:
        t.do(action)
        log.action(action)
        check_invariants(t.state)

    do(A.EnterRoom())
    for pick in metre:
        do(A.Decide(t.state.pending.id, pick))  # type: ignore[union-attr]
    do(A.StartBattle())
    for _ in range(500):  # on into the Barracks after a cleared room: fire walls gone, the devoured freed
        last_room = t.state.room_index == len(t.state.room_deck) - 1
        if t.state.phase == "game_over" or t.state.phase == "resolution" and last_room:
            break
        do(random_action(t, dice))
        if t.state.phase == "setup" and t.state.room_index > 0:
            assert not any(c.kind == "fire_wall" or "devoured" in c.status for c in t.state.characters)
    result = replay(log.records)
    assert result.rejected == []
    assert result.state.to_json() == t.state.to_json()
    if len(log.records) > 3:
        log.undo()
        undone = replay(log.records)
        assert undone.rejected == []
        again = catacombs_3e(
            setup["rooms"],
            lord=lord,
            seed=seed,
            content=shipped,  # type: ignore[arg-type]
            settings=Settings(monster_vulnerabilities=seed == 2),
            items=ITEMS,
            spells=SPELLS,
        )  # type: ignore[arg-type]
        for action in t.actions[:-1]:
            again.do(action)
        assert undone.state.to_json() == again.state.to_json()


def test_a_re_attributed_devour_shot_swallows_the_other_hero_on_replay(shipped: CardIndex) -> None:
    """docs/game-log.md (``{"replaces": 12, "action": {...}}``: "a shot re-attributed after a dispute; later
    records are replayed on top of it"); catacombs-3e-reference.txt: Devour Shot; The Gelatinous Cube."""
    setup = {
        "ruleset": "catacombs-3e",
        "content": "shipped",
        "heroes": list(PARTY),
        "lord": "hmotha-the-lich-lord",
        "rooms": ["athenoch-mortuary"],
        "seed": 4,
    }
    log = LogWriter()
    log.setup(setup)
    cube = "monster-gelatinous-cube-1"
    t = table(shipped, ["athenoch-mortuary"], seed=4)
    log.action(A.EnterRoom())
    log.action(A.StartBattle())
    for _ in range(3):
        for hero in ("hero-xoric", "hero-varesh", "hero-roosan", "hero-elani"):
            for action in (A.DeclareAction(hero, 0), A.EndTurn(hero)):
                t.do(action)
                log.action(action)
        for monster in [c.id for c in t.rules.actors(t.state)]:
            if monster == cube and t.state.round == 3:
                continue
            first = None if monster == cube else 0  # the Cube's round decides its sequence
            for action in (A.DeclareAction(monster, first), A.EndTurn(monster)):
                t.do(action)
                log.action(action)
    for action in (A.DeclareAction(cube), A.ResolveShot(cube, "melee")):
        t.do(action)
        log.action(action)
    devour = A.ResolveShot(cube, "devour", direct_hits=("hero-varesh",))
    t.do(devour)
    record = log.action(devour)
    assert t.status("hero-varesh") == ("devoured",)
    assert replay(log.records).state.to_json() == t.state.to_json()
    log.correction(A.ResolveShot(cube, "devour", direct_hits=("hero-elani",)), replaces=record.seq)
    state = replay(log.records).state
    assert state.character("hero-elani").status == ("devoured",) and state.character("hero-elani").health == 6
    assert state.character("hero-varesh").status == () and state.character("hero-varesh").health == 8


def test_the_box_holds_one_gelatinous_cube_so_an_all_pieces_pick_places_one(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Components ("Gelatinous Cube x1"); Room Cards: Monster Metre Icons (the
    Overseer places the chosen monster's pieces, limited by the Monster Pool)."""
    t = catacombs_3e(["qurlathorm"], heroes=PARTY, lord="hmotha-the-lich-lord", seed=7, content=shipped)
    t.do(A.EnterRoom())
    while t.state.pending is not None:
        options = [o.id for o in t.state.pending.options]
        decide(t, "gelatinous-cube" if "gelatinous-cube" in options else options[0], "choose_monster")
    assert monsters_by_card(t)["gelatinous-cube"] == 1
