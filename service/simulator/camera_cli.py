"""``smartmat camera render``: a rendered camera feed of simulated shots, through the frame interface.

It plays shots on the simulated mat, films them (camera_render.py) and writes the frames where a real
camera's would come from: a folder (``dir:PATH``) or a pipe (``pipe:PATH``, ``pipe:-`` for standard output),
with the discs file a camera process needs (``--discs-out``). ``smartmat camera watch`` reads it like any
camera: ``smartmat camera render --out pipe:- --discs-out d.yaml | smartmat camera watch --source pipe:-
--discs d.yaml``. Needs the ``camera`` extra.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path
from typing import Any


def register_cli(subparsers: Any) -> None:
    camera = subparsers.choices.get("camera")
    if camera is None or not hasattr(camera, "camera_subparsers"):
        return
    render = camera.camera_subparsers.add_parser(
        "render",
        help="film simulated shots and write the frames to a folder or a pipe (a camera for tests and demos)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    render.add_argument("--out", required=True, help="dir:PATH, pipe:PATH or pipe:- (standard output)")
    render.add_argument("--discs-out", type=Path, required=True, help="write the discs file here")
    render.add_argument("--shots", type=int, default=3)
    render.add_argument("--seed", type=int, default=1)
    render.add_argument("--width", type=int, default=1152)
    render.add_argument("--height", type=int, default=864)
    render.set_defaults(func=_render)


def _render(args: argparse.Namespace) -> int:
    try:
        from service.camera.capture import Frame, write_directory, write_raw_frame
        from service.simulator.camera_render import CameraRenderer, RenderSettings
    except ImportError as error:
        print(
            f"smartmat camera render needs the camera extra (pip install -e '.[camera]'): {error}",
            file=sys.stderr,
        )
        return 2
    from service.camera.discs import discs_to_yaml
    from service.camera.layout import MatLayout, default_looks
    from service.simulator.shot_lab import SETTLE_US, ShotLab

    kind, _, where = args.out.partition(":")
    if kind not in ("dir", "pipe") or not where:
        print(
            f"smartmat camera render: --out {args.out!r}: expected dir:PATH, pipe:PATH or pipe:-",
            file=sys.stderr,
        )
        return 2
    rng = random.Random(args.seed)
    lab = ShotLab(seed=args.seed)
    lab.world.frame_period_s = 1 / 1000
    room = [
        ("hero-1", "hero", 200, 300),
        ("orc-1", "monster-medium", 420, 310),
        ("orc-2", "monster-medium", 560, 200),
        ("troll-1", "monster-large", 650, 450),
    ]
    for piece, cls, x, y in room:
        lab.place(piece, cls, x, y, side="monsters", kind=cls.split("-")[0])
    looks = default_looks({p: (s.kind, s.radius_mm) for p, s in lab.specs.items()})
    args.discs_out.write_text(discs_to_yaml(looks), encoding="utf-8")
    renderer = CameraRenderer(
        MatLayout(lab.mat.width_mm, lab.mat.height_mm),
        looks,
        RenderSettings(width=args.width, height=args.height, seed=args.seed),
    )
    stream = sys.stdout.buffer if where == "-" else (open(where, "wb") if kind == "pipe" else None)  # noqa: SIM115
    kept: list[Frame] = []
    try:
        for _ in range(args.shots):
            movable = [p for p in lab.specs if not lab.world.off_table(p)]
            piece = rng.choice(movable)
            shot = lab.shoot(piece, rng.uniform(0, 2 * math.pi), rng.uniform(300.0, 1800.0))
            start = (
                shot.trace.post.t_us
                - lab.sensors.scan_duration_us
                - SETTLE_US
                - round(shot.truth.duration_s * 1e6)
            )
            for rf in renderer.film_shot(shot.truth, start):
                if stream is not None:
                    write_raw_frame(stream, rf.frame.t_us, rf.frame.image)
                else:
                    kept.append(rf.frame)
    except BrokenPipeError:
        return 0  # the reader stopped first
    finally:
        if stream is not None and where != "-":
            stream.close()
    if kind == "dir":
        write_directory(Path(where), kept)
    return 0
