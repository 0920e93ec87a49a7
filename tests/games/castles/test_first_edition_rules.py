"""Catacombs & Castles 1E rules one by one, each played as at a table (the 1E manual)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from service.games.castles.adapter import castles_cards
from service.games.castles.content import load_castles_content
from service.games.castles.core import actions as A
from service.games.castles.core import events as CE
from service.games.castles.core.cards import ChargedCard, Step
from service.games.castles.second_edition.setup import SetupRefused
from service.rules.errors import (
    CardNotPlayableError,
    CharacterCannotActError,
    IllegalActionError,
    NotYourTurnError,
)
from tests.helpers.game_setups import CASTLES_1E, JEN, SAM, boss_game, castles_1e, shipped_cards, tutorial
from tests.helpers.rules_script import RulesScript


def with_card(card: ChargedCard):  # type: ignore[no-untyped-def]
    cards = shipped_cards(CASTLES_1E)
    return replace(cards, ability_cards={**cards.ability_cards, card.id: card})


def hakoru_rushes(t: RulesScript) -> None:
    t.declare("hero-hakoru", 0)
    t.shot("hero-hakoru", "rush")
    t.do(A.EndTurn("hero-hakoru"))


# == setup ========================================================================================
def test_team_mode_setup_eight_tokens_one_armour_token_and_the_opposite_team_first() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Setup; Placing The Heroes (the team opposite to the
    board side goes first)"""
    t = tutorial(board_side="catacomb")
    assert t.state.side_to_move == "castle"  # on the Catacomb side, Team Castle goes first
    assert (t.pool("castle"), t.pool("catacomb")) == (8, 8)
    assert t.armour("hero-larra") == (2,)
    assert not t.state.first_strike  # no First Strike Rule in the first edition


def test_players_may_choose_the_number_of_tokens_and_play_without_armour() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Quick Start Tutorial (the duration of a game)"""
    t = tutorial(health_tokens=12, armour_tokens=False)
    assert t.pool("castle") == 12 and t.armour("hero-larra") == ()


def test_each_hero_takes_two_ability_cards_recommended_or_chosen_from_its_team() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Setup (Ability Cards)"""
    t = tutorial()
    assert dict(t.state.character("hero-delilah").charges) == {
        "castle-target-acquired": 0,
        "castle-channel-the-cyclone": 0,
    }
    chosen = {**SAM, "abilities": {"larra": ["castle-loose-arrows", "castle-blow-the-horn"]}}
    t = castles_1e({"mode": "team", "sides": [chosen, JEN]})
    assert {k for k, _ in t.state.character("hero-larra").charges} == {
        "castle-loose-arrows",
        "castle-blow-the-horn",
    }
    wrong_team = {**SAM, "abilities": {"larra": ["castle-loose-arrows", "catacomb-hail-xaugorth"]}}
    with pytest.raises(SetupRefused, match="not a Team Castle Ability card"):
        castles_1e({"mode": "team", "sides": [wrong_team, JEN]})
    one_card = {**SAM, "abilities": {"larra": ["castle-loose-arrows"]}}
    with pytest.raises(SetupRefused, match="two different Ability cards"):
        castles_1e({"mode": "team", "sides": [one_card, JEN]})


def test_the_first_edition_has_only_team_and_boss_mode_and_equal_teams() -> None:
    """catacombs-and-castles-1e-manual.txt: Game Overview (Differences Between the Two Modes)"""
    with pytest.raises(SetupRefused, match="Team and Boss Mode"):
        castles_1e({"mode": "one-versus-one", "sides": [SAM, JEN]})
    with pytest.raises(SetupRefused, match="2 vs 2, 3 vs 3 or 4 vs 4"):
        castles_1e({"mode": "team", "sides": [SAM, {**JEN, "heroes": ["hakoru"]}]})
    with pytest.raises(SetupRefused, match="equal number of Health Tokens"):
        castles_1e({"mode": "team", "sides": [{**SAM, "health_tokens": 6}, JEN]})


