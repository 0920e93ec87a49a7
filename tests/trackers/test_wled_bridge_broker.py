"""WLED trackers through a real Mosquitto: the daemon's publisher, the bridge, and a WLED-shaped device."""

from __future__ import annotations

import json

import pytest

from service.publish.publisher import TablePublisher
from service.table.trackers import parse_trackers
from service.trackers.bridge import WledBridge
from tests.helpers.broker import MosquittoBroker
from tests.helpers.mqtt_probe import MqttProbe
from tests.publish.game_snapshots import barracks

pytestmark = pytest.mark.broker

TRACKERS = parse_trackers(
    [
        {
            "id": "board-1",
            "topic": "wled/board-1",
            "character": "hero-xoric",
            "bar_leds": 10,
            "status_leds": 2,
        },
        {"id": "board-5", "topic": "wled/board-5", "character": "troll", "bar_leds": 5, "status_leds": 1},
    ],
    "test table",
)
XORIC_API, TROLL_API = "wled/board-1/api", "wled/board-5/api"


def _i(probe: MqttProbe, topic: str) -> list[object]:
    latest = probe.latest(topic)
    assert latest is not None
    return json.loads(latest.payload)["seg"][0]["i"]


def test_devices_follow_the_game_and_come_back_right_after_a_broker_restart(
    mosquitto_broker: MosquittoBroker,
) -> None:
    daemon = TablePublisher.connect_to("table-1", mosquitto_broker.url())
    bridge = WledBridge.connect_to("table-1", TRACKERS, mosquitto_broker.url())
    try:
        with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as device:
            device.subscribe("wled/#")
            daemon.publish_state(barracks(xoric_health=7), seq=1)
            device.wait_for(lambda seen: any(s.topic == XORIC_API and b"00C800" in s.payload for s in seen))
            device.wait_for(lambda seen: any(s.topic == TROLL_API and b"00C800" in s.payload for s in seen))
            assert _i(device, TROLL_API) == [0, 3, "00C800", 3, 6, "000000"]

            daemon.publish_state(barracks(xoric_health=4), seq=2)  # the Troll hits Xoric for 3
            device.wait_for(lambda seen: any(s.topic == XORIC_API and b"280000" in s.payload for s in seen))
            assert _i(device, XORIC_API) == [0, 4, "00C800", 4, 7, "280000", 7, 12, "000000"]

        with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as late_device:  # plugged in just now
            late_device.subscribe(XORIC_API)
            (held,) = late_device.wait_for(lambda seen: len(seen) == 1)
            assert held.retain and held.qos == 1
            assert held.json() == {
                "on": True,
                "bri": 96,
                "transition": 0,
                "seg": [
                    {
                        "id": 0,
                        "start": 0,
                        "stop": 12,
                        "on": True,
                        "fx": 0,
                        "i": [0, 4, "00C800", 4, 7, "280000", 7, 12, "000000"],
                    }
                ],
            }

        mosquitto_broker.stop()  # no persistence: every retained message is gone with it
        mosquitto_broker.start()
        with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as rebooted_device:
            rebooted_device.subscribe(XORIC_API)
            # The daemon republishes the game on reconnecting and the bridge the devices' states.
            rebooted_device.wait_for(lambda seen: any(b"280000" in s.payload for s in seen), timeout_s=30)
            assert _i(rebooted_device, XORIC_API) == [0, 4, "00C800", 4, 7, "280000", 7, 12, "000000"]
    finally:
        bridge.stop()
        daemon.stop()
