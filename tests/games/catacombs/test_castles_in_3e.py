"""Castles heroes, Dark Spells, the Castles playmat and the Castles shots in a Catacombs 3E game
(catacombs-and-castles-2e-manual.md: Catacombs 3E Integration)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import ActionCard, CardIndex, HeroCard
from service.games.catacombs.flow.position import load_position, position_of
from service.games.catacombs.flow.shots import Sequence
from service.games.catacombs.third_edition.expansions.castles_integration import (
    CastlesFacts,
    IntegratedContent,
)
from service.rules.errors import CardNotPlayableError, IllegalActionError, NotEnoughGoldError
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import CARDS, HEROES, LAYOUTS, LORDS, MONSTERS, POISON_DECK, ROOMS, seq

CATACOMB_HEROES = "catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Team Catacomb Heroes"
DARK_SPELLS = "catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Dark Spell Cards"
PLAYMATS = "catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Catacombs & Castles Playmat(s)"
SHOTS = (
    "catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Catacombs & Castles Shots In Catacombs 3E"
)

# Hand-made Castles heroes (fixture values: the Compatibility Deck's cards are not transcribed).
CASTLES_HEROES = (
    HeroCard("hakoru", "Hakoru the Assassin", 7, (seq("rush", "shuriken"),), can_use_weapons=True),
    HeroCard(
        "edarir", "Edarir the Shaman", 7, (seq("rush", "fireball"),), spell_caster=True, spell_choices=3
    ),
    HeroCard(
        "cahreliss",
        "Cahreliss the Queen of Storms",
        7,
        (seq("poison missile"),),
        spell_caster=True,
        spell_choices=3,
    ),
    HeroCard("angelique", "Angelique the Vampire Princess", 7, (seq("leech"),)),
    HeroCard("xaugorth", "Xaugorth the Wraith Knight", 7, (seq("ice"),), can_use_weapons=True),
    HeroCard(
        "delilah",
        "Delilah the Mage Princess",
        7,
        (seq("rush", "missile"),),
        spell_caster=True,
        spell_choices=3,
    ),
    HeroCard("kethyst", "Kethyst the Ranger", 7, (seq("grapple"),), can_use_weapons=True),
    HeroCard("larra", "Larra the Huntress", 7, (seq("rush", "longbow"),), can_use_weapons=True),
)
FACTS = CastlesFacts(
    teams={
        **{h: "catacomb" for h in ("hakoru", "edarir", "cahreliss", "angelique", "xaugorth")},
        **{h: "castle" for h in ("delilah", "kethyst", "larra")},
    },
    hero_types={
        "hakoru": "fighter",
        "edarir": "spell_caster",
        "cahreliss": "monarch",
        "angelique": "cleric",
        "xaugorth": "fighter",
        "delilah": "monarch",
        "kethyst": "fighter",
        "larra": "fighter",
    },
    dark_spells=frozenset({"dark-vortex"}),
    playmats={"castles-front": ("start-zone-a", "start-zone-b")},
)


def castles_content(facts: CastlesFacts = FACTS) -> IntegratedContent:
    cards = (*CARDS, ActionCard("dark-vortex", "Dark Vortex", "spell", "once_per_game", (seq("vortex"),)))
    base = CardIndex((*HEROES, *CASTLES_HEROES), MONSTERS, ROOMS, LORDS, POISON_DECK, cards, LAYOUTS)
    return IntegratedContent(base, facts)


def table(
    rooms: list[str],
    heroes: tuple[str, ...] = ("xoric", "varesh", "hakoru", "edarir"),
    facts: CastlesFacts = FACTS,
    **kw: object,
) -> RulesScript:
    return catacombs_3e(rooms, heroes=heroes, content=castles_content(facts), **kw)  # type: ignore[arg-type]


def battle(
    rooms: list[str], heroes: tuple[str, ...] = ("xoric", "varesh", "hakoru", "edarir"), **kw: object
) -> RulesScript:
    t = table(rooms, heroes, **kw)
    t.enter_battle()
    return t


# == Team Catacomb heroes ==========================================================================
def test_a_party_mixes_regular_and_catacomb_heroes() -> None:
    """catacombs-and-castles-2e-manual.md: Team Catacomb Heroes ("A party of heroes may be composed of both
    regular heroes and Catacomb heroes")."""
    t = table(["the-barracks"])
    assert [h.id for h in t.state.heroes] == ["hero-xoric", "hero-varesh", "hero-hakoru", "hero-edarir"]
    assert t.health("hero-hakoru") == 7


def test_a_catacomb_heros_shots_cannot_be_suppressed() -> None:
    """catacombs-and-castles-2e-manual.md: Team Catacomb Heroes ("their shots cannot be suppressed");
    catacombs-3e-reference.txt: Room Cards: Suppression for the others."""
    t = battle(["the-lava-pools"], heroes=("xoric", "varesh", "xaugorth", "cahreliss"))
    t.declare("hero-xaugorth")
    assert t.state.expected_shot()["suppressed"] is False  # type: ignore[index]
    t.shot("hero-xaugorth", "ice", "monster-orc-1")
    assert t.state.character("monster-orc-1").has("frozen")
    plain = battle(["oakheart-hall"], heroes=("xoric", "varesh", "xaugorth", "cahreliss"))
    plain.declare("hero-cahreliss")
    assert plain.state.expected_shot()["modifier"] == "poison"  # type: ignore[index]


def test_a_regular_heros_shot_is_still_suppressed_in_a_castles_game() -> None:
    """catacombs-3e-reference.txt: Room Cards: Suppression (a regular hero in a Castles game)."""
    t = battle(["the-lava-pools"], heroes=("xoric", "varesh", "hakoru", "edarir"))
    t.edit("hero-xoric", shot_sequences=(seq("ice"),))
    t.declare("hero-xoric")
    assert t.state.expected_shot()["suppressed"] is True  # type: ignore[index]


def test_catacomb_heroes_are_unaffected_by_corrosion() -> None:
    """catacombs-and-castles-2e-manual.md: Team Catacomb Heroes ("unaffected by the corrosion shot
    modifier")."""
    t = battle(["rat-nest"], items={"hakoru": ["berserker-battle-axe"], "xoric": ["berserker-battle-axe"]})
    t.side_passes()
    t.edit("monster-sewer-rat-1", shot_sequences=(seq("corrosion melee"),))
    t.turn("monster-sewer-rat-1", ("melee", "hero-hakoru"))
    assert t.state.character("hero-hakoru").items == ("berserker-battle-axe",)
    t.edit("monster-sewer-rat-2", shot_sequences=(seq("corrosion melee"),))
    t.turn("monster-sewer-rat-2", ("melee", "hero-xoric"))
    assert t.state.character("hero-xoric").items == ()


def visit(room: str, **gold: int) -> RulesScript:
    t = table([room, "the-barracks"])
    for hero, amount in gold.items():
        t.edit(f"hero-{hero}", gold=amount)
    t.do(A.EnterRoom())
    return t


def test_catacomb_heroes_do_not_pool_their_gold() -> None:
    """catacombs-and-castles-2e-manual.md: Team Catacomb Heroes ("cannot pool their gold with any other
    heroes (including other Catacomb heroes)")."""
    t = visit("althea-the-healer", hakoru=5, edarir=5, xoric=1)
    t.edit("hero-xoric", health=3)
    with pytest.raises(NotEnoughGoldError):
        t.do(A.UseService("heal", target="hero-xoric"))  # the regular heroes hold 1 gold
    with pytest.raises(NotEnoughGoldError):
        t.do(A.UseService("heal", target="hero-xoric", payment=(("hero-xoric", 1), ("hero-hakoru", 2))))
    t.edit("hero-hakoru", health=3)
    t.do(A.UseService("heal", target="hero-hakoru"))
    assert (t.state.character("hero-hakoru").gold, t.state.character("hero-xoric").gold) == (2, 1)
    t.edit("hero-edarir", health=3, gold=2)
    with pytest.raises(NotEnoughGoldError):  # Edarir may not borrow from Hakoru
        t.do(A.UseService("heal", target="hero-edarir"))


def test_the_public_view_shows_the_gold_the_party_may_pool() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Team Catacomb Heroes ("Catacomb heroes
    cannot pool their gold with any other heroes"): the party's gold leaves theirs out; each shows its own."""
    t = visit("althea-the-healer", xoric=4, varesh=1, hakoru=3, edarir=2)
    assert t.state.pays_alone == ("hero-hakoru", "hero-edarir")
    view = t.state.public_view()
    assert view["gold"]["party"] == 5
    assert {c["id"]: c["gold"] for c in view["characters"] if c["kind"] == "hero"} == {
        "hero-xoric": 4,
        "hero-varesh": 1,
        "hero-hakoru": 3,
        "hero-edarir": 2,
    }
    assert t.state.party_gold == 10  # all the gold the heroes carry (the game's result)
    t.state = replace(t.state, treasury=92 - 10)  # the gold the scene handed out came from the Treasury
    reloaded = load_position(t.rules, position_of(t.state))  # the content says who pays alone
    assert reloaded == t.state and "pays_alone" not in position_of(t.state)
    plain = catacombs_3e(["althea-the-healer"])
    plain.edit("hero-xoric", gold=4)
    assert (plain.state.pays_alone, plain.state.public_view()["gold"]["party"]) == ((), 4)


def test_each_catacomb_hero_pays_for_its_own_lodging_at_the_inn() -> None:
    """catacombs-and-castles-2e-manual.md: Team Catacomb Heroes ("when staying at the Amaranth Inn, each
    Catacomb hero must pay individually for their lodging"); RULINGS.md 6 for the party's payment."""
    t = visit("amaranth-inn", xoric=8, hakoru=8, edarir=3)
    t.do(A.UseService("sleep"))
    assert [t.health(h) for h in ("hero-xoric", "hero-varesh", "hero-hakoru")] == [10, 9, 7]
    assert t.state.character("hero-xoric").gold == 0 and t.state.character("hero-hakoru").gold == 8
    t.do(A.UseService("sleep", target="hero-hakoru"))
    assert t.health("hero-hakoru") == 8 and t.state.character("hero-hakoru").gold == 0
    with pytest.raises(NotEnoughGoldError):
        t.do(A.UseService("sleep", target="hero-edarir"))


def test_the_inns_catacomb_ally_costs_fifteen_gold_and_is_chosen() -> None:
    """catacombs-and-castles-2e-manual.md: Team Catacomb Heroes ("pay 15 gold coins and then *choose* an
    unused Catacomb hero as an ally")."""
    t = visit("amaranth-inn", xoric=14)
    with pytest.raises(NotEnoughGoldError):
        t.do(A.UseService("catacomb_ally", target="hero-xoric"))
    t.edit("hero-xoric", gold=15)
    assert A.UseService("catacomb_ally", target="hero-xoric") in t.rules.choices(t.state)
    t.do(A.UseService("catacomb_ally", target="hero-xoric"))
    pending = t.state.pending
    assert pending is not None and pending.kind == "choose_catacomb_ally"
    assert {o.id for o in pending.options} == {"cahreliss", "angelique", "xaugorth"}
    t.do(A.Decide(pending.id, "xaugorth"))
    ally = t.state.character("ally-xaugorth")
    assert (ally.owner, ally.health, t.state.character("hero-xoric").gold) == ("hero-xoric", 4, 0)


def test_the_inns_meal_draws_no_catacomb_hero() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn (the meal's random draw); catacombs-and-castles-2e-manual.md:
    Team Catacomb Heroes (Catacomb allies are chosen for 15 gold: docs/rulings.md)."""
    for seed in range(6):
        t = table(["amaranth-inn", "the-barracks"], seed=seed)
        t.edit("hero-xoric", gold=10)
        t.do(A.EnterRoom())
        t.do(A.UseService("meal", target="hero-xoric"))
        ally = next(c for c in t.state.characters if c.kind == "ally")
        assert ally.card not in FACTS.teams or FACTS.teams[ally.card] == "castle"


# == Dark Spell cards ===============================================================================
def test_a_spell_caster_casts_a_dark_spell_and_pays_gold_or_health() -> None:
    """catacombs-and-castles-2e-manual.md: Dark Spell Cards ("pay one gold or deduct one health (to a minimum
    of one)"; Spell Casters "can cast both spells and dark spells")."""
    t = battle(["the-barracks"], spells={"edarir": ["dark-vortex", "heal"]})
    t.edit("hero-edarir", gold=2)
    t.do(A.PlayCard("hero-edarir", "dark-vortex"))
    pending = t.state.pending
    assert pending is not None and pending.kind == "dark_spell_price"
    t.do(A.Decide(pending.id, "gold"))
    assert t.state.character("hero-edarir").gold == 1
    assert t.state.expected_shot()["shot"] == "vortex"  # type: ignore[index]


def test_a_dark_spell_without_gold_costs_health_but_never_the_last_point() -> None:
    """catacombs-and-castles-2e-manual.md: Dark Spell Cards ("deduct one health (to a minimum of one)")."""
    t = battle(["the-barracks"], spells={"edarir": ["dark-vortex"]})
    t.edit("hero-edarir", health=1)
    t.do(A.PlayCard("hero-edarir", "dark-vortex"))
    assert t.state.pending is None and t.health("hero-edarir") == 1
    assert t.state.expected_shot()["shot"] == "vortex"  # type: ignore[index]


def test_monarchs_cast_one_kind_of_spell_by_team() -> None:
    """catacombs-and-castles-2e-manual.md: Dark Spell Cards: Monarchs ("restricted to only casting either
    spells (heroes) or dark spells (catacomb heroes)")."""
    with pytest.raises(CardNotPlayableError, match="dark spells only"):
        table(
            ["the-barracks"],
            heroes=("xoric", "varesh", "cahreliss", "edarir"),
            spells={"cahreliss": ["heal"]},
        )
    with pytest.raises(CardNotPlayableError, match="spells only"):
        table(
            ["the-barracks"],
            heroes=("xoric", "varesh", "delilah", "edarir"),
            spells={"delilah": ["dark-vortex"]},
        )
    t = battle(["the-barracks"], heroes=("xoric", "varesh", "cahreliss", "delilah"))
    t.edit("hero-cahreliss", spells=("dark-vortex", "heal"))
    with pytest.raises(CardNotPlayableError):
        t.do(A.PlayCard("hero-cahreliss", "heal"))
    t.do(A.PlayCard("hero-cahreliss", "dark-vortex"))


def test_clerics_and_fighters_cast_no_dark_spell() -> None:
    """catacombs-and-castles-2e-manual.md: Dark Spell Cards: Clerics ("cannot use any weapons, spells, or
    magic items"), Fighters ("cannot use any spells or magic items")."""
    t = battle(["the-barracks"], heroes=("xoric", "varesh", "angelique", "hakoru"))
    for hero in ("hero-angelique", "hero-hakoru"):
        t.edit(hero, spells=("dark-vortex",))
        with pytest.raises(CardNotPlayableError):
            t.do(A.PlayCard(hero, "dark-vortex"))


def test_a_regular_spell_caster_may_cast_dark_spells_too() -> None:
    """catacombs-and-castles-2e-manual.md: Dark Spell Cards ("All heroes in Catacombs 3E ... are classified
    into four types"; the Wizard, a Spell Caster: docs/rulings.md)."""
    t = battle(["the-barracks"], spells={"varesh": ["dark-vortex"]})
    t.do(A.PlayCard("hero-varesh", "dark-vortex"))
    assert t.state.expected_shot()["shot"] == "vortex"  # type: ignore[index]


# == the Castles playmat ===========================================================================
def test_the_heroes_choose_their_start_zone_on_a_castles_playmat() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs & Castles Playmat(s) ("The heroic forces choose their
    Start Zone, the Overseer player uses the other one")."""
    t = table(["the-barracks"])
    t.do(A.EnterRoom(playmat="castles-front"))
    pending = t.state.pending
    assert pending is not None and pending.kind == "choose_start_zone" and t.state.room_index == -1
    events = t.do(A.Decide(pending.id, "start-zone-b"))
    chosen = next(e for e in events if e.type == "start_zone_chosen")
    assert (chosen.heroes, chosen.overseer) == ("start-zone-b", "start-zone-a")  # type: ignore[attr-defined]
    assert t.state.playmat == "castles-front" and t.state.room_id == "the-barracks"
    assert t.state.phase == "setup"


# == Castles shots ==================================================================================
def test_leech_always_regenerates() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs & Castles Shots In Catacombs 3E ("Treat the leech shot as
    if it always has the regeneration modifier")."""
    t = battle(["the-barracks"], heroes=("xoric", "varesh", "angelique", "edarir"))
    t.edit("hero-angelique", health=5)
    t.turn("hero-angelique", ("leech", "monster-troll-1"))
    assert t.health("monster-troll-1") == 1 and t.health("hero-angelique") == 6


def test_target_melee_damages_only_the_declared_target() -> None:
    """catacombs-and-castles-2e-manual.md: Character Shots: Target Melee ("Damage is only inflicted on the
    declared target"; a miss may be shot again); Catacombs & Castles Shots In Catacombs 3E."""
    t = battle(["the-barracks"])
    t.edit("hero-hakoru", shot_sequences=(seq("target_melee"),))
    t.declare("hero-hakoru")
    with pytest.raises(IllegalActionError):
        t.shot("hero-hakoru", "target_melee", "monster-orc-1")
    t.shot("hero-hakoru", "target_melee", "monster-orc-2", target="monster-orc-1")
    assert t.state.character("monster-orc-2").alive
    t.shot("hero-hakoru", "target_melee", "monster-orc-1", target="monster-orc-1")
    assert not t.state.character("monster-orc-1").alive


def test_grapple_grabs_one_enemy_and_rushes_it() -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots: Grapple ("moves it within 2.5cm (1") of the
    attacker's piece. Then the attacking player performs a rush shot with that piece"; "If multiple enemies
    are hit, the attacking player chooses one"; Reference: "Only affects one target"); both functions in 3E
    (Catacombs & Castles Shots In Catacombs 3E)."""
    t = battle(["the-barracks"], heroes=("xoric", "varesh", "kethyst", "edarir"))
    t.declare("hero-kethyst")
    t.shot("hero-kethyst", "grapple", "monster-orc-1", "monster-troll-1", target="monster-troll-1")
    assert t.health("monster-troll-1") == 1 and t.state.character("monster-orc-1").alive
    assert t.state.expected_shot()["piece"] == "monster-troll-1"  # type: ignore[index]
    t.shot("hero-kethyst", "rush", "monster-orc-2")
    assert t.state.character("monster-orc-2").alive  # the grabbed piece's rush harms nobody
    t.edit("monster-orc-3", health=2, max_health=2)
    t.edit("hero-edarir", shot_sequences=(seq("grapple"),))
    t.declare("hero-edarir")
    t.shot("hero-edarir", "grapple", "monster-orc-3", "monster-orc-4")  # no target named: the first hit
    assert (t.health("monster-orc-3"), t.health("monster-orc-4")) == (1, 1)
    assert t.state.expected_shot()["piece"] == "monster-orc-3"  # type: ignore[index]


def test_grapple_rescues_a_teammate() -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots: Grapple ("If the grapple piece hits a teammate, place
    their piece within 2.5cm (1") of the character performing the grapple shot")."""
    t = battle(["the-barracks"], heroes=("xoric", "varesh", "kethyst", "edarir"))
    t.declare("hero-kethyst")
    events = t.shot("hero-kethyst", "grapple", "hero-xoric")
    assert any(e.type == "piece_moved" and e.how == "rescue" for e in events)  # type: ignore[attr-defined]
    assert t.health("hero-xoric") == 9


def test_shuriken_and_vortex_rush_after_hitting_an_enemy() -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots: Shuriken ("the attacker *must* immediately perform a
    rush shot"; Reference: "Attacker may immediately perform a rush shot after hitting an enemy"), Vortex
    ("For each enemy hit ... a single rush shot with that enemy's piece")."""
    t = battle(["the-barracks"])
    t.declare("hero-hakoru")
    t.shot("hero-hakoru", "rush")
    t.shot("hero-hakoru", "shuriken", "monster-orc-1")
    assert not t.state.character("monster-orc-1").alive
    assert t.state.expected_shot()["piece"] == "hero-hakoru"  # type: ignore[index]
    t.shot("hero-hakoru", "rush")
    t.edit("hero-edarir", shot_sequences=(seq("vortex"),))
    t.declare("hero-edarir")
    t.shot("hero-edarir", "vortex", "monster-troll-1", "monster-orc-2")
    queue = [p.piece for p in t.state.turn.queue]  # type: ignore[union-attr]
    assert queue == ["monster-troll-1"]  # the orc is destroyed; the damaged troll is rushed


def test_net_traps_one_character_until_knocked_off() -> None:
    """catacombs-and-castles-2e-manual.md: Variant Rules for the Net and Web Shots ("The trapped character may
    not take their turn ... until the net or web piece is completely knocked off"); Catacombs & Castles
    Shots In Catacombs 3E ("follow the variant rules for the Net and Web shots")."""
    t = battle(["the-barracks"])
    t.edit("hero-edarir", shot_sequences=(seq("web"),))
    t.edit("hero-hakoru", shot_sequences=(seq("net"),))
    t.turn("hero-edarir", ("web", "monster-troll-1"))
    assert not t.state.character("monster-troll-1").alive  # the web's two damage
    t.edit("monster-pit-viper-1", health=2, max_health=2)
    t.declare("hero-hakoru")
    t.edit("monster-orc-1", health=2, max_health=2)
    t.shot("hero-hakoru", "net", "monster-orc-1", "monster-pit-viper-1", target="monster-pit-viper-1")
    assert t.state.character("monster-pit-viper-1").has("trapped")  # the attacker's choice
    assert not t.state.character("monster-orc-1").has("trapped")  # one at a time
    t.side_passes()
    assert "monster-pit-viper-1" not in [c.id for c in t.rules.actors(t.state)]
    t.declare("monster-orc-2", 0)
    t.shot("monster-orc-2", "melee", knocked_off=("monster-pit-viper-1",))
    assert not t.state.character("monster-pit-viper-1").has("trapped")


def test_lightning_damages_on_its_third_flick() -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots: Lightning ("The first two flicks do not inflict any
    damage, the third flick inflicts one point of damage"); Catacombs & Castles Shots In Catacombs 3E."""
    t = battle(["the-barracks"])
    t.edit("hero-hakoru", shot_sequences=(seq("lightning"),))
    t.declare("hero-hakoru")
    t.shot("hero-hakoru", "lightning", "monster-orc-1")
    t.shot("hero-hakoru", "lightning", "monster-orc-1")
    assert t.state.character("monster-orc-1").alive
    t.shot("hero-hakoru", "lightning", "monster-orc-1")
    assert not t.state.character("monster-orc-1").alive and t.state.turn is None


@pytest.mark.parametrize(("shot", "damage"), [("longbow", 1), ("ice_boulder", 1), ("hook", 0), ("web", 2)])
def test_castles_ranged_shots_deal_their_2e_damage(shot: str, damage: int) -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots (Longbow 1, Ice Boulder 1, Hook 0, Web 2); Catacombs &
    Castles Shots In Catacombs 3E ("The transfer related rules ... are ignored")."""
    t = battle(["the-barracks"])
    t.edit("hero-hakoru", shot_sequences=(Sequence(seq(shot).shots),))
    t.turn("hero-hakoru", (shot, "monster-troll-1"))
    assert t.health("monster-troll-1") == 2 - damage


# == Hero Attributes ================================================================================
def attributes(**by_card: tuple[str, ...]) -> CastlesFacts:
    return replace(FACTS, attributes=by_card)


def overseer_turn(t: RulesScript, monster: str, sequence: str, *hits: str) -> None:
    t.side_passes()
    t.edit(monster, shot_sequences=(seq(sequence),))
    shot = sequence.split()[-1]
    t.turn(monster, (shot, *hits))


def test_toughness_takes_one_less_damage_but_at_least_one() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Hero Attributes: Toughness ("receives one
    less damage from any shot (minimum one)")."""
    t = table(["rat-nest"], facts=attributes(hakoru=("toughness",)))
    t.enter_battle()
    overseer_turn(t, "monster-sewer-rat-1", "bite", "hero-hakoru")
    assert t.health("hero-hakoru") == 6
    t.turn("monster-sewer-rat-2", ("melee", "hero-hakoru"))
    assert t.health("hero-hakoru") == 5


def test_heat_resistant_heroes_shrug_off_fire() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes: Heat Resistant ("An unmodified fireball shot
    inflicts no damage. The giant fireball shot inflicts one point of damage instead of two")."""
    t = table(["rat-nest"], facts=attributes(hakoru=("heat_resistant",)))
    t.enter_battle()
    overseer_turn(t, "monster-sewer-rat-1", "fireball", "hero-hakoru")
    assert t.health("hero-hakoru") == 7
    t.edit("monster-sewer-rat-2", shot_sequences=(seq("giant_fireball"),))
    t.turn("monster-sewer-rat-2", ("giant_fireball", "hero-hakoru"))
    assert t.health("hero-hakoru") == 6


def test_stun_resistant_and_toxic_heroes_ignore_stun_and_poison() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes: Stun Resistant ("does not take a Stunned! card"),
    Toxic ("immune to the effects of the poison shot modifier"; "When damaged by a character shot, the
    attacker must immediately suffer one point of damage")."""
    t = table(["rat-nest"], facts=attributes(hakoru=("stun_resistant",), edarir=("toxic",)))
    t.enter_battle()
    overseer_turn(t, "monster-sewer-rat-1", "stun melee", "hero-hakoru")
    assert not t.state.character("hero-hakoru").has("stunned")
    t.turn("monster-sewer-rat-2", ("melee", "hero-edarir"))
    assert t.state.character("hero-edarir").poison == () and t.health("hero-edarir") == 6
    assert not t.state.character("monster-sewer-rat-2").alive  # the toxic hero's point of damage


def test_bloodless_gives_no_health_to_a_regenerating_attacker() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes: Bloodless ("does not provide any health to the
    attacker. Affects the following: leech shot, regeneration shot modifier")."""
    t = table(["the-barracks"], facts=attributes(hakoru=("bloodless",)))
    t.enter_battle()
    t.edit("monster-troll-1", health=1)
    t.side_passes()
    t.turn("monster-troll-1", ("melee", "hero-hakoru"))
    assert t.health("monster-troll-1") == 1 and t.health("hero-hakoru") == 6


def test_constructs_and_climbers_answer_damage_with_a_shot() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes: Construct ("immune to the effects of the corrosion
    shot modifier. After resolving damage, the character ... may immediately perform a hook shot"), Climber
    ("may attempt to escape from their attacker by performing a single rush shot")."""
    t = table(["rat-nest"], facts=attributes(xoric=("construct",), varesh=("climber",)))
    t.enter_battle()
    overseer_turn(t, "monster-sewer-rat-1", "corrosion melee")
    t.declare("monster-sewer-rat-2")
    t.shot("monster-sewer-rat-2", "melee", "hero-xoric")
    expected = t.state.expected_shot()
    assert expected is not None and (expected["shot"], expected["actor"]) == ("hook", "hero-xoric")
    t.shot("monster-sewer-rat-2", "hook")
    t.edit("monster-sewer-rat-3", shot_sequences=(seq("corrosion melee"),))
    t.edit("hero-varesh", items=("berserker-battle-axe",))
    t.declare("monster-sewer-rat-3")
    t.shot("monster-sewer-rat-3", "melee", "hero-varesh")
    expected = t.state.expected_shot()
    assert expected is not None and (expected["shot"], expected["actor"]) == ("rush", "hero-varesh")
    assert t.state.character("hero-varesh").items == ()  # only constructs resist corrosion


def test_a_construct_is_unaffected_by_corrosion() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes: Construct ("immune to the effects of the corrosion
    shot modifier")."""
    t = table(["rat-nest"], facts=attributes(xoric=("construct",)), items={"xoric": ["berserker-battle-axe"]})
    t.enter_battle()
    overseer_turn(t, "monster-sewer-rat-1", "corrosion melee", "hero-xoric")
    assert t.state.character("hero-xoric").items == ("berserker-battle-axe",)


def test_a_flying_hero_may_move_to_a_rune_after_its_sequence() -> None:
    """catacombs-and-castles-2e-manual.md: Attributes: Flying ("an optional Move to Rune ... *at the end of
    their shot sequence*. This includes their ability"); Hero Attributes ("the anchor and flying attributes
    ... behave the same in Catacombs 3E")."""
    t = table(["the-barracks"], facts=attributes(hakoru=("flying",)), spells={"edarir": ["heal"]})
    t.enter_battle()
    t.declare("hero-hakoru")
    assert [p.shot.kind for p in t.state.turn.queue] == ["rush", "shuriken", "move_to_rune"]  # type: ignore[union-attr]
    t.shot("hero-hakoru", "rush")
    t.do(A.SkipShot("hero-hakoru"))
    t.shot("hero-hakoru", "move_to_rune")
    assert t.state.turn is None
    t.declare("hero-xoric")
    assert [p.shot.kind for p in t.state.turn.queue] == ["melee", "rush"]  # type: ignore[union-attr]
