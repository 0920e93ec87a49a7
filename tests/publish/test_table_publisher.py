"""A table's MQTT presence during play, against the in-memory broker shipped in the package."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from service.publish import (
    Command,
    CommandResult,
    FakeBroker,
    FakeMqttClient,
    TablePublisher,
)
from service.publish.transport import InboundMessage
from tests.publish.game_snapshots import MELEE_EVENT, barracks

T = "smartmat/table-1"


def body(message: InboundMessage | None) -> Any:
    assert message is not None
    return json.loads(message.payload)


class Referee:
    """The dashboard's referee channel: sends commands and reads the answers."""

    def __init__(self, broker: FakeBroker) -> None:
        self.client = FakeMqttClient(broker, "referee")
        self.client.start()
        self.client.subscribe(f"{T}/cmd/response", 1)

    def send(self, raw: bytes | dict[str, Any], retain: bool = False) -> None:
        payload = raw if isinstance(raw, bytes) else json.dumps(raw).encode()
        self.client.publish(f"{T}/cmd/request", payload, qos=1, retain=retain)

    def answers(self) -> list[dict[str, Any]]:
        return [json.loads(m.payload) for m in self.client.on(f"{T}/cmd/response")]


@pytest.fixture
def broker() -> FakeBroker:
    return FakeBroker()


@pytest.fixture
def received() -> list[Command]:
    return []


@pytest.fixture
def table(broker: FakeBroker, received: list[Command]) -> TablePublisher:
    def handle(command: Command) -> CommandResult:
        received.append(command)
        if command.command == "undo" and command.args.get("count", 1) > 5:
            raise ValueError("cannot undo more than 5 actions at once")
        return CommandResult.accepted(seq=42)

    publisher = TablePublisher("table-1", FakeMqttClient(broker, "daemon-table-1"), handle)
    publisher.start()
    return publisher


def phone(broker: FakeBroker) -> FakeMqttClient:
    client = FakeMqttClient(broker, "phone")
    client.start()
    client.subscribe(f"{T}/#", 1)
    return client


def test_a_late_phone_finds_the_whole_game_retained(broker: FakeBroker, table: TablePublisher) -> None:
    table.publish_state(barracks(), seq=12)
    table.publish_board({"pieces": [{"piece": "hero-xoric", "x_mm": 120.0, "y_mm": 300.5}]}, seq=12)

    spectator = phone(broker)
    assert all(m.retain for m in spectator.received)
    assert spectator.last(f"{T}/status").payload == b"online"  # type: ignore[union-attr]
    state = body(spectator.last(f"{T}/state"))
    assert state["seq"] == 12 and state["room"]["id"] == "the-barracks"
    goblin = body(spectator.last(f"{T}/character/goblin-1"))
    assert (goblin["health"], goblin["max_health"], goblin["seq"]) == (2, 2, 12)
    assert spectator.last(f"{T}/tracker/hero-xoric/health").payload == b"7"  # type: ignore[union-attr]
    assert body(spectator.last(f"{T}/board"))["pieces"][0]["piece"] == "hero-xoric"


def test_trackers_only_hear_about_characters_that_changed(broker: FakeBroker, table: TablePublisher) -> None:
    table.publish_state(barracks(), seq=12)
    spectator = phone(broker)
    spectator.received.clear()

    table.publish_state(barracks(xoric_health=5), seq=13)  # the troll hit Xoric for 2

    topics_heard = [m.topic for m in spectator.received]
    assert topics_heard == [f"{T}/state", f"{T}/character/hero-xoric", f"{T}/tracker/hero-xoric/health"]
    assert spectator.last(f"{T}/tracker/hero-xoric/health").payload == b"5"  # type: ignore[union-attr]
    assert body(spectator.last(f"{T}/state"))["seq"] == 13


def test_a_destroyed_monster_disappears_from_the_retained_topics(
    broker: FakeBroker, table: TablePublisher
) -> None:
    table.publish_state(barracks(), seq=12)
    assert f"{T}/character/goblin-1" in broker.retained

    table.publish_state(barracks(goblin=False), seq=14)

    assert f"{T}/character/goblin-1" not in broker.retained
    assert f"{T}/tracker/goblin-1/health" not in broker.retained
    cleared = [p for p in broker.log if p.topic.endswith("goblin-1") or "goblin-1/" in p.topic][-2:]
    assert [(p.payload, p.retain) for p in cleared] == [(b"", True), (b"", True)]
    late = phone(broker)
    assert late.last(f"{T}/character/goblin-1") is None
    assert late.last(f"{T}/character/troll") is not None


def test_events_and_shots_are_qos1_and_not_retained(broker: FakeBroker, table: TablePublisher) -> None:
    spectator = phone(broker)
    table.publish_event(MELEE_EVENT, seq=13)
    table.publish_shot({"candidates": [{"direct_hits": ["goblin-1"], "probability": 0.93}]}, seq=13)

    event = spectator.last(f"{T}/event")
    assert body(event) == {**MELEE_EVENT, "seq": 13}
    shot = spectator.last(f"{T}/shot")
    assert body(shot)["candidates"][0]["probability"] == 0.93
    published = {p.topic: p for p in broker.log}
    assert (published[f"{T}/event"].qos, published[f"{T}/event"].retain) == (1, False)
    assert (published[f"{T}/shot"].qos, published[f"{T}/shot"].retain) == (1, False)
    assert f"{T}/event" not in broker.retained


