"""The whole spine, headless: simulated mat → serial → daemon → rules → event log → Mosquitto → dashboard.

A room of the real content is played by the simulated players to the end; we watch only what any subscriber
or phone can see.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.broker import start_mosquitto
from tests.integration.live_table import BRISK, LiveTable, party_gold, quick_table

# A whole room at human pace: the suite-wide 180 s limit is too tight on a loaded machine, 600 s is not.
pytestmark = [pytest.mark.broker, pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture
def live(tmp_path: Path):
    broker = start_mosquitto(tmp_path / "broker")
    table = LiveTable(broker, tmp_path, quick_table(rooms=("the-mitholaq-hive", "the-barracks")), pace=BRISK)
    try:
        yield table
    finally:
        table.stop()
        broker.stop()


def test_a_room_is_played_to_the_end_and_everyone_sees_it(live: LiveTable) -> None:
    live.start(dashboard=True)
    live.wait_until(lambda: (live.state() or {}).get("phase") == "battle", 60, "the battle to start")
    start = live.state()
    heroes_at_start = {c["id"]: c["health"] for c in start["characters"] if c["kind"] == "hero"}
    monsters = [c["id"] for c in start["characters"] if c["kind"] == "monster"]
    assert monsters, "the room has monsters"

    def events_of(kind: str) -> list[dict]:
        return [e for e in live.events() if e["type"] == kind]

    def monster_hits() -> list[dict]:
        return [
            e
            for e in events_of("damaged")
            if e["by"].startswith("monster-") and e["character"].startswith("hero-")
        ]

    live.wait_until(lambda: events_of("room_cleared"), 330, "the room to be cleared")
    # Quick heroes can clear a room before any monster strikes: play on into the next room until one does.
    live.wait_until(monster_hits, 180, "a monster to hit a hero")
    cleared = events_of("room_cleared")[0]

    def states_at_clearing() -> list[dict]:
        return [
            s.json()
            for s in live.probe.seen
            if s.topic.endswith("/state") and s.payload and s.json()["seq"] == cleared["seq"]
        ]

    # A record's state follows its events on the wire.
    live.wait_until(states_at_clearing, 15, "the state as of the clearing")
    end = states_at_clearing()[0]
    events = live.events()

    # A monster hit a hero: its damage event names a monster as the attacker and the hero's health dropped.
    hit = monster_hits()[0]
    before = [
        e["health"]
        for e in events_of("damaged")
        if e["character"] == hit["character"] and e["seq"] < hit["seq"]
    ]
    assert hit["health"] < (before[-1] if before else heroes_at_start[hit["character"]])

    def hero_topic_from_hit() -> list[dict]:
        return [
            s.json()
            for s in live.probe.seen
            if s.topic.endswith(f"/character/{hit['character']}")
            and s.payload
            and s.json()["seq"] >= hit["seq"]
        ]

    # The daemon publishes a record's events before its state: the topic may arrive just after the event.
    live.wait_until(hero_topic_from_hit, 15, "the hero's retained topic as of the hit")
    first = hero_topic_from_hit()[0]
    # The topic carries the hero as of its record: the last change to the hero at or before that record (one
    # record can hold a hit and then another).
    health_then = [
        e["health"]
        for e in live.events()
        if e.get("character") == hit["character"] and e["seq"] <= first["seq"] and "health" in e
    ]
    assert first["health"] == health_then[-1] <= hit["health"], "the hero's retained topic carried the drop"

    # Every monster of the room was destroyed and left the published game.
    destroyed = {e["character"] for e in events if e["type"] == "destroyed" and e["seq"] <= cleared["seq"]}
    assert set(monsters) <= destroyed
    assert not [c for c in end["characters"] if c["kind"] == "monster" and c.get("on_mat")]

    # The room ended with gold for the heroes, paid from the Treasury.
    assert any(e["type"] == "room_cleared" for e in events)
    assert party_gold(end) > 0
    assert end["gold"]["treasury"] == start["gold"]["treasury"] - party_gold(end)

    # LED trackers get plain integers.
    trackers = [s for s in live.probe.seen if "/tracker/" in s.topic and s.payload]
    assert trackers and all(s.payload.decode().isdigit() for s in trackers)

    # The phone's event stream: ids are event-log sequence numbers, and a phone that reconnects with
    # Last-Event-ID gets exactly the events after it, none twice.
    everything = [m for m in live.read_sse(f"/table/{live.table.table}/events", seconds=1.5) if "id" in m]
    ids = [m["id"] for m in everything]
    assert len(ids) >= 10
    assert ids == sorted(ids, key=lambda i: tuple(int(p) for p in i.split(".")))
    middle = ids[len(ids) // 2]
    resumed = [
        m["id"]
        for m in live.read_sse(f"/table/{live.table.table}/events", last_event_id=middle, seconds=1.5)
        if "id" in m
    ]
    missed = ids[ids.index(middle) + 1 :]
    assert resumed[: len(missed)] == missed  # (play goes on meanwhile: later events may follow)
    assert len(set(resumed)) == len(resumed)
