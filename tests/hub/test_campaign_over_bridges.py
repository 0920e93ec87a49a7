"""A Catacombs 3E campaign over real bridges: two tables' daemons (on fakes: the real rules, session and event
log file) play real games; each table's log shipper and its state cross a real Mosquitto bridge to the hub;
the referees sign off; the leaderboard ranks the parties."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from service.eventlog import SqliteEventLog
from service.hub.feed import HubFeed
from service.hub.hub import Hub
from service.hub.shipper import sqlite_log_shipper
from service.hub.store import HubStore
from service.publish.paho_transport import PahoTransport
from tests.helpers.game_script import GameScript
from tests.helpers.mqtt_probe import MqttProbe
from tests.hub.builders import PIN_HASH
from tests.hub.network import TABLE_ROLES, start_network

pytestmark = [pytest.mark.broker, pytest.mark.slow]


def eventually(condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


class ThreeETable:
    """A table's daemon, its event log in a file; what it publishes goes out on the table's real broker."""

    def __init__(self, network, table: str, tmp_path: Path, rooms: tuple[str, ...]) -> None:
        self.table = table
        self.path = tmp_path / f"{table}.sqlite"
        self.game = GameScript(rooms=rooms, eventlog=SqliteEventLog(self.path))
        broker = network.tables[table]
        self.daemon = MqttProbe(broker.host, broker.port, "daemon", TABLE_ROLES["daemon"])
        self.daemon.publish(f"smartmat/{table}/status", "online", retain=True)
        transport = PahoTransport(network.logship_url(table), f"logship-{table}", keepalive_s=5)
        self.shipper = sqlite_log_shipper(table, self.path, transport, poll_s=0.05)
        self.shipper.start()
        self.mirror()

    def send(self, command: str, **args) -> None:
        assert self.game.send(command, **args)["ok"], command
        self.mirror()

    def mirror(self) -> None:
        self.daemon.publish(f"smartmat/{self.table}/state", json.dumps(self.game.state), retain=True)

    def close(self) -> None:
        self.shipper.stop()
        self.daemon.close()
        self.game.close()


def test_a_campaign_of_real_games_over_bridges(tmp_path: Path) -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb (past the last room, heroes win)."""
    network = start_network(tmp_path, ["t1", "t2"])
    hub = Hub(HubStore(tmp_path / "hub.sqlite"))
    feed = HubFeed(hub, PahoTransport(network.hub_url(), "smartmat-hub", keepalive_s=5), retry_s=0.3)
    feed.start()
    tables: list[ThreeETable] = []
    try:
        hub.submit("event", {"name": "Campaign Night", "format": "catacombs-3e-campaign"}, "organiser")
        hub.submit("entrant", {"id": "red", "name": "Red Party", "table": "t1"}, "organiser")
        hub.submit("entrant", {"id": "blue", "name": "Blue Party", "table": "t2"}, "organiser")
        hub.submit(
            "referee",
            {"name": "rita", "role": "table", "tables": ["t1", "t2"], "pin_hash": PIN_HASH},
            "organiser",
        )
        red = ThreeETable(network, "t1", tmp_path, rooms=("althea-the-healer",))
        blue = ThreeETable(network, "t2", tmp_path, rooms=("the-barracks",))
        tables += [red, blue]
        red.send("enter_room")
        red.send("enter_room")  # moving on from the last room: the heroes win
        blue.send("enter_room")
        blue.send("start_battle")

        def caught_up(table: ThreeETable) -> bool:
            view = hub.table_view(table.table)
            last = table.game.eventlog.last_seq()
            return view["log_held"] == last and view["seq"] == table.game.state["seq"]

        eventually(lambda: caught_up(red) and caught_up(blue))
        assert hub.table_view("t1")["outcome"] == "heroes" and hub.table_view("t2")["phase"] == "battle"
        signed = hub.sign_off("referee:rita", "t1")
        assert (
            signed.payload["rooms_cleared"] == 1 and signed.payload["gold"] == red.game.state["gold"]["party"]
        )
        board = hub.standings()
        assert [(row["entrant"], row["games"]) for row in board] == [("red", 1), ("blue", 0)]
        assert board[1]["live"]["phase"] == "battle"
        # The hub's copy of the log replays to the table's own end of the game.
        replayed = hub.game_summary(signed.payload["game"])
        assert (replayed["outcome"], replayed["final_seq"]) == ("heroes", red.game.eventlog.last_seq())
    finally:
        for table in tables:
            table.close()
        feed.stop()
        hub.store.close()
        network.stop()