# == turns ========================================================================================
def test_a_hero_cannot_act_again_until_all_its_teammates_have() -> None:
    """catacombs-and-castles-1e-manual.txt: Game Overview (Portrait cards rotated; Turn Overview)"""
    t = tutorial()
    hakoru_rushes(t)
    with pytest.raises(NotYourTurnError):
        t.declare("hero-formilus", 0)  # the teams alternate: it is Team Castle's turn
    t.declare("hero-larra", 0)
    t.do(A.EndTurn("hero-larra"))
    with pytest.raises(CharacterCannotActError, match="Portrait card"):
        t.declare("hero-hakoru", 0)
    t.declare("hero-formilus", 0)
    assert t.state.turn is not None


def test_damage_takes_tokens_from_the_pool_for_each_hero_hit_and_none_for_pushed_ones() -> None:
    """catacombs-and-castles-1e-manual.txt: Health and Damage Tokens"""
    t = tutorial(armour_tokens=False)
    t.declare("hero-hakoru", 0)
    t.shot("hero-hakoru", "rush")
    t.shot("hero-hakoru", "shuriken", "hero-larra", "hero-kethyst")  # both hit directly
    t.answer("power:catacomb-hail-xaugorth")
    t.answer("power:catacomb-hail-xaugorth")
    assert t.pool("castle") == 6 and t.tokens("hero-hakoru", "catacomb-hail-xaugorth") == 2


def test_surplus_tokens_are_discarded_when_the_cards_are_full() -> None:
    """catacombs-and-castles-1e-manual.txt: Health and Damage Tokens (surplus Health Tokens are discarded)"""
    t = tutorial(armour_tokens=False)
    t.do(A.SetCharge("hero-hakoru", "catacomb-hail-xaugorth", 2))
    t.do(A.SetCharge("hero-hakoru", "catacomb-stand-in-1", 1))
    t.declare("hero-hakoru", 1)
    t.shot("hero-hakoru", "melee", "hero-larra")
    assert t.pool("castle") == 7
    assert any(isinstance(e, CE.TokensTransferred) and e.transfer == "discard" for e in t.events)


def test_no_chain_rule_in_the_first_edition() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Sequences (no Chain Rule; docs/rulings.md)"""
    card = ChargedCard(
        "catacomb-twin", "Twin", "ability", 0, ((Step("melee"), Step("melee", "then")),), team="catacomb"
    )
    t = castles_1e(
        {
            "mode": "team",
            "armour_tokens": False,
            "sides": [SAM, {**JEN, "abilities": {"hakoru": ["catacomb-twin", "catacomb-stand-in-1"]}}],
        },
        with_card(card),
    )
    t.do("perform_card", "hero-hakoru", "catacomb-twin")
    t.shot("hero-hakoru", "melee", "hero-larra")
    t.shot("hero-hakoru", "melee", "hero-larra")  # the same target twice in a row: damaged both times
    assert t.pool("castle") == 6


# == Ability cards ================================================================================
def test_an_ability_card_is_activated_by_discarding_its_tokens() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Setup (Ability Cards)"""
    t = tutorial()
    with pytest.raises(CardNotPlayableError, match="0 of the 1 Health Tokens"):
        t.do("perform_card", "hero-hakoru", "catacomb-stand-in-1")
    t.do(A.SetCharge("hero-hakoru", "catacomb-stand-in-1", 1))
    t.do("perform_card", "hero-hakoru", "catacomb-stand-in-1")
    assert t.tokens("hero-hakoru", "catacomb-stand-in-1") == 0
    assert [p.shot for p in t.state.turn.queue] == ["rush", "shuriken"]  # type: ignore[union-attr]


