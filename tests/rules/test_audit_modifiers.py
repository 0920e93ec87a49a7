"""Shot modifier audit: catacombs-3e-shot-modifiers.txt paragraph by paragraph, crossed with several targets,
defensive properties, allies and familiars, and the Catacomb Lord, played at the table through the public API.

Each scenario cites the rulebook text it checks (catacombs-3e-shot-modifiers.txt wins on modifier wording;
catacombs-3e-reference.txt for Taking Damage, Defensive Properties, Poison Cards, Allies and the Lair).
"""

from __future__ import annotations

from collections.abc import Sequence

from service.rules import actions as A
from service.rules import sample_content as sample
from service.rules.cards import CardIndex, HeroCard, LordCard, MonsterCard
from service.rules.evolve import evolve
from service.rules.sample_content import FIRST_GAME_HEROES, seq
from service.rules.state import Character

from .conftest import Table
from .content import room_of

# -- cards for the scenarios (fixtures: only the shots matter) ---------------------------------------------
HEXER = MonsterCard("hexer", "Hexer", 1, "dungeon", 1, 1, (seq("stun missile"),))
GHAST = MonsterCard("ghast", "Ghast", 2, "undead", 2, 2, (seq("fear melee"),), pieces=2)
ASP = MonsterCard("asp", "Asp", 2, "vermin", 1, 2, (seq("poison*2 melee"),), pieces=1)
COCKATRICE = MonsterCard(
    "cockatrice", "Cockatrice", 2, "mythological", 1, 2, (seq("petrify rush"),), pieces=1
)
OOZE = MonsterCard("ooze", "Ooze", 1, "dungeon", 1, 1, (seq("corrosion melee"),))
BRUISER = MonsterCard("bruiser", "Bruiser", 2, "dungeon", 2, 2, (seq("critical missile"),), pieces=1)
SCRATCHER = MonsterCard("scratcher", "Scratcher", 1, "dungeon", 1, 1, (seq("reckless melee"),))
AUDIT_MONSTERS = (HEXER, GHAST, ASP, COCKATRICE, OOZE, BRUISER, SCRATCHER)
# A Lord whose Rules card carries modified shots (fixture: only the shots matter).
GRENDEL = LordCard(
    "grendel-the-fen-king",
    "Grendel the Fen King",
    6,
    (seq("regeneration melee"), seq("petrify melee"), seq("stun melee", "fear melee")),
    "zombie",
    (("zombie", 2),),
)


def hero(name: str, *sequences: str | Sequence[str]) -> HeroCard:
    """A sample hero whose Rules card carries the given sequences (one string is a one-shot alternative)."""
    base = next(h for h in sample.HEROES if h.id == name)
    alternatives = tuple(seq(s) if isinstance(s, str) else seq(*s) for s in sequences)
    return evolve(base, shot_sequences=alternatives)


def content(
    heroes: Sequence[HeroCard] = (), *rooms: object, poison_deck: tuple[int, ...] | None = None
) -> CardIndex:
    replaced = {h.id for h in heroes}
    return CardIndex(
        [*heroes, *(h for h in sample.HEROES if h.id not in replaced)],
        [*AUDIT_MONSTERS, *sample.MONSTERS],
        [*rooms, *sample.ROOMS],  # type: ignore[list-item]
        (*sample.LORDS, GRENDEL),
        poison_deck if poison_deck is not None else sample.POISON_DECK,
        sample.CARDS,
    )


def battle(
    *monsters: tuple[str, int],
    heroes: Sequence[HeroCard] = (),
    names: Sequence[str] = FIRST_GAME_HEROES,
    items: dict[str, Sequence[str]] | None = None,
    spells: dict[str, Sequence[str]] | None = None,
) -> Table:
    """A battle room holding ``monsters`` (card id, count), already in its Battle Phase."""
    table = Table(
        ["audit-room", "the-barracks"],
        heroes=names,
        content=content(heroes, room_of("audit-room", *monsters)),
        items=items,
        spells=spells,
    )
    table.enter_battle()
    return table


def with_ally(*monsters: tuple[str, int]) -> tuple[Table, str]:
    """Xoric recruits an ally at the Amaranth Inn, then the party enters a battle room."""
    table = Table(["amaranth-inn", "audit-room"], content=content((), room_of("audit-room", *monsters)))
    table.do(A.EnterRoom())
    table.edit("hero-xoric", gold=10)
    table.do(A.UseService("meal", target="hero-xoric"))
    while table.state.pending is not None:
        decide(table, table.state.pending.options[0].id)
    ally = next(x.id for x in table.state.characters if x.kind == "ally")
    table.enter_battle()
    return table, ally


