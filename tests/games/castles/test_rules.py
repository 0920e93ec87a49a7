"""Catacombs & Castles 2E rules, each test citing catacombs-and-castles-2e-manual.md: <section>."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.games.castles.core import actions as A
from service.games.castles.second_edition.setup import SetupRefused
from service.rules.errors import CardNotPlayableError, IllegalActionError, NotYourTurnError
from tests.helpers.game_setups import (
    CASTLES_2E,
    TUTORIAL_TEAMS,
    castles_2e,
    shipped_cards,
    team_game,
    with_attributes,
)
from tests.helpers.rules_script import RulesScript

BOSS_SIDES = [
    {"team": "castle", "heroes": ["larra", "kethyst", "delilah"], "health_tokens": 12},
    {
        "team": "catacomb",
        "boss": "xaugorth",
        "warriors": ["catacomb-warrior-a", "catacomb-warrior-b", "catacomb-warrior-c"],
        "health_tokens": 10,
        "reinforcement_tokens": 2,
    },
]


def past_first_strike(g: RulesScript) -> None:
    """The first hero's turn (no damage under the First Strike Rule): the Assassin rushes."""
    g.turn("hero-hakoru", ("rush",), ("fireball",))


def test_first_strike_only_the_first_hero_inflicts_no_damage() -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Turn Order (First Strike Rule; RULINGS.md 9)"""
    g = team_game()
    g.turn("hero-hakoru", ("rush",), ("fireball", "hero-larra"))
    assert g.pool("castle") == 12
    g.turn("hero-larra", ("rush",), ("missile", "hero-hakoru"))
    assert g.pool("catacomb") == 11


def test_turns_alternate_and_a_hero_acts_once_a_round() -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Turn Order"""
    g = team_game()
    past_first_strike(g)
    with pytest.raises(NotYourTurnError):
        g.declare("hero-formilus")
    g.turn("hero-larra", ("rush",), ("missile",))
    with pytest.raises(IllegalActionError):
        g.declare("hero-hakoru")  # already acted this round


def test_no_friendly_fire_and_damage_only_by_direct_hits() -> None:
    """catacombs-and-castles-2e-manual.md: Inflicting Damage (The Friendly Fire Rule)"""
    g = team_game()
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "rush", "hero-kethyst")
    g.shot("hero-larra", "missile", "hero-delilah")
    assert g.pool("castle") == 12 and g.pool("catacomb") == 12


def test_one_shot_damages_each_enemy_it_hits_directly() -> None:
    """catacombs-and-castles-2e-manual.md: Inflicting Damage"""
    g = team_game()
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "rush")
    g.shot("hero-larra", "missile", "hero-formilus", "hero-cahreliss")
    g.answer("power:larra-ability")
    g.answer("power:larra-ability")
    assert g.pool("catacomb") == 10
    assert g.tokens("hero-larra", "larra-ability") == 2


def test_the_chain_rule_ignores_a_consecutive_hit_on_the_same_target() -> None:
    """catacombs-and-castles-2e-manual.md: Inflicting Damage (The Chain Rule)"""
    g = team_game()
    past_first_strike(g)
    g.declare("hero-kethyst")  # shipped Rules A: rush, then missile
    g.shot("hero-kethyst", "rush", "hero-formilus")  # a rush inflicts nothing
    g.shot("hero-kethyst", "missile", "hero-formilus")
    g.answer("power:kethyst-ability")
    assert g.pool("catacomb") == 11
    # An ability of two missiles: the second on the same Marauder is ignored.
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    ability = replace(
        heroes["larra"].ability, charge=1, sequences=((_step("missile"), _step("missile", "then")),)
    )
    heroes["larra"] = replace(heroes["larra"], ability=ability)
    g2 = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    past_first_strike(g2)
    g2.do(A.SetCharge("hero-larra", "ability", 1))
    g2.do(A.PerformCard("hero-larra", "ability"))
    g2.shot("hero-larra", "missile", "hero-formilus")
    g2.shot("hero-larra", "missile", "hero-formilus")
    assert g2.pool("catacomb") == 11


def _step(shot: str, connector: str | None = None):  # type: ignore[no-untyped-def]
    from service.games.castles.core.cards import Step

    return Step(shot, connector)


