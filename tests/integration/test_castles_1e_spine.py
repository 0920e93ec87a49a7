"""Catacombs & Castles 1E played to the end on the simulated mat: simulated mat → serial → daemon → rules →
event log → Mosquitto. The simulated players choose from the actions the table offers (shot sequences and
charged Ability cards), answer the first edition's decisions (Armour Tokens, transfers), flick hero and
ranged pieces, and the referee among them settles doubtful shots; we watch only what a phone can see.

The Health Pools are small (the setup's ``health_tokens``) so a whole game takes seconds, not an evening.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.table.config import load_table
from tests.integration.test_castles_spine import play_to_the_end, sensor_shots, small_game

pytestmark = [pytest.mark.broker, pytest.mark.slow, pytest.mark.timeout(240)]


def test_a_first_edition_team_mode_game_is_played_to_an_empty_health_pool(tmp_path: Path) -> None:
    """catacombs-and-castles-1e-manual.txt: Health and Damage Tokens — the team that empties the other's
    Health Pool wins; Placing The Heroes — on the Castle side of the board, Team Catacomb goes first."""
    sides = [
        {"team": "castle", "heroes": ["larra", "delilah"]},
        {"team": "catacomb", "heroes": ["hakoru", "cahreliss"]},
    ]
    table = small_game("team", health_tokens=1, sides=sides, table=load_table("castles-1e-demo"))
    live, end = play_to_the_end(tmp_path, table)
    assert end["ruleset"] == "catacombs-and-castles-1e"
    loser = next(s for s in end["sides"] if s["id"] != end["outcome"])
    winner = next(s for s in end["sides"] if s["id"] == end["outcome"])
    assert loser["health"] == 0 and winner["health"] > 0
    assert end["result"]["headline"] == f"Team {winner['team'].title()} wins"
    shots = sensor_shots(live)
    assert shots and shots[0]["character"] in {"hero-hakoru", "hero-cahreliss"}
    # Armour Tokens: every hero starts with one, so the first hit on a hero asked whether to block it; the
    # players answered on the command channel, and the phones saw the question.
    published = [m.json() for m in live.probe.seen if m.topic.endswith("/state") and m.payload]
    assert any((state.get("pending") or {}).get("kind") == "armour" for state in published)
