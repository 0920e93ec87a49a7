"""Combat audit: shots, their damage, modifiers, defensive properties and advanced shots, played at the table.

Each scenario is read from the rulebook text it cites (catacombs-3e-reference.txt unless another file is
named; catacombs-3e-shot-modifiers.txt wins on modifier wording) and driven only through the public API.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import ActionCard, CardIndex, HeroCard, MonsterCard, RoomCard
from service.games.catacombs.flow.shots import Sequence as ShotSequence
from service.games.catacombs.flow.shots import Shot
from service.rules.errors import CardNotPlayableError, IllegalActionError, UnexpectedShotError
from service.rules.evolve import evolve
from tests.helpers import sample_content as sample
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import FIRST_GAME_HEROES, seq, shots

from .content import room_of

REF = "catacombs-3e-reference.txt"
MOD = "catacombs-3e-shot-modifiers.txt"

# -- cards for the scenarios (fixtures: only the shots matter) ---------------------------------------------
OGRE = MonsterCard("ogre", "Ogre", 4, "dungeon", 4, 4, (seq("melee"),), pieces=1)
ACID_SLIME = MonsterCard("acid-slime", "Acid Slime", 1, "dungeon", 1, 1, (seq("corrosion melee"),))
BRUTE = MonsterCard("brute", "Brute", 2, "dungeon", 2, 2, (seq("critical melee"),), pieces=1)
BASILISK = MonsterCard("basilisk", "Basilisk", 3, "mythological", 2, 3, (seq("petrify missile"),), pieces=1)
SPITTER = MonsterCard("spitter", "Spitter", 1, "vermin", 1, 1, (seq("poison rush"),))
STINGER = MonsterCard("stinger", "Stinger", 1, "vermin", 1, 1, (seq("stun rush"),))
BLOWGUN = MonsterCard("blowgun", "Blowgun Goblin", 1, "dungeon", 1, 1, (seq("poison missile"),))
MADMAN = MonsterCard("madman", "Madman", 1, "dungeon", 1, 1, (seq("reckless melee"),))
GULPER = MonsterCard("gulper", "Gulper", 3, "dungeon", 2, 3, (seq("devour"),), pieces=1)
GOLEM = MonsterCard(
    "mirror-golem", "Mirror Golem", 3, "dungeon", 2, 3, (seq("melee"),), reflects=shots("boulder"), pieces=1
)
IMP = MonsterCard("blink-imp", "Blink Imp", 1, "infernal", 1, 1, (seq("teleport"), seq("melee")), pieces=1)
NECROMANCER = MonsterCard(
    "necromancer",
    "Necromancer",
    3,
    "undead",
    2,
    3,
    (ShotSequence((Shot("summon", summons="zombie"), Shot("melee"))),),
    pieces=1,
)
FANG = MonsterCard("fang", "Fang", 1, "vermin", 1, 1, (seq("poison bite"),))
AUDIT_MONSTERS = (
    OGRE,
    ACID_SLIME,
    BRUTE,
    BASILISK,
    SPITTER,
    STINGER,
    BLOWGUN,
    MADMAN,
    GULPER,
    GOLEM,
    IMP,
    FANG,
    NECROMANCER,
)
WARDING_CHARM = ActionCard(
    "warding-charm", "Warding Charm", "item", "once_per_game", nullifies=shots("melee")
)  # fixture: a once-per-game Nullifies box


ELF_PARTY = ("oleira", "varesh", "roosan", "elani")


def hero(name: str, *sequences: str | Sequence[str]) -> HeroCard:
    """A sample hero whose Rules card carries the given sequences (one string is a one-shot alternative)."""
    base = next(h for h in sample.HEROES if h.id == name)
    alternatives = tuple(seq(s) if isinstance(s, str) else seq(*s) for s in sequences)
    return evolve(base, shot_sequences=alternatives)


def content(heroes: Sequence[HeroCard] = (), rooms: Sequence[RoomCard] = ()) -> CardIndex:
    """The sample content plus the audit's monsters and cards."""
    replaced = {h.id for h in heroes}
    return CardIndex(
        [*heroes, *(h for h in sample.HEROES if h.id not in replaced)],
        [*AUDIT_MONSTERS, *sample.MONSTERS],
        [*rooms, *sample.ROOMS],
        sample.LORDS,
        sample.POISON_DECK,
        (*sample.CARDS, WARDING_CHARM),
    )


def battle(
    *monsters: tuple[str, int],
    heroes: Sequence[HeroCard] = (),
    names: Sequence[str] = FIRST_GAME_HEROES,
    items: dict[str, Sequence[str]] | None = None,
    then: Sequence[str] = ("the-barracks",),
) -> RulesScript:
    """A battle room holding ``monsters`` (card id, count), already in its Battle Phase."""
    room = room_of("audit-room", *monsters)
    table = catacombs_3e(
        ["audit-room", *then],
        heroes=names,
        content=content(heroes, rooms=[room]),
        items=items,
    )
    table.enter_battle()
    return table


def lair(*heroes: HeroCard) -> RulesScript:
    table = catacombs_3e(["catacomb-lords-lair"], content=content(heroes))
    table.enter_battle()
    return table


def c(table: RulesScript, cid: str):  # type: ignore[no-untyped-def]
    return table.state.character(cid)


def view(table: RulesScript, cid: str) -> dict[str, object]:
    return next(v for v in table.state.public_view()["characters"] if v["id"] == cid)


def decide(table: RulesScript, option: str, kind: str | None = None) -> None:
    pending = table.state.pending
    assert pending is not None, "a decision was expected"
    if kind is not None:
        assert pending.kind == kind
    table.do(A.Decide(pending.id, option))


# == Character, ranged and shield shots: exact damage ====================================================


