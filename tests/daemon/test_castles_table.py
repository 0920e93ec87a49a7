"""Catacombs & Castles 2E at the table, on fakes: the table file's games, the discs, the turn controller's
actions, the expected shot's pieces and the pools, charges and armour every phone reads.

Each test plays through the daemon's command path as a referee's page or the turn controller would.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

import pytest

from service.app.cli import chosen_table, say_which_game_resumes
from service.eventlog.memory import MemoryEventLog
from service.sensing.tags import TableConfigError
from service.table.config import TableConfig, load_table, with_game
from service.table.games import table_game
from tests.helpers.game_script import GameScript

MANUAL = "catacombs-and-castles-2e-manual.md"


def castles_table(mode: str, first: str = "castle", **side_changes: Any) -> TableConfig:
    """The shipped Castles demo table playing ``mode``, with the first team fixed (no coin flip)."""
    table = with_game(load_table("castles-demo"), mode=mode)
    modes = {name: dict(fields) for name, fields in table.game.modes.items()}
    modes[mode]["first"] = first
    return replace(table, game=replace(table.game, modes=modes, seed=5))


@pytest.fixture
def team_table():
    table = GameScript(table=castles_table("team"))
    yield table
    table.close()


def side(state: dict[str, Any], side_id: str) -> dict[str, Any]:
    return next(s for s in state["sides"] if s["id"] == side_id)


def test_the_quick_start_teams_take_the_field_on_their_own_discs(team_table: GameScript) -> None:
    """catacombs-and-castles-2e-manual.md: Quick Start — three heroes a side, 12 Health Tokens each."""
    state = team_table.state
    assert (state["ruleset"], state["mode"], state["phase"]) == ("catacombs-and-castles-2e", "team", "battle")
    assert [(s["id"], s["health"]) for s in state["sides"]] == [("castle", 12), ("catacomb", 12)]
    pieces = {c["id"]: c["piece"] for c in state["characters"]}
    assert pieces == {
        "hero-larra": "hero-larra",
        "hero-randsarr": "hero-randsarr",
        "hero-sothemir": "hero-sothemir",
        "hero-hakoru": "hero-hakoru",
        "hero-angelique": "hero-angelique",
        "hero-xaugorth": "hero-xaugorth",
    }
    # Team Castle goes first: the turn controller offers its three heroes' shot sequences, nothing else.
    offered = {a["id"]: a["label"] for a in state["actions"]}
    assert offered == {
        "hero-larra:0": "Larra the Huntress: rush, then missile",
        "hero-randsarr:0": "Randsarr the Watch Commander: shield, then missile, then melee",
        "hero-sothemir:0": "Sothemir the King's Champion: rush, then melee",
    }


def test_a_fireball_flicks_a_small_ranged_piece_and_takes_a_token_from_the_pool(
    team_table: GameScript,
) -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots; Inflicting Damage; Team Mode Turn Order (First
    Strike Rule)."""
    assert team_table.declare("hero-sothemir", 0)["ok"]
    assert team_table.state["expected_shot"]["ranged"] is False  # a rush flicks the hero's own disc
    team_table.send("manual_shot", direct_hits=[])
    team_table.send("manual_shot", direct_hits=["hero-hakoru"])
    assert side(team_table.state, "catacomb")["health"] == 12, "the first hero inflicts no damage"

    assert team_table.declare("hero-hakoru", 0)["ok"]
    team_table.send("manual_shot", direct_hits=[])
    expected = team_table.state["expected_shot"]
    assert (expected["shot"], expected["ranged"], expected["ranged_class"]) == (
        "fireball",
        True,
        "castles-ranged-small",  # Sticker Instructions: the Fireball / Vortex piece is a small piece
    )
    team_table.send("manual_shot", direct_hits=["hero-sothemir"])
    state = team_table.state
    assert side(state, "castle")["health"] == 11
    # Every Castle hero's tracker shows the pool, not a health of its own (Team Mode: the Health Pool).
    assert {c["health"] for c in state["characters"] if c["side"] == "castle"} == {11}
    # The captured token goes onto one of Hakoru's cards: the player chooses (Health and Transfer Types).
    assert state["pending"]["kind"] == "transfer"
    team_table.send("answer", decision=state["pending"]["id"], option="power:hakoru-ability")
    hakoru = team_table.character("hero-hakoru")
    assert (hakoru["charges"], hakoru["cards"]["hakoru-ability"]) == (1, 1)


