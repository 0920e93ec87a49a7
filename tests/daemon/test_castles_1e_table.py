"""Catacombs & Castles 1E at the table, on fakes: the shipped first-edition table file, its discs, what the
turn controller offers (shot sequences, Ability cards, the Overseer's Reinforcement Tokens) and what phones
read (Armour Tokens, the tokens on each Ability card).

Each test plays through the daemon's command path as a referee's page or the turn controller would.
"""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from service.app.cli import chosen_table
from service.games.castles.core import actions as A
from service.table.bindings import resolve_bindings
from service.table.config import TableConfig, load_table
from service.table.games import table_game
from tests.helpers.game_script import GameScript
from tests.helpers.game_setups import JEN, SAM, castles_1e

MANUAL = "catacombs-and-castles-1e-manual.txt"


def first_edition(mode: str) -> GameScript:
    return GameScript.playing("catacombs-and-castles-1e", mode)


def play_out_the_turn(table: GameScript) -> None:
    """The shots of the declared sequence all miss; any decision takes its first option."""
    for _ in range(20):
        state = table.state
        if state["pending"]:
            table.answer(state["pending"]["options"][0]["id"])
        elif state["expected_shot"]:
            assert table.send("manual_shot", direct_hits=[])["ok"]
        else:
            return
    raise AssertionError("the turn never ended")


def test_team_mode_on_the_castle_side_of_the_board_starts_with_team_catacomb() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Setup — eight Health Tokens a team, one Armour Token on
    each hero's Rules card, the hero's chosen Ability cards; Placing The Heroes — "The opposite team to the
    side of the board being played goes first"."""
    table = first_edition("team")
    try:
        state = table.state
        assert (state["ruleset"], state["mode"]) == ("catacombs-and-castles-1e", "team")
        assert [(s["team"], s["health"]) for s in state["sides"]] == [("castle", 8), ("catacomb", 8)]
        heroes = [c for c in state["characters"] if c["kind"] == "hero"]
        assert {c["id"]: c["piece"] for c in heroes} == {c["id"]: c["id"] for c in heroes}, "own discs"
        assert all(c["armour"] == ["full"] for c in heroes)
        hakoru = table.character("hero-hakoru")
        assert hakoru["cards"] == {"catacomb-hail-xaugorth": 0, "catacomb-stand-in-1": 0}
        # Team Catacomb moves first; no card is charged yet: the turn controller offers shot sequences only.
        assert state["turn"]["side"] == "catacomb"
        offered = state["actions"]
        assert {a["character"] for a in offered} == {"hero-hakoru", "hero-formilus", "hero-cahreliss"}
        assert not any("card" in a for a in offered)
    finally:
        table.close()


def test_the_overseer_spends_a_reinforcement_token_from_the_turn_controller() -> None:
    """catacombs-and-castles-1e-manual.txt: Reinforcements — not on the Overseer's first turn; at the start
    of a later turn a token places three different Warriors, each on a free disc of the Lord's team."""
    table = first_edition("boss")
    try:
        assert table.state["turn"]["side"] == "castle"  # Boss Mode Setup: the Overseer's turn first
        for _ in range(8):  # round 1: the Lord and his three Warriors, then the three heroes
            state = table.state
            if state["round"] == 2:
                break
            assert not any(a.get("card") == "reinforcement" for a in state["actions"])
            entry = state["actions"][0]
            assert table.send("declare", character=entry["character"], alternative=entry["alternative"])["ok"]
            play_out_the_turn(table)
        state = table.state
        assert (state["round"], state["turn"]["side"]) == (2, "castle")
        token = next(a for a in state["actions"] if a.get("card") == "reinforcement")
        assert token["label"] == "Sothemir the Castle Lord: spend a Reinforcement Token"
        on_mat_before = {c["id"] for c in state["characters"] if c["on_mat"]}
        assert table.send("declare", character=token["character"], action=token["id"])["ok"]
        after = table.state
        castle = next(s for s in after["sides"] if s["team"] == "castle")
        assert castle["reinforcements"] == 1
        arrived = [c for c in after["characters"] if c["on_mat"] and c["id"] not in on_mat_before]
        assert sorted(c["card"] for c in arrived) == ["querling", "royal-archer", "watch-guard"]
        assert all(c["piece"].startswith("castle-warrior-") for c in arrived)
        assert len({c["piece"] for c in after["characters"] if c["piece"]}) == len(
            [c for c in after["characters"] if c["piece"]]
        ), "no disc stands for two characters"
    finally:
        table.close()


