"""``smartmat trackers`` as an organiser runs it: a table file with its trackers, a real broker."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from service.cli import main
from tests.helpers.broker import MosquittoBroker
from tests.helpers.mqtt_probe import MqttProbe
from tests.publish.game_snapshots import character

pytestmark = pytest.mark.broker
DEMO = Path("content/tables/demo.yaml")


def _table(tmp_path: Path, trackers: list[dict[str, object]] | None) -> Path:
    data = yaml.safe_load(DEMO.read_text())
    data["table"] = "table-7"
    if trackers is not None:
        data["trackers"] = trackers
    path = tmp_path / "table-7.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def test_the_command_feeds_the_listed_device_from_the_retained_character(
    tmp_path: Path, mosquitto_broker: MosquittoBroker
) -> None:
    table = _table(tmp_path, [{"id": "board-2", "topic": "wled/board-2", "character": "hero-elani"}])
    with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as daemon:
        elani = {**character("hero-elani", "Elani", "heroes", "hero", 2, 6), "seq": 4}
        daemon.publish("smartmat/table-7/character/hero-elani", elani, retain=True)
    bridge = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "trackers",
            "--table",
            str(table),
            "--broker",
            mosquitto_broker.url(),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert bridge.stdout is not None
        assert bridge.stdout.readline() == "board-2: wled/board-2/api shows hero-elani\n"
        with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as device:
            device.subscribe("wled/board-2/api")
            device.wait_for(lambda seen: any(b"00C800" in s.payload for s in seen))
            held = device.latest("wled/board-2/api")
            assert held is not None
            assert held.json()["seg"][0]["i"] == [0, 2, "00C800", 2, 6, "280000", 6, 12, "000000"]
    finally:
        bridge.terminate()
        assert bridge.wait(10) == 0


def test_a_table_without_wled_trackers_is_refused_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _table(tmp_path, None)
    assert main(["trackers", "--table", str(table)]) == 1
    assert capsys.readouterr().err == f"smartmat trackers: {table}: trackers: no WLED tracker listed\n"
