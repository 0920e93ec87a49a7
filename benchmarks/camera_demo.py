"""The demo table with and without its overhead camera, in one run: ``smartmat run --camera sim`` against
``--camera none``, each on a fresh data directory for the same time, then the share of shots the table
applied without its referee read from each game's event log.

    python benchmarks/camera_demo.py --seconds 300

The camera is the simulated mat's rendered one (service/simulator/sim_camera.py) read by the table's camera
process (`smartmat camera run`), through the same pipe, broker and daemon code a real camera uses; the daemon
never sees the simulator's truth. Both runs play the same seed; what differs between them is the camera (and
the players' shots, which depend on timing). Rendering makes a shot take longer with the camera, so the
camera run plays fewer shots in the same time.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from service.eventlog.sqlite_log import SqliteEventLog


def play(camera: str, seconds: float, data_dir: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "service.cli", "run", "--camera", camera, "--data-dir", str(data_dir)]
    command += ["--new-game", "--no-dashboard", "--seconds", str(seconds)]
    subprocess.run(
        command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=seconds + 120
    )
    (path,) = glob.glob(str(data_dir / "*.sqlite"))
    with SqliteEventLog(Path(path)) as log:
        records = list(log.records())
    shots = [r for r in records if r.kind == "shot" and "trace" in r.payload]
    readings = [r for r in records if r.kind == "attribution"]
    applied = sum(bool(r.payload.get("auto")) for r in readings)
    with_block = sum("camera" in r.payload["trace"] for r in shots)
    return {
        "camera": camera,
        "shots_read": len(readings),
        "applied": applied,
        "applied_share": round(applied / len(readings), 3) if readings else None,
        "shots_with_camera_block": with_block,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=300.0, help="how long each table plays")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for camera in ("none", "sim"):
            results.append(play(camera, args.seconds, Path(tmp) / camera))
            print(json.dumps(results[-1]), flush=True)
    without, with_camera = results
    if without["applied_share"] and with_camera["applied_share"] is not None:
        ratio = with_camera["applied_share"] / without["applied_share"]
        print(json.dumps({"applied_share_ratio_camera_over_none": round(ratio, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
