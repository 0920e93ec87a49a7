"""The set-up wizard at a Catacombs & Castles 2E table: the referee picks the mode, the teams, the heroes or
the boss and its warriors; the rules check the choice before anything is logged, then the new game starts.

Each test sends ``setup_game`` as the wizard's page does (docs/setup.md, "The set-up wizard").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.daemon.test_castles_table import castles_table, side
from tests.helpers.game_script import GameScript

MANUAL = "catacombs-and-castles-2e-manual.md"
CASTLE_WARRIORS = ["castle-warrior-a", "castle-warrior-b", "castle-warrior-c"]
CATACOMB_WARRIORS = ["catacomb-warrior-a", "catacomb-warrior-b", "catacomb-warrior-c"]


@pytest.fixture
def table() -> Iterator[GameScript]:
    running = GameScript(table=castles_table("team"))
    try:
        yield running
    finally:
        running.close()


def kinds_of(table: GameScript) -> list[str]:
    return [r.kind for r in table.eventlog.records()]


def heroes_of(state: dict[str, Any], side_id: str) -> list[str]:
    return [c["id"] for c in state["characters"] if c["side"] == side_id and c["kind"] == "hero"]


def test_a_two_versus_two_team_game_replaces_the_quick_start_game(table: GameScript) -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Setup — 2 vs 2, one of each role a team, Castle against
    Catacomb; both teams start with the same Health Tokens."""
    assert table.state["mode"] == "team" and len(heroes_of(table.state, "castle")) == 3
    answer = table.send(
        "setup_game",
        mode="team",
        first="catacomb",
        sides=[
            {"team": "castle", "heroes": ["larra", "kethyst"]},
            {"team": "catacomb", "heroes": ["hakoru", "formilus"]},
        ],
    )
    assert answer["ok"], answer
    assert kinds_of(table)[-2:] == ["new_game", "setup"]
    setup = table.eventlog.records()[-1]
    assert setup.by == "referee:anna"
    assert setup.payload["seed"] == table.table.game.seed + 1  # the second game of this log draws anew
    state = table.state
    assert (state["mode"], state["table"]["game"]) == ("team", 2)
    assert heroes_of(state, "castle") == ["hero-larra", "hero-kethyst"]
    assert heroes_of(state, "catacomb") == ["hero-hakoru", "hero-formilus"]
    assert [s["health"] for s in state["sides"]] == [12, 12]
    # Team Catacomb was chosen to go first: the turn controller offers only its heroes' shots.
    assert {a["character"] for a in state["actions"]} == {"hero-hakoru", "hero-formilus"}


def test_one_versus_one_each_player_takes_one_hero_with_an_armour_token(table: GameScript) -> None:
    """catacombs-and-castles-2e-manual.md: One versus One Mode — one hero each, one Armour Token each."""
    sides = [{"team": "castle", "heroes": ["delilah"]}, {"team": "catacomb", "heroes": ["cahreliss"]}]
    assert table.send("setup_game", mode="one-versus-one", first="castle", sides=sides)["ok"]
    state = table.state
    assert state["mode"] == "one-versus-one"
    assert [c["id"] for c in state["characters"]] == ["hero-delilah", "hero-cahreliss"]
    assert all(len(c["armour"]) == 1 for c in state["characters"])


def test_boss_mode_puts_three_heroes_against_a_boss_and_three_warriors(table: GameScript) -> None:
    """catacombs-and-castles-2e-manual.md: Boss Mode Rules — a hero team against one boss player with three
    different warriors of the boss' team, one piece of each on the playmat at the start."""
    answer = table.send(
        "setup_game",
        mode="boss",
        first="castle",
        sides=[
            {"team": "castle", "heroes": ["larra", "kethyst", "delilah"], "health_tokens": 12},
            {
                "team": "catacomb",
                "boss": "xaugorth",
                "warriors": CATACOMB_WARRIORS,
                "health_tokens": 14,
                "reinforcement_tokens": 2,
            },
        ],
    )
    assert answer["ok"], answer
    state = table.state
    assert state["mode"] == "boss"
    catacomb = side(state, "catacomb")
    assert (catacomb["health"], catacomb["reinforcements"]) == (14, 2)
    bosses = [c["id"] for c in state["characters"] if c["kind"] == "boss"]
    assert bosses == ["boss-xaugorth"]
    on_mat = sorted(c["card"] for c in state["characters"] if c["kind"] == "warrior" and c["on_mat"])
    assert on_mat == CATACOMB_WARRIORS


def test_boss_versus_boss_takes_its_pools_from_the_game_length(table: GameScript) -> None:
    """catacombs-and-castles-2e-manual.md: Boss vs Boss Mode Overview — each player a boss and three warriors;
    the game's length sets the Health and Reinforcement Tokens."""
    answer = table.send(
        "setup_game",
        mode="boss-versus-boss",
        first="castle",
        game_length="short",
        sides=[
            {"team": "castle", "boss": "sothemir", "warriors": CASTLE_WARRIORS},
            {"team": "catacomb", "boss": "xaugorth", "warriors": CATACOMB_WARRIORS},
        ],
    )
    assert answer["ok"], answer
    state = table.state
    assert state["mode"] == "boss-versus-boss"
    assert sorted(c["id"] for c in state["characters"] if c["kind"] == "boss") == [
        "boss-sothemir",
        "boss-xaugorth",
    ]
    assert side(state, "castle")["health"] == side(state, "catacomb")["health"]


def test_a_choice_the_rules_refuse_changes_nothing_and_says_why(table: GameScript) -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Setup (equal teams, Castle against Catacomb); Boss Mode
    Rules (the boss player states its tokens)."""
    before = table.eventlog.last_seq()
    uneven = [
        {"team": "castle", "heroes": ["larra", "kethyst"]},
        {"team": "catacomb", "heroes": ["hakoru", "formilus", "cahreliss"]},
    ]
    refused = table.send("setup_game", mode="team", sides=uneven)["error"]
    assert refused.startswith("cannot start the game: each team must have the same number of heroes")
    wrong_team = [
        {"team": "castle", "heroes": ["larra", "hakoru"]},
        {"team": "catacomb", "heroes": ["formilus"]},
    ]
    assert (
        "Team Catacomb, not sides[0]'s Team Castle"
        in table.send("setup_game", mode="team", sides=wrong_team)["error"]
    )
    no_tokens = [
        {"team": "castle", "heroes": ["larra", "kethyst"], "health_tokens": 12},
        {"team": "catacomb", "boss": "xaugorth", "warriors": CATACOMB_WARRIORS},
    ]
    assert (
        "must state health_tokens and reinforcement_tokens"
        in table.send("setup_game", mode="boss", sides=no_tokens)["error"]
    )
    assert "mode must be one of" in table.send("setup_game", mode="siege", sides=uneven)["error"]
    # The shape is checked before the rules see it, naming the argument.
    assert table.send("setup_game", mode="team", sides=uneven[:1])["error"].startswith(
        "sides: expected the two"
    )
    assert table.send("setup_game", mode="team", sides=[{**uneven[0], "lord": "x"}, uneven[1]])["error"] == (
        "sides[0] does not take 'lord' (a side takes boss, health_tokens, heroes, reinforcement_tokens, "
        "team, warriors)"
    )
    assert table.eventlog.last_seq() == before
    assert (table.state["table"]["game"], table.state["mode"]) == (1, "team"), "the game on the table goes on"