def test_the_charging_rule_discards_surplus_tokens() -> None:
    """catacombs-and-castles-2e-manual.md: Health and Transfer Types (The Charging Rule)"""
    g = team_game()
    past_first_strike(g)
    g.do(A.SetCharge("hero-larra", "ability", 3))
    g.do(A.SetCharge("hero-larra", "team_action", 4))
    g.declare("hero-larra")
    g.shot("hero-larra", "rush")
    events = g.shot("hero-larra", "missile", "hero-formilus")
    assert g.state.pending is None
    assert any(getattr(e, "transfer", "") == "discard" for e in events)
    assert g.tokens("hero-larra", "larra-ability") == 3


def test_a_charged_ability_is_performed_instead_of_the_sequence_and_its_tokens_discarded() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Abilities"""
    g = team_game()
    past_first_strike(g)
    with pytest.raises(CardNotPlayableError):
        g.do(A.PerformCard("hero-larra", "ability"))
    g.do(A.SetCharge("hero-larra", "ability", 3))
    g.do(A.PerformCard("hero-larra", "ability"))
    assert g.tokens("hero-larra", "larra-ability") == 0
    assert [p.shot for p in g.state.turn.queue] == ["rush", "longbow"]


def test_a_team_action_is_performed_by_every_friendly_hero_even_after_their_turn() -> None:
    """catacombs-and-castles-2e-manual.md: Team Actions"""
    g = team_game()
    past_first_strike(g)
    g.turn("hero-larra", ("rush",), ("missile",))
    g.turn("hero-formilus", ("rush",), ("fireball",))
    g.do(A.SetCharge("hero-kethyst", "team_action", 4))
    g.do(A.PerformCard("hero-kethyst", "team_action", order=("hero-delilah", "hero-larra", "hero-kethyst")))
    actors = [p.actor for p in g.state.turn.queue]
    assert actors == ["hero-delilah"] * 2 + ["hero-larra"] * 2 + ["hero-kethyst"] * 2
    g.shot("hero-delilah", "rush")
    g.shot("hero-delilah", "melee", "hero-cahreliss")
    g.answer("power:delilah-ability")
    assert g.pool("catacomb") == 11


def test_power_assist_health_void_and_capture_transfers() -> None:
    """catacombs-and-castles-2e-manual.md: Health and Transfer Types"""
    g = team_game()
    past_first_strike(g)
    # Critical melee: power or void. Void takes tokens off the damaged hero's card.
    g.do(A.SetCharge("hero-formilus", "ability", 2))
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    for hero, shot in (("larra", "critical_melee"), ("kethyst", "leech"), ("delilah", "net")):
        heroes[hero] = replace(heroes[hero], sequences=((_step(shot),),))
    g = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    past_first_strike(g)
    g.do(A.SetCharge("hero-formilus", "ability", 2))
    g.declare("hero-larra")
    g.shot("hero-larra", "critical_melee", "hero-formilus")
    assert g.pool("catacomb") == 10
    assert "void:formilus-ability" in {o.id for o in g.state.pending.options}
    g.answer("void:formilus-ability")
    assert g.tokens("hero-formilus", "formilus-ability") == 0
    g.turn("hero-formilus", ("rush",), ("fireball",))
    # Leech: a health transfer flips the token into the attacker's pool.
    g.declare("hero-kethyst")
    g.shot("hero-kethyst", "leech", "hero-cahreliss")
    g.answer("health")
    assert (g.pool("castle"), g.pool("catacomb")) == (13, 9)
    g.turn("hero-cahreliss", ("rush",), ("fireball",))
    # Net: one token captured becomes a Half Power Armour Token for a friendly hero.
    g.declare("hero-delilah")
    g.shot("hero-delilah", "net", "hero-hakoru")
    g.answer("capture:hero-larra")
    assert g.state.character("hero-larra").armour == (1,)


def test_assist_transfer_charges_a_teammate() -> None:
    """catacombs-and-castles-2e-manual.md: Health and Transfer Types (Assist Transfer)"""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    heroes["larra"] = replace(heroes["larra"], sequences=((_step("longbow"),),))
    g = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "longbow", "hero-formilus")
    g.answer("assist:hero-kethyst:kethyst-ability")
    assert g.tokens("hero-kethyst", "kethyst-ability") == 1


def test_armour_blocks_a_hit_full_flips_then_half_is_discarded() -> None:
    """catacombs-and-castles-2e-manual.md: Armour Tokens"""
    g = team_game()
    past_first_strike(g)
    g.do(A.SetArmour("hero-hakoru", (2,)))
    for attacker, defender_turn in (("hero-larra", "hero-formilus"), ("hero-kethyst", "hero-cahreliss")):
        g.declare(attacker)
        g.shot(attacker, "rush")
        g.shot(attacker, "missile", "hero-hakoru")
        assert g.state.pending.kind == "armour"
        g.answer("block")
        g.turn(defender_turn, ("rush",), ("fireball",))
    assert g.pool("catacomb") == 12
    assert g.state.character("hero-hakoru").armour == ()


def test_one_versus_one_armour_twelve_tokens_and_no_assists() -> None:
    """catacombs-and-castles-2e-manual.md: One versus One Mode"""
    g = castles_2e(
        {
            "mode": "one-versus-one",
            "first": "castle",
            "sides": [{"team": "castle", "heroes": ["larra"]}, {"team": "catacomb", "heroes": ["hakoru"]}],
        }
    )
    assert g.pool("castle") == 12 and g.pool("catacomb") == 12
    assert g.state.character("hero-larra").armour == (2,)
    g.turn("hero-larra", ("rush",), ("missile",))
    g.turn("hero-hakoru", ("rush",), ("fireball", "hero-larra"))
    g.answer("take")
    assert g.pool("castle") == 11
    # One hero in play: no assist transfer is offered, only the Assassin's own cards.
    assert all(o.id.startswith("power:hakoru") for o in g.state.pending.options)
    g.answer("power:hakoru-team-action")
    assert g.state.round == 2


def test_the_game_ends_when_a_health_pool_is_depleted() -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Objective"""
    g = castles_2e({"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS, "health_tokens": 2})
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "rush")
    g.shot("hero-larra", "missile", "hero-formilus", "hero-cahreliss")
    g.answer("power:larra-ability")  # the first token; the second hit empties the pool
    assert g.state.outcome == "castle" and g.state.phase == "game_over"
    with pytest.raises(IllegalActionError):
        g.declare("hero-formilus")


def test_roles_one_of_each_per_team_unless_quick_start() -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Setup (RULINGS.md 10); Quick Start"""
    quick = [
        {"team": "castle", "heroes": ["larra", "randsarr", "sothemir"]},
        {"team": "catacomb", "heroes": ["hakoru", "angelique", "xaugorth"]},
    ]
    with pytest.raises(SetupRefused, match="one of each role"):
        castles_2e({"mode": "team", "sides": quick})
    g = castles_2e({"mode": "team", "sides": quick, "quick_start": True, "seed": 3})
    assert g.state.first_side in ("castle", "catacomb")


def test_setup_refuses_unequal_teams_and_pools() -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Setup; Team Mode"""
    uneven = [TUTORIAL_TEAMS[0], {"team": "catacomb", "heroes": ["hakoru", "formilus"]}]
    with pytest.raises(SetupRefused, match="same number of heroes"):
        castles_2e({"mode": "team", "sides": uneven})
    pools = [{**TUTORIAL_TEAMS[0], "health_tokens": 10}, TUTORIAL_TEAMS[1]]
    with pytest.raises(SetupRefused, match="same number of Health Tokens"):
        castles_2e({"mode": "team", "sides": pools})


def test_heat_resistant_and_toughness() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes (Heat Resistant, Toughness)"""
    cards = with_attributes(shipped_cards(CASTLES_2E), "larra", "heat_resistant")
    cards = with_attributes(cards, "kethyst", "toughness")
    g = castles_2e({"mode": "team", "first": "castle", "sides": TUTORIAL_TEAMS}, cards)
    g.turn("hero-delilah", ("rush",), ("missile",))
    g.turn("hero-hakoru", ("rush",), ("fireball", "hero-larra"))
    assert g.pool("castle") == 12
    heroes = dict(cards.heroes)
    heroes["formilus"] = replace(heroes["formilus"], sequences=((_step("critical_melee"),),))
    g = castles_2e(
        {"mode": "team", "first": "castle", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    g.turn("hero-delilah", ("rush",), ("missile",))
    g.declare("hero-formilus")
    g.shot("hero-formilus", "critical_melee", "hero-kethyst")
    g.answer("power:formilus-ability")
    assert g.pool("castle") == 11  # two points less one, minimum one


def test_toxic_hurts_a_character_shot_attacker() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes (Toxic)"""
    cards = with_attributes(shipped_cards(CASTLES_2E), "formilus", "toxic")
    heroes = dict(cards.heroes)
    heroes["larra"] = replace(heroes["larra"], sequences=((_step("melee"),),))
    g = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "melee", "hero-formilus")
    g.answer("power:larra-ability")
    assert (g.pool("castle"), g.pool("catacomb")) == (11, 11)


