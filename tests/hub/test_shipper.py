"""The table's log shipper and the hub's feed on an in-memory broker: records the hub missed while it was
away are asked for and sent again; a table that starts a new log is followed; bad requests change nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from service.eventlog import SqliteEventLog
from service.hub.feed import HubFeed
from service.hub.hub import Hub
from service.hub.shipper import sqlite_log_shipper
from service.hub.store import HubStore
from service.publish.fake import FakeBroker, FakeMqttClient


def eventually(condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


class Rig:
    def __init__(self, tmp_path: Path) -> None:
        self.broker = FakeBroker()
        self.path = tmp_path / "t1.sqlite"
        self.log = SqliteEventLog(self.path)
        self.log.append("setup", {"ruleset": "catacombs-3e", "note": "first"}, "referee:anna")
        self.hub = Hub(HubStore(tmp_path / "hub.sqlite"))
        self.hub_client = FakeMqttClient(self.broker, "hub")
        self.feed = HubFeed(self.hub, self.hub_client, retry_s=0.1)
        self.feed.start()
        self.shipper = sqlite_log_shipper(
            "t1", self.path, FakeMqttClient(self.broker, "logship"), poll_s=0.02
        )
        self.shipper.start()

    def held(self) -> int:
        return int(self.hub.table_view("t1")["log_held"])

    def close(self) -> None:
        self.shipper.stop()
        self.feed.stop()
        self.log.close()
        self.hub.store.close()


def test_records_the_hub_missed_are_asked_for_and_sent_again(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    try:
        eventually(lambda: rig.held() == 1)
        rig.hub_client.lose_connection()  # the hub is away; the table plays on
        for number in range(20):
            rig.log.append("action", {"action": "x", "n": number}, "sensor")
        time.sleep(0.2)
        assert rig.held() == 1
        rig.hub_client.reconnect()  # the retained log/head tells the hub it is 20 records behind
        eventually(lambda: rig.held() == 21)
        assert [r.seq for r in rig.hub.game_log(rig.shipper.game)] == list(range(1, 22))
        requests = [p for p in rig.broker.log if p.topic == "smartmat/t1/log/request"]
        assert requests and json.loads(requests[0].payload) == {"game": rig.shipper.game, "after": 1}
    finally:
        rig.close()


def test_a_new_log_on_the_table_is_a_new_game_at_the_hub(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    try:
        eventually(lambda: rig.held() == 1)
        first = rig.shipper.game
        rig.log.close()
        rig.path.rename(tmp_path / "t1.archived.sqlite")  # what `smartmat run --new-game` does
        rig.log = SqliteEventLog(rig.path)
        rig.log.append("setup", {"ruleset": "catacombs-3e", "note": "second"}, "referee:anna")
        rig.log.append("action", {"action": "x"}, "sensor")
        eventually(lambda: rig.hub.table_view("t1")["game"] not in (None, first) and rig.held() == 2)
        assert {game for game, *_ in rig.hub.store.games()} == {first, rig.shipper.game}
    finally:
        rig.close()


def test_a_malformed_or_retained_request_changes_nothing(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    try:
        eventually(lambda: rig.held() == 1)
        before = len([p for p in rig.broker.log if p.topic == "smartmat/t1/log"])
        requester = FakeMqttClient(rig.broker, "someone")
        requester.start()
        for payload in (
            b"not json",
            b'{"after": -1}',
            b'{"after": "all"}',
            b"[]",
            b'{"game": 5, "after": 0}',
        ):
            requester.publish("smartmat/t1/log/request", payload, qos=1, retain=False)
        time.sleep(0.2)
        assert len([p for p in rig.broker.log if p.topic == "smartmat/t1/log"]) == before
        assert rig.held() == 1
    finally:
        rig.close()


def test_two_tables_with_the_same_first_record_ship_two_games() -> None:
    """Tables set up from one table file, started in the same second, write the same first record: their
    logs are still two games at the hub (found running a day on two such tables)."""
    from service.eventlog import Record
    from service.hub.shipper import game_id

    first = Record(seq=1, at="2026-11-28T10:00:00Z", by="daemon", kind="setup", payload={"ruleset": "x"})
    assert game_id(first, "t1") != game_id(first, "t2")
    assert game_id(first, "t1") == game_id(first, "t1")
