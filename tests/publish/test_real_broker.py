"""The publisher against a real Mosquitto started by the test: retained state, commands, outages, the will."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.publish import Command, CommandResult, PahoTransport, TablePublisher
from tests.helpers.broker import MosquittoBroker, start_mosquitto
from tests.helpers.mqtt_probe import MqttProbe
from tests.publish.game_snapshots import MELEE_EVENT, barracks

pytestmark = pytest.mark.broker
T = "smartmat/table-1"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(mosquitto_broker: MosquittoBroker) -> Iterator[TablePublisher]:
    def handle(command: Command) -> CommandResult:
        return (
            CommandResult.accepted(seq=99) if command.command != "undo" else CommandResult.refused("nothing")
        )

    transport = PahoTransport(mosquitto_broker.url(), "smartmat-table-1", reconnect_delay_s=(1, 1))
    publisher = TablePublisher("table-1", transport, handle)
    publisher.start()
    assert transport.wait_connected(5)
    try:
        yield publisher
    finally:
        publisher.stop()


def test_a_spectator_sees_the_game_and_a_referee_gets_answers(
    mosquitto_broker: MosquittoBroker, table: TablePublisher
) -> None:
    table.publish_state(barracks(), seq=12)
    with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as spectator:
        spectator.subscribe(f"{T}/#")
        spectator.wait_for(lambda seen: any(s.topic == f"{T}/tracker/goblin-1/health" for s in seen))
        assert spectator.latest(f"{T}/status").payload == b"online"  # type: ignore[union-attr]
        assert spectator.latest(f"{T}/state").json()["seq"] == 12  # type: ignore[union-attr]
        assert spectator.latest(f"{T}/state").retain  # type: ignore[union-attr]

        table.publish_event(MELEE_EVENT, seq=13)
        event = spectator.wait_for(lambda seen: any(s.topic == f"{T}/event" for s in seen))[-1]
        assert (event.json()["seq"], event.qos, event.retain) == (13, 1, False)

        spectator.publish(
            f"{T}/cmd/request", {"txn": "a1", "actor": "referee:anna", "command": "pause", "args": {}}
        )
        spectator.publish(
            f"{T}/cmd/request", {"txn": "a2", "actor": "referee:anna", "command": "undo", "args": {}}
        )
        spectator.wait_for(lambda seen: len([s for s in seen if s.topic.endswith("cmd/response")]) == 2)
        answers = sorted((s.json() for s in spectator.on(f"{T}/cmd/response")), key=lambda a: a["txn"])
        assert answers == [
            {"txn": "a1", "ok": True, "seq": 99},
            {"txn": "a2", "ok": False, "error": "nothing"},
        ]


def test_after_a_broker_restart_the_table_republishes_its_retained_state(
    mosquitto_broker: MosquittoBroker, table: TablePublisher
) -> None:
    table.publish_state(barracks(xoric_health=6), seq=20)
    table.publish_board({"pieces": [{"piece": "troll", "x_mm": 400.0, "y_mm": 220.0}]}, seq=20)
    table.publish_state(barracks(xoric_health=5, goblin=False), seq=21)

    mosquitto_broker.stop()  # no persistence: every retained message is gone
    mosquitto_broker.start()

    wanted = {f"{T}/state", f"{T}/board", f"{T}/tracker/troll/health"}
    with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as early:
        early.subscribe(f"{T}/#")  # may connect before the table does: then it sees the republish live
        early.wait_for(lambda seen: wanted <= {s.topic for s in seen}, timeout_s=15)
    with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as spectator:
        spectator.subscribe(f"{T}/#")
        seen = spectator.wait_for(lambda seen: wanted <= {s.topic for s in seen})
        assert all(s.retain for s in seen), "the republished state is retained by the broker again"
        assert spectator.latest(f"{T}/state").json()["seq"] == 21  # type: ignore[union-attr]
        assert spectator.latest(f"{T}/tracker/hero-xoric/health").payload == b"5"  # type: ignore[union-attr]
        assert spectator.latest(f"{T}/status").payload == b"online"  # type: ignore[union-attr]
        assert spectator.latest(f"{T}/character/goblin-1") is None, "a departed monster stays gone"


def test_events_from_several_threads_all_arrive_intact(
    mosquitto_broker: MosquittoBroker, table: TablePublisher
) -> None:
    with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as spectator:
        spectator.subscribe(f"{T}/event")

        def play(first_seq: int) -> None:
            for seq in range(first_seq, first_seq + 100):
                table.publish_event(MELEE_EVENT, seq=seq)
                if seq % 10 == 0:
                    table.publish_state(barracks(xoric_health=seq % 7), seq=seq)

        threads = [threading.Thread(target=play, args=(start,)) for start in (1, 101, 201, 301)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seen = spectator.wait_for(lambda seen: len(seen) >= 400, timeout_s=20)
        assert sorted(s.json()["seq"] for s in seen) == list(range(1, 401))


def test_an_event_published_while_the_broker_is_down_arrives_after_it_returns(tmp_path: Path) -> None:
    broker = start_mosquitto(tmp_path)
    # A slow reconnect gives the watcher time to subscribe before the queued event is sent.
    transport = PahoTransport(broker.url(), "smartmat-table-1", reconnect_delay_s=(3, 3))
    table = TablePublisher("table-1", transport)
    try:
        table.start()
        assert transport.wait_connected(5)
        broker.stop()
        table.publish_event({"type": "damage", "text": "The Troll hits Xoric (2 damage)"}, seq=30)
        broker.start()
        with MqttProbe(broker.host, broker.port) as watcher:
            watcher.subscribe(f"{T}/event")
            (event,) = watcher.wait_for(lambda seen: bool(seen))
            assert event.json()["seq"] == 30
    finally:
        table.stop()
        broker.stop()


DAEMON = textwrap.dedent(
    """
    import sys, time
    from service.publish import TablePublisher
    publisher = TablePublisher.connect_to("table-1", sys.argv[1])
    publisher.publish_state({"characters": []}, seq=1)
    print("up", flush=True)
    time.sleep(60)
    """
)


def test_a_daemon_that_dies_is_announced_offline_by_its_will(tmp_path: Path) -> None:
    broker = start_mosquitto(tmp_path)
    daemon: subprocess.Popen[str] | None = None
    try:
        with MqttProbe(broker.host, broker.port) as watcher:
            watcher.subscribe(f"{T}/status")
            daemon = subprocess.Popen(
                [sys.executable, "-c", DAEMON, broker.url()],
                stdout=subprocess.PIPE,
                text=True,
                cwd=REPO,
                env={**os.environ, "PYTHONPATH": str(REPO)},
            )
            assert daemon.stdout is not None and daemon.stdout.readline().strip() == "up"
            watcher.wait_for(lambda seen: any(s.payload == b"online" for s in seen))
            os.kill(daemon.pid, signal.SIGKILL)
            seen = watcher.wait_for(lambda seen: seen[-1].payload == b"offline")
            assert seen[-1].retain is False  # live delivery; the broker keeps it retained for newcomers
        with MqttProbe(broker.host, broker.port) as newcomer:
            newcomer.subscribe(f"{T}/status")
            assert newcomer.wait_for(lambda seen: bool(seen))[0].payload == b"offline"
    finally:
        if daemon is not None:
            daemon.kill()
            daemon.wait(timeout=10)
            if daemon.stdout:
                daemon.stdout.close()
        broker.stop()


def test_a_command_left_retained_on_the_broker_is_not_replayed(mosquitto_broker: MosquittoBroker) -> None:
    handled: list[str] = []

    def handle(command: Command) -> CommandResult:
        handled.append(command.txn)
        return CommandResult.accepted(seq=1)

    with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as referee:
        referee.subscribe(f"{T}/cmd/response")
        stale = {"txn": "stale", "actor": "referee:anna", "command": "undo", "args": {}}
        referee.publish(f"{T}/cmd/request", stale, retain=True)  # a misbehaving client from yesterday
        referee.subscribe(f"{T}/status")
        table = TablePublisher.connect_to("table-1", mosquitto_broker.url(), handle)
        try:
            # The table subscribes before it says "online" on the same connection, so once "online" is
            # seen its subscription (and the retained replay) has happened.
            referee.wait_for(lambda seen: any(s.payload == b"online" for s in seen))
            referee.publish(f"{T}/cmd/request", {**stale, "txn": "fresh", "command": "pause"})
            seen = referee.wait_for(lambda seen: any(s.topic.endswith("cmd/response") for s in seen))
            assert [s.json()["txn"] for s in seen if s.topic.endswith("cmd/response")] == ["fresh"]
            assert handled == ["fresh"]
        finally:
            table.stop()
