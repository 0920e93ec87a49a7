"""The checker's exact command, as its own process with the default worker pool: one JSON answer per shot, a
saved calibration, exit 0 and nothing on stderr (the pool is stopped before the interpreter exits)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from service.mat.trace import write_traces
from service.simulator.shot_lab import ShotLab

SMARTMAT = Path(sys.executable).parent / "smartmat"

pytestmark = pytest.mark.timeout(300)


def test_attribute_learn_runs_as_a_process_and_exits_cleanly(tmp_path: Path) -> None:
    table = ShotLab(seed=61)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    table.place("orc-2", "monster-medium", 600, 450, side="overseer", kind="monster")
    traces = [table.shoot("hero-xoric", 0.0, 1500).trace, table.shoot("hero-xoric", 0.6, 1200).trace]
    shots, cal = tmp_path / "TRACES.jsonl", tmp_path / "CAL.json"
    with shots.open("w") as out:
        write_traces(traces, out)
    for run in range(3):  # the pool's exit was a race: give it more than one chance to show
        command = [str(SMARTMAT), "attribute", str(shots), "--json", "--table", str(cal), "--learn"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=240, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        answers = [json.loads(line) for line in done.stdout.splitlines()]
        assert [a["flicked"] for a in answers] == ["hero-xoric", "hero-xoric"]
        assert done.stderr == "", f"run {run}: {done.stderr}"
        assert json.loads(cal.read_text())["shots"] == 2 * (run + 1)  # it learned on from the saved table