def test_target_shot_damages_only_the_declared_target_and_may_retry() -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots (Target)"""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    heroes["larra"] = replace(heroes["larra"], sequences=((_step("target"),),))
    g = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "target", "hero-cahreliss", target="hero-formilus")
    assert g.pool("catacomb") == 12
    assert g.state.turn.queue[0].added == "retry"
    g.shot("hero-larra", "target", "hero-formilus")
    g.answer("power:larra-ability")
    assert g.pool("catacomb") == 11


def test_lightning_is_three_flicks_and_only_the_third_damages() -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots (Lightning Shot)"""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    heroes["larra"] = replace(heroes["larra"], sequences=((_step("lightning"),),))
    g = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "lightning", "hero-formilus")
    g.shot("hero-larra", "lightning", "hero-cahreliss")
    assert g.pool("catacomb") == 12
    g.shot("hero-larra", "lightning", "hero-hakoru")
    g.answer("power:larra-ability")
    assert g.pool("catacomb") == 11


def test_vortex_adds_a_rush_with_each_enemy_hit() -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots (Vortex)"""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    heroes["larra"] = replace(heroes["larra"], sequences=((_step("vortex"),),))
    g = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "vortex", "hero-formilus", "hero-cahreliss")
    g.answer("power:larra-ability")
    g.answer("power:larra-ability")
    assert [(p.shot, p.piece) for p in g.state.turn.queue] == [
        ("rush", "hero-formilus"),
        ("rush", "hero-cahreliss"),
    ]


def test_net_variant_traps_a_damaged_enemy_until_the_piece_is_knocked_off() -> None:
    """catacombs-and-castles-2e-manual.md: Variant Rules for the Net and Web Shots (Optional)"""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    heroes["larra"] = replace(heroes["larra"], sequences=((_step("net"),),))
    g = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS, "net_web_variant": True},
        replace(cards, heroes=heroes),
    )
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "net", "hero-formilus")
    g.answer("power:larra-ability")
    assert g.state.character("hero-formilus").trapped
    with pytest.raises(IllegalActionError, match="trapped"):
        g.declare("hero-formilus")
    g.turn("hero-cahreliss", ("rush", "hero-formilus"), ("fireball",))
    g.declare("hero-kethyst")
    g.shot("hero-kethyst", "rush", knocked_off=("hero-formilus",))
    assert not g.state.character("hero-formilus").trapped


def test_net_variant_nets_give_only_a_power_transfer() -> None:
    """catacombs-and-castles-2e-manual.md: Variant Rules for the Net and Web Shots (Optional)"""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    heroes["larra"] = replace(heroes["larra"], sequences=((_step("web"),),))
    for variant, capture_offered in ((False, True), (True, False)):
        g = castles_2e(
            {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS, "net_web_variant": variant},
            replace(cards, heroes=heroes),
        )
        past_first_strike(g)
        g.declare("hero-larra")
        g.shot("hero-larra", "web", "hero-formilus")
        assert g.pool("catacomb") == 10
        options = {o.id for o in g.state.pending.options}
        assert ("capture:hero-kethyst" in options) is capture_offered


def test_runic_shift_places_the_character_then_it_may_melee() -> None:
    """catacombs-and-castles-2e-manual.md: Special Shots (Runic Shift)"""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    heroes["larra"] = replace(heroes["larra"], sequences=((_step("runic_shift"),),))
    g = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    past_first_strike(g)
    g.declare("hero-larra")
    assert [p.shot for p in g.state.turn.queue] == ["runic_shift", "melee"]
    g.shot("hero-larra", "runic_shift")
    assert g.pool("catacomb") == 12
    g.shot("hero-larra", "melee", "hero-cahreliss")
    g.answer("power:larra-ability")
    assert g.pool("catacomb") == 11


def test_an_egg_that_hits_an_enemy_summons_a_warrior_who_acts_at_once() -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots (Egg); Warriors"""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    heroes["larra"] = replace(heroes["larra"], sequences=((_step("egg"), _step("missile", "then")),))
    sides = [{**TUTORIAL_TEAMS[0], "warriors": ["castle-warrior-a"]}, TUTORIAL_TEAMS[1]]
    g = castles_2e({"mode": "team", "first": "catacomb", "sides": sides}, replace(cards, heroes=heroes))
    past_first_strike(g)
    g.declare("hero-larra")
    g.shot("hero-larra", "egg", "hero-formilus")
    assert g.pool("catacomb") == 12  # the egg inflicts no damage
    warrior = "warrior-castle-castle-warrior-a-1"
    assert g.state.character(warrior).on_mat
    assert [(p.shot, p.actor) for p in g.state.turn.queue] == [("melee", warrior), ("missile", "hero-larra")]
    g.shot(warrior, "melee", "hero-cahreliss")
    assert g.pool("catacomb") == 11  # a warrior's tokens are discarded: no decision
    assert g.state.pending is None


