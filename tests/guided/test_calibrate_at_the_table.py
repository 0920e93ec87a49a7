"""The guided calibration run by the daemon: a referee's commands, taps on the simulated mat over its pty.

The simulated mat hides its own sound speed, piezo lags and gains; the daemon is told only the reference
configuration. After one round of taps the table's calibration file holds the mat's sound speed within 5 %
and each lag within 25 µs (the tolerances docs/setup.md states for two rounds, which tests/guided/
test_tap_fit.py checks on many mats), and the console sees its figures and age.
"""

from __future__ import annotations

import dataclasses
import json
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.emulator.board import EmulatedMat
from firmware_bridge.transport import SerialConnection
from service.attribution.calibration import load_calibration
from service.attribution.learning import CalibrationKeeper
from service.daemon.daemon import Daemon, DaemonOptions
from service.eventlog.memory import MemoryEventLog
from service.mat.geometry import load_mat, load_sensor_config
from service.publish import topics
from service.publish.fake import FakeBroker, FakeMqttClient
from service.publish.paho_transport import PahoTransport
from service.publish.publisher import TablePublisher
from service.simulator.sensors import PiezoTruth, SensorModel
from service.simulator.source_physics import PhysicsSensorSource
from service.simulator.world import World
from service.table.config import load_table

MAT = load_mat()
REFERENCE = load_sensor_config("reference")
HIDDEN_SPEED = 0.55  # mm/µs; the reference configuration says 0.8
HIDDEN_LAGS = {0: 30.0, 2: -20.0, 5: 15.0, 7: -35.0}
HIDDEN_GAINS = {1: 1.3, 6: 0.75}


class CalibratingTable:
    """The daemon on the simulated mat's pty with a calibration file; MQTT on a fake or a real broker."""

    def __init__(
        self,
        tmp_path: Path,
        broker_url: str | None = None,
        table_file: Path | None = None,
        content: str = "sample",  # the tests' hand-made cards; "shipped" for a game that has none
    ) -> None:
        config = dataclasses.replace(
            REFERENCE, piezo=dataclasses.replace(REFERENCE.piezo, wave_speed_mm_per_us=HIDDEN_SPEED)
        )
        truth = PiezoTruth(timing_offsets_us=HIDDEN_LAGS, gains=HIDDEN_GAINS)
        self.source = PhysicsSensorSource(World(MAT, seed=2), SensorModel(config, MAT, seed=2, truth=truth))
        self.mat = EmulatedMat(self.source, port_dir=tmp_path / "by-id").start()
        self.connection = SerialConnection(str(self.mat.path))
        self.calibration_file = tmp_path / "table-1.calibration.json"
        table = load_table(table_file)
        self.table = dataclasses.replace(table, game=dataclasses.replace(table.game, content=content))
        self.broker = FakeBroker()
        transport: Any = (
            PahoTransport(broker_url, "smartmat-daemon-demo")
            if broker_url
            else FakeMqttClient(self.broker, "daemon")
        )
        self.publisher = TablePublisher(
            self.table.table, transport, handler=lambda c: self.daemon.on_command(c)
        )
        keeper = CalibrationKeeper(self.calibration_file, self.table.table)
        self.daemon = Daemon(
            self.table,
            self.connection,
            MemoryEventLog(),
            self.publisher,
            size_of=lambda card: None,
            options=DaemonOptions(calibration=keeper, sets_dir=tmp_path / "sets"),
        )
        self.referee = FakeMqttClient(self.broker, "referee")
        self.referee.start(lambda: None, lambda message: None)
        self.referee.subscribe(topics.table_filter(self.table.table), 1)
        self.daemon.start()
        self.daemon.run_in_thread()
        self.until(lambda: self.daemon.capabilities is not None)

    def until(self, condition: Callable[[], bool], timeout_s: float = 20.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            assert time.monotonic() < deadline, "the table did not get there in time"
            time.sleep(0.02)

    def send(self, command: str, **args: Any) -> dict[str, Any]:
        txn = uuid.uuid4().hex
        request = {"txn": txn, "actor": "referee:anna", "command": command, "args": args}
        self.referee.publish(topics.topic("demo", topics.CMD_REQUEST), json.dumps(request).encode(), 1, False)
        answers: list[dict[str, Any]] = []

        def answered() -> bool:
            answers[:] = [
                a
                for m in self.referee.on(topics.topic("demo", topics.CMD_RESPONSE))
                if (a := json.loads(m.payload)).get("txn") == txn
            ]
            return bool(answers)

        self.until(answered)
        return answers[-1]

    @property
    def calibration_view(self) -> dict[str, Any]:
        message = self.referee.last(topics.topic("demo", topics.STATE))
        assert message is not None
        return dict(json.loads(message.payload)["calibration"])

    def close(self) -> None:
        self.daemon.stop()
        self.connection.close()
        self.mat.stop()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[CalibratingTable]:
    running = CalibratingTable(tmp_path)
    try:
        yield running
    finally:
        running.close()


def test_a_referee_taps_the_marked_points_and_the_table_learns_its_mat(table: CalibratingTable) -> None:
    assert table.calibration_view["status"]["text"] == "never calibrated with the guided routine"
    assert table.send("calibrate_finish", mat_confirmed=True)["error"] == (
        "no calibration is under way: start one first"
    )
    assert table.send("calibrate_start", rounds=1)["ok"]
    view = table.calibration_view
    assert (view["active"], view["taps_done"], view["taps_total"], view["point"]["number"]) == (
        True,
        0,
        9,
        1,
    )
    for done in range(9):
        point = table.calibration_view["point"]
        table.source.tap(point["x_mm"], point["y_mm"])  # the referee taps the marked point, firmly
        table.until(lambda taken=done + 1: table.calibration_view["taps_done"] == taken)
        assert table.calibration_view["last_tap"]["sensors"] == 8
    refused = table.send("calibrate_finish")
    assert refused["error"] == (
        "calibrate_finish needs 'mat_confirmed': "
        "true, once the playmat's walls, gaps and obstacles are checked"
    )
    assert table.send("calibrate_finish", mat_confirmed=True)["ok"]

    written = load_calibration(table.calibration_file)
    keeper = table.daemon.options.calibration
    assert keeper is not None and keeper.calibration.digest == written.digest  # the next shot reads with it
    assert written.source == "guided"
    assert written.speed_mm_per_us == pytest.approx(HIDDEN_SPEED, rel=0.05)
    mean_lag = sum(HIDDEN_LAGS.values()) / 8
    for sensor in range(8):
        assert written.sensor_offsets_us()[sensor] == pytest.approx(
            HIDDEN_LAGS.get(sensor, 0.0) - mean_lag, abs=25
        )
    view = table.calibration_view
    assert not view["active"] and view["outcome"]["ok"] and view["outcome"]["figures"]["good"]
    status = view["status"]
    assert status["source"] == "guided" and status["age_text"] == "just now" and status["ok"]
    assert status["mat"] == {"walls": "closed wall system", "obstacles": 0}
    assert table.daemon.eventlog.last_seq() == 1  # the game's log holds only its setup: taps are not shots
