"""Real Mosquitto brokers for hub tests: one central broker and one per table, bridged as
``smartmat hub bridge-config`` writes them (each on a free port of 127.0.0.1, never the machine's 1883)."""

from __future__ import annotations

import getpass
from dataclasses import dataclass, field
from pathlib import Path

from service.hub.bridge_config import HUB_USER, LOGSHIP_USER, BridgePlan, write_bundle
from tests.helpers.broker import MosquittoBroker, free_port, write_password_file

REPO = Path(__file__).resolve().parents[2]
TABLE_ROLES = {"daemon": "daemon-pw", "referee": "referee-pw", "spectator": "spectator-pw"}


@dataclass
class Network:
    central: MosquittoBroker
    tables: dict[str, MosquittoBroker]
    passwords: dict[str, str]
    out: Path
    brokers: list[MosquittoBroker] = field(default_factory=list)

    def hub_url(self) -> str:
        return self.central.url(HUB_USER, self.passwords[HUB_USER])

    def logship_url(self, table: str) -> str:
        return self.tables[table].url(LOGSHIP_USER, self.passwords[LOGSHIP_USER])

    def daemon_url(self, table: str) -> str:
        return self.tables[table].url("daemon", TABLE_ROLES["daemon"])

    def stop(self) -> None:
        for broker in self.brokers:
            broker.stop()


def start_network(tmp_path: Path, tables: list[str]) -> Network:
    out = tmp_path / "bundle"
    central_dir = out / "central"
    plan = BridgePlan(
        tuple(tables), "127.0.0.1", free_port(), "127.0.0.1", str(tmp_path / "central-data") + "/"
    )
    (tmp_path / "central-data").mkdir()
    passwords = write_bundle(plan, out, central_dir=str(central_dir))
    me = f"user {getpass.getuser()}\nlog_type error\nlog_type warning\n"
    central_conf = central_dir / "smartmat-hub.conf"
    central_conf.write_text(central_conf.read_text() + me)
    central = MosquittoBroker("127.0.0.1", plan.central_port, central_conf, tmp_path / "central.log")
    network = Network(central, {}, passwords, out, [central])
    try:
        central.start()
        shipped_acl = (REPO / "deploy/mosquitto/acl").read_text()
        for table in tables:
            side = out / "tables" / table
            port = free_port()
            passwords_file = side / "passwords"
            write_password_file(passwords_file, TABLE_ROLES)
            passwords_file.write_text(passwords_file.read_text() + (side / "passwords-logship").read_text())
            (side / "acl").write_text(shipped_acl + (side / "acl-logship").read_text())
            conf = side / "mosquitto.conf"
            conf.write_text(
                f"listener {port} 127.0.0.1\npersistence false\nallow_anonymous false\n"
                f"password_file {passwords_file}\nacl_file {side / 'acl'}\n{me}"
                + (side / "smartmat-bridge.conf").read_text()
            )
            broker = MosquittoBroker("127.0.0.1", port, conf, tmp_path / f"{table}.log")
            network.brokers.append(broker)
            broker.start()
            network.tables[table] = broker
    except BaseException:
        network.stop()
        raise
    return network
