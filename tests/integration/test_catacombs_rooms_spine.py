"""Catacombs played to an end on the simulated mat by brisk, practised players: the first edition's Final
Battle against the Catacomb Lord (the game's end), and a Catacombs 3E room with the Castles expansion's
heroes in the party. Simulated mat → serial → daemon → rules → event log → Mosquitto, watched as a phone.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from service.table.config import load_table
from tests.integration.live_table import play_until

pytestmark = [pytest.mark.broker, pytest.mark.slow, pytest.mark.timeout(240)]


def test_the_first_edition_game_ends_when_the_heroes_destroy_the_catacomb_lord(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: La Battaglia Finale: Il Signore della Catacomba — the Lord's lair
    with his servants; Condizioni di Vittoria — the Lord's health at 0 with a hero alive: the heroes win
    (his servants need not be beaten); every hero down: the Keeper wins."""
    table = load_table("catacombs-1e-demo")
    table = replace(table, game=replace(table.game, rooms=("signore-della-catacomba",), seed=3))
    live, published = play_until(
        tmp_path, table, lambda t: (t.state() or {}).get("outcome") is not None, "the game to end"
    )
    battle = next(s for s in published if s.get("phase") == "battle")
    assert battle["room"]["id"] == "signore-della-catacomba"
    kinds = {c["id"]: c["kind"] for c in battle["characters"]}
    assert "lord-dragone" in kinds and "monster" in kinds.values(), "the Lord and his servants in the lair"
    end = published[-1]
    assert (end["phase"], end["outcome"]) == ("game_over", "heroes")
    assert end["result"]["headline"] == "The heroes win"
    by_id = {c["id"]: c for c in end["characters"]}
    assert by_id["lord-dragone"]["health"] == 0
    assert any(c["health"] > 0 for c in by_id.values() if c["kind"] == "hero"), "a hero is alive"
    assert [e for e in live.events() if e["type"] == "game_over"]


def test_a_catacombs_3e_room_with_castles_heroes_is_played_to_the_end(tmp_path: Path) -> None:
    """catacombs-and-castles-2e-manual.md: Team Catacomb Heroes — Castles heroes join a 3E party;
    catacombs-3e-reference.txt: the room's Battle Phase ends when its monsters are destroyed."""
    table = load_table("castles-in-3e-demo")
    live, published = play_until(
        tmp_path,
        table,
        lambda t: any(e["type"] == "room_cleared" for e in t.events()),
        "the room to be cleared",
    )
    start = next(s for s in published if s.get("phase") == "battle")
    heroes = {c["id"] for c in start["characters"] if c["kind"] == "hero"}
    assert {"hero-hakoru", "hero-larra"} <= heroes, "the Castles heroes are in the party"
    monsters = {c["id"] for c in start["characters"] if c["kind"] == "monster"}
    events = live.events()
    cleared = next(e for e in events if e["type"] == "room_cleared")
    destroyed = {e["character"] for e in events if e["type"] == "destroyed" and e["seq"] <= cleared["seq"]}
    assert monsters and monsters <= destroyed
    # A Castles hero took its turns with its own disc on the mat.
    assert live.probe is not None
    shots = [m.json() for m in live.probe.seen if m.topic.endswith("/shot") and m.payload]
    assert {"hero-hakoru", "hero-larra"} & {s.get("character") for s in shots}, shots[:3]
