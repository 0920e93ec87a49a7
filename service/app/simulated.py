"""The demo's simulated table beside the daemon: the mat and its players in a process of their own, and, with
``smartmat run --camera sim``, the table's camera process reading the frames that process renders of its
flicks. The daemon shares nothing with them but the pseudo-terminal and the broker, exactly as with a real
board and a real camera (and the physics and the rendering get cores of their own)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from service.app.waiting import wait_until_stopped

if TYPE_CHECKING:
    from service.simulator.sim_camera import SimulatedCamera
    from service.simulator.table import SimulatedTable
    from service.table.config import TableConfig

# A shot waits this long for its camera frames before it is read without them: the simulated camera renders
# each flick's frames before the camera process can read them, which a real camera never has to.
SIMULATED_CAMERA_WAIT_S = 12.0
CAMERA_FIFO, CAMERA_DISCS = "frames.fifo", "discs.yaml"


def start_simulated_table(
    stack: ExitStack, table_file: Path, broker: str, seed: int, camera_dir: Path | None = None
) -> str:
    """Start ``smartmat simulate``; the emulated board's port. With ``camera_dir``, the simulated mat also
    films its flicks into ``camera_dir``'s FIFO and writes the discs file the camera process needs."""
    command = [
        sys.executable,
        "-m",
        "service.cli",
        "simulate",
        "--table",
        str(table_file),
        "--seed",
        str(seed),
    ]
    if camera_dir is not None:
        camera_dir.mkdir(parents=True, exist_ok=True)
        fifo = camera_dir / CAMERA_FIFO
        if fifo.exists():
            fifo.unlink()
        os.mkfifo(fifo)
        command += ["--camera-out", str(fifo), "--camera-discs", str(camera_dir / CAMERA_DISCS)]
    env = {**os.environ, "SMARTMAT_MQTT_URL": broker}  # not on the command line, where `ps` shows it
    process = subprocess.Popen(command, stdout=subprocess.PIPE, env=env, text=True)
    stack.callback(_stopper(process))
    assert process.stdout is not None
    port = process.stdout.readline().strip()
    if not port:
        raise SystemExit(f"smartmat: the simulated mat did not start (exit code {process.poll()})")
    return port


def start_camera_process(stack: ExitStack, table_id: str, camera_dir: Path, broker: str) -> None:
    """``smartmat camera run`` on the simulated mat's rendered frames, as a table's camera process."""
    discs = camera_dir / CAMERA_DISCS
    deadline = time.monotonic() + 30
    while not discs.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    command = [
        *(sys.executable, "-m", "service.cli", "camera", "run", "--table-id", table_id),
        *("--source", f"pipe:{camera_dir / CAMERA_FIFO}", "--discs", str(discs)),
        *("--clock", "host", "--fps", "60", "--readout-us", "4000"),
    ]
    env = {**os.environ, "SMARTMAT_CAMERA_MQTT_URL": broker}
    stack.callback(_stopper(subprocess.Popen(command, env=env)))


def _stopper(process: subprocess.Popen[str] | subprocess.Popen[bytes]) -> Callable[[], None]:
    def stop() -> None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()

    return stop


def run_simulation(args: argparse.Namespace) -> int:
    from service.simulator.table import SimulatedTable
    from service.table.config import load_table

    table = load_table(args.table)
    with SimulatedTable(table, args.broker, seed=args.seed, play=not args.no_players) as sim:
        camera = _film(sim, table, args) if args.camera_out else None
        print(sim.port, flush=True)
        wait_until_stopped(args.seconds)
        if camera is not None:
            camera.stop()
    return 0


def _film(sim: SimulatedTable, table: TableConfig, args: argparse.Namespace) -> SimulatedCamera:
    """The simulated mat's camera (the camera extra), with the discs file for the camera process."""
    from service.camera.discs import discs_to_yaml
    from service.camera.layout import MatLayout, default_looks
    from service.simulator.sim_camera import SimulatedCamera
    from service.table.games import piece_classes

    classes = piece_classes(table.ruleset)
    pieces = {
        entry.piece: (entry.piece_class.split("-")[0], classes[entry.piece_class].radius_mm)
        for entry in table.registry.pieces
        if entry.piece_class in classes
    }
    looks = default_looks(pieces)
    Path(args.camera_discs).write_text(discs_to_yaml(looks), encoding="utf-8")
    mat = sim.mat
    offset_us = round(sim.board.epoch_s * 1e6)
    camera = SimulatedCamera(Path(args.camera_out), MatLayout(mat.width_mm, mat.height_mm), looks, offset_us)
    sim.film_with(camera.start())
    return camera