def boss_game(**extra: object) -> RulesScript:
    return castles_2e({"mode": "boss", "first": "castle", "sides": BOSS_SIDES, **extra})


def test_boss_mode_setup_and_turn_order() -> None:
    """catacombs-and-castles-2e-manual.md: Boss Mode Turn Order; Castle and Catacomb Bosses"""
    g = boss_game()
    on_mat = [c.id for c in g.state.members("catacomb") if c.on_mat]
    assert on_mat == [
        "boss-xaugorth",
        "warrior-catacomb-catacomb-warrior-a-1",
        "warrior-catacomb-catacomb-warrior-b-1",
        "warrior-catacomb-catacomb-warrior-c-1",
    ]
    assert g.pool("catacomb") == 10 and g.state.side("catacomb").reinforcements == 2
    # The hero team takes all its turns (any order), then the boss player; First Strike for the castle.
    g.turn("hero-delilah", ("rush",), ("missile", "boss-xaugorth"))
    assert g.pool("catacomb") == 10
    g.turn("hero-larra", ("rush",), ("missile",))
    assert g.state.side_to_move == "castle"
    g.turn("hero-kethyst", ("rush",), ("missile",))
    assert g.state.side_to_move == "catacomb"
    g.turn("warrior-catacomb-catacomb-warrior-a-1", ("melee", "hero-larra"))
    assert g.pool("castle") == 11  # warrior damage: the token is discarded
    assert not g.state.pending


