"""The demo's stand-in broker: started only for the demo when nothing answers, and a real MQTT 3.1.1 broker
when it is; a real table never gets one and is told how to start Mosquitto instead."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from service.publish import PahoTransport, TablePublisher
from service.publish.broker_url import BrokerUrl
from service.publish.embedded_broker import (
    CHATTY_LOGGERS,
    EmbeddedBroker,
    EmbeddedBrokerError,
    broker_reachable,
    ensure_broker,
    quiet_broker_logs,
)
from tests.helpers.broker import MosquittoBroker, free_port, start_mosquitto
from tests.helpers.mqtt_probe import MqttProbe
from tests.publish.game_snapshots import barracks

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def chatty_loggers() -> Iterator[None]:
    """Put the levels of amqtt's loggers (and the root's) back as they were."""
    saved = {name: logging.getLogger(name).level for name in (*CHATTY_LOGGERS, "")}
    yield
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


def test_with_no_broker_the_demo_starts_one_and_says_so(caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    with caplog.at_level(logging.WARNING):
        url, embedded = ensure_broker(f"mqtt://demo:demo@127.0.0.1:{port}", allow_embedded=True)
    assert embedded is not None
    try:
        assert (url.host, url.port, url.username) == ("127.0.0.1", port, "demo")
        assert "NO MQTT BROKER answered" in caplog.text and "EMBEDDED BROKER" in caplog.text

        transport = PahoTransport(url, "smartmat-demo")
        table = TablePublisher("demo", transport)
        table.start()
        assert transport.wait_connected(5)
        try:
            table.publish_state(barracks(), seq=3)
            with MqttProbe(url.host, url.port) as phone:
                phone.subscribe("smartmat/demo/#")
                wanted = {"smartmat/demo/state", "smartmat/demo/tracker/troll/health"}
                phone.wait_for(lambda seen: wanted <= {s.topic for s in seen})
                assert phone.latest("smartmat/demo/state").json()["seq"] == 3  # type: ignore[union-attr]
                assert phone.latest("smartmat/demo/tracker/troll/health").payload == b"3"  # type: ignore[union-attr]
                phone.publish(
                    "smartmat/demo/cmd/request",
                    {"txn": "d1", "actor": "referee:demo", "command": "pause", "args": {}},
                )
                seen = phone.wait_for(lambda seen: any(s.topic.endswith("cmd/response") for s in seen))
                assert [s.json() for s in seen if s.topic.endswith("cmd/response")] == [
                    {"txn": "d1", "ok": False, "error": "this table accepts no commands"}
                ]
        finally:
            table.stop()
    finally:
        embedded.stop()


@pytest.mark.broker
def test_a_reachable_broker_is_used_as_is(mosquitto_broker: MosquittoBroker) -> None:
    for allow in (True, False):
        url, embedded = ensure_broker(mosquitto_broker.url("daemon", "pw"), allow_embedded=allow)
        assert embedded is None
        assert url.port == mosquitto_broker.port and url.password == "pw"


@pytest.mark.broker
def test_a_real_table_gets_no_stand_in_is_told_how_to_start_mosquitto_and_keeps_trying(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port = free_port()
    with caplog.at_level(logging.ERROR):
        url, embedded = ensure_broker(
            f"mqtt://daemon:s3cret@127.0.0.1:{port}", allow_embedded=False, why_not="a real table (--serial)"
        )
    assert embedded is None
    assert url == BrokerUrl("127.0.0.1", port, "daemon", "s3cret")
    assert not broker_reachable(url), "nothing may have started listening in Mosquitto's place"
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    assert "sudo systemctl start mosquitto" in errors[0] and "apt-get install mosquitto" in errors[0]
    assert "--serial" in errors[0] and "s3cret" not in errors[0]

    # The daemon's client keeps trying; once Mosquitto is started it connects and publishes by itself.
    table = TablePublisher("t1", PahoTransport(url, "smartmat-daemon-t1", reconnect_delay_s=(1, 1)))
    table.start()
    broker = None
    try:
        table.publish_state(barracks(), seq=5)
        time.sleep(1.5)  # at least one failed attempt
        assert not table.connected
        broker = start_mosquitto(tmp_path, port=port)
        with MqttProbe(broker.host, broker.port) as probe:
            probe.subscribe("smartmat/t1/state")
            probe.wait_for(lambda seen: any(s.topic == "smartmat/t1/state" for s in seen), timeout_s=15)
            assert probe.latest("smartmat/t1/state").json()["seq"] == 5  # type: ignore[union-attr]
    finally:
        table.stop()
        if broker is not None:
            broker.stop()


def test_many_clients_connecting_while_others_subscribe_are_all_served(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """amqtt 0.12 dropped a connecting client when another subscribed to a new filter meanwhile (and printed
    a traceback): the demo's daemon, dashboard and players all connect at once at start-up."""
    port = free_port()
    clients: list[tuple[mqtt.Client, threading.Event, list[object]]] = []

    def subscriber(topic: str) -> None:
        got, dropped = threading.Event(), []
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"c-{topic}", protocol=mqtt.MQTTv311)
        client.on_connect = lambda c, *_: c.subscribe(topic, 1)
        client.on_message = lambda *_: got.set()
        client.on_disconnect = lambda c, u, f, reason, p: dropped.append(reason)
        client.connect_async("127.0.0.1", port)
        client.loop_start()
        clients.append((client, got, dropped))

    with caplog.at_level(logging.WARNING), EmbeddedBroker(port) as broker:
        broker.start()
        publisher = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="pub", protocol=mqtt.MQTTv311)
        publisher.connect("127.0.0.1", port)
        publisher.loop_start()
        try:
            for i in range(40):
                publisher.publish(f"r/{i}", b"x", qos=1, retain=True).wait_for_publish(5)
            for i in range(20):  # twenty filters with a retained message each...
                subscriber(f"r/{i}")
            assert all(got.wait(10) for _, got, _ in clients)
            # ...which every newcomer is sent while the other newcomers add their own filters.
            starting = [threading.Thread(target=subscriber, args=(f"r/{20 + i}",)) for i in range(20)]
            for thread in starting:
                thread.start()
            for thread in starting:
                thread.join()
            assert all(got.wait(10) for _, got, _ in clients)
            assert [d for _, _, d in clients if d] == [], "clients were dropped while connecting"
        finally:
            for client, _, _ in clients:
                client.disconnect()
                client.loop_stop()
            publisher.disconnect()
            publisher.loop_stop()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def test_the_brokers_libraries_log_only_warnings_unless_verbose(chatty_loggers: None) -> None:
    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET)
    logging.getLogger().setLevel(logging.INFO)  # smartmat without -v
    quiet_broker_logs()
    for name in CHATTY_LOGGERS:
        logger = logging.getLogger(f"{name}.broker")
        assert logger.isEnabledFor(logging.WARNING) and not logger.isEnabledFor(logging.INFO)

    for name in CHATTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET)
    logging.getLogger().setLevel(logging.DEBUG)  # smartmat -v
    quiet_broker_logs()
    assert all(logging.getLogger(f"{name}.broker").isEnabledFor(logging.DEBUG) for name in CHATTY_LOGGERS)


