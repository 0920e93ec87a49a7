"""Simulated tables for hub tests: a real event-log file, the log shipper on the table's broker, and the
table's published state, as a daemon would publish it (docs/mqtt.md).

``CastlesTable`` stands for a Catacombs & Castles table: its log's setup names that rule set, and its
published state says when the game is over. ``ThreeETable`` plays a real Catacombs 3E game through the
daemon on fakes (tests/helpers/game_script.py) into a log file, and mirrors what the daemon publishes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.eventlog import SqliteEventLog
from service.hub.shipper import LogShipper, sqlite_log_shipper
from service.publish.paho_transport import PahoTransport
from tests.helpers.mqtt_probe import MqttProbe
from tests.hub.network import TABLE_ROLES, Network


class SimulatedTable:
    def __init__(self, network: Network, table: str, tmp_path: Path) -> None:
        self.table = table
        self.network = network
        self.path = tmp_path / f"{table}.sqlite"
        self.log = SqliteEventLog(self.path)
        broker = network.tables[table]
        self.daemon = MqttProbe(broker.host, broker.port, "daemon", TABLE_ROLES["daemon"])
        self.daemon.publish(f"smartmat/{table}/status", "online", retain=True)
        self.shipper = self.start_shipper()

    def start_shipper(self) -> LogShipper:
        transport = PahoTransport(
            self.network.logship_url(self.table), f"logship-{self.table}", keepalive_s=5
        )
        shipper = sqlite_log_shipper(self.table, self.path, transport, poll_s=0.05)
        shipper.start()
        return shipper

    def publish_state(self, state: dict[str, Any]) -> None:
        state = {**state, "seq": self.log.last_seq()}
        self.daemon.publish(f"smartmat/{self.table}/state", json.dumps(state), retain=True)

    def close(self) -> None:
        self.shipper.stop()
        self.daemon.close()
        self.log.close()


class CastlesTable(SimulatedTable):
    RULESET = "catacombs-and-castles-2e"

    def start_game(self, first: str, second: str) -> None:
        # At a tournament each side is named by its entrant's id, so the game's outcome names the winner.
        sides = [{"id": first, "team": "castle"}, {"id": second, "team": "catacomb"}]
        self.log.append(
            "setup", {"ruleset": self.RULESET, "mode": "one_versus_one", "sides": sides}, "referee:table"
        )
        self.publish_state({"ruleset": self.RULESET, "phase": "battle", "outcome": None})

    def play(self, shots: int) -> None:
        for number in range(shots):
            self.log.append("action", {"action": "resolve_shot", "shot": "melee", "n": number}, "sensor")
        self.publish_state({"ruleset": self.RULESET, "phase": "battle", "outcome": None})

    def finish(self, winning_side: str) -> None:
        self.log.append("action", {"action": "last_shot"}, "sensor")
        self.publish_state({"ruleset": self.RULESET, "phase": "game_over", "outcome": winning_side})