def test_boss_mode_needs_its_token_numbers_and_the_boss_teams_warriors() -> None:
    """catacombs-and-castles-2e-manual.md: Boss Mode Rules; Castle and Catacomb Bosses"""
    side = dict(BOSS_SIDES[1])
    del side["health_tokens"]
    with pytest.raises(SetupRefused, match="health_tokens"):
        castles_2e({"mode": "boss", "sides": [BOSS_SIDES[0], side]})
    wrong = {**BOSS_SIDES[1], "warriors": ["castle-warrior-a", "catacomb-warrior-b", "catacomb-warrior-c"]}
    with pytest.raises(SetupRefused, match="boss' team"):
        castles_2e({"mode": "boss", "sides": [BOSS_SIDES[0], wrong]})


def test_a_warrior_is_removed_when_damaged_and_the_boss_charges_its_action() -> None:
    """catacombs-and-castles-2e-manual.md: Warriors; Reinforcements and Boss Action Cards"""
    g = boss_game(first="catacomb")
    g.turn("boss-xaugorth", ("rush",), ("fireball",))
    g.turn("warrior-catacomb-catacomb-warrior-a-1", ("melee",))
    g.turn("warrior-catacomb-catacomb-warrior-b-1", ("fireball",))
    g.turn("warrior-catacomb-catacomb-warrior-c-1", ("rush",), ("melee",))
    assert g.state.side_to_move == "castle"
    g.declare("hero-larra")
    g.shot("hero-larra", "rush")
    g.shot("hero-larra", "missile", "warrior-catacomb-catacomb-warrior-a-1")
    assert not g.state.character("warrior-catacomb-catacomb-warrior-a-1").on_mat
    assert g.pool("catacomb") == 10


def test_boss_action_only_at_the_start_of_the_turn_and_reinforcements_cost_a_token() -> None:
    """catacombs-and-castles-2e-manual.md: Reinforcements and Boss Action Cards"""
    g = boss_game(first="catacomb")
    g.do(A.SetCharge("boss-xaugorth", "catacomb-summon-reinforcements", 3))
    g.turn("warrior-catacomb-catacomb-warrior-a-1", ("melee",))
    with pytest.raises(NotYourTurnError, match="beginning"):
        g.do(A.PerformCard("boss-xaugorth", "catacomb-summon-reinforcements"))
    g2 = boss_game(first="catacomb")
    g2.do(A.SetCharge("boss-xaugorth", "catacomb-summon-reinforcements", 3))
    g2.do(A.PerformCard("boss-xaugorth", "catacomb-summon-reinforcements"))
    assert g2.state.side("catacomb").reinforcements == 1
    assert g2.state.pending.kind == "summon"
    g2.answer("warrior-catacomb-catacomb-warrior-b-2")
    assert g2.state.character("warrior-catacomb-catacomb-warrior-b-2").on_mat


