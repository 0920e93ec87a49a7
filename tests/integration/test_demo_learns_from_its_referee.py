"""The demo's simulated referee teaches the demo table (docs/calibration.md, "Where a calibration lives"):
`smartmat run` on the simulated mat learns into a calibration file in its data dir by default, and the
answers its referee gives to held shots, sent as any referee's through the command channel, are learnt."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.attribution.calibration import load_calibration
from service.eventlog.sqlite_log import SqliteEventLog
from tests.helpers.broker import start_mosquitto

pytestmark = [pytest.mark.broker, pytest.mark.slow, pytest.mark.timeout(240)]
REPO = Path(__file__).resolve().parents[2]


def test_the_demo_s_referee_answers_change_the_calibration_file_in_its_data_dir(tmp_path: Path) -> None:
    broker = start_mosquitto(tmp_path / "broker")
    data = tmp_path / "data"
    calibration = data / "demo.calibration.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "run", "--no-dashboard", "--broker", broker.url()]
        + ["--data-dir", str(data), "--workers", "1", "--seconds", "150"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    labelled = 0
    # Every version of the file seen with an answer in it, by digest: the calibration the next shot is read
    # with must be one of them (each version lives from one shot or answer to the next: seconds).
    taught: dict[str, int] = {}
    first_taught = 0.0
    try:
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
            if calibration.exists():
                try:
                    labelled = json.loads(calibration.read_text())["referee"]["labelled"]
                    version = load_calibration(calibration)
                except (ValueError, KeyError):
                    continue  # (never half-written: saved atomically; a file of another shape fails below)
                if labelled >= 1:
                    taught.setdefault(version.digest, labelled)
                    first_taught = first_taught or time.monotonic()
                # Two more versions after the first taught one: a shot was read (and learnt from) since the
                # answer; 40 s at most for the next shots to be read with what the answer taught.
                if len(taught) >= 3 or (first_taught and time.monotonic() - first_taught > 40):
                    break
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        output, _ = process.communicate(timeout=60)
        broker.stop()
    assert labelled >= 1, output[-3000:]
    assert f"table calibration {calibration}" in output  # the console says where it learns
    learnt = load_calibration(calibration)
    assert learnt.source == "learnt from play" and learnt.shots >= 1
    # The answer was the simulated referee's, through the command channel, to a shot the table held.
    with SqliteEventLog(data / "demo.sqlite") as eventlog:
        records = eventlog.records()
    held = [r.seq for r in records if r.kind == "attribution" and not r.payload["auto"]]
    # (a held shot confirmed is recorded as the shot resolved, by the referee, right after its reading)
    answers = [
        r.seq for r in records if r.by.startswith("referee:") and r.payload.get("action") == "resolve_shot"
    ]
    assert held and any(seq > held[0] for seq in answers)
    # The next shot read after the first answer was read with a calibration the answer had changed.
    answered = min(seq for seq in answers if seq > held[0])
    later = [r for r in records if r.kind == "attribution" and r.seq > answered]
    assert later, "no shot was read after the referee's first answer"
    assert later[0].payload["attribution"]["calibration"] in taught, (later[0].payload, taught)