def test_a_card_without_a_health_token_icon_is_free() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Setup (Ability Cards: free to use)"""
    free = ChargedCard("catacomb-free", "Free", "ability", 0, ((Step("missile"),),), team="catacomb")
    side = {**JEN, "abilities": {"hakoru": ["catacomb-free", "catacomb-stand-in-1"]}}
    t = castles_1e({"mode": "team", "sides": [SAM, side]}, with_card(free))
    t.do("perform_card", "hero-hakoru", "catacomb-free")
    assert [p.shot for p in t.state.turn.queue] == ["missile"]  # type: ignore[union-attr]


def test_horn_the_teammates_perform_the_sequence_in_place_of_the_hero() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Actions (Horn of Heroes / Wraith Horn)"""
    t = tutorial()
    t.do(A.SetCharge("hero-hakoru", "catacomb-hail-xaugorth", 2))
    t.do("perform_card", "hero-hakoru", "catacomb-hail-xaugorth")
    turn = t.state.turn
    assert turn is not None
    assert [(p.actor, p.shot) for p in turn.queue] == [
        ("hero-formilus", "rush"),
        ("hero-formilus", "fireball"),
        ("hero-cahreliss", "rush"),
        ("hero-cahreliss", "fireball"),
    ]


def test_the_initiator_of_a_team_action_takes_no_tokens_from_it() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Actions (Important: the initiating hero cannot be charged)"""
    t = tutorial(armour_tokens=False)
    hakoru_rushes(t)
    t.do(A.SetCharge("hero-larra", "castle-send-reinforcements", 2))
    t.do("perform_card", "hero-larra", "castle-send-reinforcements")
    t.shot("hero-larra", "egg")  # misses: no warrior
    t.shot("hero-larra", "rush")
    t.shot("hero-larra", "melee", "hero-formilus")
    # Larra's own cards cannot be charged, and no teammate's by a power transfer: the tokens are discarded.
    assert t.tokens("hero-larra", "castle-stand-in") == 0
    assert t.pool("catacomb") == 7
    assert any(isinstance(e, CE.TokensTransferred) and e.transfer == "discard" for e in t.events)
    # The teammates perform the Team icon's shots too, even after their own action.
    assert {p.actor for p in t.state.turn.queue} == {"hero-kethyst", "hero-delilah"}  # type: ignore[union-attr]


# == armour =======================================================================================
def test_an_armour_token_blocks_twice_then_is_discarded() -> None:
    """catacombs-and-castles-1e-manual.txt: Armour Tokens"""
    t = tutorial()
    t.declare("hero-hakoru", 1)
    t.shot("hero-hakoru", "melee", "hero-larra")
    t.answer("block")
    assert t.armour("hero-larra") == (1,)
    t.declare("hero-kethyst", 0)
    t.do(A.EndTurn("hero-kethyst"))
    t.declare("hero-formilus", 0)
    t.shot("hero-formilus", "claw", "hero-larra")
    t.answer("block")
    assert t.armour("hero-larra") == () and t.pool("castle") == 8


def test_armour_nullifies_the_nets_trap_as_well_as_the_damage() -> None:
    """catacombs-and-castles-1e-manual.txt: Armour Tokens ("All damage and any other effects")"""
    t = tutorial()
    t.declare("hero-cahreliss", 1)
    t.shot("hero-cahreliss", "web", "hero-larra")
    t.answer("block")
    assert not t.state.character("hero-larra").trapped


# == shots ========================================================================================
def test_net_and_web_trap_a_single_target_until_a_teammate_knocks_it_off() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Net / Web)"""
    t = tutorial(armour_tokens=False)
    t.declare("hero-cahreliss", 1)
    t.shot("hero-cahreliss", "web", "hero-larra", "hero-kethyst", target="hero-kethyst")
    t.answer("power:catacomb-embrace-the-flames")
    assert t.state.character("hero-kethyst").trapped and not t.state.character("hero-larra").trapped
    assert t.pool("castle") == 7  # only the one target is damaged
    with pytest.raises(CharacterCannotActError, match="net or web"):
        t.declare("hero-kethyst", 0)


