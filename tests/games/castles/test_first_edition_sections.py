"""Catacombs & Castles 1E: the manual's sections on components, characters and their shots, each played as at
a table (the sections the other 1E tests do not cite; docs/rules-api.md lists them all)."""

from __future__ import annotations

from collections import Counter

import pytest

from service.rules import actions as A
from service.rules.errors import IllegalActionError
from tests.helpers.game_setups import CASTLES_1E, JEN, boss_game, castles_1e, shipped_cards, tutorial
from tests.helpers.rules_script import RulesScript


def settle(t: RulesScript) -> None:
    """Answers each decision with its first option (where a captured Health Token goes)."""
    while t.state.pending is not None:
        t.answer(t.state.pending.options[0].id)


def hakoru_rushes(t: RulesScript) -> None:
    t.declare("hero-hakoru", 0)
    t.shot("hero-hakoru", "rush")
    t.do(A.EndTurn("hero-hakoru"))


def test_the_box_four_heroes_a_team_two_lords_and_three_warriors_a_team_of_four_pieces() -> None:
    """catacombs-and-castles-1e-manual.txt: Components (Hero Cards x8 a team, Lord Cards, Warrior Cards x3,
    Warrior Pieces x12)"""
    cards = shipped_cards(CASTLES_1E)
    assert Counter(h.team for h in cards.heroes.values()) == {"castle": 4, "catacomb": 4}
    assert sorted(cards.bosses) == ["sothemir", "xaugorth"]
    assert Counter(w.team for w in cards.warriors.values()) == {"castle": 3, "catacomb": 3}
    assert {w.pieces for w in cards.warriors.values()} == {4}
    # Every shot disc of the box is a shot of the rule set.
    for shot in ("missile", "fireball", "ice", "shuriken", "longbow", "grapple", "claw", "vortex", "egg"):
        assert shot in cards.shots
    assert {"net", "web", "shield"} <= set(cards.shots)


def test_a_heroes_rules_card_gives_the_sequence_it_performs_and_its_recommended_cards() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Setup (Hero Rules Card: "a shot sequence that is
    performed when it is the hero's turn ... recommended Ability cards"); Shot Sequences (the Next connector
    "shows a player the order in which shots must be performed")"""
    t = tutorial()
    hakoru = t.state.character("hero-hakoru")
    assert {card for card, _ in hakoru.charges} == {"catacomb-hail-xaugorth", "catacomb-stand-in-1"}
    t.declare("hero-hakoru", 0)
    assert t.state.turn is not None
    assert [p.shot for p in t.state.turn.queue] == ["rush", "shuriken"]
    with pytest.raises(IllegalActionError):
        t.shot("hero-hakoru", "shuriken", "hero-larra")  # the rush comes first
    t.shot("hero-hakoru", "rush")
    t.shot("hero-hakoru", "shuriken")
    assert t.state.turn is None


def test_characters_on_one_team_cannot_damage_each_other() -> None:
    """catacombs-and-castles-1e-manual.txt: Characters ("there is no friendly fire")"""
    t = tutorial(armour_tokens=False)
    t.declare("hero-hakoru", 0)
    t.shot("hero-hakoru", "rush")
    t.shot("hero-hakoru", "shuriken", "hero-formilus", "hero-cahreliss")  # his teammates
    settle(t)
    assert t.pool("catacomb") == 8 and t.pool("castle") == 8


def test_a_rush_inflicts_no_damage_and_a_melee_one_point() -> None:
    """catacombs-and-castles-1e-manual.txt: Character Shots"""
    t = tutorial(armour_tokens=False)
    t.declare("hero-hakoru", 0)
    t.shot("hero-hakoru", "rush", "hero-larra")
    assert t.pool("castle") == 8
    t.do(A.EndTurn("hero-hakoru"))
    t.declare("hero-larra", 0)
    t.do(A.EndTurn("hero-larra"))
    t.declare("hero-formilus", 0)
    t.do(A.EndTurn("hero-formilus"))
    t.declare("hero-kethyst", 0)
    t.do(A.EndTurn("hero-kethyst"))
    t.declare("hero-cahreliss", 0)
    t.do(A.EndTurn("hero-cahreliss"))
    t.declare("hero-delilah", 0)
    t.do(A.EndTurn("hero-delilah"))
    t.declare("hero-hakoru", 1)  # his Or-alternative: a melee
    t.shot("hero-hakoru", "melee", "hero-larra")
    settle(t)
    assert t.pool("castle") == 7


def test_a_ranged_shot_inflicts_one_point_on_each_opponent_it_hits() -> None:
    """catacombs-and-castles-1e-manual.txt: Ranged Shots ("Most ranged shots inflict one point of damage")"""
    t = tutorial(armour_tokens=False)
    t.declare("hero-cahreliss", 0)
    t.shot("hero-cahreliss", "fireball", "hero-larra", "hero-delilah")
    settle(t)
    assert t.pool("castle") == 6


def test_a_warrior_has_a_single_health_point_and_leaves_the_board_when_hit() -> None:
    """catacombs-and-castles-1e-manual.txt: The Warriors"""
    t = boss_game(armour_tokens=False)
    for c in [c for c in t.state.characters if c.side == "castle" and c.on_mat]:
        t.declare(c.id, 0)
        t.do(A.EndTurn(c.id))
    archer = next(c.id for c in t.state.characters if c.card == "royal-archer" and c.on_mat)
    assert t.state.character(archer).health == 1
    t.declare("hero-hakoru", 1)
    t.shot("hero-hakoru", "melee", archer)
    settle(t)
    assert not t.state.character(archer).on_mat


def test_a_shield_shot_inflicts_no_damage() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Shields)"""
    castle = {"team": "castle", "heroes": ["randsarr", "larra", "kethyst"]}
    t = castles_1e({"mode": "team", "board_side": "castle", "sides": [castle, JEN], "armour_tokens": False})
    hakoru_rushes(t)
    t.declare("hero-randsarr", 0)
    t.shot("hero-randsarr", "rush")
    t.shot("hero-randsarr", "melee")
    t.shot("hero-randsarr", "shield", "hero-hakoru", "hero-formilus")
    settle(t)
    assert t.pool("catacomb") == 8
