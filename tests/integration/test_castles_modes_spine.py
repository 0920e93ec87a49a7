"""The Catacombs & Castles modes the other spine tests leave out, each played to its end on the simulated mat:
One versus One and Boss versus Boss (2E), and the first edition's Boss Mode. The same path as
``test_castles_spine``: simulated mat → serial → daemon → rules → event log → Mosquitto, watched as a phone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service.table.config import load_table
from tests.integration.live_table import LiveTable
from tests.integration.test_castles_spine import play_to_the_end, sensor_shots, small_game

pytestmark = [pytest.mark.broker, pytest.mark.slow, pytest.mark.timeout(240)]


def published(live: LiveTable) -> list[dict[str, Any]]:
    assert live.probe is not None
    return [m.json() for m in live.probe.seen if m.topic.endswith("/state") and m.payload]


def winner_and_loser(end: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    winner = next(s for s in end["sides"] if s["id"] == end["outcome"])
    loser = next(s for s in end["sides"] if s["id"] != end["outcome"])
    return winner, loser


def test_a_one_versus_one_game_is_played_until_a_hero_has_no_health_left(tmp_path: Path) -> None:
    """catacombs-and-castles-2e-manual.md: One versus One Mode — one hero each, one Armour Token each (4:
    the Team Action card is charged as normal); 6: when a hero loses all of their Health Tokens, the game is
    over and their opponent is the winner. (2: players may agree on fewer Health Tokens: one each here.)"""
    sides = [{"team": "castle", "heroes": ["delilah"]}, {"team": "catacomb", "heroes": ["formilus"]}]
    table = small_game("one-versus-one", first="castle", health_tokens=1, sides=sides)
    live, end = play_to_the_end(tmp_path, table)
    assert end["mode"] == "one-versus-one"
    winner, loser = winner_and_loser(end)
    assert loser["health"] == 0 and winner["health"] > 0
    assert end["result"]["headline"] == f"The {winner['team']} side wins"
    start = published(live)[0]
    assert sorted(c["id"] for c in start["characters"] if c["kind"] == "hero") == [
        "hero-delilah",
        "hero-formilus",
    ]
    assert [e for e in live.events() if e["type"] == "game_over"]
    # One hero a side, and the castle's went first: the mat read Delilah's flick before any other.
    assert sensor_shots(live)[0]["declaration"]["flicked"] == "hero-delilah"


def test_a_boss_versus_boss_game_is_played_until_a_health_pool_is_depleted(tmp_path: Path) -> None:
    """catacombs-and-castles-2e-manual.md: Boss vs Boss Mode Overview — two bosses and their warriors; a
    player wins when their opponent's Health Pool is depleted; Short Game Length: 8 Health Tokens per team
    and 2 Reinforcement Tokens."""
    live, end = play_to_the_end(tmp_path, small_game("boss-versus-boss", first="castle", game_length="short"))
    assert end["mode"] == "boss-versus-boss"
    start = published(live)[0]
    assert {(s["team"], s["health"]) for s in start["sides"]} == {("castle", 8), ("catacomb", 8)}
    winner, loser = winner_and_loser(end)
    assert loser["health"] == 0 and winner["health"] > 0
    assert end["result"]["headline"] == f"The {winner['team']} side wins"
    # Both players moved their armies: each boss or one of its warriors was flicked on the mat.
    movers = [s["declaration"]["character"] for s in sensor_shots(live)]
    assert any(m.startswith(("boss-castle", "boss-sothemir", "warrior-castle-")) for m in movers), movers
    assert any(m.startswith(("boss-catacomb", "boss-xaugorth", "warrior-catacomb-")) for m in movers), movers


def test_a_first_edition_boss_mode_game_is_played_to_the_end(tmp_path: Path) -> None:
    """catacombs-and-castles-1e-manual.txt: Boss Mode Overview — the heroes win if they eliminate the Lord's
    Health Tokens, the Overseer if he eliminates the heroes'; Boss Mode Setup — the Overseer's turn first
    (and the players may start with fewer Health Tokens: one a side here)."""
    sides = [
        {"team": "catacomb", "heroes": ["hakoru", "formilus", "cahreliss"], "health_tokens": 1},
        {
            "team": "castle",
            "boss": "sothemir",
            "warriors": ["royal-archer", "watch-guard", "querling"],
            "health_tokens": 1,
            "reinforcement_tokens": 1,
        },
    ]
    live, end = play_to_the_end(
        tmp_path, small_game("boss", sides=sides, table=load_table("castles-1e-demo"))
    )
    assert (end["ruleset"], end["mode"]) == ("catacombs-and-castles-1e", "boss")
    winner, loser = winner_and_loser(end)
    assert loser["health"] == 0 and winner["health"] > 0
    assert end["result"]["headline"] == f"The {winner['team']} side wins"
    movers = [s["declaration"]["character"] for s in sensor_shots(live)]
    assert movers[0].startswith(("boss-", "warrior-")), movers