def test_the_attacker_takes_the_web_back_to_use_it_on_another_target() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Net / Web: the attacker may re-use it)"""
    t = tutorial(armour_tokens=False)
    t.declare("hero-cahreliss", 1)
    t.shot("hero-cahreliss", "web", "hero-larra")
    t.answer("power:catacomb-embrace-the-flames")
    for hero in ("hero-delilah", "hero-hakoru", "hero-kethyst", "hero-formilus"):
        t.declare(hero, 0)
        t.do(A.EndTurn(hero))
    # Every Castle hero able to act has acted: their portraits reset while the Huntress stays trapped.
    assert t.state.side_to_move == "castle" and t.state.acted == ()
    assert t.state.character("hero-larra").trapped
    t.declare("hero-delilah", 0)
    t.do(A.EndTurn("hero-delilah"))
    t.declare("hero-cahreliss", 1)
    t.shot("hero-cahreliss", "web", "hero-delilah")
    assert not t.state.character("hero-larra").trapped
    assert t.state.character("hero-delilah").trapped


def test_grapple_grab_moves_the_opponent_then_rushes_it() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Grapple: Grab)"""
    t = tutorial(armour_tokens=False)
    t.declare("hero-formilus", 0)
    t.shot("hero-formilus", "claw", "hero-larra", "hero-kethyst", target="hero-kethyst")
    t.answer("health")
    assert t.pool("castle") == 7 and t.pool("catacomb") == 9
    head = t.state.turn.queue[0]  # type: ignore[union-attr]
    assert (head.shot, head.piece) == ("rush", "hero-kethyst")


def test_claw_offers_power_health_or_void() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Claw)"""
    t = tutorial(armour_tokens=False)
    t.do(A.SetCharge("hero-larra", "castle-stand-in", 1))
    t.declare("hero-formilus", 0)
    t.shot("hero-formilus", "claw", "hero-larra")
    options = {o.id for o in t.state.pending.options}  # type: ignore[union-attr]
    assert options == {
        "power:catacomb-stand-in-2",
        "power:catacomb-stand-in-3",
        "health",
        "void:castle-stand-in",
    }
    t.answer("void:castle-stand-in")
    assert t.tokens("hero-larra", "castle-stand-in") == 0


def test_vortex_rushes_each_opponent_hit() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Vortex)"""
    t = tutorial(armour_tokens=False)
    hakoru_rushes(t)
    t.do(A.SetCharge("hero-delilah", "castle-channel-the-cyclone", 2))
    t.do("perform_card", "hero-delilah", "castle-channel-the-cyclone")
    t.shot("hero-delilah", "vortex", "hero-formilus", "hero-cahreliss")
    assert [(p.shot, p.piece) for p in t.state.turn.queue] == [  # type: ignore[union-attr]
        ("rush", "hero-cahreliss"),
        ("rush", "hero-formilus"),
    ]
    assert t.pool("catacomb") == 6


def test_temporal_shift_returns_the_opponent_to_its_start_zone() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Temporal Shift)"""
    t = tutorial(armour_tokens=False)
    hakoru_rushes(t)
    t.do(A.SetCharge("hero-kethyst", "castle-use-your-magic", 2))
    t.do("perform_card", "hero-kethyst", "castle-use-your-magic", alternative=0)
    t.shot("hero-kethyst", "rush")
    t.shot("hero-kethyst", "temporal_shift", "hero-formilus")
    assert any(isinstance(e, CE.ReturnedToStart) and e.character == "hero-formilus" for e in t.events)


def test_target_ice_damages_only_the_declared_target_and_may_be_shot_again() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Target Fireball / Target Ice)"""
    t = tutorial(armour_tokens=False)
    hakoru_rushes(t)
    t.do(A.SetCharge("hero-delilah", "castle-target-acquired", 2))
    t.do("perform_card", "hero-delilah", "castle-target-acquired")
    t.shot("hero-delilah", "target_ice", "hero-formilus", target="hero-hakoru")
    assert t.pool("catacomb") == 8
    t.shot("hero-delilah", "target_ice", "hero-hakoru", target="hero-hakoru")
    t.answer("power:castle-channel-the-cyclone") if t.state.pending else None
    assert t.pool("catacomb") == 7


