"""Catacombs & Castles 2E: connectors, hero actions, attributes, shields, warriors and Boss vs Boss turns."""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.games.castles.core import actions as A
from service.games.castles.core.cards import CastlesCards, ChargedCard, Step
from service.rules.errors import NotYourTurnError, UnexpectedShotError
from tests.helpers.game_setups import CASTLES_2E, TUTORIAL_TEAMS, castles_2e, shipped_cards, with_attributes
from tests.helpers.rules_script import RulesScript

WARRIORS = {
    "castle": ["castle-warrior-a", "castle-warrior-b", "castle-warrior-c"],
    "catacomb": ["catacomb-warrior-a", "catacomb-warrior-b", "catacomb-warrior-c"],
}


def cards_with(hero: str, *sequences: tuple[Step, ...], base: CastlesCards | None = None) -> CastlesCards:
    cards = base or shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    heroes[hero] = replace(heroes[hero], sequences=tuple(sequences))
    return replace(cards, heroes=heroes)


def game(cards: CastlesCards, first: str = "castle", **extra: object) -> RulesScript:
    return castles_2e({"mode": "team", "first": first, "sides": TUTORIAL_TEAMS, **extra}, cards)


def test_or_connector_the_player_declares_one_alternative() -> None:
    """catacombs-and-castles-2e-manual.md: "Or" Connector Example (melee, fireball or net)"""
    g = game(cards_with("larra", (Step("melee"),), (Step("fireball"),), (Step("net"),)))
    g.declare("hero-larra", None)
    assert g.state.pending.kind == "choose_alternative"
    assert [o.label for o in g.state.pending.options] == ["melee", "fireball", "net"]
    g.answer("2")
    with pytest.raises(UnexpectedShotError):
        g.shot("hero-larra", "melee")
    assert [p.shot for p in g.state.turn.queue] == ["net"]


def test_then_connector_in_printed_order_and_elastic_in_any_order() -> None:
    """catacombs-and-castles-2e-manual.md: Shot Sequences ("Then" and "Elastic" Connector Examples)"""
    g = game(cards_with("larra", (Step("shield"), Step("rush", "then"), Step("critical_melee", "elastic"))))
    g.declare("hero-larra")
    with pytest.raises(UnexpectedShotError):
        g.shot("hero-larra", "rush")  # the shield shot comes first
    g.shot("hero-larra", "shield", "hero-hakoru")
    assert g.pool("catacomb") == 12  # shield shots inflict no damage
    g.shot("hero-larra", "critical_melee")  # any order after the Elastic connector
    g.shot("hero-larra", "rush")
    assert g.state.turn is None


def test_all_shots_are_optional() -> None:
    """catacombs-and-castles-2e-manual.md: Shot Sequences ("All shots in a shot sequence are optional")"""
    g = game(shipped_cards(CASTLES_2E))
    g.declare("hero-larra")
    g.do(A.SkipShot("hero-larra"))
    g.shot("hero-larra", "missile")
    assert g.state.turn is None and g.state.side_to_move == "catacomb"


def test_hero_actions_sequence_or_a_charged_ability_or_team_action() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Actions"""
    g = game(shipped_cards(CASTLES_2E))
    offered = {
        type(a).__name__ for a in g.rules.choices(g.state) if getattr(a, "character", "") == "hero-larra"
    }
    assert offered == {"DeclareAction"}
    g.do(A.SetCharge("hero-larra", "ability", 3))
    g.do(A.SetCharge("hero-larra", "team_action", 4))
    cards = {
        a.card
        for a in g.rules.choices(g.state)
        if isinstance(a, A.PerformCard) and a.character == "hero-larra"
    }
    assert cards == {"ability", "team_action"}


def test_horn_of_heroes_one_chosen_friendly_hero_performs_the_shots_after_it() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Abilities (Horn of Heroes)"""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    horn = ChargedCard("larra-ability", "Sabotage", "ability", 1, ((Step("rush"), Step("melee", "then")),), 1)
    heroes["larra"] = replace(heroes["larra"], ability=horn)
    g = game(replace(cards, heroes=heroes))
    g.do(A.SetCharge("hero-larra", "ability", 1))
    with pytest.raises(Exception, match="Horn of Heroes"):
        g.do(A.PerformCard("hero-larra", "ability"))
    g.do(A.PerformCard("hero-larra", "ability", helper="hero-kethyst"))
    assert [(p.shot, p.actor) for p in g.state.turn.queue] == [
        ("rush", "hero-larra"),
        ("melee", "hero-kethyst"),
    ]


def test_flying_adds_an_optional_move_to_rune_at_the_end() -> None:
    """catacombs-and-castles-2e-manual.md: Attributes (Flying)"""
    g = game(with_attributes(shipped_cards(CASTLES_2E), "larra", "flying"))
    g.declare("hero-larra")
    assert [p.shot for p in g.state.turn.queue] == ["rush", "missile", "move_to_rune"]
    g.shot("hero-larra", "rush")
    g.shot("hero-larra", "missile")
    g.shot("hero-larra", "move_to_rune")
    assert g.state.turn is None


