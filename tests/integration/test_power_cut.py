"""Killing the daemon with SIGKILL mid-room and starting it again resumes the very same game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from service.app.cli import piece_sizes
from service.eventlog.sqlite_log import SqliteEventLog
from service.simulator.table import SimulatedTable
from service.table.bindings import resolve_bindings
from service.table.session import TableSession
from tests.helpers.broker import start_mosquitto
from tests.helpers.mqtt_probe import MqttProbe
from tests.integration.live_table import FAST, quick_table

pytestmark = [pytest.mark.broker, pytest.mark.slow]


def start_daemon(
    port: str, broker_url: str, data_dir: Path, table_file: Path, log: Path
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "run",
            "--serial",
            port,
            "--broker",
            broker_url,
            "--data-dir",
            str(data_dir),
            "--table",
            str(table_file),
            "--no-dashboard",
            "--workers",
            "1",
        ],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        cwd=Path(__file__).resolve().parents[2],
    )


def states(probe: MqttProbe) -> list[dict]:
    return [s.json() for s in probe.seen if s.topic.endswith("/state") and s.payload]


def wait(predicate, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_sigkill_mid_room_then_restart_resumes_the_same_state(tmp_path: Path) -> None:
    table = quick_table()
    size_of = piece_sizes(table.ruleset)

    def binder(state, chosen, previous):  # the daemon's own rule for handing out discs
        return resolve_bindings(state, table.registry, chosen, previous, size_of)

    table_file = tmp_path / "table.yaml"
    shipped = yaml.safe_load(table.path.read_text())
    shipped["game"]["rooms"] = list(table.game.rooms or ())
    shipped["game"]["seed"] = table.game.seed
    table_file.write_text(yaml.safe_dump(shipped))
    data_dir = tmp_path / "data"
    log = tmp_path / "daemon.log"
    # A real table (--serial) refuses a broker that lets anyone in: this one has an account.
    broker = start_mosquitto(tmp_path / "broker", users={"table": "pw"})
    url = broker.url("table", "pw")
    sim = SimulatedTable(table, url, seed=5, pace=FAST).start()
    probe = MqttProbe(broker.host, broker.port, "table", "pw")
    probe.subscribe(f"smartmat/{table.table}/state")
    daemon = start_daemon(sim.port, url, data_dir, table_file, log)
    try:
        # Mid-room: the battle is on and at least three shots have been resolved.
        wait(
            lambda: sum(1 for s in states(probe) if s.get("phase") == "battle") > 0 and sim.flicks >= 3,
            180,
            "three flicks into the battle",
        )
        daemon.send_signal(signal.SIGKILL)
        daemon.wait(10)
        before = states(probe)[-1]
        with SqliteEventLog(data_dir / f"{table.table}.sqlite") as eventlog:
            logged = eventlog.last_seq()
            replayed = TableSession.replay(eventlog.records(), binder=binder).snapshot()
        # Published only after it was logged: the log is never behind what anyone saw.
        assert logged >= before["seq"]

        probe.seen.clear()
        daemon = start_daemon(sim.port, url, data_dir, table_file, log)
        wait(lambda: any(s["seq"] == logged for s in states(probe)), 60, "the restarted daemon's state")
        after = next(s for s in states(probe) if s["seq"] == logged)
        compared = ("phase", "round", "room", "turn", "characters", "gold", "expected_shot", "pending")
        for key in compared:
            assert after[key] == replayed[key], key
        if logged == before["seq"]:
            for key in compared:
                assert after[key] == before[key], key
        # ... and the game goes on from there.
        wait(lambda: states(probe)[-1]["seq"] > logged, 120, "play to continue after the restart")
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(15)
        except subprocess.TimeoutExpired:
            daemon.kill()
        probe.close()
        sim.stop()
        broker.stop()
        if os.environ.get("CI"):
            print(log.read_text()[-4000:])