def test_egg_places_a_warrior_that_cannot_act_on_that_turn() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Egg)"""
    t = tutorial(armour_tokens=False)
    hakoru_rushes(t)
    t.do(A.SetCharge("hero-kethyst", "castle-use-your-magic", 2))
    t.do("perform_card", "hero-kethyst", "castle-use-your-magic", alternative=1)
    t.shot("hero-kethyst", "rush")
    t.shot("hero-kethyst", "egg", "hero-formilus")
    t.answer("warrior-royal-archer-1") if t.state.pending else None
    placed = [c for c in t.state.characters if c.kind == "warrior" and c.on_mat]
    assert len(placed) == 1 and placed[0].side == "castle" and t.pool("catacomb") == 8
    with pytest.raises(CharacterCannotActError, match="placed this turn"):
        t.declare(placed[0].id, 0)
    # After the opposing team's turn, the warrior may act after a Castle hero.
    t.declare("hero-formilus", 0)
    t.do(A.EndTurn("hero-formilus"))
    t.declare("hero-larra", 0)
    t.do(A.EndTurn("hero-larra"))
    t.declare(placed[0].id, 0)
    assert t.state.turn is not None and t.state.turn.character == placed[0].id


# == Boss Mode ====================================================================================
def test_boss_mode_setup_24_tokens_lord_armour_two_reinforcements_overseer_first() -> None:
    """catacombs-and-castles-1e-manual.txt: Boss Mode Setup"""
    t = boss_game()
    assert t.pool("catacomb") == 24 and t.state.side("castle").reinforcements == 2
    assert t.armour("boss-sothemir") == (2,)
    assert t.state.side_to_move == "castle"
    on_mat = sorted(
        c.card for c in t.state.characters if c.kind == "warrior" and c.on_mat and c.side == "castle"
    )
    assert on_mat == ["querling", "royal-archer", "watch-guard"]
    assert (
        castles_1e(
            {
                "mode": "boss",
                "sides": [
                    SAM,
                    {"team": "catacomb", "boss": "xaugorth", "warriors": ["plunderer", "raider", "shaman"]},
                ],
            }
        )
        .state.character("boss-xaugorth")
        .armour
        == ()
    )


def test_the_overseer_cannot_reinforce_on_the_first_turn() -> None:
    """catacombs-and-castles-1e-manual.txt: Reinforcements"""
    t = boss_game()
    with pytest.raises(CardNotPlayableError, match="first turn"):
        t.do("perform_card", "boss-sothemir", "reinforcement")


def overseer_turn(t: RulesScript) -> None:
    for c in [c for c in t.state.characters if c.side == "castle" and c.on_mat]:
        if t.state.side_to_move == "castle" and t.rules.is_legal(t.state, A.DeclareAction(c.id, 0)):
            t.declare(c.id, 0)
            t.do(A.EndTurn(c.id))


def heroes_turn(t: RulesScript) -> None:
    for hero in ("hero-hakoru", "hero-formilus", "hero-cahreliss"):
        t.declare(hero, 0)
        t.do(A.EndTurn(hero))


def test_reinforcements_place_three_different_warriors_who_act_first() -> None:
    """catacombs-and-castles-1e-manual.txt: Reinforcements"""
    t = boss_game()
    overseer_turn(t)
    assert t.state.side_to_move == "catacomb"
    heroes_turn(t)
    assert t.state.side_to_move == "castle" and t.state.round == 2
    t.do("perform_card", "boss-sothemir", "reinforcement")
    assert t.state.side("castle").reinforcements == 1
    new = t.state.reinforcing
    assert sorted(t.state.character(w).card for w in new) == ["querling", "royal-archer", "watch-guard"]
    with pytest.raises(NotYourTurnError, match="act first"):
        t.declare("boss-sothemir", 0)
    for w in new:
        t.declare(w, 0)
        t.do(A.EndTurn(w))
    t.declare("boss-sothemir", 0)
    assert t.state.turn is not None


def test_ability_cards_in_boss_mode_need_no_charge_and_are_played_once() -> None:
    """catacombs-and-castles-1e-manual.txt: Ability Cards in Boss Mode"""
    t = boss_game()
    overseer_turn(t)
    t.do("perform_card", "hero-hakoru", "catacomb-stand-in-1")
    assert "catacomb-stand-in-1" not in dict(t.state.character("hero-hakoru").charges)
    t.shot("hero-hakoru", "rush")
    t.shot("hero-hakoru", "shuriken", "warrior-royal-archer-1")
    assert not t.state.character("warrior-royal-archer-1").on_mat
    with pytest.raises(IllegalActionError):
        t.do("perform_card", "hero-formilus", "catacomb-stand-in-1")


def test_the_castle_lord_changes_form_when_he_discards_his_armour_token() -> None:
    """catacombs-and-castles-1e-manual.txt: Boss Mode (The Castle Lord)"""
    t = boss_game()
    overseer_turn(t)
    t.declare("hero-hakoru", 1)
    t.shot("hero-hakoru", "melee", "boss-sothemir")
    t.answer("block")
    assert t.state.character("boss-sothemir").form == "armoured"
    t.declare("hero-formilus", 0)
    t.shot("hero-formilus", "claw", "boss-sothemir")
    t.answer("block")
    assert t.state.character("boss-sothemir").form == "alternate"


def test_the_catacomb_lord_changes_form_at_will() -> None:
    """catacombs-and-castles-1e-manual.txt: Boss Mode (The Castle Lord)"""
    t = castles_1e(
        {
            "mode": "boss",
            "sides": [
                SAM,
                {"team": "catacomb", "boss": "xaugorth", "warriors": ["plunderer", "raider", "shaman"]},
            ],
        }
    )
    t.do(A.ChangeForm("boss-xaugorth"))
    assert t.state.character("boss-xaugorth").form == "alternate"


def test_the_heroes_win_when_the_lords_pool_is_empty() -> None:
    """catacombs-and-castles-1e-manual.txt: Boss Mode Overview"""
    t = boss_game(armour_tokens=False)
    t.do(A.SetPool("castle", 1))
    overseer_turn(t)
    t.declare("hero-hakoru", 1)
    t.shot("hero-hakoru", "melee", "boss-sothemir")
    t.answer("take")
    assert t.state.outcome == "catacomb" and t.state.phase == "game_over"


# == content ======================================================================================
def test_an_organisers_overlay_supplies_a_cards_printed_charge(tmp_path: Path) -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Setup (Ability Cards: the charge printed on the card)"""
    shipped = load_castles_content("catacombs-and-castles-1e")
    assert "charge" in shipped.abilities["castle-loose-arrows"].unverified_fields
    (tmp_path / "abilities.yaml").write_text(
        "abilities:\n  castle-loose-arrows:\n    charge: 3\n    unverified_fields: {}\n", encoding="utf-8"
    )
    cards = castles_cards(load_castles_content("catacombs-and-castles-1e", overlay=tmp_path))
    assert cards.ability_card("castle-loose-arrows").charge == 3
    t = castles_1e(
        {
            "mode": "team",
            "sides": [{**SAM, "heroes": ["randsarr", "larra"]}, {**JEN, "heroes": ["hakoru", "formilus"]}],
        },
        cards,
    )
    t.do(A.SetCharge("hero-randsarr", "castle-loose-arrows", 2))
    hakoru_rushes(t)
    with pytest.raises(CardNotPlayableError, match="2 of the 3"):
        t.do("perform_card", "hero-randsarr", "castle-loose-arrows")


