"""Which character a WLED tracker shows: the one whose published payload lists it (the set-up wizard's
choice), else — when the daemon lists no trackers at all — the table file's ``character``."""

from __future__ import annotations

import json

from service.publish.fake import FakeBroker, FakeMqttClient
from service.table.trackers import parse_trackers
from service.trackers.bridge import WledBridge
from tests.publish.game_snapshots import character

TRACKERS = parse_trackers([{"id": "board-1", "topic": "wled/board-1", "character": "hero-xoric"}], "t.yaml")
XORIC = character("hero-xoric", "Xoric", "heroes", "hero", 5, 7)
ELANI = character("hero-elani", "Elani", "heroes", "hero", 3, 6)


def _lit(device: FakeMqttClient) -> list[object]:
    message = device.last("wled/board-1/api")
    assert message is not None
    return list(json.loads(message.payload)["seg"][0]["i"][:3])


def _table(broker: FakeBroker) -> tuple[FakeMqttClient, FakeMqttClient]:
    daemon = FakeMqttClient(broker, "daemon")
    daemon.start(lambda: None, lambda message: None)
    device = FakeMqttClient(broker, "wled-board-1")
    device.start(lambda: None, lambda message: None)
    device.subscribe("wled/#", 1)
    WledBridge("t1", TRACKERS, FakeMqttClient(broker, "bridge")).start()
    return daemon, device


def test_without_listed_trackers_the_table_files_character_is_shown() -> None:
    daemon, device = _table(FakeBroker())
    daemon.publish("smartmat/t1/character/hero-xoric", json.dumps(XORIC).encode(), 1, True)
    daemon.publish("smartmat/t1/character/hero-elani", json.dumps(ELANI).encode(), 1, True)
    assert _lit(device) == [0, 5, "00C800"]


def test_the_wizards_choice_moves_the_tracker_and_nobody_turns_it_off() -> None:
    daemon, device = _table(FakeBroker())
    daemon.publish(
        "smartmat/t1/character/hero-xoric", json.dumps({**XORIC, "trackers": []}).encode(), 1, True
    )
    daemon.publish(
        "smartmat/t1/character/hero-elani", json.dumps({**ELANI, "trackers": ["board-1"]}).encode(), 1, True
    )
    assert _lit(device) == [0, 3, "00C800"]  # Elani's 3 health
    daemon.publish(
        "smartmat/t1/character/hero-elani", json.dumps({**ELANI, "trackers": []}).encode(), 1, True
    )
    assert _lit(device) == [0, 12, "000000"]  # beside nobody: off


def test_the_bridge_reports_itself_and_what_each_device_last_said() -> None:
    broker = FakeBroker()
    watcher = FakeMqttClient(broker, "dashboard")
    watcher.start(lambda: None, lambda message: None)
    watcher.subscribe("smartmat/t1/trackers", 1)
    bridge = WledBridge("t1", TRACKERS, FakeMqttClient(broker, "bridge"))
    bridge.start()

    def report() -> object:
        message = watcher.last("smartmat/t1/trackers")
        assert message is not None
        return json.loads(message.payload)

    assert report() == {"bridge": "online", "devices": {"board-1": "unknown"}}
    device = FakeMqttClient(broker, "wled-board-1")
    device.start(lambda: None, lambda message: None)
    device.publish("wled/board-1/status", b"online", 1, True)  # WLED's own word when it connects
    assert report() == {"bridge": "online", "devices": {"board-1": "online"}}
    device.publish("wled/board-1/status", b"offline", 1, True)  # its last will, when it loses power
    assert report() == {"bridge": "online", "devices": {"board-1": "offline"}}
    bridge.stop()
    assert report() == {"bridge": "offline", "devices": {"board-1": "offline"}}
