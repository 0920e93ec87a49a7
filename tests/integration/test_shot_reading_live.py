"""A slow shot on the live table: simulated mat → serial → daemon → Mosquitto, with the first shot's
attribution held back. The referee's commands are answered while the mat reads it, everyone sees the shot as
attributing, and the reading lands afterwards and settles the shot (docs/architecture.md: a shot, step by
step).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.attribution.infer import Attribution, AttributionConfig, attribute
from service.mat.trace import ShotTrace
from tests.helpers.broker import start_mosquitto
from tests.integration.live_table import LiveTable, quick_table

pytestmark = [pytest.mark.broker, pytest.mark.slow, pytest.mark.timeout(240)]


class FirstShotHeld:
    """The real attribution, but the first shot waits until the test lets it go."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.release = threading.Event()
        self.threads: set[str] = set()

    def __call__(self, trace: ShotTrace, config: AttributionConfig) -> Attribution:
        self.threads.add(threading.current_thread().name)
        if not self.started.is_set():
            self.started.set()
            self.release.wait(60)
        return attribute(trace, config)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[LiveTable, FirstShotHeld]]:
    broker = start_mosquitto(tmp_path / "broker")
    held = FirstShotHeld()
    table = LiveTable(broker, tmp_path, quick_table(), attribute=held)
    try:
        yield table, held
    finally:
        held.release.set()
        table.stop()
        broker.stop()


def command(live: LiveTable, name: str, **args: Any) -> dict[str, Any]:
    """A referee's command on cmd/request; its answer on cmd/response, within a few seconds."""
    assert live.probe is not None
    txn = uuid.uuid4().hex
    body = {"txn": txn, "actor": "referee:anna", "command": name, "args": args}
    live.probe.publish(f"smartmat/{live.table.table}/cmd/request", json.dumps(body).encode())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        answers = [s.json() for s in live.probe.seen if s.topic.endswith("/cmd/response") and s.payload]
        mine = [a for a in answers if a.get("txn") == txn]
        if mine:
            return mine[-1]
        time.sleep(0.05)
    raise AssertionError(f"{name} was not answered within 5 s")


def shots(live: LiveTable) -> list[dict[str, Any]]:
    assert live.probe is not None
    return [s.json() for s in live.probe.seen if s.topic.endswith("/shot") and s.payload]


def test_a_referee_command_is_answered_while_a_slow_shot_is_read_then_its_reading_lands(
    live: tuple[LiveTable, FirstShotHeld],
) -> None:
    table, held = live
    table.start()
    assert held.started.wait(120), "no shot was flicked"
    table.wait_until(
        lambda: ((table.state() or {}).get("table") or {}).get("attributing") is not None,
        10,
        "the shot to show as attributing",
    )
    shot_seq = (table.state() or {})["table"]["attributing"]["seq"]
    # The state and shot topics are separate messages: the shot topic's may reach the probe a moment later.
    table.wait_until(
        lambda: any(s["shot_seq"] == shot_seq for s in shots(table)), 10, "the shot topic to name the shot"
    )
    assert [s["status"] for s in shots(table) if s["shot_seq"] == shot_seq] == ["attributing"]
    assert held.threads == {"shot reader"}  # not the game thread ("daemon")

    # The game thread is free: the referee pauses and resumes the game while the shot is still being read.
    paused = command(table, "pause", reason="checking the lighting")
    assert paused["ok"] and paused["seq"] > shot_seq
    assert not held.release.is_set()
    state = table.state() or {}
    assert state["paused"] is True and state["table"]["attributing"]["seq"] == shot_seq
    assert command(table, "resume")["ok"]

    held.release.set()
    table.wait_until(
        lambda: any(s["shot_seq"] == shot_seq and s["status"] == "resolved" for s in shots(table)),
        90,
        "the reading to land and the shot to be settled",
    )
    statuses = [s["status"] for s in shots(table) if s["shot_seq"] == shot_seq]
    assert statuses[0] == "attributing" and statuses[-1] == "resolved"
    settled = next(s for s in shots(table) if s["shot_seq"] == shot_seq and s["status"] == "resolved")
    assert settled["candidates"] and settled["resolved_seq"] > paused["seq"]
    assert table.eventlog is not None
    records = {r.seq: r for r in table.eventlog.records()}
    reading = next(r for r in records.values() if r.kind == "attribution" and r.payload["shot"] == shot_seq)
    assert reading.seq > paused["seq"]  # appended after the commands answered meanwhile
