"""A whole table for integration tests: a private Mosquitto, the simulated mat and players on a
pseudo-terminal, the daemon on the real serial path, and optionally the dashboard. Reads like play: start,
wait for the game to reach a point, look at what was published.
"""

from __future__ import annotations

import json
import math
import random
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from firmware_bridge.transport import SerialConnection
from service.app.cli import piece_sizes
from service.attribution.infer import AttributionConfig
from service.daemon.daemon import Daemon, DaemonOptions
from service.eventlog.sqlite_log import SqliteEventLog
from service.publish.paho_transport import PahoTransport
from service.publish.publisher import TablePublisher
from service.simulator.players import SimulatedPlayer, Skill
from service.simulator.table import Pace, SimulatedTable
from service.table.config import GameSetup, TableConfig, load_table
from service.table.shot_actions import Attribute
from tests.helpers.broker import MosquittoBroker, start_mosquitto
from tests.helpers.mqtt_probe import MqttProbe

FAST = Pace(think_s=0.05, shot_timeout_s=30.0, scan_period_s=0.5)
# Brisk players and a board that scans three times a second: the same path, fewer idle seconds (at 0.2 s a
# loaded machine sometimes flicked a disc before the board had reported it put down: the players wait 2.2-2.5
# scan periods of wall time, not for the board's scans).
BRISK = Pace(think_s=0.05, shot_timeout_s=20.0, scan_period_s=0.3)


def quick_table(rooms: tuple[str, ...] = ("the-mitholaq-hive",), seed: int = 7) -> TableConfig:
    table = load_table()
    return replace(table, game=replace(table.game, rooms=rooms, seed=seed))


