"""A table on fakes: the daemon with a fake mat connection, an in-memory log and an in-memory broker.

Everything runs on the test's thread: ``table.settle()`` hands every queued input to the daemon. The referee
and a spectator are MQTT clients of the same in-memory broker.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import replace
from typing import Any

from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.fake import FakeConnection
from firmware_bridge.messages import Hello
from service.daemon.daemon import Daemon, DaemonOptions
from service.eventlog.memory import MemoryEventLog
from service.publish import topics
from service.publish.fake import FakeBroker, FakeMqttClient
from service.publish.publisher import TablePublisher
from service.table.config import TableConfig, load_table

SAMPLE_SIZES = {"orc": "monster-medium", "troll": "monster-large", "pit-viper": "monster-extra-small"}


class FakeTable:
    def __init__(
        self,
        rooms: tuple[str, ...] = ("the-barracks",),
        eventlog: MemoryEventLog | None = None,
        table: TableConfig | None = None,  # another table file's game (default: the 3E demo, sample cards)
        options: DaemonOptions | None = None,
    ) -> None:
        if table is None:
            table = load_table()
            table = replace(table, game=replace(table.game, rooms=rooms, content="sample", seed=11))
        self.table = table
        self.broker = FakeBroker()
        self.connection = FakeConnection()
        self.eventlog = eventlog or MemoryEventLog()
        self.daemon_mqtt = FakeMqttClient(self.broker, "daemon")
        self.publisher = TablePublisher(
            self.table.table, self.daemon_mqtt, handler=lambda c: self.daemon.on_command(c)
        )
        self.daemon = Daemon(
            self.table,
            self.connection,
            self.eventlog,
            self.publisher,
            size_of=SAMPLE_SIZES.get,
            options=options or DaemonOptions(),
        )
        self.referee = FakeMqttClient(self.broker, "referee")
        self.referee.start(lambda: None, lambda message: None)
        self.referee.subscribe(topics.topic(self.table.table, topics.CMD_RESPONSE), 1)
        self.spectator = FakeMqttClient(self.broker, "spectator")
        self.spectator.start(lambda: None, lambda message: None)
        self.spectator.subscribe(topics.table_filter(self.table.table), 1)
        self.daemon.start()
        self.connection.feed(Hello(default_capabilities(boot_id=7)))
        deadline = time.monotonic() + 5
        while (
            self.daemon.capabilities is None and time.monotonic() < deadline
        ):  # the reader thread hands it on
            self.daemon.step(0.05)
        assert self.daemon.capabilities is not None, "the mat's HELLO never reached the daemon"
        self.settle()

    def settle(self) -> None:
        while self.daemon.has_input():
            self.daemon.step(0)

    # -- the referee ------------------------------------------------------------------------------------
    def send(
        self, command: str, *, raw: bytes | None = None, retain: bool = False, **args: Any
    ) -> dict[str, Any]:
        txn = uuid.uuid4().hex
        body = (
            raw
            if raw is not None
            else json.dumps({"txn": txn, "actor": "referee:anna", "command": command, "args": args}).encode()
        )
        self.referee.publish(topics.topic(self.table.table, topics.CMD_REQUEST), body, qos=1, retain=retain)
        self.settle()
        answers = [json.loads(m.payload) for m in self.referee.received]
        mine = [a for a in answers if a.get("txn") == txn]
        return mine[-1] if mine else {}

    # -- what everyone sees -----------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        message = self.spectator.last(topics.topic(self.table.table, topics.STATE))
        assert message is not None, "no state published"
        return json.loads(message.payload)

    def character(self, character_id: str) -> dict[str, Any]:
        return next(c for c in self.state["characters"] if c["id"] == character_id)

    def event_texts(self) -> list[str]:
        return [
            json.loads(m.payload)["text"]
            for m in self.spectator.on(topics.topic(self.table.table, topics.EVENT))
        ]

    def close(self) -> None:
        self.daemon.stop()
