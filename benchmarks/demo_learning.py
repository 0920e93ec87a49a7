"""The demo learns from its simulated referee: applied share per block of shots, with and without the answers.

Each arm is ``smartmat run`` exactly as a user starts the demo (the simulated mat and its players in their own
process, the daemon reading them through the serial code path), headless (``--no-dashboard``), with a data dir
and an MQTT broker of its own (a free loopback port: the demo starts its embedded broker there), and a new
calibration file in the data dir, so each table starts from wide priors as a new table does. The arms
differ in one flag:

- ``answers``: the default; the simulated referee's answers to the shots the table holds are learnt;
- ``evidence``: ``--ignore-referee-answers``; the table learns only from each shot's own evidence;
- ``built-in`` (with ``--built-in``): ``--built-in-constants``, the model's constants taken as known (the
  simulated mat is built to them): what a table that knew its mat perfectly would apply.

The arms run side by side in one run (the same load on each), until each has read ``--shots`` shots; then each
table is stopped and its event log (the daemon's ``attribution`` records, in order: ``auto`` says whether the
shot was applied without the referee) and calibration file are read. The games differ between arms after the
first held shot (what the table applies changes what the players do next), so the blocks compare tables, not
shots. Nothing here reads the simulator's ground truth.

    .venv/bin/python benchmarks/demo_learning.py [--shots 60] [--block 10] [--built-in] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ARMS = {"answers": [], "evidence": ["--ignore-referee-answers"], "built-in": ["--built-in-constants"]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Arm:
    name: str
    data_dir: Path
    process: subprocess.Popen[bytes] | None = None
    readings: list[dict[str, Any]] = field(default_factory=list)

    @property
    def log_path(self) -> Path:
        return next(self.data_dir.glob("*.sqlite"), self.data_dir / "demo.sqlite")  # <table>.sqlite

    @property
    def calibration_path(self) -> Path:
        return next(self.data_dir.glob("*.calibration.json"), self.data_dir / "demo.calibration.json")

    def start(self, table: str | None, workers: int) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable,
            "-m",
            "service.cli",
            "run",
            "--no-dashboard",
            "--new-game",
            "--next-game-after",
            "2",
            "--data-dir",
            str(self.data_dir),
            "--broker",
            f"mqtt://127.0.0.1:{free_port()}",
            "--workers",
            str(workers),
            *ARMS[self.name],
        ]
        if table:
            command += ["--table", table]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        with open(self.data_dir / "console.txt", "wb") as out:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)

    def read(self) -> list[dict[str, Any]]:
        """The table's readings so far (the event log's ``attribution`` records, in order)."""
        if not self.log_path.exists():
            return []
        try:
            with sqlite3.connect(f"file:{self.log_path}?mode=ro", uri=True, timeout=5) as db:
                rows = db.execute("SELECT payload FROM events WHERE kind = 'attribution' ORDER BY seq")
                self.readings = [json.loads(row[0]) for row in rows]
        except sqlite3.Error:
            pass  # the daemon is creating the log: read again next time
        return self.readings

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def blocks(readings: list[dict[str, Any]], size: int, shots: int) -> list[tuple[int, int]]:
    """(applied, read) per block of ``size`` shots over the first ``shots``."""
    auto = [bool(r.get("auto")) for r in readings[:shots]]
    return [(sum(auto[i : i + size]), len(auto[i : i + size])) for i in range(0, len(auto), size)]


def held_for(readings: list[dict[str, Any]], start: int) -> Counter[str]:
    """Why the shots after the first ``start`` were held (a shot may have several reasons)."""
    counts: Counter[str] = Counter()
    for r in readings[start:]:
        if r.get("auto"):
            continue
        for reason in (r.get("attribution") or {}).get("reasons", []):
            counts[reason.split(":")[0].split(" (")[0][:60]] += 1
    return counts


def calibration_figures(path: Path) -> dict[str, Any] | None:
    if not path.exists():
        return None
    summary = json.loads(path.read_text())["summary"]
    referee = summary["referee"]
    return {
        "shots": json.loads(path.read_text())["shots"],
        "settled": summary["settled"],
        "labelled_shots": referee["labelled_shots"],
        "agreeing": referee["answers_agreeing_with_first_reading"],
        "disc_loudness_x": summary["disc_loudness_x"],
        "disc_loudness_shots": summary["disc_loudness_shots"],
        "sliding_friction_x": summary["sliding_friction_x"],
        "sound_speed_m_per_s": summary["sound_speed_m_per_s"],
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    names = ["answers", "evidence"] + (["built-in"] if args.built_in else [])
    with tempfile.TemporaryDirectory(prefix="demo-learning-") as tmp:
        arms = [Arm(name, Path(tmp) / name) for name in names]
        started = time.monotonic()
        try:
            for arm in arms:
                arm.start(args.table, args.workers)
            while time.monotonic() - started < args.timeout_s:
                time.sleep(5)
                if all(len(arm.read()) >= args.shots for arm in arms):
                    break
                dead = [
                    arm.name for arm in arms if arm.process is not None and arm.process.poll() is not None
                ]
                if dead:
                    raise SystemExit(
                        f"demo_learning: the {', '.join(dead)} table stopped; see its console.txt"
                    )
        finally:
            for arm in arms:
                arm.stop()
        result: dict[str, Any] = {"shots": args.shots, "block": args.block, "seconds": 0.0, "arms": {}}
        result["seconds"] = round(time.monotonic() - started, 1)
        for arm in arms:
            readings = arm.read()
            per_block = blocks(readings, args.block, args.shots)
            applied = sum(a for a, _ in per_block)
            read = sum(n for _, n in per_block)
            result["arms"][arm.name] = {
                "read": read,
                "applied": applied,
                "blocks": per_block,
                "calibration": calibration_figures(arm.calibration_path),
                "held_after_first_block": dict(held_for(readings[: args.shots], args.block).most_common(8)),
            }
    return result


def report(result: dict[str, Any]) -> None:
    size = result["block"]
    print(f"demo tables, {result['shots']} shots each, side by side ({result['seconds']:.0f} s)")
    for name, arm in result["arms"].items():
        shares = ", ".join(
            f"{i * size + 1}-{i * size + n}: {a}/{n}" for i, (a, n) in enumerate(arm["blocks"])
        )
        share = arm["applied"] / arm["read"] if arm["read"] else 0.0
        print(f"  {name:9s} applied {arm['applied']}/{arm['read']} ({share:.0%}); by block {shares}")
        if arm["calibration"]:
            print(f"            calibration {arm['calibration']}")
        print(f"            held after the first block for {arm['held_after_first_block']}")
    base = result["arms"].get("evidence")
    with_answers = result["arms"].get("answers")
    if base and with_answers and base["applied"]:
        ratio = (with_answers["applied"] / with_answers["read"]) / (base["applied"] / base["read"])
        print(f"  applied share with / without the answers: {ratio:.2f}x")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--shots", type=int, default=60)
    parser.add_argument("--block", type=int, default=10)
    parser.add_argument("--table", help="table file (default: the demo table)")
    parser.add_argument("--built-in", action="store_true", help="a third table with --built-in-constants")
    parser.add_argument("--workers", type=int, default=1, help="attribution processes per table")
    parser.add_argument("--timeout-s", type=float, default=3600.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