def test_a_broker_outage_fires_the_will_and_reconnect_republishes_everything(
    broker: FakeBroker, table: TablePublisher
) -> None:
    table.publish_state(barracks(), seq=12)
    table.publish_board({"pieces": []}, seq=12)
    spectator = phone(broker)

    broker.outage()
    assert broker.log[-1].topic == f"{T}/status" and broker.log[-1].payload == b"offline"
    assert not table.connected
    table.publish_state(barracks(xoric_health=4), seq=15)  # the game goes on while the broker is away

    broker.restore()  # a broker without persistence: it forgot every retained message
    assert broker.retained[f"{T}/status"] == b"online"
    assert json.loads(broker.retained[f"{T}/state"])["seq"] == 15
    assert broker.retained[f"{T}/tracker/hero-xoric/health"] == b"4"
    for cid in ("hero-xoric", "hero-elf", "troll", "goblin-1"):
        assert f"{T}/character/{cid}" in broker.retained
    assert f"{T}/board" in broker.retained
    assert spectator.connected


def test_stopping_the_table_says_offline(broker: FakeBroker, table: TablePublisher) -> None:
    table.stop()
    assert broker.retained[f"{T}/status"] == b"offline"


def test_a_referee_command_reaches_the_daemon_and_is_answered(
    broker: FakeBroker, table: TablePublisher, received: list[Command]
) -> None:
    referee = Referee(broker)
    referee.send(
        {
            "txn": "r-1",
            "actor": "referee:anna",
            "command": "confirm_hits",
            "args": {"shot": 7, "direct_hits": ["goblin-1"]},
        }
    )
    assert received == [
        Command("r-1", "referee:anna", "confirm_hits", {"shot": 7, "direct_hits": ["goblin-1"]})
    ]
    assert referee.answers() == [{"txn": "r-1", "ok": True, "seq": 42}]


def test_a_retained_command_is_a_replay_and_is_ignored(
    broker: FakeBroker, received: list[Command], caplog: pytest.LogCaptureFixture
) -> None:
    referee = Referee(broker)
    referee.send({"txn": "old", "actor": "referee:anna", "command": "undo", "args": {}}, retain=True)
    with caplog.at_level(logging.WARNING):
        publisher = TablePublisher("table-1", FakeMqttClient(broker, "daemon"), received.append)  # type: ignore[arg-type]
        publisher.start()  # subscribing replays the retained request
    assert received == []
    assert referee.answers() == []
    assert "retained" in caplog.text


@pytest.mark.parametrize(
    ("payload", "answer"),
    [
        (
            b'{"txn": "r-2", "actor": "referee:anna", "command": "undo"}',
            {"txn": "r-2", "ok": False, "error": "request lacks args"},
        ),
        (
            b'{"txn": "r-3", "actor": "referee:anna", "command": "Teleport!", "args": {}}',
            {"txn": "r-3", "ok": False, "error": "command 'Teleport!' is not a command's name"},
        ),
        (
            b'{"txn": "r-4", "actor": "referee:anna", "command": "undo", "args": [1]}',
            {"txn": "r-4", "ok": False, "error": "args must be a JSON object, not list"},
        ),
        (
            b'{"txn": "r-5", "actor": "Anna Smith", "command": "undo", "args": {}}',
            {"txn": "r-5", "ok": False, "error": "actor 'Anna Smith' must look like 'referee:anna'"},
        ),
        (
            b'{"txn": "r-6", "actor": "referee:anna", "command": "undo", "args": {}, "sudo": true}',
            {"txn": "r-6", "ok": False, "error": "request has unknown field(s) sudo"},
        ),
    ],
)
def test_a_malformed_command_with_a_txn_is_answered_with_the_reason(
    broker: FakeBroker,
    table: TablePublisher,
    received: list[Command],
    caplog: pytest.LogCaptureFixture,
    payload: bytes,
    answer: dict[str, Any],
) -> None:
    referee = Referee(broker)
    with caplog.at_level(logging.ERROR):
        referee.send(payload)
    assert received == []
    (got,) = referee.answers()
    assert {k: v for k, v in got.items() if k in answer} == answer
    assert "malformed command" in caplog.text


@pytest.mark.parametrize(
    "payload",
    [
        b"{not json",
        b"\xff\xfe",
        b'["undo"]',
        b'{"actor": "referee:anna", "command": "undo", "args": {}}',
        b'{"txn": 7, "actor": "referee:anna", "command": "undo", "args": {}}',
        b"x" * 70_000,
    ],
)
def test_a_malformed_command_without_a_txn_is_logged_only(
    broker: FakeBroker,
    table: TablePublisher,
    received: list[Command],
    caplog: pytest.LogCaptureFixture,
    payload: bytes,
) -> None:
    referee = Referee(broker)
    with caplog.at_level(logging.ERROR):
        referee.send(payload)
    assert received == [] and referee.answers() == []
    assert "refused a malformed command" in caplog.text
    referee.send({"txn": "after", "actor": "referee:anna", "command": "pause", "args": {}})
    assert referee.answers() == [{"txn": "after", "ok": True, "seq": 42}], "the channel still works"


