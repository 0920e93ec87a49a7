"""Shot modifier audit: catacombs-3e-shot-modifiers.txt paragraph by paragraph, crossed with several targets,
defensive properties, allies and familiars, and the Catacomb Lord, played at the table through the public API.

Each scenario cites the rulebook text it checks (catacombs-3e-shot-modifiers.txt wins on modifier wording;
catacombs-3e-reference.txt for Taking Damage, Defensive Properties, Poison Cards, Allies and the Lair).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex, HeroCard, LordCard, MonsterCard
from service.games.catacombs.flow.state import Character
from service.rules.errors import UnexpectedShotError
from service.rules.evolve import evolve
from tests.helpers import sample_content as sample
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import FIRST_GAME_HEROES, seq

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
SPOOK = MonsterCard("spook", "Spook", 1, "undead", 1, 1, (seq("fear melee", "missile", elastic=True),))
AUDIT_MONSTERS = (HEXER, GHAST, ASP, COCKATRICE, OOZE, BRUISER, SCRATCHER, SPOOK)
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
) -> RulesScript:
    """A battle room holding ``monsters`` (card id, count), already in its Battle Phase."""
    table = catacombs_3e(
        ["audit-room", "the-barracks"],
        heroes=names,
        content=content(heroes, room_of("audit-room", *monsters)),
        items=items,
        spells=spells,
    )
    table.enter_battle()
    return table


def with_ally(
    *monsters: tuple[str, int], names: Sequence[str] = FIRST_GAME_HEROES, heroes: Sequence[HeroCard] = ()
) -> tuple[RulesScript, str]:
    """Xoric recruits an ally at the Amaranth Inn, then the party enters a battle room."""
    table = catacombs_3e(
        ["amaranth-inn", "audit-room"],
        heroes=names,
        content=content(heroes, room_of("audit-room", *monsters)),
    )
    table.do(A.EnterRoom())
    table.edit("hero-xoric", gold=10)
    table.do(A.UseService("meal", target="hero-xoric"))
    while table.state.pending is not None:
        decide(table, table.state.pending.options[0].id)
    ally = next(x.id for x in table.state.characters if x.kind == "ally")
    table.enter_battle()
    return table, ally


def lair(lord: str = "grendel-the-fen-king", heroes: Sequence[HeroCard] = ()) -> RulesScript:
    table = catacombs_3e(["catacomb-lords-lair"], lord=lord, content=content(heroes))
    table.enter_battle()
    return table


def c(table: RulesScript, cid: str) -> Character:
    return table.state.character(cid)


def decide(table: RulesScript, option: str, kind: str | None = None) -> None:
    pending = table.state.pending
    assert pending is not None, "a decision was expected"
    if kind is not None:
        assert pending.kind == kind, pending
    table.do(A.Decide(pending.id, option))


def options(table: RulesScript) -> list[str]:
    pending = table.state.pending
    assert pending is not None, "a decision was expected"
    return [o.id for o in pending.options]


def piece(table: RulesScript) -> str:
    shot = table.state.expected_shot()
    assert shot is not None, "a shot was expected"
    return str(shot["piece"])


# == Shot Modifiers: several targets ======================================================================


def test_a_stun_missile_through_two_heroes_damages_both_and_stuns_the_one_chosen() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers ("the modifier is only applied to one of the affected
    characters (attacker's choice). However, all affected characters still take damage"); Stun Shot
    Modifier."""
    table = battle(("hexer", 1))
    table.side_passes()
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
    table.side_passes()
    table.turn("monster-hexer-1", ("missile", "hero-elani", "hero-varesh"))
    assert table.state.pending is None
    assert not c(table, "hero-elani").alive
    assert table.status("hero-varesh") == ("stunned",) and table.health("hero-varesh") == 7