def test_a_refusal_cites_the_first_edition_manual() -> None:
    """catacombs-and-castles-1e-manual.txt: Turn Overview (the teams alternate)"""
    t = tutorial()
    with pytest.raises(NotYourTurnError) as refused:
        t.declare("hero-larra", 0)
    assert refused.value.rule == "catacombs-and-castles-1e-manual.txt: Turn Overview"
    t.declare("hero-hakoru", 0)
    with pytest.raises(IllegalActionError) as refused_shot:
        t.shot("hero-hakoru", "melee")
    assert refused_shot.value.rule.startswith("catacombs-and-castles-1e-manual.txt: ")


def test_two_against_two_and_four_against_four() -> None:
    """catacombs-and-castles-1e-manual.txt: Setting Up The Game (suggested teams by player count)"""
    small = castles_1e(
        {
            "mode": "team",
            "sides": [{**SAM, "heroes": ["larra", "delilah"]}, {**JEN, "heroes": ["hakoru", "formilus"]}],
        }
    )
    big = castles_1e(
        {
            "mode": "team",
            "sides": [
                {**SAM, "heroes": ["larra", "kethyst", "delilah", "randsarr"]},
                {**JEN, "heroes": ["hakoru", "formilus", "cahreliss", "angelique"]},
            ],
        }
    )
    assert len([c for c in small.state.characters if c.kind == "hero"]) == 4
    assert len([c for c in big.state.characters if c.kind == "hero"]) == 8


