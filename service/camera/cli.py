"""``smartmat camera watch``: a camera's frames read into disc places, frame by frame (docs/camera.md).

It is the camera process of a table: it maps the mat, finds and follows every disc of ``--discs`` (the
enrolled disc set, whose discs' markers ``smartmat enrol markers`` recorded, or the camera's own discs file)
and prints each frame's places as one JSON line on standard output, with its health (frames read and lost, the
mapping's error, bumps, the discs not seen) on standard error, so a referee sees on the day whether the camera
sees the mat and every enrolled disc (``--check``). Needs the ``camera`` extra.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def register_cli(subparsers: Any) -> None:
    camera = subparsers.add_parser(
        "camera", help="an overhead camera: frames in, disc places out (docs/camera.md)"
    )
    sub = camera.add_subparsers(dest="camera_command", metavar="COMMAND")
    camera.camera_subparsers = sub  # the simulator adds `smartmat camera render`
    watch = sub.add_parser(
        "watch",
        help="read a camera or a recording and print every frame's disc places (JSON lines)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    watch.add_argument(
        "--source",
        required=True,
        help="picamera2[:WxH@FPS], v4l2:N, /dev/videoN, dir:PATH, video:PATH or pipe:PATH (pipe:- for stdin)",
    )
    watch.add_argument(
        "--discs",
        required=True,
        type=Path,
        help="the enrolled disc set (sets/<name>.yaml, with its discs' markers) or the camera's discs file "
        "(service/camera/discs.py)",
    )
    watch.add_argument(
        "--mat", type=Path, help="the mat's hardware file (default: content/hardware/mat.yaml)"
    )
    watch.add_argument("--fps", type=float, default=120.0, help="the camera's frame rate")
    watch.add_argument(
        "--lens-height-mm",
        type=float,
        default=0.0,
        help="the camera's lens above the mat (a tape's measure): discs' tops are then placed where the "
        "discs stand, not a little outwards from the point under the lens (0: not corrected)",
    )
    watch.add_argument(
        "--readout-us", type=int, default=0, help="rolling-shutter readout, µs (0: global shutter)"
    )
    watch.add_argument(
        "--frames", type=int, default=0, help="stop after this many frames (0: until the source ends)"
    )
    watch.add_argument(
        "--check",
        action="store_true",
        help="set-up check: exit 1 unless the mat is mapped and every disc seen",
    )
    watch.add_argument("--quiet", action="store_true", help="no JSON lines, only the health report")
    # read_looks: the discs file's reader; the camera process's commands make it take a set file too (the set
    # files belong to the table, a layer above this one).
    watch.set_defaults(func=_watch, read_looks=None)
    camera.set_defaults(func=lambda args: camera.print_help() or 2)


def _watch(args: argparse.Namespace) -> int:
    try:
        from service.camera.capture import CaptureError, open_source
        from service.camera.discs import read_discs
        from service.camera.layout import MatLayout
        from service.camera.pipeline import CameraPipeline, CameraSettings
    except ImportError as error:
        print(
            f"smartmat camera needs the camera extra (pip install -e '.[camera]'): {error}", file=sys.stderr
        )
        return 2
    from service.mat.geometry import load_mat

    try:
        looks = (args.read_looks or read_discs)(args.discs)
        mat = load_mat(args.mat) if args.mat else load_mat()
        source = open_source(args.source)
    except (ValueError, CaptureError) as error:  # a discs, set or mat file's mistake, named; a bad source
        print(f"smartmat camera: {error}", file=sys.stderr)
        return 2
    if not any(look.marker_id is not None for look in looks.values()):
        print(
            f"smartmat camera: no disc of {args.discs} has a marker: each is found by its colour and size "
            "only (record the markers: smartmat enrol markers)",
            file=sys.stderr,
        )
    pipeline = CameraPipeline(
        MatLayout(mat.width_mm, mat.height_mm),
        looks,
        CameraSettings(fps=args.fps, readout_us=args.readout_us, camera_height_mm=args.lens_height_mm),
    )
    report = _Report(set(looks))
    started = time.monotonic()
    try:
        while (frame := source.read()) is not None:
            result = pipeline.process(frame)
            report.add(result)
            if not args.quiet:
                line: dict[str, Any] = {"i": result.index, "t_us": result.t_us, "mapped": result.mapped}
                line["places"] = {
                    p: [round(x, 2), round(y, 2)] for p, (x, y) in sorted(result.places.items())
                }
                if result.problem:
                    line["problem"] = result.problem
                print(json.dumps(line), flush=True)
            if args.frames and report.frames >= args.frames:
                break
    except CaptureError as error:
        print(f"smartmat camera: {error}", file=sys.stderr)
        return 1
    finally:
        source.close()
    mapping = pipeline.watch.mapping if pipeline.watch else None
    print(report.describe(mapping, time.monotonic() - started), file=sys.stderr)
    if args.check:
        return 0 if mapping is not None and not report.unseen() else 1
    return 0


class _Report:
    def __init__(self, discs: set[str]) -> None:
        self.discs = discs
        self.frames = self.unmapped = self.skipped = 0
        self.seen: set[str] = set()
        self.last_index: int | None = None
        self.problems: list[str] = []
        self.cpu_s = 0.0

    def add(self, result: Any) -> None:
        self.frames += 1
        self.cpu_s += result.cpu_s
        if self.last_index is not None and result.index > self.last_index + 1:
            self.skipped += result.index - self.last_index - 1
        self.last_index = result.index
        self.unmapped += not result.mapped
        self.seen |= set(result.places)
        if result.problem and result.problem not in self.problems:
            self.problems.append(result.problem)

    def unseen(self) -> list[str]:
        return sorted(self.discs - self.seen)

    def describe(self, mapping: Any, wall_s: float) -> str:
        lines = [
            f"frames read: {self.frames} (the source skipped {self.skipped}; "
            f"the mat not mapped in {self.unmapped})",
            f"CPU per frame: {1000 * self.cpu_s / max(self.frames, 1):.1f} ms",
        ]
        if mapping is None:
            lines.append("the mat was never mapped: " + (self.problems[-1] if self.problems else "no frames"))
        else:
            lines.append(
                f"the mat mapped from {mapping.fiducials_seen} fiducials, error {mapping.error_mm:.2f} mm "
                f"(lens k1 {mapping.k1:+.3f})"
            )
        unseen = self.unseen()
        lines.append("every disc seen" if not unseen else f"discs never seen: {', '.join(unseen)}")
        lines += [f"note: {p}" for p in self.problems]
        return "\n".join(lines)