def test_boss_versus_boss_game_lengths_and_same_team_draft() -> None:
    """catacombs-and-castles-2e-manual.md: Boss vs Boss Mode Overview"""
    sides = [
        {
            "team": "catacomb",
            "boss": "xaugorth",
            "warriors": ["catacomb-warrior-a", "castle-warrior-b", "catacomb-warrior-c"],
        },
        {
            "team": "catacomb",
            "boss": "xaugorth",
            "warriors": ["castle-warrior-a", "catacomb-warrior-b", "castle-warrior-c"],
        },
    ]
    doubled = [
        sides[0],
        {**sides[1], "warriors": ["catacomb-warrior-a", "catacomb-warrior-b", "castle-warrior-c"]},
    ]
    with pytest.raises(SetupRefused, match="each Warrior card goes to one player"):
        castles_2e({"mode": "boss-versus-boss", "sides": doubled})
    for length, health, reinforcements in (("short", 8, 2), ("average", 16, 3), ("long", 24, 4)):
        g = castles_2e(
            {"mode": "boss-versus-boss", "game_length": length, "first": "catacomb-1", "sides": sides}
        )
        assert [(s.id, s.health, s.reinforcements) for s in g.state.sides] == [
            ("catacomb-1", health, reinforcements),
            ("catacomb-2", health, reinforcements),
        ]


def test_sothemir_starts_with_three_armour_tokens_and_changes_form_with_the_last() -> None:
    """catacombs-and-castles-2e-manual.md: Castle and Catacomb Bosses; Armour Tokens"""
    sides = [
        {
            "team": "castle",
            "boss": "sothemir",
            "warriors": ["castle-warrior-a", "castle-warrior-b", "castle-warrior-c"],
        },
        {
            "team": "catacomb",
            "boss": "xaugorth",
            "warriors": ["catacomb-warrior-a", "catacomb-warrior-b", "catacomb-warrior-c"],
        },
    ]
    g = castles_2e({"mode": "boss-versus-boss", "game_length": "short", "first": "catacomb", "sides": sides})
    assert g.state.character("boss-sothemir").armour == (2, 2, 2)
    assert g.state.character("boss-sothemir").form == "armoured"
    g.do(A.SetArmour("boss-sothemir", (1,)))
    g.do(A.ChangeForm("boss-xaugorth"))
    assert g.state.character("boss-xaugorth").form == "alternate"
    g.turn("boss-xaugorth", ("giant_fireball",))
    for w in "abc":
        g.declare(f"warrior-catacomb-catacomb-warrior-{w}-1")
        g.do(A.EndTurn(f"warrior-catacomb-catacomb-warrior-{w}-1"))
    g.declare("warrior-castle-castle-warrior-b-1")
    g.shot("warrior-castle-castle-warrior-b-1", "missile")
    assert g.state.side_to_move == "castle"
    g.do(A.SetArmour("boss-sothemir", (1,)))
    g.turn("boss-sothemir", ("shield",), ("rush",), ("critical_melee",))
    g.declare("warrior-castle-castle-warrior-a-1")
    g.do(A.EndTurn("warrior-castle-castle-warrior-a-1"))
    g.declare("warrior-castle-castle-warrior-c-1")
    g.do(A.EndTurn("warrior-castle-castle-warrior-c-1"))
    assert g.state.side_to_move == "catacomb" and g.state.round == 2
    g.declare("boss-xaugorth")
    g.shot("boss-xaugorth", "giant_fireball", "boss-sothemir")
    g.answer("block")
    assert g.state.character("boss-sothemir").armour == ()
    assert g.state.character("boss-sothemir").form == "alternate"


def test_the_shipped_shot_table_agrees_with_the_manuals_shot_reference() -> None:
    """catacombs-and-castles-2e-manual.md: Reference (Character Shots, Special Shots, Ranged Shots)"""
    from service.games.castles.core.cards import SHOT_REFERENCE

    shipped = shipped_cards(CASTLES_2E).shots
    assert set(shipped) == set(SHOT_REFERENCE)
    for name, rule in SHOT_REFERENCE.items():
        assert (shipped[name].kind, shipped[name].damage) == (rule.kind, rule.damage), name
        if rule.damage:
            assert shipped[name].transfers == rule.transfers, name
