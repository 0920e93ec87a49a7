"""`smartmat run` with no hardware: the whole demo comes up, prints where to look, and stops cleanly."""

from __future__ import annotations

import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from service.cli import command_names
from service.eventlog.sqlite_log import SqliteEventLog
from tests.helpers.broker import start_mosquitto
from tests.helpers.mqtt_probe import MqttProbe

pytestmark = [pytest.mark.broker, pytest.mark.slow]
REPO = Path(__file__).resolve().parents[2]


def wait_for_an_action(log: Path, timeout_s: float) -> None:
    """Until the event log (read-only, beside the running table) holds a player's action."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if log.exists():
            try:
                with sqlite3.connect(f"file:{log}?mode=ro", uri=True, timeout=1) as db:
                    if db.execute("SELECT 1 FROM events WHERE kind = 'action' LIMIT 1").fetchone():
                        return
            except sqlite3.OperationalError:
                pass  # the table is still creating its log
        time.sleep(0.2)
    raise AssertionError(f"no action in {log} after {timeout_s:.0f} s")


def test_every_part_of_the_product_has_its_command() -> None:
    commands = command_names()
    assert {
        "run",
        "simulate",
        "replay",
        "eventlog",
        "attribute",
        "bench",
        "content",
        "sim-mat",
        "dashboard",
    } <= set(commands)


def test_run_without_hardware_plays_on_a_simulated_mat_and_serves_the_dashboard(tmp_path: Path) -> None:
    broker = start_mosquitto(tmp_path / "broker")
    probe = MqttProbe(broker.host, broker.port)
    probe.subscribe("smartmat/demo/#")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "run",
            "--broker",
            broker.url(),
            "--data-dir",
            str(tmp_path / "data"),
            "--dashboard-host",
            "127.0.0.1",
            "--dashboard-port",
            "0",
            "--workers",
            "1",
            "--seconds",
            "60",  # a bound only: Ctrl-C stops it once the players have acted
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    url = None
    try:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            found = re.search(r"open (http://\S+) to watch", line)
            if found:
                url = found.group(1)
                break
        assert url, "".join(lines[-30:])
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        assert "smartmat" in page and "demo" in page
        wait_for_an_action(tmp_path / "data" / "demo.sqlite", 45)
        process.send_signal(signal.SIGINT)  # Ctrl-C, as the printed line says
        output, _ = process.communicate(timeout=60)
        lines.append(output)
    finally:
        if process.poll() is None:
            process.kill()
        probe.close()
        broker.stop()
    text = "".join(lines)
    assert process.returncode == 0, text[-3000:]
    assert "SIMULATED mat" in text
    assert re.search(r"referee PIN for this table is \d{6}", text)
    assert "smartmat: stopping" in text
    # The simulated players got the game going through the real serial path and the broker.
    with SqliteEventLog(tmp_path / "data" / "demo.sqlite") as eventlog:
        kinds = [r.kind for r in eventlog.records()]
    assert kinds[0] == "setup" and "action" in kinds
    states = [s.json() for s in probe.seen if s.topic.endswith("/state") and s.payload]
    assert states and states[-1]["phase"] in ("setup", "battle", "resolution")
    statuses = [s.payload for s in probe.seen if s.topic.endswith("/status")]
    assert statuses[-1] == b"offline"  # said goodbye on the way out


def test_run_prints_the_public_url_puts_it_in_the_qr_code_and_says_how_to_reset_a_pin_set_before(
    tmp_path: Path,
) -> None:
    from web_dashboard.security import write_pin_file

    broker = start_mosquitto(tmp_path / "broker")
    pin_file = tmp_path / "data" / "referee-pin"
    pin_file.parent.mkdir()
    write_pin_file(pin_file, "482913")  # a PIN set on an earlier start: not printed again
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "service.cli",
            "run",
            "--broker",
            broker.url(),
            "--data-dir",
            str(tmp_path / "data"),
        ]
        + ["--dashboard-host", "127.0.0.1", "--dashboard-port", "0", "--workers", "1", "--seconds", "4"]
        + ["--public-url", "http://mat.example.org:8131"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    try:
        assert process.stdout is not None
        local = None
        for line in process.stdout:
            lines.append(line)
            found = re.search(r"dashboard listening on (http://\S+) \(this machine\)", line)
            local = found.group(1) if found else local
            if "to watch" in line:
                break
        assert local, "".join(lines[-30:])
        with urllib.request.urlopen(local + "qr.svg", timeout=10) as answer:
            encoded = answer.headers["X-Spectator-URL"]
        output, _ = process.communicate(timeout=60)
        lines.append(output)
    finally:
        if process.poll() is None:
            process.kill()
        broker.stop()
    text = "".join(lines)
    assert "smartmat: open http://mat.example.org:8131/ to watch" in text
    assert encoded == "http://mat.example.org:8131/table/demo"
    assert "482913" not in text and "referee PIN for this table is" not in text
    assert f"smartmat dashboard set-pin --pin-file {pin_file}" in text