def test_the_crypt_spiders_two_stun_missiles_may_stun_two_heroes() -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (the Crypt Spider's rush then two stun
    missile shots); catacombs-3e-shot-modifiers.txt: Stun Shot Modifier."""
    table = catacombs_3e(["spider-den"])
    table.enter_battle()
    table.side_passes()
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
    table.side_passes()
    table.turn("monster-hexer-1", ("missile", "hero-elani"))
    assert table.health("hero-elani") == 7 and table.status("hero-elani") == ()


def test_a_nullifying_hero_is_not_offered_as_the_stun_target_of_a_shot_through_two_heroes() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers (the modifier goes to an affected character);
    catacombs-3e-reference.txt: Nullifying Shots."""
    table = battle(("hexer", 1), items={"elani": ["warding-cloak"]})
    table.side_passes()
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
    table = catacombs_3e(
        ["catacomb-lords-lair"], lord="vasesak-the-sorcerer", items={"elani": ["mirror-shield"]}
    )
    table.enter_battle()
    table.side_passes()
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
    table.side_passes()
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
    table.side_passes()
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
    table.side_passes()
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
    table.side_passes()
    table.turn("monster-ghast-1", ("melee", "hero-elani"))
    assert not c(table, "hero-elani").alive
    assert table.state.turn is None


def test_the_fear_rush_may_be_declined() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier (the attacker "may" perform the rush)."""
    table = battle(("ghast", 2))
    table.side_passes()
    table.declare("monster-ghast-1")
    table.shot("monster-ghast-1", "melee", "hero-xoric")
    table.do(A.SkipShot("monster-ghast-1"))
    assert table.state.turn is None
    table.declare("monster-ghast-2")
    assert piece(table) == "monster-ghast-2"


# == Petrify ==============================================================================================


def test_a_petrify_rush_turns_a_hero_to_stone_though_a_rush_inflicts_no_damage() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier ("When a character is hit ... no matter how
    much health they have remaining")."""
    table = battle(("cockatrice", 1))
    table.side_passes()
    table.turn("monster-cockatrice-1", ("rush", "hero-xoric"))
    assert not c(table, "hero-xoric").alive