def test_a_taken_port_is_a_clear_error() -> None:
    port = free_port()
    with EmbeddedBroker(port) as first:
        first.start()
        with pytest.raises(EmbeddedBrokerError, match=f"127.0.0.1:{port}"):
            EmbeddedBroker(port).start()


def test_without_the_demo_extra_the_error_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "amqtt.broker", None)  # as if amqtt were not installed
    with pytest.raises(EmbeddedBrokerError) as refused:
        EmbeddedBroker(free_port()).start()
    assert "demo" in str(refused.value) and "deploy/smartmat run" in str(refused.value)
    assert "sudo systemctl start mosquitto" in str(refused.value)


def run_table(*extra: str, env: dict[str, str], seconds: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "run", "--no-dashboard", "--workers", "1", *extra],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=seconds + 60,
    )


def test_only_the_demo_may_start_the_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    from service.app.cli import stand_in_broker_policy

    for name in ("NOTIFY_SOCKET", "INVOCATION_ID"):
        monkeypatch.delenv(name, raising=False)
    assert stand_in_broker_policy(None) == {"allow_embedded": True}
    assert stand_in_broker_policy("/dev/smartmat")["allow_embedded"] is False
    for name, value in (("INVOCATION_ID", "0123456789abcdef0123456789abcdef"), ("NOTIFY_SOCKET", "/run/x")):
        with monkeypatch.context() as env:
            env.setenv(name, value)
            policy = stand_in_broker_policy(None)
            assert policy["allow_embedded"] is False and "systemd" in policy["why_not"]


def test_smartmat_run_on_a_real_table_starts_no_stand_in_and_still_comes_up(tmp_path: Path) -> None:
    import os

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "INVOCATION_ID")}
    done = run_table(
        "--serial",
        "/nonexistent/smartmat-mat",
        "--broker",
        f"mqtt://127.0.0.1:{port}",
        "--data-dir",
        str(tmp_path / "data"),
        "--seconds",
        "2",
        env=env,
        seconds=2,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert "NO MQTT BROKER answers" in output and "sudo systemctl start mosquitto" in output
    assert "EMBEDDED BROKER" not in output
    assert "smartmat: table demo is running" in output  # the table itself came up, waiting for both