def test_a_charged_ability_is_offered_and_performed_from_the_turn_controller() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Abilities — performed instead of the shot sequence once
    charged; its tokens are discarded."""
    table_file = castles_table("team", first="catacomb")
    log = MemoryEventLog()
    log.append("setup", table_game(table_file.ruleset).setup_payload(table_file, 0), "daemon")
    charge = {"action": "set_charge", "character": "hero-hakoru", "card": "ability", "tokens": 3}
    log.append(
        "correction", {"action": {**charge, "reason": "tokens from the last game"}, "reason": "x"}, "ref"
    )
    table = GameScript(table=table_file, eventlog=log)
    try:
        offered = [a for a in table.state["actions"] if a["character"] == "hero-hakoru"]
        ability = next(a for a in offered if a.get("card") == "ability")
        assert ability["id"] == "hero-hakoru:ability:0" and "alternative" not in ability
        # The controller sends {character, action: id} for an entry without an alternative.
        assert table.send("declare", character="hero-hakoru", action=ability["id"])["ok"]
        hakoru = table.character("hero-hakoru")
        assert hakoru["cards"]["hakoru-ability"] == 0
        assert table.state["turn"]["declared"] == "rush, then shuriken"
        # The shuriken is a small flat piece (Sticker Instructions: Small Flat Pieces).
        table.send("manual_shot", direct_hits=[])
        assert table.state["expected_shot"]["ranged_class"] == "castles-ranged-small-flat"
    finally:
        table.close()


def test_a_card_the_hero_does_not_hold_is_refused_by_name(team_table: GameScript) -> None:
    answer = team_table.send("declare", character="hero-larra", action="hero-larra:horn:0")
    assert not answer["ok"] and "horn" in answer["error"]
    answer = team_table.send("declare", character="hero-larra", action="hero-sothemir:ability:0")
    assert not answer["ok"] and "not an entry of hero-larra's actions" in answer["error"]


def test_boss_mode_puts_one_of_each_warrior_on_the_team_s_warrior_discs() -> None:
    """catacombs-and-castles-2e-manual.md: Boss Mode Rules — one of each warrior piece in the Start Zone, the
    rest in reserve; the boss on the team's boss piece."""
    table = GameScript(table=castles_table("boss"))
    try:
        state = table.state
        assert [(s["id"], s["controls"], s["health"]) for s in state["sides"]] == [
            ("castle", "heroes", 12),
            ("catacomb", "boss", 14),
        ]
        pieces = {c["id"]: c["piece"] for c in state["characters"]}
        assert pieces["boss-xaugorth"] == "catacomb-boss"
        on_mat = [c for c in state["characters"] if c["kind"] == "warrior" and c["on_mat"]]
        reserve = [c for c in state["characters"] if c["kind"] == "warrior" and not c["on_mat"]]
        assert len(on_mat) == 3 and len(reserve) == 3
        assert all(c["piece"].startswith("catacomb-warrior-") for c in on_mat)
        assert all(c["piece"] is None for c in reserve), "a warrior in reserve has no disc on the mat"
        assert len({c["piece"] for c in on_mat}) == 3
    finally:
        table.close()


def test_a_mode_the_table_file_does_not_list_is_refused_naming_file_and_key(tmp_path) -> None:
    text = (load_table("castles-demo").path).read_text().replace("  mode: team\n", "  mode: campaign\n")
    path = tmp_path / "castles.yaml"
    path.write_text(text)
    with pytest.raises(TableConfigError, match=r"castles.yaml: game.mode: 'campaign' is not one of"):
        load_table(path)


def test_smartmat_run_picks_the_shipped_table_of_the_rule_set_and_the_mode() -> None:
    def chosen(**given: Any) -> TableConfig:
        args = argparse.Namespace(table=None, ruleset=None, mode=None)
        for key, value in given.items():
            setattr(args, key, value)
        table: TableConfig = chosen_table(args)
        return table

    boss = chosen(ruleset="catacombs-and-castles-2e", mode="boss")
    assert (boss.table, boss.game.mode) == ("castles-demo", "boss")
    assert table_game(boss.ruleset).setup_payload(boss, 2)["mode"] == "boss"
    assert chosen().ruleset == "catacombs-3e"
    with pytest.raises(SystemExit, match="plays catacombs-3e, not catacombs-and-castles-2e"):
        chosen(table="demo", ruleset="catacombs-and-castles-2e")
    with pytest.raises(SystemExit, match="--mode is for Catacombs & Castles tables"):
        chosen(mode="team")