def test_petrify_ends_an_ally_for_good() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier; catacombs-3e-reference.txt: Allies ("When
    dead, Allies are out of the game and cannot be resurrected")."""
    table, ally = with_ally(("cockatrice", 1))
    table.side_passes()
    table.turn("monster-cockatrice-1", ("rush", ally))
    assert not c(table, ally).alive and not c(table, ally).in_room


def test_a_lords_petrify_melee_through_two_heroes_stones_the_one_the_overseer_picks() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier ("The player performing the shot decides
    which character turns to stone"; all still take damage)."""
    table = lair()
    table.side_passes()
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
    table.side_passes()
    table.turn("lord-grendel", ("melee", "hero-xoric", "hero-elani"), alternative=0)
    assert table.health("lord-grendel") == 5
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (8, 6)
    table.side_passes()
    table.side_passes()
    table.turn("lord-grendel", ("melee", "hero-xoric"), alternative=0)
    assert table.health("lord-grendel") == 6
    table.side_passes()
    table.side_passes()
    table.turn("lord-grendel", ("melee", "hero-xoric"), alternative=0)
    assert table.health("lord-grendel") == 6


def test_a_troll_regenerating_off_a_familiar_is_flipped_back() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier (an enemy damaged: a familiar is one of
    the Heroic Forces)."""
    table = catacombs_3e(["the-barracks"], items={"varesh": ["raven-familiar"]})
    table.enter_battle()
    table.edit("monster-troll-1", health=1)
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "familiar-raven-familiar"))
    assert table.health("monster-troll-1") == 2


def test_a_reckless_heros_regeneration_shot_on_a_teammate_steals_no_health() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier ("Regeneration steals health from an
    enemy ... after successfully damaging an enemy"); catacombs-3e-reference.txt: Reckless Shot Modifier
    (the reckless hero does damage its teammates)."""
    table = battle(("scratcher", 1), ("zombie", 1), heroes=[hero("xoric", "regeneration melee")])
    table.side_passes()
    table.turn("monster-scratcher-1", ("melee", "hero-xoric"))
    assert table.status("hero-xoric") == ("reckless",) and table.health("hero-xoric") == 8
    table.side_passes()
    table.turn("hero-xoric", ("melee", "hero-elani"))
    assert table.health("hero-elani") == 6
    assert table.health("hero-xoric") == 8


# == Poison ===============================================================================================

NO_MARORG = ("xoric", "varesh", "roosan", "marorg")  # Elani is the one left to recruit as an ally


def test_a_double_dose_draws_two_cards_and_kills_when_the_total_reaches_starting_health() -> None:
    """catacombs-3e-shot-modifiers.txt: Poison Shot Modifier ("first must decrease their health by one
    point"; "In some cases, you will draw two cards"; "equals or exceeds a hero's starting health, the hero
    immediately dies"); catacombs-3e-reference.txt: Hero Death (Poison cards shuffled back)."""
    table = battle(("asp", 1))
    table.edit("hero-roosan", poison=(1,))
    table.state = evolve(table.state, poison_deck=(3, 3, 1))
    table.side_passes()
    table.turn("monster-asp-1", ("melee", "hero-roosan"))
    assert not c(table, "hero-roosan").alive
    assert c(table, "hero-roosan").poison == ()
    assert sorted(table.state.poison_deck) == [1, 1, 3, 3]


def test_a_double_dose_one_short_of_the_starting_health_is_survived() -> None:
    """catacombs-3e-shot-modifiers.txt: Poison Shot Modifier (death only when the total "equals or
    exceeds" the starting health)."""
    table = battle(("asp", 1))
    table.state = evolve(table.state, poison_deck=(3, 3, 1))
    table.side_passes()
    table.turn("monster-asp-1", ("melee", "hero-roosan"))
    roosan = c(table, "hero-roosan")
    assert (roosan.alive, roosan.health, roosan.poison) == (True, 6, (3, 3))
    assert table.state.poison_deck == (1,)


def test_a_double_poison_melee_through_two_heroes_poisons_only_the_chosen_one() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers (one affected character; all take the base damage);
    Poison Shot Modifier."""
    table = battle(("asp", 1))
    table.side_passes()
    table.declare("monster-asp-1")
    table.shot("monster-asp-1", "melee", "hero-xoric", "hero-varesh")
    decide(table, "hero-xoric", "choose_modifier_target")
    assert (table.health("hero-xoric"), table.health("hero-varesh")) == (8, 7)
    assert len(c(table, "hero-xoric").poison) == 2 and c(table, "hero-varesh").poison == ()


def test_an_allys_lethal_dose_is_its_starting_health_of_four() -> None:
    """catacombs-3e-reference.txt: Allies ("Allies follow the same rules as heroes"; "a maximum health of
    four"); catacombs-3e-shot-modifiers.txt: Poison Shot Modifier (total at the starting health)."""
    table, ally = with_ally(("sewer-rat", 1), ("orc", 1), names=NO_MARORG)
    table.edit(ally, poison=(2,))
    table.state = evolve(table.state, poison_deck=(2, 1))
    table.side_passes()
    table.turn("monster-sewer-rat-1", ("melee", ally))
    assert not c(table, ally).alive
    assert sorted(table.state.poison_deck) == [1, 2, 2]


def test_marorg_recruited_as_an_ally_keeps_his_nullifies_box_against_poison() -> None:
    """catacombs-3e-reference.txt: Nullifying Shots (a Nullifies box on a Hero Rules card acts
    automatically); Allies (the ally uses its Rules card)."""
    table, ally = with_ally(("sewer-rat", 1), ("orc", 1))
    assert ally == "ally-marorg"
    deck = table.state.poison_deck
    table.side_passes()
    table.turn("monster-sewer-rat-1", ("melee", ally))
    assert (table.health(ally), c(table, ally).poison, table.state.poison_deck) == (4, (), deck)


def test_a_frozen_hero_is_neither_damaged_nor_poisoned() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("While frozen, a character ... does not take damage");
    catacombs-3e-shot-modifiers.txt: Poison Shot Modifier (only a hero hit is poisoned)."""
    table = battle(("sewer-rat", 1), ("orc", 1))
    table.edit("hero-elani", status=("frozen",))
    deck = table.state.poison_deck
    table.side_passes()
    table.turn("monster-sewer-rat-1", ("melee", "hero-elani"))
    assert (table.health("hero-elani"), c(table, "hero-elani").poison) == (7, ())
    assert table.state.poison_deck == deck


def test_the_cure_poison_spell_discards_the_card_of_the_heros_choice_into_the_deck() -> None:
    """catacombs-3e-reference.txt: Curing Poison ("A hero may discard one Poison card of their choice ...
    shuffled back into the Poison deck")."""
    table = battle(("orc", 1), spells={"varesh": ["cure-poison"]})
    table.edit("hero-varesh", poison=(1, 3, 2))
    table.state = evolve(table.state, poison_deck=(1,))
    table.do(A.PlayCard("hero-varesh", "cure-poison"))
    assert options(table) == ["0", "1", "2"]
    decide(table, "1", "choose_poison_card")
    assert c(table, "hero-varesh").poison == (1, 2)
    assert sorted(table.state.poison_deck) == [1, 3]


# == Stun =================================================================================================


def test_a_stunned_ally_may_only_rush_and_its_heros_melee_frees_it() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier ("A stunned hero may only perform a single rush
    shot"; "hit the stunned hero directly with any melee or rush shot"); catacombs-3e-reference.txt: Allies
    ("Allies follow the same rules as heroes")."""
    table, ally = with_ally(("hexer", 1), ("orc", 1), names=NO_MARORG)
    table.side_passes()
    table.turn("monster-hexer-1", ("missile", ally))
    assert table.status(ally) == ("stunned",) and table.health(ally) == 3
    table.side_passes()
    table.declare(ally)
    shot = table.state.expected_shot()
    assert shot is not None and shot["shot"] == "rush"
    table.shot(ally, "rush")
    assert table.state.turn is None
    table.turn("hero-xoric", ("melee", ally))
    assert table.status(ally) == () and table.health(ally) == 3


def test_an_allys_rush_frees_a_stunned_hero() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier (un-stunned by a direct melee or rush shot);
    RULINGS.md 5 (a teammate's shot)."""
    table, ally = with_ally(("orc", 1), names=NO_MARORG)
    table.edit("hero-roosan", status=("stunned",))
    table.turn(ally, ("melee",), ("rush", "hero-roosan"))
    assert table.status("hero-roosan") == () and table.health("hero-roosan") == 7


def test_a_stun_on_an_already_stunned_hero_takes_no_second_card() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier (the Stunned card is placed over the Rules card);
    catacombs-3e-reference.txt: Components (Stunned! Cards x3)."""
    table = battle(("hexer", 2))
    table.edit("hero-xoric", status=("stunned",))
    table.edit("hero-varesh", status=("stunned",))
    table.edit("hero-roosan", status=("stunned",))
    table.side_passes()
    table.turn("monster-hexer-1", ("missile", "hero-xoric"))
    assert table.status("hero-xoric") == ("stunned",) and table.health("hero-xoric") == 8
    table.turn("monster-hexer-2", ("missile", "hero-elani"))
    assert table.status("hero-elani") == ()  # all three cards are over other Rules cards


def test_a_lords_stun_melee_stuns_and_its_fear_melee_rushes_the_hero() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier; Fear Shot Modifier (a stunned character is
    rushed too); catacombs-3e-reference.txt: Catacomb Lord's Lair (a Lord's shots are never suppressed)."""
    table = lair()
    table.side_passes()
    table.declare("lord-grendel", 2)
    table.shot("lord-grendel", "melee", "hero-elani")
    assert table.status("hero-elani") == ("stunned",) and table.health("hero-elani") == 6
    table.shot("lord-grendel", "melee", "hero-elani")
    assert table.health("hero-elani") == 5
    assert piece(table) == "hero-elani"


# == Corrosion ============================================================================================


def test_corrosion_through_a_hero_and_an_ally_falls_on_the_hero_who_holds_items() -> None:
    """catacombs-3e-shot-modifiers.txt: Corrosion Shot Modifier (a hero destroys an Item card);
    catacombs-3e-reference.txt: Allies ("Allies cannot buy or use Item cards")."""
    table, ally = with_ally(("ooze", 1), ("orc", 1), names=NO_MARORG)
    table.edit("hero-xoric", items=("healing-salve",))
    table.side_passes()
    table.turn("monster-ooze-1", ("melee", ally, "hero-xoric"))
    assert table.state.pending is None
    assert c(table, "hero-xoric").items == ()
    assert (table.health(ally), table.health("hero-xoric")) == (3, 8)


def test_corrosion_reaches_a_stunned_heros_items() -> None:
    """catacombs-3e-shot-modifiers.txt: Corrosion Shot Modifier (any hero hit, stunned or not)."""
    table = battle(("ooze", 1), ("orc", 1), items={"elani": ["mirror-shield"]})
    table.edit("hero-elani", status=("stunned",))
    table.side_passes()
    table.turn("monster-ooze-1", ("melee", "hero-elani"))
    assert c(table, "hero-elani").items == ()


# == Transform ============================================================================================


def test_the_fire_spirit_may_transform_after_a_missed_transform_melee() -> None:
    """catacombs-3e-shot-modifiers.txt: Transform Shot Modifier ("enables the character performing the shot
    to transform ... the player's choice")."""
    table = catacombs_3e(["zothas-gatehouse"])
    table.enter_battle()
    table.side_passes()
    table.declare("monster-fire-spirit-1", 1)
    table.shot("monster-fire-spirit-1", "melee")
    assert table.state.pending is not None and table.state.pending.kind == "transform"


def test_a_transform_melee_through_two_heroes_damages_both_and_asks_only_about_transforming() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers (all affected characters take the base damage);
    Transform Shot Modifier (the attacker itself transforms: no target to choose)."""
    table = catacombs_3e(["zothas-gatehouse"])
    table.enter_battle()
    table.side_passes()
    table.declare("monster-fire-spirit-1", 1)
    table.shot("monster-fire-spirit-1", "melee", "hero-xoric", "hero-varesh")
    assert (table.health("hero-xoric"), table.health("hero-varesh")) == (8, 7)
    decide(table, "yes", "transform")
    assert c(table, "monster-fire-spirit-1").kind == "fire_wall"


# == Petrify against monsters =============================================================================


def test_a_heros_petrify_melee_destroys_a_healthy_troll_and_earns_its_gold() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier ("no matter how much health they have
    remaining"); catacombs-3e-reference.txt: Tracking Health (the disc goes to the hero who defeats it)."""
    table = battle(("troll", 1), ("orc", 1), heroes=[hero("xoric", "petrify melee")])
    table.turn("hero-xoric", ("melee", "monster-troll-1"))
    assert not c(table, "monster-troll-1").alive
    assert c(table, "hero-xoric").trophies == ("monster-troll-1",)


def test_petrify_cannot_destroy_a_shadow_monster() -> None:
    """catacombs-3e-reference.txt: Shadow Monsters ("In order to be destroyed, shadow monsters must be pushed
    completely off the playmat by any direct hit"); catacombs-3e-shot-modifiers.txt: Petrify Shot
    Modifier."""
    table = catacombs_3e(
        ["phantom-crypt"],
        content=content([hero("xoric", "petrify melee")]),
    )
    table.enter_battle()
    table.turn("hero-xoric", ("melee", "monster-phantom-1"))
    assert c(table, "monster-phantom-1").alive and c(table, "monster-phantom-1").on_mat
    assert c(table, "hero-xoric").trophies == ()


def test_petrify_through_a_shadow_monster_and_a_zombie_falls_on_the_zombie() -> None:
    """catacombs-3e-reference.txt: Shadow Monsters; catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier
    (only one character hit turns to stone)."""
    table = catacombs_3e(["phantom-crypt"], content=content([hero("xoric", "petrify rush")]))
    table.enter_battle()
    table.turn("hero-xoric", ("rush", "monster-phantom-1", "monster-zombie-1"))
    assert table.state.pending is None
    assert not c(table, "monster-zombie-1").alive
    assert c(table, "monster-phantom-1").alive


# == Fear and fire walls ==================================================================================


def test_a_frightened_hero_rushed_into_a_fire_wall_is_burned() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier (the attacker flicks the frightened hero);
    catacombs-3e-reference.txt: Fire Walls ("one health point of damage to any of the Heroic Forces who come
    into contact with it in any way")."""
    table = catacombs_3e(
        ["fear-forge"],
        content=content((), room_of("fear-forge", ("fire-spirit", 1), ("ghast", 1))),
    )
    table.enter_battle()
    table.side_passes()
    table.declare("monster-fire-spirit-1", 1)
    table.shot("monster-fire-spirit-1", "melee")
    decide(table, "yes", "transform")
    table.declare("monster-ghast-1")
    table.shot("monster-ghast-1", "melee", "hero-xoric")
    assert piece(table) == "hero-xoric"
    table.shot("monster-ghast-1", "rush", "monster-fire-spirit-1")
    assert table.health("hero-xoric") == 9 - 1 - 1


# == Regeneration caps ====================================================================================


def test_a_troll_at_full_health_regenerates_nothing() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier ("A character can never exceed their
    maximum starting health")."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-xoric"))
    assert table.health("monster-troll-1") == 2 and table.health("hero-xoric") == 8


def test_an_allys_regeneration_stops_at_its_starting_health_of_four() -> None:
    """catacombs-3e-reference.txt: Allies ("a maximum health of four and cannot be healed above their
    starting health"); catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier."""
    table, ally = with_ally(("orc", 3), names=NO_MARORG, heroes=[hero("elani", "regeneration melee")])
    table.edit(ally, health=3)
    table.turn(ally, ("melee", "monster-orc-1"))
    assert table.health(ally) == 4
    table.side_passes()
    table.side_passes()
    table.turn(ally, ("melee", "monster-orc-2"))
    assert table.health(ally) == 4


def test_drain_energy_does_not_take_a_hero_above_the_health_the_inn_gave() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier (never above the maximum starting health);
    RULINGS.md 6 (a night at the Inn may exceed starting health; that health is kept)."""
    table = battle(("zombie", 1), ("orc", 1), spells={"varesh": ["drain-energy"]})
    table.edit("hero-varesh", health=9)
    table.do(A.PlayCard("hero-varesh", "drain-energy"))
    table.shot("hero-varesh", "missile", "monster-zombie-1")
    assert not c(table, "monster-zombie-1").alive
    assert table.health("hero-varesh") == 9


# == Reflection against allies, familiars and dying attackers ===========================================


def test_a_familiar_whose_missile_a_minotaur_reflects_is_removed_until_the_next_room() -> None:
    """catacombs-3e-reference.txt: Reflecting Shots (one point back "at the attacker initiating the shot");
    Familiars."""
    table = battle(("minotaur", 1), items={"varesh": ["raven-familiar"]})
    raven = "familiar-raven-familiar"
    table.turn(raven, ("missile", "monster-minotaur-1"))
    assert table.health("monster-minotaur-1") == 2
    assert not c(table, raven).alive


def test_a_fire_spirit_destroyed_by_a_reflected_point_cannot_transform() -> None:
    """catacombs-3e-reference.txt: Reflecting Shots (one point back at the attacker); Tracking Health (a one
    health monster is removed on taking damage); catacombs-3e-shot-modifiers.txt: Transform Shot Modifier
    (the character performing the shot transforms: a destroyed one no longer can)."""
    table = catacombs_3e(["zothas-gatehouse"], items={"elani": ["mirror-shield"]})
    table.enter_battle()
    table.side_passes()
    table.declare("monster-fire-spirit-1", 1)
    table.do(A.PlayCard("hero-elani", "mirror-shield"))
    table.shot("monster-fire-spirit-1", "melee", "hero-elani")
    assert table.health("hero-elani") == 7
    assert not c(table, "monster-fire-spirit-1").alive
    assert table.state.pending is None
    assert c(table, "monster-fire-spirit-1").kind == "monster"
    assert c(table, "hero-elani").trophies == ("monster-fire-spirit-1",)


# == Corrosion: out of the game ===========================================================================


def test_a_corroded_item_is_removed_from_the_game_not_returned_to_the_item_deck() -> None:
    """catacombs-3e-shot-modifiers.txt: Corrosion Shot Modifier ("Remove the drawn card from the game")."""
    table = battle(("ooze", 1), ("orc", 1), items={"elani": ["healing-salve"]})
    deck = table.state.item_deck
    table.side_passes()
    table.turn("monster-ooze-1", ("melee", "hero-elani"))
    assert c(table, "hero-elani").items == ()
    assert table.state.item_deck == deck


# == Modifiers that only heroes suffer ====================================================================


def test_a_heros_stun_and_poison_melees_only_damage_a_monster() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier ("When a hero is hit"); Poison Shot Modifier
    ("When a hero is hit"): a monster takes the base damage only."""
    table = battle(("troll", 2), ("orc", 1), heroes=[hero("xoric", ("stun melee", "poison melee"))])
    deck = table.state.poison_deck
    table.declare("hero-xoric")
    table.shot("hero-xoric", "melee", "monster-troll-1")
    table.shot("hero-xoric", "melee", "monster-troll-2")
    assert table.state.pending is None
    assert (table.health("monster-troll-1"), table.health("monster-troll-2")) == (1, 1)
    assert table.status("monster-troll-1") == () and c(table, "monster-troll-2").poison == ()
    assert table.state.poison_deck == deck


def test_a_freed_heros_stunned_card_can_stun_another_hero() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier ("remove the Stunned card from the hero's Rules
    card"); catacombs-3e-reference.txt: Components (three Stunned! cards)."""
    table = battle(("hexer", 1), ("orc", 1))
    for name in ("hero-xoric", "hero-varesh", "hero-roosan"):
        table.edit(name, status=("stunned",))
    table.turn("hero-elani", ("melee", "hero-roosan"))
    assert table.status("hero-roosan") == ()
    table.side_passes()
    table.turn("monster-hexer-1", ("missile", "hero-elani"))
    assert table.status("hero-elani") == ("stunned",)


# == Familiars and allies as targets ======================================================================


def test_the_overseer_rushes_a_frightened_ally() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier (a rush with "the character they damaged");
    catacombs-3e-reference.txt: Allies."""
    table, ally = with_ally(("ghast", 1), names=NO_MARORG)
    table.side_passes()
    table.declare("monster-ghast-1")
    table.shot("monster-ghast-1", "melee", ally)
    assert table.health(ally) == 3
    assert piece(table) == ally


def test_a_familiar_hit_by_a_petrify_rush_is_turned_to_stone() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier ("When a character is hit");
    catacombs-3e-reference.txt: Familiars (not poisoned or stunned; nothing exempts them from petrify)."""
    table = battle(("cockatrice", 1), items={"varesh": ["raven-familiar"]})
    table.side_passes()
    table.turn("monster-cockatrice-1", ("rush", "familiar-raven-familiar"))
    assert not c(table, "familiar-raven-familiar").alive
    assert c(table, "hero-varesh").alive and c(table, "hero-varesh").items == ("raven-familiar",)


# == Fear under an Elastic connector ======================================================================


def test_a_fear_rush_under_an_elastic_connector_is_immediate_or_lost() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier ("may immediately perform a single, unmodified
    rush shot"); catacombs-3e-reference.txt: Shot Sequences and Connectors (Elastic: the card's shots in any
    order)."""
    table = catacombs_3e(["spook-hall"], content=content((), room_of("spook-hall", ("spook", 1))))
    table.enter_battle()
    table.side_passes()
    table.declare("monster-spook-1")
    assert table.state.expected_shot()["any_of"] == ["melee", "missile"]  # type: ignore[index]
    table.shot("monster-spook-1", "melee", "hero-xoric")
    shot = table.state.expected_shot()
    assert shot is not None and (shot["piece"], shot["any_of"]) == ("hero-xoric", ["rush"])
    with pytest.raises(UnexpectedShotError):
        table.shot("monster-spook-1", "missile", "hero-elani")
    table.do(A.SkipShot("monster-spook-1"))
    assert piece(table) == "ranged-missile"
    table.shot("monster-spook-1", "missile", "hero-elani")
    assert table.health("hero-elani") == 6
