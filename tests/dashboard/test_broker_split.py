"""Against a real Mosquitto: the dashboard reads with one credential and commands with another, and a
spectator's credential can change nothing."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.dashboard.conftest import PIN_HASH, Referee
from tests.dashboard.table_broker import Table
from web_dashboard.server import serve_dashboard
from web_dashboard.table.resources import dashboard_of

pytestmark = pytest.mark.broker


def eventually(check: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def dashboard_config(table: Table, commands_as: str = "referee") -> dict[str, object]:
    return {
        "TABLE": "t1",
        "PORT": 0,
        "MQTT_URL": table.url("spectator"),
        "MQTT_REFEREE_URL": table.url(commands_as),
        "REFEREE_PIN_HASH": PIN_HASH,
        "COMMAND_TIMEOUT_S": 3.0,
        "TESTING": True,
    }


def test_the_referee_channel_commands_and_the_feed_sees_the_result(table: Table) -> None:
    server = serve_dashboard(dashboard_config(table))
    try:
        feed = dashboard_of(server.app).feed
        eventually(lambda: (feed.view()["state"] or {}).get("seq") == 3)
        referee = Referee(server.app.test_client())
        referee.login()
        response = referee.command(
            "correct", target="troll", field="health", value=1, reason="tracker misread"
        )
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["seq"] == 4
        eventually(lambda: feed.view()["state"]["seq"] == 4)
        troll = next(c for c in feed.view()["state"]["characters"] if c["id"] == "troll")
        assert troll["health"] == 1
        assert [e["text"] for e in feed.recent_events()] == [
            "Referee anna set Troll's health to 1 (tracker misread)"
        ]
        assert table.daemon.received[0].actor == "referee:anna"
    finally:
        server.stop()


def test_the_read_only_feed_credential_cannot_command(table: Table) -> None:
    server = serve_dashboard({**dashboard_config(table, commands_as="spectator"), "COMMAND_TIMEOUT_S": 1.0})
    try:
        referee = Referee(server.app.test_client())
        referee.login()
        response = referee.command("pause")
        assert response.status_code == 503
        assert "no answer from the daemon" in response.get_json()["error"]
        assert table.daemon.received == []
    finally:
        server.stop()


def test_a_spectator_credential_cannot_publish_a_command(table: Table) -> None:
    answers: list[bytes] = []
    subscribed = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="phone", protocol=mqtt.MQTTv311)
    client.username_pw_set("spectator", "look")
    client.on_message = lambda c, u, m: answers.append(m.payload)
    client.on_subscribe = lambda *a: subscribed.set()
    client.connect(table.broker.host, table.broker.port)
    client.loop_start()
    try:
        client.subscribe("smartmat/t1/cmd/response", qos=1)
        assert subscribed.wait(5)
        request = {"txn": "forged-1", "actor": "referee:anna", "command": "pause", "args": {}}
        client.publish("smartmat/t1/cmd/request", json.dumps(request), qos=1).wait_for_publish(5)
        time.sleep(0.5)  # long enough for the daemon to have answered, had it received the request
        assert answers == []
        assert table.daemon.received == []
        assert table.daemon.state["paused"] is False
    finally:
        client.loop_stop()
        client.disconnect()