def lair(lord: str = "grendel-the-fen-king", heroes: Sequence[HeroCard] = ()) -> Table:
    table = Table(["catacomb-lords-lair"], lord=lord, content=content(heroes))
    table.enter_battle()
    return table


def c(table: Table, cid: str) -> Character:
    return table.state.character(cid)


def decide(table: Table, option: str, kind: str | None = None) -> None:
    pending = table.state.pending
    assert pending is not None, "a decision was expected"
    if kind is not None:
        assert pending.kind == kind, pending
    table.do(A.Decide(pending.id, option))


def options(table: Table) -> list[str]:
    pending = table.state.pending
    assert pending is not None, "a decision was expected"
    return [o.id for o in pending.options]


def piece(table: Table) -> str:
    shot = table.state.expected_shot()
    assert shot is not None, "a shot was expected"
    return str(shot["piece"])


# == Shot Modifiers: several targets ======================================================================


def test_a_stun_missile_through_two_heroes_damages_both_and_stuns_the_one_chosen() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers ("the modifier is only applied to one of the affected
    characters (attacker's choice). However, all affected characters still take damage"); Stun Shot
    Modifier."""
    table = battle(("hexer", 1))
    table.heroes_pass()
    table.declare("monster-hexer-1")
    table.shot("monster-hexer-1", "missile", "hero-xoric", "hero-roosan")
    assert (table.health("hero-xoric"), table.health("hero-roosan")) == (8, 6)
    assert options(table) == ["hero-xoric", "hero-roosan"]
    decide(table, "hero-roosan", "choose_modifier_target")
    assert (table.status("hero-xoric"), table.status("hero-roosan")) == ((), ("stunned",))


def test_a_modifier_choice_leaves_out_a_hero_the_base_shot_killed() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers (one of the affected characters); Stun Shot
    Modifier (a dead hero has no Rules card left to cover)."""
    table = battle(("hexer", 1))
    table.edit("hero-elani", health=1)
    table.heroes_pass()
    table.turn("monster-hexer-1", ("missile", "hero-elani", "hero-varesh"))
    assert table.state.pending is None
    assert not c(table, "hero-elani").alive
    assert table.status("hero-varesh") == ("stunned",) and table.health("hero-varesh") == 7


def test_the_crypt_spiders_two_stun_missiles_may_stun_two_heroes() -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (the Crypt Spider's rush then two stun
    missile shots); catacombs-3e-shot-modifiers.txt: Stun Shot Modifier."""
    table = Table(["spider-den"])
    table.enter_battle()
    table.heroes_pass()
    table.turn(
        "monster-crypt-spider-1",
        ("rush",),
        ("missile", "hero-xoric"),
        ("missile", "hero-elani"),
        alternative=1,
    )
    assert table.status("hero-xoric") == ("stunned",) and table.status("hero-elani") == ("stunned",)
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (8, 6)


# == Defensive properties against modified shots ==========================================================


def test_a_permanent_item_nullifying_missiles_stops_a_stun_missile_and_its_stun() -> None:
    """catacombs-3e-reference.txt: Nullifying Shots (a missile icon covers "any modified missile shot"; "the
    modifiers are ignored"; a permanent Item's box acts automatically)."""
    table = battle(("hexer", 1), items={"elani": ["warding-cloak"]})
    table.heroes_pass()
    table.turn("monster-hexer-1", ("missile", "hero-elani"))
    assert table.health("hero-elani") == 7 and table.status("hero-elani") == ()


def test_a_nullifying_hero_is_not_offered_as_the_stun_target_of_a_shot_through_two_heroes() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers (the modifier goes to an affected character);
    catacombs-3e-reference.txt: Nullifying Shots."""
    table = battle(("hexer", 1), items={"elani": ["warding-cloak"]})
    table.heroes_pass()
    table.turn("monster-hexer-1", ("missile", "hero-elani", "hero-xoric"))
    assert table.state.pending is None
    assert (table.health("hero-elani"), table.status("hero-elani")) == (7, ())
    assert (table.health("hero-xoric"), table.status("hero-xoric")) == (8, ("stunned",))


def test_a_critical_missile_on_a_reflecting_minotaur_sends_back_one_point_only() -> None:
    """catacombs-3e-reference.txt: Reflecting Shots ("one (and only one) point of damage is reflected back");
    catacombs-3e-shot-modifiers.txt: Critical Shot Modifier."""
    table = battle(("minotaur", 1), ("orc", 1), heroes=[hero("varesh", "critical missile")])
    table.turn("hero-varesh", ("missile", "monster-minotaur-1"))
    assert table.health("monster-minotaur-1") == 2
    assert table.health("hero-varesh") == 7


def test_a_raised_mirror_shield_turns_back_a_lords_stun_melee_without_the_stun() -> None:
    """catacombs-3e-reference.txt: Reflecting Shots (reflected shots "behave the same as those that have
    been nullified": no damage, no modifier; one point back at the attacker, a Catacomb Lord included)."""
    table = Table(["catacomb-lords-lair"], lord="vasesak-the-sorcerer", items={"elani": ["mirror-shield"]})
    table.enter_battle()
    table.heroes_pass()
    table.declare("lord-vasesak")
    table.shot("lord-vasesak", "shield")
    table.do(A.PlayCard("hero-elani", "mirror-shield"))
    table.shot("lord-vasesak", "melee", "hero-elani")
    assert (table.health("hero-elani"), table.status("hero-elani")) == (7, ())
    assert table.health("lord-vasesak") == 5
    table.shot("lord-vasesak", "melee", "hero-elani")  # the card protected against one shot only
    assert table.health("hero-elani") == 6


# == Critical =============================================================================================


def test_a_critical_melee_on_the_lord_inflicts_two_points() -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair (Lords are not immune to the critical modifier);
    catacombs-3e-shot-modifiers.txt: Critical Shot Modifier (one more point)."""
    table = lair(heroes=[hero("xoric", "critical melee")])
    table.turn("hero-xoric", ("melee", "lord-grendel"))
    assert table.health("lord-grendel") == 6 - 2


def test_a_critical_point_goes_to_the_survivor_when_the_base_shot_destroyed_the_other() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers (all affected characters take the base damage; the
    modifier applies to one); Critical Shot Modifier."""
    table = battle(("zombie", 1), ("troll", 1), ("orc", 1), heroes=[hero("xoric", "critical melee")])
    table.turn("hero-xoric", ("melee", "monster-zombie-1", "monster-troll-1"))
    assert table.state.pending is None
    assert not c(table, "monster-zombie-1").alive and not c(table, "monster-troll-1").alive
    assert c(table, "hero-xoric").trophies == ("monster-zombie-1", "monster-troll-1")


def test_a_critical_missile_that_destroys_a_familiar_adds_its_point_to_the_hero_it_also_hit() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers (all affected characters take the base damage; the
    modifier applies to one of them); catacombs-3e-reference.txt: Taking Damage (a familiar is damaged like
    any of the Heroic Forces)."""
    table = battle(("bruiser", 1), items={"varesh": ["raven-familiar"]})
    raven = "familiar-raven-familiar"
    table.heroes_pass()
    table.turn("monster-bruiser-1", ("missile", raven, "hero-varesh"))
    assert table.state.pending is None
    assert not c(table, raven).alive
    assert table.health("hero-varesh") == 8 - 2


# == Fear =================================================================================================


def test_a_frightened_stunned_hero_is_rushed_away_by_the_overseer() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier ("a single, unmodified rush shot with the
    character they damaged. (This includes characters that are stunned)")."""
    table = battle(("ghast", 1))
    table.edit("hero-roosan", status=("stunned",))
    table.heroes_pass()
    table.declare("monster-ghast-1")
    table.shot("monster-ghast-1", "melee", "hero-roosan")
    assert table.health("hero-roosan") == 6
    shot = table.state.expected_shot()
    assert shot is not None and (shot["piece"], shot["shot"], shot["modifier"]) == (
        "hero-roosan",
        "rush",
        None,
    )
    table.shot("monster-ghast-1", "rush", "hero-xoric")
    assert table.health("hero-xoric") == 9  # the frightened hero's rush harms nobody
    assert table.status("hero-roosan") == ("stunned",)  # a fear rush is not a teammate's rush


def test_fear_through_two_heroes_lets_the_attacker_choose_whom_to_rush() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers (attacker's choice); Fear Shot Modifier."""
    table = battle(("ghast", 1))
    table.heroes_pass()
    table.declare("monster-ghast-1")
    table.shot("monster-ghast-1", "melee", "hero-xoric", "hero-elani")
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (8, 6)
    decide(table, "hero-elani", "choose_modifier_target")
    assert piece(table) == "hero-elani"


def test_a_fear_melee_that_kills_its_target_leaves_nobody_to_rush() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier (the rush is performed with the damaged
    character, who must still be on the playmat); catacombs-3e-reference.txt: Hero Death."""
    table = battle(("ghast", 1))
    table.edit("hero-elani", health=1)
    table.heroes_pass()
    table.turn("monster-ghast-1", ("melee", "hero-elani"))
    assert not c(table, "hero-elani").alive
    assert table.state.turn is None or table.state.turn.character != "monster-ghast-1"


def test_the_fear_rush_may_be_declined() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier (the attacker "may" perform the rush)."""
    table = battle(("ghast", 2))
    table.heroes_pass()
    table.declare("monster-ghast-1")
    table.shot("monster-ghast-1", "melee", "hero-xoric")
    table.do(A.SkipShot("monster-ghast-1"))
    assert table.state.turn is None or table.state.turn.character != "monster-ghast-1"
    table.declare("monster-ghast-2")
    assert piece(table) == "monster-ghast-2"


# == Petrify ==============================================================================================


def test_a_petrify_rush_turns_a_hero_to_stone_though_a_rush_inflicts_no_damage() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier ("When a character is hit ... no matter how
    much health they have remaining")."""
    table = battle(("cockatrice", 1))
    table.heroes_pass()
    table.turn("monster-cockatrice-1", ("rush", "hero-xoric"))
    assert not c(table, "hero-xoric").alive


def test_petrify_ends_an_ally_for_good() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier; catacombs-3e-reference.txt: Allies ("When
    dead, Allies are out of the game and cannot be resurrected")."""
    table, ally = with_ally(("cockatrice", 1))
    table.heroes_pass()
    table.turn("monster-cockatrice-1", ("rush", ally))
    assert not c(table, ally).alive and not c(table, ally).in_room


def test_a_lords_petrify_melee_through_two_heroes_stones_the_one_the_overseer_picks() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier ("The player performing the shot decides
    which character turns to stone"; all still take damage)."""
    table = lair()
    table.heroes_pass()
    table.declare("lord-grendel", 1)
    table.shot("lord-grendel", "melee", "hero-xoric", "hero-varesh")
    decide(table, "hero-varesh", "choose_modifier_target")
    assert not c(table, "hero-varesh").alive
    assert c(table, "hero-xoric").alive and table.health("hero-xoric") == 8


# == Regeneration =========================================================================================


def test_a_lord_regenerates_one_point_but_never_above_its_starting_health() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier ("restore one point of health after
    successfully damaging an enemy ... can never exceed their maximum starting health")."""
    table = lair()
    table.edit("lord-grendel", health=4)
    table.heroes_pass()
    table.turn("lord-grendel", ("melee", "hero-xoric", "hero-elani"), alternative=0)
    assert table.health("lord-grendel") == 5
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (8, 6)
    table.monsters_pass()
    table.heroes_pass()
    table.turn("lord-grendel", ("melee", "hero-xoric"), alternative=0)
    assert table.health("lord-grendel") == 6
    table.monsters_pass()
    table.heroes_pass()
    table.turn("lord-grendel", ("melee", "hero-xoric"), alternative=0)
    assert table.health("lord-grendel") == 6


def test_a_troll_regenerating_off_a_familiar_is_flipped_back() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier (an enemy damaged: a familiar is one of
    the Heroic Forces)."""
    table = Table(["the-barracks"], items={"varesh": ["raven-familiar"]})
    table.enter_battle()
    table.edit("monster-troll-1", health=1)
    table.heroes_pass()
    table.turn("monster-troll-1", ("melee", "familiar-raven-familiar"))
    assert table.health("monster-troll-1") == 2


def test_a_reckless_heros_regeneration_shot_on_a_teammate_steals_no_health() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier ("Regeneration steals health from an
    enemy ... after successfully damaging an enemy"); catacombs-3e-reference.txt: Reckless Shot Modifier
    (the reckless hero does damage its teammates)."""
    table = battle(("scratcher", 1), ("zombie", 1), heroes=[hero("xoric", "regeneration melee")])
    table.heroes_pass()
    table.turn("monster-scratcher-1", ("melee", "hero-xoric"))
    assert table.status("hero-xoric") == ("reckless",) and table.health("hero-xoric") == 8
    table.monsters_pass()
    table.turn("hero-xoric", ("melee", "hero-elani"))
    assert table.health("hero-elani") == 6
    assert table.health("hero-xoric") == 8