def test_climber_and_construct_answer_damage_with_their_own_shot() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes (Climber, Construct)"""
    cards = with_attributes(shipped_cards(CASTLES_2E), "hakoru", "climber")
    cards = with_attributes(cards, "formilus", "construct")
    g = game(cards_with("larra", (Step("missile"), Step("missile", "then")), base=cards), first="castle")
    g.turn("hero-delilah", ("rush",), ("missile",))  # the first strike
    g.turn("hero-formilus", ("rush",), ("fireball",))
    g.declare("hero-larra")
    g.shot("hero-larra", "missile", "hero-hakoru")
    g.answer("power:larra-ability")
    assert [(p.shot, p.actor) for p in g.state.turn.queue][0] == ("rush", "hero-hakoru")
    g.shot("hero-hakoru", "rush")
    g.shot("hero-larra", "missile", "hero-formilus")
    g.answer("power:larra-ability")
    assert [(p.shot, p.actor) for p in g.state.turn.queue] == [("hook", "hero-formilus")]


def test_bloodless_gives_no_health_transfer() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes (Bloodless); Character Shots (Leech)"""
    for attributes, health_offered in (((), True), (("bloodless",), False)):
        cards = with_attributes(shipped_cards(CASTLES_2E), "hakoru", *attributes)
        g = game(cards_with("larra", (Step("leech"),), base=cards))
        g.turn("hero-delilah", ("rush",), ("missile",))
        g.turn("hero-formilus", ("rush",), ("fireball",))
        g.declare("hero-larra")
        g.shot("hero-larra", "leech", "hero-hakoru")
        assert ("health" in {o.id for o in g.state.pending.options}) is health_offered


def test_target_melee_damages_only_the_declared_target() -> None:
    """catacombs-and-castles-2e-manual.md: Character Shots (Target Melee)"""
    g = game(cards_with("larra", (Step("target_melee"),)))
    g.turn("hero-delilah", ("rush",), ("missile",))
    g.turn("hero-formilus", ("rush",), ("fireball",))
    g.declare("hero-larra")
    with pytest.raises(UnexpectedShotError, match="Target Token"):
        g.shot("hero-larra", "target_melee", "hero-hakoru")
    g.shot("hero-larra", "target_melee", "hero-hakoru", "hero-cahreliss", target="hero-cahreliss")
    g.answer("power:larra-ability")
    assert g.pool("catacomb") == 11
    assert g.state.turn is None  # a hit: no second shot


def test_a_warrior_may_act_after_a_hero_of_its_team() -> None:
    """catacombs-and-castles-2e-manual.md: Warriors ("After a hero they control has taken their turn")"""
    sides = [{**TUTORIAL_TEAMS[0], "warriors": ["castle-warrior-a"]}, TUTORIAL_TEAMS[1]]
    g = castles_2e({"mode": "team", "first": "castle", "sides": sides})
    warrior = "warrior-castle-castle-warrior-a-1"
    from service.rules.evolve import evolve

    # The warrior came in with an egg earlier in the game.
    g.state = g.state.with_character(evolve(g.state.character(warrior), on_mat=True))
    with pytest.raises(NotYourTurnError):
        g.declare(warrior)
    g.turn("hero-larra", ("rush",), ("missile",))
    g.turn(warrior, ("melee", "hero-hakoru"))
    assert g.pool("catacomb") == 11 and g.state.pending is None
    with pytest.raises(NotYourTurnError):
        g.declare(warrior)  # one warrior, once, after the hero's turn
    g.turn("hero-hakoru", ("rush",), ("fireball",))


def test_one_versus_one_performs_the_team_action_alone() -> None:
    """catacombs-and-castles-2e-manual.md: One versus One Mode (4: the Team Action icon is ignored)"""
    g = castles_2e(
        {
            "mode": "one-versus-one",
            "first": "castle",
            "sides": [{"team": "castle", "heroes": ["larra"]}, {"team": "catacomb", "heroes": ["hakoru"]}],
        }
    )
    g.do(A.SetCharge("hero-larra", "team_action", 4))
    g.do(A.PerformCard("hero-larra", "team_action"))
    assert {p.actor for p in g.state.turn.queue} == {"hero-larra"}


def test_boss_versus_boss_each_player_takes_boss_and_warriors_then_the_opponent() -> None:
    """catacombs-and-castles-2e-manual.md: Boss vs Boss Mode Turn Order (First Strike for the first player)"""
    sides = [
        {"team": "castle", "boss": "sothemir", "warriors": WARRIORS["castle"]},
        {"team": "catacomb", "boss": "xaugorth", "warriors": WARRIORS["catacomb"]},
    ]
    g = castles_2e({"mode": "boss-versus-boss", "game_length": "short", "first": "catacomb", "sides": sides})
    g.turn("warrior-catacomb-catacomb-warrior-a-1", ("melee", "boss-sothemir"))
    assert g.pool("castle") == 8  # the first player's whole turn inflicts no damage
    g.turn("boss-xaugorth", ("rush",), ("fireball", "warrior-castle-castle-warrior-a-1"))
    assert g.state.character("warrior-castle-castle-warrior-a-1").on_mat
    g.turn("warrior-catacomb-catacomb-warrior-b-1", ("fireball",))
    assert g.state.side_to_move == "catacomb"
    g.turn("warrior-catacomb-catacomb-warrior-c-1", ("rush",), ("melee",))
    assert g.state.side_to_move == "castle"
    g.turn("warrior-castle-castle-warrior-b-1", ("missile", "warrior-catacomb-catacomb-warrior-a-1"))
    assert not g.state.character("warrior-catacomb-catacomb-warrior-a-1").on_mat