def test_after_a_horn_only_the_initiators_portrait_is_rotated() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Actions (a participant's Portrait card is not rotated)"""
    t = tutorial()
    t.do(A.SetCharge("hero-hakoru", "catacomb-hail-xaugorth", 2))
    t.do("perform_card", "hero-hakoru", "catacomb-hail-xaugorth")
    for hero in ("hero-formilus", "hero-cahreliss"):
        t.shot(hero, "rush")
        t.shot(hero, "fireball")
    assert t.state.turn is None and t.state.acted == ("hero-hakoru",)
    t.declare("hero-larra", 0)
    t.end_turn("hero-larra")
    t.declare("hero-formilus", 0)  # the Marauder took part, and still has his own action
    assert t.state.turn is not None


def test_a_hero_under_a_web_takes_no_part_in_a_team_action() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Net / Web: "may not take an action")"""
    t = tutorial(armour_tokens=False)
    t.declare("hero-cahreliss", 1)
    t.shot("hero-cahreliss", "web", "hero-kethyst")
    t.answer("power:catacomb-embrace-the-flames")
    t.do(A.SetCharge("hero-delilah", "castle-target-acquired", 2))
    t.do("perform_card", "hero-delilah", "castle-target-acquired")
    assert {p.actor for p in t.state.turn.queue} == {"hero-delilah", "hero-larra"}  # type: ignore[union-attr]


def test_a_reinforcement_token_is_spent_only_at_the_start_of_the_overseers_turn() -> None:
    """catacombs-and-castles-1e-manual.txt: Reinforcements (at the start of their turn)"""
    t = boss_game()
    overseer_turn(t)
    heroes_turn(t)
    t.declare("boss-sothemir", 0)
    t.end_turn("boss-sothemir")
    with pytest.raises(NotYourTurnError, match="start of the turn"):
        t.do("perform_card", "boss-sothemir", "reinforcement")


def test_every_team_can_take_its_recommended_cards_together() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Setup (the two Ability cards of the Rules card)"""
    cards = shipped_cards(CASTLES_1E)
    for team in ("castle", "catacomb"):
        held = [a for h in cards.heroes.values() if h.team == team for a in h.abilities]
        assert len(held) == len(set(held)) == 8