def test_the_overseer_names_the_quadrant_each_reinforcement_enters() -> None:
    """catacombs-and-castles-1e-manual.txt: Reinforcements ("the Overseer places three different Warriors in
    each of the three quadrants of the game board which does not contain the Castle or Catacomb Lord")"""
    table = first_edition("boss")
    try:
        while table.state["round"] == 1:
            entry = table.state["actions"][0]
            assert table.send("declare", character=entry["character"], alternative=entry["alternative"])["ok"]
            play_out_the_turn(table)
        token = next(a for a in table.state["actions"] if a.get("card") == "reinforcement")
        placements = [["warrior-querling-2", 1], ["warrior-querling-3", 2], ["warrior-watch-guard-2", 3]]
        refused = table.send(
            "declare", character=token["character"], action=token["id"], placements=placements
        )
        assert not refused["ok"] and "different" in refused["error"]
        placements[1] = ["warrior-royal-archer-2", 2]
        assert table.send("declare", character=token["character"], action=token["id"], placements=placements)[
            "ok"
        ]
        arrived = {c["id"] for c in table.state["characters"] if c["on_mat"]}
        assert {"warrior-querling-2", "warrior-royal-archer-2", "warrior-watch-guard-2"} <= arrived
    finally:
        table.close()


def test_smartmat_run_picks_the_first_edition_table_and_refuses_a_mode_it_does_not_have() -> None:
    """catacombs-and-castles-1e-manual.txt: Game Overview — the first edition has Team Mode and Boss Mode."""

    def chosen(**given: Any) -> TableConfig:
        args = argparse.Namespace(table=None, ruleset="catacombs-and-castles-1e", mode=None)
        for key, value in given.items():
            setattr(args, key, value)
        table: TableConfig = chosen_table(args)
        return table

    team = chosen()
    assert (team.table, team.ruleset) == ("castles-1e-demo", "catacombs-and-castles-1e")
    assert team.game.mode == "team"
    setup = table_game(team.ruleset).setup_payload(team, 0)
    assert (setup["mode"], setup["board_side"], setup["armour_tokens"]) == ("team", "castle", True)
    assert chosen(mode="boss").game.mode == "boss"
    with pytest.raises(SystemExit, match=r"castles-1e-demo.yaml: game.modes has no 'one-versus-one' game"):
        chosen(mode="one-versus-one")


def test_the_first_editions_shield_step_is_a_placement_not_a_flick() -> None:
    """catacombs-and-castles-1e-manual.txt: Shields ("place the shield disc back onto the game board anywhere
    within 1" / 2.5cm of the hero's new location": no flick for the mat to read)"""
    castle = {"team": "castle", "heroes": ["randsarr", "larra", "kethyst"]}
    t = castles_1e({"mode": "team", "board_side": "catacomb", "sides": [castle, JEN]})
    t.declare("hero-randsarr", 0)
    t.shot("hero-randsarr", "rush")
    t.shot("hero-randsarr", "melee")
    expected = table_game(t.state.ruleset).expected_shot(t.rules, t.state)
    assert expected is not None and expected["shot"] == "shield"
    assert expected["placed"] and not expected["shield"]
    t.do(A.SkipShot("hero-randsarr"))  # the player leaves the step: the disc still goes back
    assert t.state.shields == ("castle-shield",)


def test_the_turn_controller_offers_to_lift_the_web_at_the_start_of_the_attackers_turn() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Net / Web: "Attacker may choose to remove Net or
    Web from trapped target at the start of their turn")"""
    t = castles_1e({"mode": "team", "armour_tokens": False, "sides": [SAM, JEN]})
    t.declare("hero-cahreliss", 1)
    t.shot("hero-cahreliss", "web", "hero-larra")
    t.answer("power:catacomb-embrace-the-flames")
    game = table_game(t.state.ruleset)
    assert not any(e["card"] == "lift-net" for e in game.actions(t.rules, t.state) if "card" in e)
    t.declare("hero-delilah", 0)
    t.end_turn("hero-delilah")
    lift = [e for e in game.actions(t.rules, t.state) if e.get("card") == "lift-net"]
    assert [e["id"] for e in lift] == ["hero-larra:lift-net:0"]
    t.do(A.PerformCard("hero-larra", "lift-net", alternative=lift[0]["card_alternative"]))
    assert not t.state.character("hero-larra").trapped


def test_a_shield_disc_on_the_board_stands_for_itself_so_its_hits_reach_the_rules() -> None:
    """catacombs-and-castles-1e-manual.txt: Shields; Shot Reference (Vortex: "This includes shield discs")"""
    castle = {"team": "castle", "heroes": ["randsarr", "larra", "kethyst"]}
    t = castles_1e({"mode": "team", "board_side": "catacomb", "sides": [castle, JEN]})
    registry = load_table("castles-1e-demo").registry
    assert "castle-shield" not in resolve_bindings(t.state, registry, {}, {}, lambda _: None)
    t.declare("hero-randsarr", 0)
    t.end_turn("hero-randsarr")  # the disc goes down beside him
    discs = resolve_bindings(t.state, registry, {}, {}, lambda _: None)
    assert discs["castle-shield"] == "castle-shield" and discs["hero-randsarr"] == "hero-randsarr"