def test_the_castles_scenery_is_what_attribution_models_and_phones_draw(team_table: GameScript) -> None:
    """catacombs-and-castles-2e-manual.md: Playmat Setup — two cylinders, two cubes and two slabs on the
    Obstacle Location icons."""
    modelled = team_table.daemon.mat_geometry().obstacles
    assert [o.shape for o in modelled] == ["circle", "polygon", "polygon", "circle", "polygon", "polygon"]
    board = team_table.spectator.last("smartmat/castles-demo/board")
    assert board is not None
    drawn = json.loads(board.payload)["mat"]["obstacles"]
    assert [(o["x_mm"], o["y_mm"]) for o in drawn] == [(o.x_mm, o.y_mm) for o in modelled]
    cube = drawn[1]
    assert cube["radius_mm"] == pytest.approx(21.2, abs=0.1)  # the circle round a 30 mm cube


def test_when_a_pool_is_empty_the_other_team_wins_and_the_next_game_starts_from_the_table_file() -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Objective — when a team's Health Pool is depleted, the
    game is over and the opposing team has won."""
    table_file = castles_table("team")
    log = MemoryEventLog()
    log.append("setup", table_game(table_file.ruleset).setup_payload(table_file, 0), "daemon")
    emptied = {"action": "set_pool", "side": "catacomb", "health": 0, "reason": "counted by hand"}
    log.append("correction", {"action": emptied, "reason": "counted by hand"}, "referee:anna")
    table = GameScript(table=table_file, eventlog=log)
    try:
        over = table.state
        assert (over["outcome"], over["result"]["headline"]) == ("castle", "Team Castle wins")
        assert over["actions"] == []
        assert table.send("new_game")["ok"]
        again = table.state
        assert (again["table"]["game"], again["outcome"], again["result"]) == (2, None, None)
        assert [s["health"] for s in again["sides"]] == [12, 12]
        setups = [r.payload for r in log.records() if r.kind == "setup"]
        assert [s["seed"] for s in setups] == [5, 6]  # the next game draws its own dice
    finally:
        table.close()


def test_the_set_up_wizard_s_3e_game_is_refused_at_a_castles_table_by_name(team_table: GameScript) -> None:
    answer = team_table.send("setup_game", heroes=["xoric"], lord="vasesak-the-sorcerer")
    assert not answer["ok"]
    assert "a Catacombs & Castles 2E game does not take 'heroes', 'lord'" in answer["error"]
    assert team_table.state["table"]["game"] == 1, "the game on the table goes on"


def test_another_mode_on_the_command_line_does_not_throw_away_a_game_in_play(
    team_table: GameScript, capsys: pytest.CaptureFixture[str]
) -> None:
    say_which_game_resumes(team_table.daemon, "boss")
    said = capsys.readouterr().out
    assert "resumes a team game in play; --mode boss applies to the next game (add --new-game" in said
    say_which_game_resumes(team_table.daemon, "team")
    assert capsys.readouterr().out == ""


def test_the_referee_corrects_a_pool_a_card_s_tokens_and_armour(team_table: GameScript) -> None:
    """catacombs-and-castles-2e-manual.md: Health and Transfer Types (the Health Pool, tokens on cards);
    Armour Tokens. The console's health correction of a hero sets its team's pool."""
    answer = team_table.send("correct", target="hero-larra", field="health", value=9, reason="miscounted")
    assert answer["ok"]
    assert side(team_table.state, "castle")["health"] == 9
    assert team_table.send("correct", target="catacomb", field="health", value=10, reason="miscounted")["ok"]
    assert side(team_table.state, "catacomb")["health"] == 10
    charged = team_table.send(
        "correct", target="hero-hakoru", field="charge", card="ability", value=2, reason="token slipped"
    )
    assert charged["ok"] and team_table.character("hero-hakoru")["cards"]["hakoru-ability"] == 2
    armour = team_table.send("correct", target="hero-larra", field="armour", value=[2, 1], reason="x")
    assert armour["ok"] and team_table.character("hero-larra")["armour"] == ["full", "half"]
    corrections = [r for r in team_table.eventlog.records() if r.kind == "correction"]
    assert [c.payload["action"]["action"] for c in corrections] == [
        "set_pool",
        "set_pool",
        "set_charge",
        "set_armour",
    ]
    refused = team_table.send("correct", target="hero-larra", field="gold", value=3, reason="x")
    assert (
        not refused["ok"]
        and "health (the side's Health Pool), charge (with card), armour" in refused["error"]
    )