@dataclass
class LiveTable:
    broker: MosquittoBroker
    data_dir: Path
    table: TableConfig
    sim: SimulatedTable | None = None
    daemon: Daemon | None = None
    connection: SerialConnection | None = None
    eventlog: SqliteEventLog | None = None
    probe: MqttProbe | None = None
    dashboard: Any = None
    accounts: dict[str, tuple[str, str]] | None = None  # role -> (user, password) on a broker with the ACL
    attribution: AttributionConfig = AttributionConfig(workers=1, seed=0)
    dashboard_config: dict[str, Any] | None = None
    attribute: Attribute | None = None  # how the daemon attributes shots (None: service.attribution's own)
    pace: Pace = field(default_factory=lambda: FAST)  # the players' and board's, when start() makes them

    def url(self, role: str) -> str:
        """The broker URL for a role: daemon, referee (the players and dashboard commands), spectator."""
        if self.accounts is None:
            return self.broker.url()
        return self.broker.url(*self.accounts[role])

    def start(self, *, players: bool = True, dashboard: bool = False, sim_seed: int = 3) -> LiveTable:
        credentials = self.accounts["referee"] if self.accounts else (None, None)
        self.probe = self.probe or MqttProbe(self.broker.host, self.broker.port, *credentials)
        self.probe.subscribe(f"smartmat/{self.table.table}/#")
        if self.sim is None:
            self.sim = SimulatedTable(
                self.table, self.url("referee"), seed=sim_seed, pace=self.pace, play=players
            )
            self.sim.start()
        self.start_daemon()
        if dashboard:
            from web_dashboard.server import serve_dashboard

            self.dashboard = serve_dashboard(
                {
                    "HOST": "127.0.0.1",
                    "PORT": 0,
                    "TABLE": self.table.table,
                    "MQTT_URL": self.url("spectator"),
                    "MQTT_REFEREE_URL": self.url("referee"),
                    **(self.dashboard_config or {}),
                }
            )
        return self

    def start_daemon(self) -> Daemon:
        assert self.sim is not None
        self.connection = SerialConnection(self.sim.port)
        self.eventlog = SqliteEventLog(self.data_dir / "table.sqlite")
        holder: dict[str, Daemon] = {}
        publisher = TablePublisher(
            self.table.table,
            PahoTransport(self.url("daemon"), client_id=f"daemon-{time.monotonic_ns()}"),
            handler=lambda command: holder["daemon"].on_command(command),
        )
        options = DaemonOptions(attribution=self.attribution)
        if self.attribute is not None:
            options.attribute = self.attribute
        self.daemon = Daemon(
            self.table,
            self.connection,
            self.eventlog,
            publisher,
            size_of=piece_sizes(self.table.ruleset),
            options=options,
        )
        holder["daemon"] = self.daemon
        self.daemon.start()
        self.daemon.run_in_thread()
        return self.daemon

    def stop_daemon(self) -> None:
        if self.daemon:
            self.daemon.stop()
        if self.connection:
            self.connection.close()
        if self.eventlog:
            self.eventlog.close()
        self.daemon = self.connection = self.eventlog = None

    def stop(self) -> None:
        if self.dashboard is not None:
            self.dashboard.stop()
        self.stop_daemon()
        if self.sim:
            self.sim.stop()
        if self.probe:
            self.probe.close()

    # -- what was published -----------------------------------------------------------------------------
    def state(self) -> dict[str, Any] | None:
        states = (
            [s for s in self.probe.seen if s.topic.endswith("/state") and s.payload] if self.probe else []
        )
        return states[-1].json() if states else None

    def events(self) -> list[dict[str, Any]]:
        assert self.probe is not None
        return [s.json() for s in self.probe.seen if s.topic.endswith("/event")]

    def wait_until(self, predicate: Callable[[], bool], timeout_s: float, what: str) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if predicate():
                return
            time.sleep(0.2)
        state = self.state() or {}
        raise AssertionError(
            f"timed out after {timeout_s:.0f} s waiting for {what}; phase {state.get('phase')}, round "
            f"{state.get('round')}, last events: {[e.get('text') for e in self.events()[-8:]]}"
        )

    def read_sse(
        self, path: str, last_event_id: str | None = None, seconds: float = 2.0
    ) -> list[dict[str, Any]]:
        """Read the dashboard's event stream for a while; returns the messages with their ids."""
        assert self.dashboard is not None
        request = urllib.request.Request(self.dashboard.url.rstrip("/") + path)
        if last_event_id is not None:
            request.add_header("Last-Event-ID", last_event_id)
        messages: list[dict[str, Any]] = []
        current: dict[str, Any] = {}
        deadline = time.monotonic() + seconds
        # The socket timeout bounds each read: a quiet table (no event, keep-alive not yet due) ends the
        # read instead of failing it.
        with urllib.request.urlopen(request, timeout=seconds) as response:
            while time.monotonic() < deadline:
                try:
                    line = response.readline().decode()
                except TimeoutError:
                    break
                if not line:
                    break
                line = line.rstrip("\n")
                if not line:
                    if current:
                        messages.append(current)
                    current = {}
                    continue
                key, _, value = line.partition(":")
                value = value.lstrip()
                if key == "data":
                    current["data"] = json.loads(value) if value.startswith(("{", "[")) else value
                elif key in ("id", "event"):
                    current[key] = value
        return messages


def party_gold(state: dict[str, Any]) -> int:
    return int((state.get("gold") or {}).get("party", 0))


def character(state: dict[str, Any], character_id: str) -> dict[str, Any]:
    return next(c for c in state["characters"] if c["id"] == character_id)


__all__ = ["BRISK", "FAST", "GameSetup", "LiveTable", "character", "party_gold", "quick_table"]


def play_until(
    tmp_path: Path, table: TableConfig, done: Callable[[LiveTable], bool], what: str
) -> tuple[LiveTable, list[dict[str, Any]]]:
    """Brisk, practised simulated players on a private broker until ``done``; the live table (stopped) and
    every ``state`` a phone received, in order."""
    broker = start_mosquitto(tmp_path / "broker")
    live = LiveTable(broker, tmp_path, table)
    live.sim = SimulatedTable(table, live.url("referee"), seed=3, pace=BRISK)
    # Practised players (a degree of aim, steady strength): fewer misses, so a game ends in a dozen flicks.
    live.sim.player = SimulatedPlayer(random.Random(5), Skill(math.radians(1.0), 0.0, 0.05))
    try:
        live.sim.start()
        live.start()
        live.wait_until(lambda: done(live), 200, what)
        assert live.probe is not None
        return live, [m.json() for m in live.probe.seen if m.topic.endswith("/state") and m.payload]
    finally:
        live.stop()
        broker.stop()