@pytest.mark.parametrize(
    ("shot", "left"),
    [
        ("rush", 4),
        ("melee", 3),
        ("bite", 2),
        ("missile", 3),
        ("fireball", 3),
        ("giant_fireball", 2),
        ("boulder", 1),
        ("shield", 4),
    ],
)
def test_every_shot_takes_its_printed_damage_off_a_four_health_monster(shot: str, left: int) -> None:
    """catacombs-3e-reference.txt: Character Shots; Ranged Shots (RULINGS.md 1); Shield Shots; Tracking
    Health (a level 4 monster moves down its health track and is never flipped)."""
    table = battle(("ogre", 1), ("zombie", 1), heroes=[hero("xoric", shot)])
    table.turn("hero-xoric", (shot, "monster-ogre-1"))
    assert table.health("monster-ogre-1") == left
    assert view(table, "monster-ogre-1")["flipped"] is False
    assert not any("flipped" in t for t in table.texts())


def test_the_target_shot_and_the_ice_shot_on_a_four_health_monster() -> None:
    """catacombs-3e-reference.txt: Target Shot (one point of damage); Ice Shot (no damage, frozen)."""
    table = battle(("ogre", 1), ("zombie", 1), heroes=[hero("xoric", "target"), hero("varesh", "ice")])
    table.declare("hero-xoric")
    table.do(A.ResolveShot("hero-xoric", "target", direct_hits=("monster-ogre-1",), target="monster-ogre-1"))
    table.turn("hero-varesh", ("ice", "monster-ogre-1"))
    assert table.health("monster-ogre-1") == 3 and table.status("monster-ogre-1") == ("frozen",)


def test_a_bite_damages_every_monster_it_hits_directly_and_each_disc_goes_to_the_hero() -> None:
    """catacombs-3e-reference.txt: Taking Damage (multiple targets hit directly each take the shot's damage);
    Tracking Health (the defeated monster's disc is placed on the hero's board)."""
    table = battle(("troll", 2), ("zombie", 1), heroes=[hero("xoric", "bite")])
    table.turn("hero-xoric", ("bite", "monster-troll-1", "monster-troll-2"))
    assert not c(table, "monster-troll-1").alive and not c(table, "monster-troll-2").alive
    assert c(table, "hero-xoric").trophies == ("monster-troll-1", "monster-troll-2")
    table.turn("hero-elani", ("melee", "monster-zombie-1"))
    assert table.state.phase == "resolution"
    assert c(table, "hero-xoric").gold == 4 and c(table, "hero-elani").gold == 1 + 1


