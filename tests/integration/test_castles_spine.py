"""Catacombs & Castles 2E played to the end on the simulated mat: simulated mat → serial → daemon → rules →
event log → Mosquitto. The simulated players choose from the actions the table offers, flick hero, boss,
warrior and ranged pieces, and the referee among them settles doubtful shots; we watch only what a phone
can see.

The Health Pools are small (the setup's ``health_tokens``) so a whole game takes seconds, not an evening.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from service.table.config import TableConfig, load_table, with_game
from tests.integration.live_table import LiveTable, play_until

pytestmark = [pytest.mark.broker, pytest.mark.slow, pytest.mark.timeout(240)]


def small_game(mode: str, table: TableConfig | None = None, **changes: Any) -> TableConfig:
    table = with_game(table or load_table("castles-demo"), mode=mode)
    modes = {name: dict(fields) for name, fields in table.game.modes.items()}
    modes[mode].update(changes)
    return replace(table, game=replace(table.game, modes=modes, seed=3))


def play_to_the_end(tmp_path: Path, table: TableConfig) -> tuple[LiveTable, dict[str, Any]]:
    def over(live: LiveTable) -> bool:
        return (live.state() or {}).get("outcome") is not None

    live, states = play_until(tmp_path, table, over, "a side to win")
    return live, next(s for s in states if s.get("outcome") is not None)


def sensor_shots(live: LiveTable) -> list[dict[str, Any]]:
    """The shots the mat read (the daemon's ``shot`` messages), as the referee's console receives them."""
    assert live.probe is not None
    return [s.json() for s in live.probe.seen if s.topic.endswith("/shot") and s.payload]


def test_a_team_mode_game_is_played_to_an_empty_health_pool(tmp_path: Path) -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Objective — when a team's Health Pool is depleted, the
    game is over and the opposing team has won."""
    sides = [
        {"team": "castle", "heroes": ["sothemir", "larra"]},
        {"team": "catacomb", "heroes": ["hakoru", "xaugorth"]},
    ]
    live, end = play_to_the_end(tmp_path, small_game("team", first="castle", health_tokens=1, sides=sides))
    loser = next(s for s in end["sides"] if s["id"] != end["outcome"])
    winner = next(s for s in end["sides"] if s["id"] == end["outcome"])
    assert loser["health"] == 0 and winner["health"] > 0
    assert end["result"]["headline"] == f"Team {winner['team'].title()} wins"
    # Every hero of the beaten team shows the empty pool on its tracker topic.
    assert {c["health"] for c in end["characters"] if c["side"] == loser["id"]} == {0}
    texts = [e["text"] for e in live.events()]
    assert any(f"{loser['id']} has 0 left" in t for t in texts)
    # The mat read the flicks: a Castle hero opened the game (Team Castle was set to go first).
    shots = sensor_shots(live)
    assert shots and shots[0]["declaration"]["flicked"] in {"hero-larra", "hero-sothemir"}


def test_a_boss_mode_game_is_played_to_the_end(tmp_path: Path) -> None:
    """catacombs-and-castles-2e-manual.md: Boss Mode Rules — a hero team against a boss and its warriors."""
    sides = [
        {"team": "castle", "heroes": ["larra", "kethyst"], "health_tokens": 1},
        {
            "team": "catacomb",
            "boss": "xaugorth",
            "warriors": ["catacomb-warrior-a", "catacomb-warrior-b", "catacomb-warrior-c"],
            "health_tokens": 1,
            "reinforcement_tokens": 1,
        },
    ]
    live, end = play_to_the_end(tmp_path, small_game("boss", first="castle", sides=sides))
    assert end["mode"] == "boss"
    assert sorted(s["health"] == 0 for s in end["sides"]) == [False, True]
    warriors = [c for c in end["characters"] if c["kind"] == "warrior"]
    assert warriors and all(
        c["piece"] is None or c["piece"].startswith("catacomb-warrior-") for c in warriors
    )
    # After the heroes' first turn, the boss player moved its boss or a warrior on the mat.
    movers = [s["declaration"]["character"] for s in sensor_shots(live)]
    assert movers[0].startswith("hero-")
    assert any(m.startswith(("boss-", "warrior-catacomb-")) for m in movers)