def test_a_refused_action_reaches_the_referee(
    broker: FakeBroker, table: TablePublisher, caplog: pytest.LogCaptureFixture
) -> None:
    referee = Referee(broker)
    with caplog.at_level(logging.ERROR):
        referee.send({"txn": "r-9", "actor": "referee:anna", "command": "undo", "args": {"count": 9}})
    assert referee.answers() == [
        {"txn": "r-9", "ok": False, "error": "ValueError: cannot undo more than 5 actions at once"}
    ]


def test_a_redelivered_command_is_applied_once_and_answered_again(
    broker: FakeBroker, table: TablePublisher, received: list[Command]
) -> None:
    referee = Referee(broker)
    request = {"txn": "r-10", "actor": "referee:anna", "command": "end_turn", "args": {}}
    referee.send(request)
    referee.send(request)  # a QoS 1 duplicate
    assert len(received) == 1
    assert referee.answers() == [{"txn": "r-10", "ok": True, "seq": 42}] * 2


def test_the_daemon_may_answer_later_from_its_own_thread(broker: FakeBroker) -> None:
    queue: list[Command] = []
    publisher = TablePublisher("table-1", FakeMqttClient(broker, "daemon"), lambda c: queue.append(c))  # type: ignore[func-returns-value]
    publisher.start()
    referee = Referee(broker)
    referee.send({"txn": "r-11", "actor": "referee:anna", "command": "rescan", "args": {}})
    assert referee.answers() == []  # still in the daemon's queue
    publisher.respond(queue.pop().txn, CommandResult.accepted(seq=43))
    assert referee.answers() == [{"txn": "r-11", "ok": True, "seq": 43}]


def test_a_table_without_a_handler_refuses_commands(broker: FakeBroker) -> None:
    TablePublisher("table-1", FakeMqttClient(broker, "daemon")).start()
    referee = Referee(broker)
    referee.send({"txn": "r-12", "actor": "referee:anna", "command": "pause", "args": {}})
    assert referee.answers() == [{"txn": "r-12", "ok": False, "error": "this table accepts no commands"}]


@pytest.mark.parametrize(
    ("characters", "complaint"),
    [
        ("hero-xoric", "must be a list"),
        ([{"name": "Xoric"}], r"\[0\] must be an object with a string 'id'"),
        ([{"id": "Hero Xoric", "health": 7}], "character id 'Hero Xoric'"),
    ],
)
def test_a_malformed_snapshot_is_refused_before_anything_is_published(
    broker: FakeBroker, table: TablePublisher, characters: object, complaint: str
) -> None:
    table.publish_state(barracks(), seq=12)
    published_before = len(broker.log)
    with pytest.raises(ValueError if "character id" in complaint else TypeError, match=complaint):
        table.publish_state({**barracks(), "characters": characters}, seq=13)
    assert len(broker.log) == published_before
    assert json.loads(broker.retained[f"{T}/state"])["seq"] == 12


def test_a_restarted_daemon_clears_characters_that_left_while_it_was_down(broker: FakeBroker) -> None:
    first_run = FakeMqttClient(broker, "daemon-run-1")
    before_crash = TablePublisher("table-1", first_run)
    before_crash.start()
    before_crash.publish_state(barracks(), seq=12)
    first_run.lose_connection()  # SIGKILL: the goblin was destroyed but its clearing never went out

    after_restart = TablePublisher("table-1", FakeMqttClient(broker, "daemon-run-2"))
    after_restart.start()  # the broker replays the goblin's retained topics
    assert f"{T}/character/goblin-1" in broker.retained
    after_restart.publish_state(barracks(goblin=False), seq=14)  # replayed from the event log

    assert f"{T}/character/goblin-1" not in broker.retained
    assert f"{T}/tracker/goblin-1/health" not in broker.retained
    assert broker.retained[f"{T}/tracker/troll/health"] == b"3"


def test_a_stale_character_replayed_after_the_first_state_is_cleared_too(broker: FakeBroker) -> None:
    client = FakeMqttClient(broker, "daemon")
    table = TablePublisher("table-1", client)
    table.start()
    table.publish_state(barracks(goblin=False), seq=14)
    # A slow broker's replay may arrive after the daemon's first publish.
    client.deliver(InboundMessage(f"{T}/tracker/goblin-1/health", b"2", 1, retain=True))
    client.deliver(InboundMessage(f"{T}/character/troll", b'{"id": "troll"}', 1, retain=True))
    cleared = [(p.topic, p.payload) for p in broker.log[-2:]]
    assert cleared == [(f"{T}/character/goblin-1", b""), (f"{T}/tracker/goblin-1/health", b"")]
    assert f"{T}/character/troll" in broker.retained, "a character still in the game is kept"
