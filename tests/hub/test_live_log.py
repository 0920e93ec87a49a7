"""Live truth on the overview (docs/tournaments.md, "Screens"): the log shipper sends a record as the daemon
writes it (it watches the log's folder; its timer is only a safety net), and the overview's "log held" moves
with every record the hub stores."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from service.eventlog import SqliteEventLog
from service.hub.feed import HubFeed
from service.hub.hub import LOG_COUNT_INTERVAL_S, Hub
from service.hub.shipper import sqlite_log_shipper
from service.hub.store import HubStore
from service.publish.fake import FakeBroker, FakeMqttClient


def eventually(condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)


def test_a_record_is_shipped_when_written_not_at_the_next_look(tmp_path: Path) -> None:
    """The shipper's timer is set to a minute: only the watch on the log's folder can bring each record over
    within the test's time, and it does, record after record."""
    broker = FakeBroker()
    log = SqliteEventLog(tmp_path / "t1.sqlite")
    log.append("setup", {"ruleset": "catacombs-3e"}, "referee:anna")
    hub = Hub(HubStore(tmp_path / "hub.sqlite"))
    counts: list[dict[str, Any]] = []
    hub.listen(lambda kind, data: counts.append(data) if kind == "log" else None)
    feed = HubFeed(hub, FakeMqttClient(broker, "hub"), retry_s=60)
    shipper = sqlite_log_shipper("t1", tmp_path / "t1.sqlite", FakeMqttClient(broker, "logship"), poll_s=60)
    feed.start()
    shipper.start()
    try:
        eventually(lambda: hub.table_view("t1")["log_held"] == 1)
        for number in range(2, 12):
            time.sleep(LOG_COUNT_INTERVAL_S)  # records a table writes in play, each a moment after the last
            log.append("action", {"action": "x", "n": number}, "sensor")
            eventually(lambda n=number: hub.table_view("t1")["log_held"] == n)
            eventually(lambda n=number: counts[-1]["log_held"] == n)
        held = [c["log_held"] for c in counts if c["table"] == "t1"]
        assert held[-1] == 11 and all(n in held for n in range(1, 12))  # the count moved with each record
        for number in range(50):  # a burst: the count may skip, but its last value reaches the pages
            log.append("action", {"action": "burst", "n": number}, "sensor")
        eventually(lambda: counts[-1]["log_held"] == 61)
        time.sleep(0.6)  # the looks that follow a change are over
        wakes = shipper.wakes
        time.sleep(0.5)
        assert shipper.wakes - wakes <= 1  # a quiet log costs nothing: its own reading wakes nothing
    finally:
        shipper.stop()
        feed.stop()
        log.close()
        hub.store.close()


def test_other_files_in_the_logs_folder_wake_nothing(tmp_path: Path) -> None:
    """The folder may hold other busy files (another table's log, the hub's own file on a shared machine):
    only the log's own files wake the shipper."""
    broker = FakeBroker()
    log = SqliteEventLog(tmp_path / "t1.sqlite")
    log.append("setup", {"ruleset": "catacombs-3e"}, "referee:anna")
    other = SqliteEventLog(tmp_path / "t2.sqlite")
    shipper = sqlite_log_shipper("t1", tmp_path / "t1.sqlite", FakeMqttClient(broker, "logship"), poll_s=60)
    shipper.start()
    try:
        eventually(lambda: "smartmat/t1/log/head" in broker.retained)
        time.sleep(0.2)
        wakes = shipper.wakes
        for number in range(30):
            other.append("action", {"n": number}, "sensor")
        time.sleep(0.3)
        assert shipper.wakes - wakes <= 1
        log.append("action", {"n": 1}, "sensor")
        eventually(lambda: b'"seq":2' in broker.retained["smartmat/t1/log/head"])
    finally:
        shipper.stop()
        other.close()
        log.close()


def test_without_a_watch_the_shipper_looks_often(tmp_path: Path, monkeypatch: Any) -> None:
    """Where inotify cannot be had (another system, the kernel's watch limit), the timer takes over at a
    short interval, not the safety interval's minute."""
    import service.hub.shipper as shipper_module

    monkeypatch.setattr(shipper_module, "watch_folder", lambda folder, wake, prefix="": None)
    broker = FakeBroker()
    log = SqliteEventLog(tmp_path / "t1.sqlite")
    log.append("setup", {"ruleset": "catacombs-3e"}, "referee:anna")
    shipper = sqlite_log_shipper("t1", tmp_path / "t1.sqlite", FakeMqttClient(broker, "logship"), poll_s=60)
    shipper.start()
    try:
        eventually(lambda: "smartmat/t1/log/head" in broker.retained)
        log.append("action", {"n": 1}, "sensor")
        eventually(lambda: b'"seq":2' in broker.retained["smartmat/t1/log/head"])
    finally:
        shipper.stop()
        log.close()
