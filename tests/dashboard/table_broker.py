"""A private Mosquitto with the credential split the dashboard relies on, plus the fake daemon on it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.dashboard.fake_daemon import FakeDaemon
from tests.helpers.broker import MosquittoBroker, start_mosquitto

USERS = {"daemon": "d-secret", "referee": "r-secret", "spectator": "look"}
# The shipped broker rules (docs/mqtt.md, "Roles and ACLs"): the dashboard's feed reads as `spectator`, only
# `referee` may publish a command, the daemon publishes the game and answers.
SHIPPED_ACL = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto" / "acl"


@dataclass
class Table:
    broker: MosquittoBroker
    daemon: FakeDaemon

    def url(self, user: str) -> str:
        return self.broker.url(user, USERS[user])


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    broker = start_mosquitto(tmp_path, users=USERS, acl=SHIPPED_ACL)
    try:
        daemon = FakeDaemon(broker.url("daemon", USERS["daemon"]))
        try:
            yield Table(broker, daemon)
        finally:
            daemon.stop()
    finally:
        broker.stop()
