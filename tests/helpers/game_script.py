"""A game at a table on fakes, told as it is played: place discs, flick, declare, answer, advance the clock,
look at what was published. The daemon runs with a fake mat connection, an in-memory log and an in-memory
broker. ``tests/helpers/rules_script.py`` (``RulesScript``) tells the same story through the rules alone, with
the same verbs where the two meet (``declare``, ``answer``, ``end_turn``, ``state``, ``event_texts``).

Everything runs on the test's thread: ``table.settle()`` hands every queued input to the daemon. The daemon's
time is a ``FakeClock``: it stands still until ``table.advance(seconds)``, which runs the daemon's periodic
jobs due on the way (its tick: the segmenter's timeouts, the demo table's next game). The referee and a
spectator are MQTT clients of the same in-memory broker.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.fake import FakeConnection
from firmware_bridge.messages import Hello, Impact, ScanDone, TagSeen
from service.daemon.clock import FakeClock
from service.daemon.daemon import Daemon, DaemonOptions
from service.eventlog.memory import MemoryEventLog
from service.games import definition_of
from service.publish import topics
from service.publish.fake import FakeBroker, FakeMqttClient
from service.publish.publisher import TablePublisher
from service.table.config import TableConfig, load_table, with_game

SAMPLE_SIZES = {"orc": "monster-medium", "troll": "monster-large", "pit-viper": "monster-extra-small"}


class GameScript:
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
        self.clock = FakeClock()
        self.scan_id, self.t_us = 100, 1_000_000  # the board's scan ids and device clock, as it sends them
        self.daemon_mqtt = FakeMqttClient(self.broker, "daemon")
        camera = options.camera if options else None
        self.publisher = TablePublisher(
            self.table.table,
            self.daemon_mqtt,
            handler=lambda c: self.daemon.on_command(c),
            camera=camera.on_message if camera else None,
        )
        self.daemon = Daemon(
            self.table,
            self.connection,
            self.eventlog,
            self.publisher,
            size_of=SAMPLE_SIZES.get,
            options=options or DaemonOptions(),
            clock=self.clock,
        )
        self.referee = FakeMqttClient(self.broker, "referee")
        self.referee.start(lambda: None, lambda message: None)
        self.referee.subscribe(topics.topic(self.table.table, topics.CMD_RESPONSE), 1)
        self.spectator = FakeMqttClient(self.broker, "spectator")
        self.spectator.start(lambda: None, lambda message: None)
        self.spectator.subscribe(topics.table_filter(self.table.table), 1)
        self.daemon.start()
        self.connection.feed(Hello(default_capabilities(boot_id=7)))
        deadline = time.monotonic() + 5  # real time: the device reader's thread hands the HELLO on
        while self.daemon.capabilities is None and time.monotonic() < deadline:
            self.daemon.step(0.05)
        assert self.daemon.capabilities is not None, "the mat's HELLO never reached the daemon"
        self.settle()

    @classmethod
    def playing(
        cls, ruleset: str, mode: str | None = None, options: DaemonOptions | None = None
    ) -> GameScript:
        """A table playing the game of that name: its shipped demo table (the registry's ``demo_table``), in
        ``mode`` (one of the table file's ``game.modes``) if given."""
        return cls(table=with_game(load_table(definition_of(ruleset).demo_table), mode=mode), options=options)

    def settle(self) -> None:
        while self.daemon.has_input():
            self.daemon.step(0)

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass on the daemon's clock (its due jobs run on the way), then settle."""
        self.clock.advance(seconds)
        self.settle()

    def until(self, condition: Callable[[], bool], what: str, timeout_s: float = 10.0) -> None:
        """Step the daemon until ``condition``: for what real threads do (the device reader hands the mat's
        messages on, the shot reader reads a shot). The daemon's own timers are ``advance``'s."""
        deadline = time.monotonic() + timeout_s
        while not condition():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            self.daemon.step(0.05)

    # -- the mat ------------------------------------------------------------------------------------------
    def disc_of(self, character: str) -> str:
        """The disc the game handed to a character (as published)."""
        return str(self.character(character)["piece"])

    def place(self, cells: dict[str, tuple[int, int]]) -> None:
        """One full scan of the mat with these discs at rest in these reader cells (column, row)."""
        self.scan_id += 1
        self.t_us += 200_000
        uid = self.table.registry.entry
        reads = [TagSeen(self.scan_id, c, r, uid(disc).uid, -40) for disc, (c, r) in cells.items()]
        self.connection.feed(*reads, ScanDone(self.scan_id, self.t_us, 216))
        self._handled()

    def impact(self, sensor_id: int = 0, amplitude: int = 500) -> None:
        self.t_us += 50_000
        self.connection.feed(Impact(sensor_id, self.t_us, amplitude))
        self._handled()

    def flick(self, before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> None:
        """A flick as the board sees it: the discs at rest (two scans), an impact, the discs at rest again."""
        for _ in range(2):
            self.place(before)
        self.impact()
        for _ in range(2):
            self.place(after)

    def _handled(self) -> None:
        """The device reader hands the messages on and the game thread acknowledges each once handled."""
        self.until(lambda: not self.connection.unacknowledged, "the mat's messages handled")
        self.settle()

    # -- the referee ------------------------------------------------------------------------------------
    def send(
        self, command: str, *, raw: bytes | None = None, retain: bool = False, **args: Any
    ) -> dict[str, Any]:
        txn = uuid.uuid4().hex
        body = json.dumps({"txn": txn, "actor": "referee:anna", "command": command, "args": args}).encode()
        if raw is not None:  # a hand-made body: its answer carries the body's own txn, if it has one
            body = raw
            try:
                txn = str(json.loads(raw).get("txn", txn))
            except (ValueError, AttributeError):
                pass
        self.referee.publish(topics.topic(self.table.table, topics.CMD_REQUEST), body, qos=1, retain=retain)
        self.settle()
        answers = [json.loads(m.payload) for m in self.referee.received]
        mine = [a for a in answers if a.get("txn") == txn]
        return mine[-1] if mine else {}

    def declare(self, character: str, alternative: int | None = None, **args: Any) -> dict[str, Any]:
        """The referee declares the character's action (``action=``: a card instead of the Rules card)."""
        if alternative is not None:
            args["alternative"] = alternative
        return self.send("declare", character=character, **args)

    def answer(self, option: str | int, decision: str | None = None) -> dict[str, Any]:
        """The referee answers the pending decision (as published, unless ``decision`` names another)."""
        if decision is None:
            pending = self.state.get("pending")
            assert pending is not None, "no decision is pending"
            decision = pending["id"]
        return self.send("answer", decision=decision, option=option)

    def end_turn(self, character: str | None = None) -> dict[str, Any]:
        return self.send("end_turn") if character is None else self.send("end_turn", character=character)

    # -- the overhead camera ----------------------------------------------------------------------------
    def camera_sends(self, payload: bytes, kind: str = topics.CAMERA_FRAMES) -> None:
        """A message of the table's camera process (service/camera/wire.py) on its topic."""
        camera = FakeMqttClient(self.broker, "camera")
        camera.start(lambda: None, lambda message: None)
        camera.publish(topics.topic(self.table.table, kind), payload, qos=0, retain=False)
        self.settle()

    # -- what everyone sees -----------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        message = self.spectator.last(topics.topic(self.table.table, topics.STATE))
        assert message is not None, "no state published"
        state: dict[str, Any] = json.loads(message.payload)
        return state

    def character(self, character_id: str) -> dict[str, Any]:
        return next(c for c in self.state["characters"] if c["id"] == character_id)

    def shots(self) -> list[dict[str, Any]]:
        """Every message on the ``shot`` topic, in order."""
        return [json.loads(m.payload) for m in self.spectator.on(topics.topic(self.table.table, topics.SHOT))]

    def event_texts(self) -> list[str]:
        """Every event published, as the table's event feed says it."""
        return [
            json.loads(m.payload)["text"]
            for m in self.spectator.on(topics.topic(self.table.table, topics.EVENT))
        ]

    def close(self) -> None:
        # The board goes away first: the daemon's device reader, waiting on the connection, returns at once
        # instead of at the end of its poll (a tenth of a second per table, over the whole suite).
        self.connection.close()
        self.daemon.stop()
