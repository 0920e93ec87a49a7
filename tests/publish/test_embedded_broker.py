"""The demo's fallback broker: started only when nothing answers, and a real MQTT 3.1.1 broker when it is."""

from __future__ import annotations

import logging

import pytest

from service.publish import PahoTransport, TablePublisher
from service.publish.embedded_broker import EmbeddedBroker, EmbeddedBrokerError, ensure_broker
from tests.helpers.broker import MosquittoBroker, free_port
from tests.helpers.mqtt_probe import MqttProbe
from tests.publish.game_snapshots import barracks


def test_with_no_broker_the_demo_starts_one_and_says_so(caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    with caplog.at_level(logging.WARNING):
        url, embedded = ensure_broker(f"mqtt://demo:demo@127.0.0.1:{port}")
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
    url, embedded = ensure_broker(mosquitto_broker.url("daemon", "pw"))
    assert embedded is None
    assert url.port == mosquitto_broker.port and url.password == "pw"


def test_a_taken_port_is_a_clear_error() -> None:
    port = free_port()
    with EmbeddedBroker(port) as first:
        first.start()
        with pytest.raises(EmbeddedBrokerError, match=f"127.0.0.1:{port}"):
            EmbeddedBroker(port).start()