def test_a_pushed_monster_takes_no_damage_and_one_leaving_the_mat_is_simply_put_back() -> None:
    """catacombs-3e-reference.txt: Taking Damage (a piece pushed into another is not hit directly); Legal
    Locations ("If a piece leaves the playmat ... place it back on the edge")."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.declare("hero-xoric")
    table.do(
        A.ResolveShot(
            "hero-xoric",
            "melee",
            direct_hits=("monster-troll-1",),
            pushed_off_mat=("monster-orc-1", "hero-elani"),
        )
    )
    assert table.health("monster-troll-1") == 1
    orc, elani = c(table, "monster-orc-1"), c(table, "hero-elani")
    assert (orc.alive, orc.health, orc.on_mat) == (True, 1, True)
    assert (elani.alive, elani.health, elani.on_mat) == (True, 7, True)


def test_a_hero_cannot_fall_below_zero_health_and_dies_at_zero() -> None:
    """catacombs-3e-reference.txt: Hero Death ("If a hero's health track reaches the skull icon, or 0")."""
    table = battle(("ogre", 1), heroes=[hero("xoric", "melee")])
    table.edit("monster-ogre-1", shot_sequences=(seq("bite"),))
    table.edit("hero-elani", health=1)
    table.side_passes()
    table.turn("monster-ogre-1", ("bite", "hero-elani"))
    elani = c(table, "hero-elani")
    assert (elani.alive, elani.health) == (False, 0)


# == No friendly fire =====================================================================================


def test_heroes_familiars_monsters_and_the_lord_never_harm_their_own_side() -> None:
    """catacombs-3e-reference.txt: Taking Damage ("There is no friendly fire: heroes, allies and familiars
    cannot damage each other in any way. Monsters and Catacomb Lords cannot damage each other either")."""
    table = catacombs_3e(["catacomb-lords-lair"], items={"varesh": ["raven-familiar"]})
    table.enter_battle()
    raven = "familiar-raven-familiar"
    table.turn(raven, ("missile", "hero-xoric", "monster-skeleton-warrior-1"))
    table.turn("hero-xoric", ("melee", raven, "hero-elani"))
    assert (table.health("hero-xoric"), table.health("hero-elani"), c(table, raven).alive) == (9, 7, True)
    table.side_passes()
    table.turn("lord-hmotha", ("melee", "monster-skeleton-warrior-1", "monster-skeleton-warrior-2"))
    table.turn("monster-skeleton-warrior-1", ("melee", "lord-hmotha", "monster-skeleton-warrior-3"))
    assert table.health("lord-hmotha") == 8
    assert all(c(table, f"monster-skeleton-warrior-{n}").alive for n in (1, 2, 3))


# == Tracking health ======================================================================================


def test_a_two_health_monster_is_flipped_at_one_and_removed_at_zero() -> None:
    """catacombs-3e-reference.txt: Tracking Health (flipped over in place; one more hit destroys it)."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.turn("hero-xoric", ("melee", "monster-troll-1"))
    assert "Troll 1 is flipped to its damaged side" in [e.text for e in table.events]
    assert view(table, "monster-troll-1")["flipped"] is True
    table.turn("hero-elani", ("melee", "monster-troll-1", "monster-orc-1"))
    assert not c(table, "monster-troll-1").alive and not c(table, "monster-orc-1").alive
    assert view(table, "monster-troll-1")["on_mat"] is False
    assert c(table, "hero-elani").trophies == ("monster-troll-1", "monster-orc-1")


# == Chain ================================================================================================

BERSERKER = hero("xoric", ("chain melee", "chain melee", "chain melee", "chain melee"))


def test_chain_ignores_every_additional_consecutive_hit_on_the_same_target() -> None:
    """catacombs-3e-shot-modifiers.txt: Chain Shot ("If the same target is hit consecutively, damage that
    would have been inflicted by the additional hit(s) is ignored")."""
    table = battle(("troll", 1), ("zombie", 1), heroes=[BERSERKER])
    table.turn(
        "hero-xoric",
        ("melee", "monster-troll-1"),
        ("melee", "monster-troll-1"),
        ("melee", "monster-troll-1"),
        ("melee", "monster-troll-1"),
    )
    assert table.health("monster-troll-1") == 1


def test_chain_spares_only_the_target_hit_by_the_previous_shot() -> None:
    """catacombs-3e-shot-modifiers.txt: Chain Shot (damage is spread across several targets)."""
    table = battle(("troll", 1), ("zombie", 3), heroes=[BERSERKER])
    table.declare("hero-xoric")
    table.shot("hero-xoric", "melee", "monster-troll-1", "monster-zombie-1")
    table.shot("hero-xoric", "melee", "monster-troll-1", "monster-zombie-2")
    assert table.health("monster-troll-1") == 1
    assert not c(table, "monster-zombie-2").alive
    table.shot("hero-xoric", "melee", "monster-zombie-3")
    table.shot("hero-xoric", "melee", "monster-troll-1")
    assert table.state.phase == "resolution"


# == Corrosion ============================================================================================


def slime_attacks(table: RulesScript, *hits: str) -> None:
    table.side_passes()
    table.turn("monster-acid-slime-1", ("melee", *hits))


def test_corrosion_destroys_a_familiar_item_and_its_piece_leaves_the_mat() -> None:
    """catacombs-3e-shot-modifiers.txt: Corrosion Shot Modifier ("Any pieces associated with the removed
    card on the playmat are also removed")."""
    table = battle(("acid-slime", 1), items={"varesh": ["raven-familiar"]})
    slime_attacks(table, "hero-varesh")
    assert c(table, "hero-varesh").items == ()
    assert table.health("hero-varesh") == 7
    raven = view(table, "familiar-raven-familiar")
    assert raven["on_mat"] is False
    assert "familiar-raven-familiar" not in [a.id for a in table.rules.actors(table.state)]


def test_a_corroded_permanent_item_no_longer_protects_its_hero() -> None:
    """catacombs-3e-shot-modifiers.txt: Corrosion Shot Modifier (the card is removed from the game);
    catacombs-3e-reference.txt: Defensive Properties (a permanent Item's box protects while it is held)."""
    table = battle(("acid-slime", 1), ("orc", 1), items={"elani": ["warding-cloak"]})
    slime_attacks(table, "hero-elani")
    assert c(table, "hero-elani").items == ()
    table.turn("monster-orc-1", ("missile", "hero-elani"), alternative=1)
    assert table.health("hero-elani") == 7 - 1 - 1


def test_corrosion_without_items_takes_up_to_three_gold_and_without_gold_does_nothing() -> None:
    """catacombs-3e-shot-modifiers.txt: Corrosion Shot Modifier (3 gold instead; no gold: no effect)."""
    table = battle(("acid-slime", 2))
    table.edit("hero-xoric", gold=5)
    table.edit("hero-elani", gold=2)
    treasury = table.state.treasury
    slime_attacks(table, "hero-xoric")
    table.turn("monster-acid-slime-2", ("melee", "hero-elani"))
    assert (c(table, "hero-xoric").gold, c(table, "hero-elani").gold) == (2, 0)
    assert table.state.treasury == treasury + 5
    table.side_passes()
    table.turn("monster-acid-slime-1", ("melee", "hero-elani"))
    assert c(table, "hero-elani").gold == 0 and table.health("hero-elani") == 5
    assert table.state.treasury == treasury + 5


# == Critical =============================================================================================


def test_critical_on_several_heroes_adds_its_point_to_one_of_the_attackers_choice() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers ("all affected characters still take damage from the
    base shot"); Critical Shot Modifier (one extra point)."""
    table = battle(("brute", 1))
    table.side_passes()
    table.declare("monster-brute-1")
    table.shot("monster-brute-1", "melee", "hero-xoric", "hero-elani")
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (8, 6)
    decide(table, "hero-elani", "choose_modifier_target")
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (8, 5)


def test_a_nullified_critical_missile_does_no_damage_at_all() -> None:
    """catacombs-3e-reference.txt: Nullifying Shots (the Skeleton Warrior suffers no damage from any
    modified missile shot, "including the critical modifier")."""
    table = battle(("skeleton-warrior", 1), ("zombie", 1), heroes=[hero("varesh", "critical missile")])
    table.turn("hero-varesh", ("missile", "monster-skeleton-warrior-1"))
    assert c(table, "monster-skeleton-warrior-1").alive
    assert table.health("monster-skeleton-warrior-1") == 1


# == Fear =================================================================================================


def test_a_hero_frightens_a_monster_and_rushes_it_away_harmlessly() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier (a single, unmodified rush with the character
    damaged)."""
    table = battle(("troll", 1), ("orc", 1), heroes=[hero("xoric", ("fear melee", "rush"))])
    table.declare("hero-xoric")
    table.shot("hero-xoric", "melee", "monster-troll-1")
    shot = table.state.expected_shot()
    assert shot is not None
    assert (shot["actor"], shot["piece"], shot["shot"], shot["modifier"]) == (
        "hero-xoric",
        "monster-troll-1",
        "rush",
        None,
    )
    table.shot("hero-xoric", "rush", "monster-orc-1")
    assert table.health("monster-orc-1") == 1 and table.health("monster-troll-1") == 1
    assert table.state.expected_shot()["piece"] == "hero-xoric"  # type: ignore[index]


def test_fear_needs_damage_a_missed_or_nullified_fear_shot_frightens_nobody() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier ("The attacker who damages a target")."""
    table = battle(("skeleton-warrior", 1), ("zombie", 1), heroes=[hero("varesh", ("fear missile", "rush"))])
    table.declare("hero-varesh")
    table.shot("hero-varesh", "missile", "monster-skeleton-warrior-1")
    assert table.state.expected_shot()["piece"] == "hero-varesh"  # type: ignore[index]


# == Petrify ==============================================================================================


def test_petrify_turns_one_of_several_heroes_hit_to_stone_and_the_others_take_damage() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier ("only one is affected by petrify, but all
    characters still take damage")."""
    table = battle(("basilisk", 1))
    table.side_passes()
    table.declare("monster-basilisk-1")
    table.shot("monster-basilisk-1", "missile", "hero-xoric", "hero-roosan")
    assert (table.health("hero-xoric"), table.health("hero-roosan")) == (8, 6)
    decide(table, "hero-xoric", "choose_modifier_target")
    assert not c(table, "hero-xoric").alive
    assert c(table, "hero-roosan").alive and table.health("hero-roosan") == 6


# == Poison ===============================================================================================


def rats(names: Sequence[str] = FIRST_GAME_HEROES) -> RulesScript:
    table = catacombs_3e(["rat-nest"], heroes=names)
    table.enter_battle()
    table.side_passes()
    return table


def test_a_poison_melee_that_kills_draws_no_poison_card() -> None:
    """catacombs-3e-reference.txt: Poison Cards ("they first must decrease their health"); Hero Death."""
    table = rats()
    table.edit("hero-elani", health=1)
    deck = table.state.poison_deck
    table.turn("monster-sewer-rat-1", ("melee", "hero-elani"))
    assert not c(table, "hero-elani").alive
    assert table.state.poison_deck == deck


def test_a_poison_rush_only_draws_the_card() -> None:
    """catacombs-3e-shot-modifiers.txt: Poison Shot Modifier ("decrease their health by one point (if
    applicable)"); RULINGS.md 4 (a poison rush inflicts no damage)."""
    table = battle(("spitter", 1))
    table.state = evolve(table.state, poison_deck=(2, 1))
    table.side_passes()
    table.turn("monster-spitter-1", ("rush", "hero-roosan"))
    assert table.health("hero-roosan") == 7 and c(table, "hero-roosan").poison == (2,)
    assert table.state.poison_deck == (1,)


def test_stunned_heroes_can_still_be_poisoned() -> None:
    """catacombs-3e-reference.txt: Poison Cards ("Stunned heroes can still be poisoned")."""
    table = rats()
    table.edit("hero-xoric", status=("stunned",))
    table.turn("monster-sewer-rat-1", ("melee", "hero-xoric"))
    assert table.health("hero-xoric") == 8 and len(c(table, "hero-xoric").poison) == 1


def test_familiars_cannot_be_poisoned() -> None:
    """catacombs-3e-reference.txt: Item Cards: Familiars ("They cannot be poisoned or stunned")."""
    table = battle(("spitter", 1), ("stinger", 1), items={"varesh": ["raven-familiar"]})
    deck = table.state.poison_deck
    table.side_passes()
    table.turn("monster-spitter-1", ("rush", "familiar-raven-familiar"))
    table.turn("monster-stinger-1", ("rush", "familiar-raven-familiar"))
    raven = c(table, "familiar-raven-familiar")
    assert (raven.poison, raven.status, raven.alive) == ((), (), True)
    assert table.state.poison_deck == deck


def test_a_poison_modifier_on_several_heroes_poisons_one_and_a_nullifying_hero_is_left_out() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers (one of the affected characters);
    catacombs-3e-reference.txt: Nullifying Shots (Marorg's poison missile box)."""
    names = ("marorg", "varesh", "roosan", "elani")
    table = battle(("blowgun", 1), names=names)
    table.side_passes()
    table.declare("monster-blowgun-1")
    table.shot("monster-blowgun-1", "missile", "hero-marorg", "hero-elani", "hero-roosan")
    assert (table.health("hero-marorg"), table.health("hero-elani"), table.health("hero-roosan")) == (8, 6, 6)
    pending = table.state.pending
    assert pending is not None and [o.id for o in pending.options] == ["hero-elani", "hero-roosan"]
    decide(table, "hero-roosan")
    assert (c(table, "hero-roosan").poison_total > 0, c(table, "hero-elani").poison) == (True, ())
    assert c(table, "hero-marorg").poison == ()


def test_marorgs_modified_icons_do_not_cover_a_plain_melee() -> None:
    """catacombs-3e-reference.txt: Nullifying Shots (Marorg "is only protected ... by these modified shots
    specifically")."""
    names = ("marorg", "varesh", "roosan", "elani")
    table = catacombs_3e(["the-barracks"], heroes=names)
    table.enter_battle()
    table.side_passes()
    table.turn("monster-orc-1", ("melee", "hero-marorg"), alternative=0)
    assert table.health("hero-marorg") == 7


def test_a_dead_allys_poison_cards_go_back_into_the_poison_deck() -> None:
    """catacombs-3e-reference.txt: Allies ("Allies follow the same rules as heroes"); Hero Death ("Poison
    cards are shuffled back into their respective decks"); Poison Cards (the Sewer Rat example)."""
    table = catacombs_3e(
        ["amaranth-inn", "fang-hole"], content=content(rooms=[room_of("fang-hole", ("fang", 1))])
    )
    table.do(A.EnterRoom())
    table.edit("hero-xoric", gold=10)
    table.do(A.UseService("meal", target="hero-xoric"))
    while table.state.pending is not None:
        decide(table, table.state.pending.options[0].id)
    ally = next(x.id for x in table.state.characters if x.kind == "ally")
    table.enter_battle()
    table.edit(ally, poison=(2,))
    table.state = evolve(table.state, poison_deck=(3, 3))
    table.side_passes()
    table.turn("monster-fang-1", ("bite", ally))
    assert not c(table, ally).alive
    assert sorted(table.state.poison_deck) == [2, 3, 3]


# == Stun =================================================================================================


def test_a_stun_rush_stuns_without_damage() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier; Character Shots (a rush inflicts no damage)."""
    table = battle(("stinger", 1))
    table.side_passes()
    table.turn("monster-stinger-1", ("rush", "hero-elani"))
    assert table.health("hero-elani") == 7 and table.status("hero-elani") == ("stunned",)


def test_a_stunned_heros_rush_frees_a_stunned_teammate() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier ("Other stunned heroes may also un-stun a hero");
    RULINGS.md 5."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.edit("hero-xoric", status=("stunned",))
    table.edit("hero-elani", status=("stunned",))
    table.declare("hero-elani")
    assert table.state.turn is not None and table.state.turn.label == "rush"
    table.shot("hero-elani", "rush", "hero-xoric")
    assert table.status("hero-xoric") == () and table.status("hero-elani") == ("stunned",)


def test_a_reckless_teammates_melee_hurts_and_also_frees_a_stunned_hero() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier ("hit the stunned hero directly with any melee or
    rush shot"); catacombs-3e-reference.txt: Reckless Shot Modifier (friendly fire suspended)."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.edit("hero-xoric", status=("stunned",))
    table.edit("hero-elani", status=("reckless",))
    table.turn("hero-elani", ("melee", "hero-xoric"))
    assert table.health("hero-xoric") == 8
    assert table.status("hero-xoric") == ()


def test_a_missile_from_a_teammate_does_not_free_a_stunned_hero() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier (only a melee or rush shot frees)."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.edit("hero-xoric", status=("stunned",))
    table.turn("hero-varesh", ("rush",), ("missile", "hero-xoric"))
    assert table.status("hero-xoric") == ("stunned",)


def test_the_lone_hero_left_when_the_others_are_devoured_or_teleported_ignores_the_stun() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier ("all other heroes are dead, devoured, or
    teleported")."""
    table = catacombs_3e(["the-barracks"], items={"xoric": ["throwing-axe"]})
    table.enter_battle()
    table.edit("hero-xoric", status=("stunned",))
    table.edit("hero-varesh", status=("devoured",))
    table.edit("hero-roosan", status=("teleported",))
    table.edit("hero-elani", alive=False, health=0)
    table.declare("hero-xoric")
    assert table.state.turn is not None and table.state.turn.label == "melee, then rush"


def test_a_stunned_hero_cannot_raise_a_defensive_item() -> None:
    """catacombs-3e-reference.txt: Item Cards ("Items cannot be used when a hero is stunned unless the item
    is a familiar")."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["mirror-shield"]})
    table.enter_battle()
    table.edit("hero-elani", status=("stunned",))
    table.side_passes()
    table.declare("monster-troll-1")
    with pytest.raises(CardNotPlayableError):
        table.do(A.PlayCard("hero-elani", "mirror-shield"))


# == Reckless =============================================================================================


def test_a_reckless_hit_makes_the_hero_hurt_teammates_for_the_rest_of_the_game_even_after_death() -> None:
    """catacombs-3e-reference.txt: Reckless Shot Modifier ("this condition persists for the rest of the
    game, even if the hero is killed")."""
    table = battle(("madman", 1), ("troll", 1), then=("rat-nest",))
    table.side_passes()
    table.turn("monster-madman-1", ("melee", "hero-elani"))
    assert table.status("hero-elani") == ("reckless",) and table.health("hero-elani") == 6
    table.edit("hero-elani", health=1)
    table.turn("monster-troll-1", ("melee", "hero-elani"))
    assert not c(table, "hero-elani").alive and table.status("hero-elani") == ("reckless",)
    table.turn("hero-xoric", ("melee", "monster-madman-1"))
    table.edit("monster-troll-1", health=1)
    table.turn("hero-roosan", ("rush",), ("melee", "monster-troll-1"))
    assert table.state.phase == "resolution"
    table.enter_battle()
    assert c(table, "hero-elani").alive and table.status("hero-elani") == ("reckless",)
    table.turn("hero-elani", ("melee", "hero-varesh"))
    assert table.health("hero-varesh") == 7


# == Regeneration =========================================================================================


def test_regeneration_restores_only_one_point_however_many_are_damaged() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier ("Only one point of health gets
    restored, even if multiple targets are damaged")."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.edit("monster-troll-1", health=1)
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-xoric", "hero-elani"))
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (8, 6)
    assert table.health("monster-troll-1") == 2 and view(table, "monster-troll-1")["flipped"] is False


def test_a_reflected_regeneration_shot_restores_nothing() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration ("after successfully damaging an enemy");
    catacombs-3e-reference.txt: Reflecting Shots."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["mirror-shield"]})
    table.enter_battle()
    table.side_passes()
    table.declare("monster-troll-1")
    table.do(A.PlayCard("hero-elani", "mirror-shield"))
    table.shot("monster-troll-1", "melee", "hero-elani")
    assert table.health("hero-elani") == 7 and table.health("monster-troll-1") == 1


def test_a_reflected_point_that_destroys_a_monster_gives_its_disc_to_the_hero() -> None:
    """catacombs-3e-reference.txt: Reflecting Shots; Tracking Health (the hero who reduces a monster to
    zero takes its disc)."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["mirror-shield"]})
    table.enter_battle()
    table.edit("monster-troll-1", health=1)
    table.side_passes()
    table.declare("monster-troll-1")
    table.do(A.PlayCard("hero-elani", "mirror-shield"))
    table.shot("monster-troll-1", "melee", "hero-elani")
    assert not c(table, "monster-troll-1").alive
    assert c(table, "hero-elani").trophies == ("monster-troll-1",)


# == Transform and fire walls =============================================================================


def fire_wall_room(items: dict[str, Sequence[str]] | None = None) -> RulesScript:
    table = catacombs_3e(["zothas-gatehouse"], items=items)
    table.enter_battle()
    table.side_passes()
    table.declare("monster-fire-spirit-1", 1)
    table.shot("monster-fire-spirit-1", "melee")
    decide(table, "yes", "transform")
    table.side_passes()
    return table


def test_the_overseer_may_decline_to_transform() -> None:
    """catacombs-3e-shot-modifiers.txt: Transform Shot Modifier ("It is the player's choice")."""
    table = catacombs_3e(["zothas-gatehouse"])
    table.enter_battle()
    table.side_passes()
    table.declare("monster-fire-spirit-1", 1)
    table.shot("monster-fire-spirit-1", "melee", "hero-xoric")
    decide(table, "no", "transform")
    spirit = c(table, "monster-fire-spirit-1")
    assert (spirit.kind, spirit.alive) == ("monster", True) and table.health("hero-xoric") == 8


def test_a_fire_wall_burns_heroes_and_familiars_but_not_monsters_or_frozen_heroes() -> None:
    """catacombs-3e-reference.txt: Fire Walls ("one health point of damage to any of the Heroic Forces who
    come into contact with it"); Ice Shot ("While frozen, a character ... does not take damage")."""
    table = fire_wall_room(items={"varesh": ["raven-familiar"]})
    table.edit("hero-roosan", status=("frozen",))
    table.declare("hero-elani")
    table.do(
        A.ResolveShot(
            "hero-elani",
            "melee",
            fire_wall_contacts=("hero-elani", "hero-roosan", "familiar-raven-familiar", "monster-zombie-1"),
        )
    )
    assert (table.health("hero-elani"), table.health("hero-roosan")) == (6, 7)
    assert not c(table, "familiar-raven-familiar").alive
    assert table.health("monster-zombie-1") == 1


def test_a_hero_that_strikes_a_fire_wall_directly_is_burned() -> None:
    """catacombs-3e-reference.txt: Taking Damage (damage from "hitting a fire wall"); Fire Walls."""
    table = fire_wall_room()
    table.turn("hero-xoric", ("melee", "monster-fire-spirit-1", "monster-zombie-1"))
    assert table.health("hero-xoric") == 8 and not c(table, "monster-zombie-1").alive
    assert c(table, "monster-fire-spirit-1").kind == "fire_wall"


# == Defensive properties =================================================================================


def test_a_reflected_boulder_sends_back_one_point_only() -> None:
    """catacombs-3e-reference.txt: Reflecting Shots ("one (and only one) point of damage is reflected")."""
    table = battle(("mirror-golem", 1), heroes=[hero("xoric", "boulder")])
    table.turn("hero-xoric", ("boulder", "monster-mirror-golem-1"))
    assert table.health("monster-mirror-golem-1") == 2 and table.health("hero-xoric") == 8


def test_a_reflected_missile_can_kill_the_wizard() -> None:
    """catacombs-3e-reference.txt: Reflecting Shots (the Minotaur example); Hero Death."""
    table = catacombs_3e(["oakheart-hall"])
    table.enter_battle()
    table.edit("hero-varesh", health=1)
    table.turn("hero-varesh", ("rush",), ("missile", "monster-minotaur-1"))
    assert not c(table, "hero-varesh").alive and table.health("monster-minotaur-1") == 2


def test_a_frozen_minotaurs_reflects_box_is_suspended() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("any of their defensive properties are suspended")."""
    names = ("oleira", "varesh", "roosan", "elani")
    table = catacombs_3e(["oakheart-hall"], heroes=names, content=content([hero("varesh", "ice")]))
    table.enter_battle()
    table.turn("hero-varesh", ("ice", "monster-minotaur-1"))
    table.turn("hero-oleira", ("missile", "monster-minotaur-1"), alternative=0)
    assert table.health("hero-oleira") == 7 and table.health("monster-minotaur-1") == 2


def test_an_antient_is_not_harmed_by_a_reflected_point() -> None:
    """catacombs-3e-reference.txt: Antients ("They cannot be damaged or destroyed"); Reflecting Shots."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["vaiels-urn", "mirror-shield"]})
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    table.do(A.EndTurn("hero-elani"))
    table.side_passes()
    antient = "antient-liquid-antient"
    table.declare(antient)
    table.do(A.PlayCard("hero-elani", "mirror-shield"))
    table.shot(antient, "melee", "hero-elani")
    assert table.health("hero-elani") == 7
    assert c(table, antient).alive and view(table, antient)["on_mat"] is True


def test_a_once_per_game_defensive_card_is_discarded_after_use() -> None:
    """catacombs-3e-reference.txt: Defensive Properties (Spell card or once-per-game Item: "the card is
    discarded"); Item Cards: Frequency Conditions."""
    table = catacombs_3e(["the-barracks"], content=content(), items={"elani": ["warding-charm"]})
    table.enter_battle()
    table.side_passes()
    table.declare("monster-troll-1")
    table.do(A.PlayCard("hero-elani", "warding-charm"))
    table.shot("monster-troll-1", "melee", "hero-elani")
    assert table.health("hero-elani") == 7 and c(table, "hero-elani").items == ()
    table.declare("monster-orc-1", 0)
    with pytest.raises(CardNotPlayableError):
        table.do(A.PlayCard("hero-elani", "warding-charm"))


def test_a_once_per_room_defensive_card_is_face_up_again_in_the_next_room() -> None:
    """catacombs-3e-reference.txt: Defensive Properties (once per room: refreshed in the next Setup)."""
    table = battle(("zombie", 1), items={"elani": ["mirror-shield"]})
    table.side_passes()
    table.declare("monster-zombie-1")
    table.do(A.PlayCard("hero-elani", "mirror-shield"))
    table.shot("monster-zombie-1", "melee", "hero-elani")
    assert not c(table, "monster-zombie-1").alive and table.state.phase == "resolution"
    table.enter_battle()
    assert c(table, "hero-elani").face_down == ()
    table.side_passes()
    table.declare("monster-troll-1")
    table.do(A.PlayCard("hero-elani", "mirror-shield"))
    table.shot("monster-troll-1", "melee", "hero-elani")
    assert table.health("hero-elani") == 7


# == Catacomb Lords =======================================================================================


def test_a_lord_takes_the_base_damage_but_shrugs_off_fear_petrify_devour_and_ice() -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair ("immune to the effects of all shot modifiers except
    chain, critical and regeneration. They cannot be frozen or devoured")."""
    table = lair(hero("xoric", ("fear melee", "petrify melee", "devour", "ice", "rush")))
    table.declare("hero-xoric")
    table.shot("hero-xoric", "melee", "lord-hmotha")
    assert table.state.expected_shot()["piece"] == "hero-xoric"  # type: ignore[index]  # no fear rush
    table.shot("hero-xoric", "melee", "lord-hmotha")
    table.shot("hero-xoric", "devour", "lord-hmotha")
    table.shot("hero-xoric", "ice", "lord-hmotha")
    lord = c(table, "lord-hmotha")
    assert (lord.alive, lord.health, lord.status, lord.on_mat) == (True, 5, (), True)
    assert not any("flipped" in e.text for e in table.events)


def test_a_regeneration_shot_on_the_lord_heals_the_hero() -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair (regeneration still works against Lords)."""
    table = lair(hero("xoric", "regeneration melee"))
    table.edit("hero-xoric", health=5)
    table.turn("hero-xoric", ("melee", "lord-hmotha"))
    assert table.health("lord-hmotha") == 7 and table.health("hero-xoric") == 6


def test_chain_holds_against_the_lord_too() -> None:
    """catacombs-3e-reference.txt: Chain Shot Modifier ("cannot damage the same monster or Catacomb Lord
    consecutively")."""
    table = lair(BERSERKER)
    table.turn(
        "hero-xoric",
        ("melee", "lord-hmotha"),
        ("melee", "lord-hmotha"),
        ("melee", "monster-skeleton-warrior-1"),
        ("melee", "lord-hmotha"),
    )
    assert table.health("lord-hmotha") == 6


# == Advanced shots =======================================================================================


def test_a_teleported_monster_keeps_the_battle_going_and_returns_with_a_melee() -> None:
    """catacombs-3e-reference.txt: Teleport Shots ("The Battle Phase continues while monsters ... are on the
    Teleported! card and none remain on the playmat itself")."""
    table = battle(("blink-imp", 1), ("zombie", 1))
    table.side_passes()
    table.turn("monster-blink-imp-1", ("teleport",), alternative=0)
    assert table.status("monster-blink-imp-1") == ("teleported",)
    table.side_passes()
    table.turn("hero-xoric", ("melee", "monster-zombie-1", "monster-blink-imp-1"))
    assert table.state.phase == "battle" and c(table, "monster-blink-imp-1").alive
    table.side_passes()
    table.declare("monster-blink-imp-1")
    assert table.state.turn is not None and table.state.turn.label == "melee"
    table.shot("monster-blink-imp-1", "melee", "hero-elani")
    assert table.health("hero-elani") == 6
    table.turn("hero-xoric", ("melee", "monster-blink-imp-1"))
    assert table.state.phase == "resolution"


def test_runic_shift_is_followed_by_a_melee_with_the_same_character() -> None:
    """catacombs-3e-reference.txt: Runic Shift Shot ("Then perform a Melee shot with that character")."""
    table = battle(("zombie", 2), heroes=[hero("xoric", "runic_shift")])
    table.declare("hero-xoric")
    table.shot("hero-xoric", "runic_shift", "monster-zombie-1")
    assert table.health("monster-zombie-1") == 1
    shot = table.state.expected_shot()
    assert shot is not None and (shot["shot"], shot["piece"]) == ("melee", "hero-xoric")
    table.shot("hero-xoric", "melee", "monster-zombie-1")
    assert not c(table, "monster-zombie-1").alive


def test_an_open_portal_moves_pieces_and_harms_nobody() -> None:
    """catacombs-3e-reference.txt: Open Portal (positions are switched; no pieces leave the playmat)."""
    table = battle(("zombie", 1), heroes=[hero("varesh", "open_portal")])
    table.turn("hero-varesh", ("open_portal", "monster-zombie-1", "hero-xoric"))
    assert c(table, "monster-zombie-1").alive and table.health("hero-xoric") == 9


def test_a_roll_hitting_one_enemy_and_a_teammate_damages_the_enemy_by_two() -> None:
    """catacombs-3e-reference.txt: Roll Shot ("An unmodified roll shot inflicts two points of damage");
    Taking Damage (no friendly fire)."""
    table = battle(("ogre", 1), heroes=[hero("roosan", "roll")])
    table.turn("hero-roosan", ("roll", "hero-xoric", "monster-ogre-1"))
    assert table.state.pending is None
    assert table.health("monster-ogre-1") == 2 and table.health("hero-xoric") == 9


def test_the_second_flick_of_a_target_shot_must_be_at_the_declared_target() -> None:
    """catacombs-3e-reference.txt: Target Shot ("The target character must be declared prior to flicking the
    first shot ... a second shot may be attempted")."""
    table = battle(("troll", 1), ("zombie", 2), heroes=[hero("oleira", "target")], names=ELF_PARTY)
    table.declare("hero-oleira")
    table.do(
        A.ResolveShot("hero-oleira", "target", direct_hits=("monster-zombie-1",), target="monster-troll-1")
    )
    assert c(table, "monster-zombie-1").alive
    before = table.state
    with pytest.raises(UnexpectedShotError):
        table.do(
            A.ResolveShot(
                "hero-oleira", "target", direct_hits=("monster-zombie-2",), target="monster-zombie-2"
            )
        )
    assert table.state == before
    table.do(
        A.ResolveShot("hero-oleira", "target", direct_hits=("monster-troll-1",), target="monster-troll-1")
    )
    assert table.health("monster-troll-1") == 1 and table.state.turn is None


def test_a_target_shot_that_hits_first_time_gets_no_second_flick() -> None:
    """catacombs-3e-reference.txt: Target Shot (a second shot only "If a player misses")."""
    table = battle(("troll", 1), ("zombie", 1), heroes=[hero("oleira", "target")], names=ELF_PARTY)
    table.declare("hero-oleira")
    table.do(
        A.ResolveShot("hero-oleira", "target", direct_hits=("monster-troll-1",), target="monster-troll-1")
    )
    assert table.state.turn is None and table.state.side == "heroes"


def test_an_ice_shot_on_two_monsters_freezes_the_one_the_attacker_chooses() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("the player performing the shot decides which one")."""
    table = battle(("troll", 2), ("zombie", 1), heroes=[hero("varesh", "ice")])
    table.declare("hero-varesh")
    table.shot("hero-varesh", "ice", "monster-troll-1", "monster-troll-2")
    decide(table, "monster-troll-2", "choose_modifier_target")
    assert table.status("monster-troll-1") == () and table.status("monster-troll-2") == ("frozen",)
    assert table.health("monster-troll-1") == 2 and table.health("monster-troll-2") == 2


def test_a_frozen_hero_cannot_act_and_takes_no_damage() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("While frozen, a character cannot take any actions, does not
    take damage")."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.edit("hero-elani", status=("frozen",), frozen_by="monster-orc-1")
    assert "hero-elani" not in [a.id for a in table.rules.actors(table.state)]
    with pytest.raises(IllegalActionError):
        table.declare("hero-elani")
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-elani"))
    assert table.health("hero-elani") == 7 and table.health("monster-troll-1") == 2


def test_a_shadow_monster_can_be_frozen() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("When a character is struck by an ice shot ... it is considered
    to be frozen"; only Lords and Antients are not affected); Shadow Monsters."""
    table = catacombs_3e(["phantom-crypt"], content=content([hero("varesh", "ice")]))
    table.enter_battle()
    table.turn("hero-varesh", ("ice", "monster-phantom-1"))
    assert table.status("monster-phantom-1") == ("frozen",)
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    assert table.state.phase == "resolution"
    assert c(table, "hero-varesh").gold == 2


def test_frozen_heroes_are_freed_when_the_battle_phase_ends() -> None:
    """catacombs-3e-reference.txt: The Battle Phase ("All other pieces such as obstacles, shields, and fire
    walls are removed from the playmat")."""
    table = battle(("zombie", 1))
    table.edit("hero-roosan", status=("frozen",), frozen_by="monster-zombie-1")
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    assert table.state.phase == "resolution"
    assert table.status("hero-roosan") == ()
    table.enter_battle()
    assert "hero-roosan" in [a.id for a in table.rules.actors(table.state)]


def test_a_summon_with_no_piece_left_in_the_pool_is_refused_and_skipped() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Summon Shot ("the monster piece being summoned must be
    available from the Monster Pool")."""
    table = battle(("necromancer", 1), ("zombie", 4))
    table.side_passes()
    table.declare("monster-necromancer-1")
    with pytest.raises(IllegalActionError, match="Summon Shot") as refused:
        table.shot("monster-necromancer-1", "summon")
    assert "no piece is left in the Monster Pool" in str(refused.value)
    table.do(A.SkipShot("monster-necromancer-1"))
    assert len([m for m in table.state.room_monsters if m.card == "zombie"]) == 4
    shot = table.state.expected_shot()
    assert shot is not None and (shot["actor"], shot["shot"]) == ("monster-necromancer-1", "melee")


def test_a_devour_shot_that_kills_devours_nobody() -> None:
    """catacombs-3e-reference.txt: Devour Shot ("immediately takes one point of damage. If they are still
    alive, they are removed")."""
    table = battle(("gulper", 1))
    table.edit("hero-elani", health=1)
    table.side_passes()
    table.turn("monster-gulper-1", ("devour", "hero-elani"))
    elani = c(table, "hero-elani")
    assert not elani.alive and "devoured" not in elani.status


def test_a_devour_shot_on_two_heroes_damages_both_and_swallows_one() -> None:
    """catacombs-3e-reference.txt: Devour Shot ("all take damage; however, only one is devoured")."""
    table = battle(("gulper", 1))
    table.side_passes()
    table.declare("monster-gulper-1")
    table.shot("monster-gulper-1", "devour", "hero-xoric", "hero-elani")
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (8, 6)
    decide(table, "hero-xoric", "choose_modifier_target")
    assert table.status("hero-xoric") == ("devoured",) and table.status("hero-elani") == ()
    assert view(table, "hero-xoric")["on_mat"] is False


# == Shadow monsters ======================================================================================


def test_a_shadow_monster_ignores_damage_and_a_monster_cannot_push_it_to_its_end() -> None:
    """catacombs-3e-reference.txt: Shadow Monsters ("must be pushed completely off the playmat by any direct
    hit from a character or ranged shot by the Heroic Forces")."""
    table = catacombs_3e(["phantom-crypt"], content=content([hero("xoric", "boulder")]))
    table.enter_battle()
    table.turn("hero-xoric", ("boulder", "monster-phantom-1"))
    assert c(table, "monster-phantom-1").alive
    table.side_passes()
    table.declare("monster-zombie-1")
    table.do(
        A.ResolveShot(
            "monster-zombie-1",
            "melee",
            direct_hits=("monster-phantom-1",),
            pushed_off_mat=("monster-phantom-1",),
        )
    )
    assert c(table, "monster-phantom-1").alive


def test_a_heros_missile_that_knocks_a_shadow_monster_off_the_mat_destroys_it_for_gold() -> None:
    """catacombs-3e-reference.txt: Shadow Monsters (a direct hit from a ranged shot); The Resolution
    Phase."""
    table = catacombs_3e(["phantom-crypt"])
    table.enter_battle()
    table.declare("hero-varesh")
    table.shot("hero-varesh", "rush")
    table.do(
        A.ResolveShot(
            "hero-varesh",
            "missile",
            direct_hits=("monster-phantom-1",),
            pushed_off_mat=("monster-phantom-1",),
        )
    )
    assert not c(table, "monster-phantom-1").alive
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    assert table.state.phase == "resolution" and c(table, "hero-varesh").gold == 2


def test_a_hero_who_died_under_the_basic_rule_returns_without_its_permanent_items_protection() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Hero Death ("All Item and Poison cards are shuffled back into
    their respective decks"); Defensive Properties (a permanent Item's box protects while it is held)."""
    table = battle(("orc", 2), items={"elani": ["warding-cloak"]})
    table.edit("hero-elani", health=1)
    table.side_passes()
    table.turn("monster-orc-1", ("melee", "hero-elani"), alternative=0)
    assert not c(table, "hero-elani").alive and c(table, "hero-elani").items == ()
    assert "warding-cloak" in table.state.item_deck
    table.edit("hero-elani", alive=True, health=4, returns_next_room=False)
    table.turn("monster-orc-2", ("missile", "hero-elani"), alternative=1)
    assert table.health("hero-elani") == 3
