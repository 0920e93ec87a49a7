"""An overhead camera's view of one shot, as a trace carries it (docs/trace-format.md, ``camera``).

The camera's tracker reports the path of every piece that moved past its motion threshold, frame by frame,
and for every other piece one position averaged over the shot. Frame 0 is the flick's start; the tracker's
frame-0 position is the piece's place before the shot. Frames the camera lost, or where a hand hid a piece,
are simply absent from that piece's path.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

Fail = Callable[[str, str], Exception]


@dataclass(frozen=True)
class CameraTrack:
    piece: str
    points: tuple[tuple[int, float, float], ...]  # (frame, x_mm, y_mm), frames increasing


@dataclass(frozen=True)
class CameraRecord:
    fps: float
    sigma_mm: float  # per axis and frame, as the camera states it
    start_us: int  # frame 0 on the board's clock
    frames: int  # frames the shot lasted, from 0 to frames - 1
    tracks: tuple[CameraTrack, ...]
    still: tuple[tuple[str, float, float], ...]  # (piece, x_mm, y_mm): pieces the tracker saw stay put

    def track(self, piece: str) -> CameraTrack | None:
        return next((t for t in self.tracks if t.piece == piece), None)


def camera_to_json(record: CameraRecord) -> dict[str, Any]:
    return {
        "fps": record.fps,
        "sigma_mm": record.sigma_mm,
        "start_us": record.start_us,
        "frames": record.frames,
        "tracks": {t.piece: [[k, round(x, 2), round(y, 2)] for k, x, y in t.points] for t in record.tracks},
        "still": {p: [round(x, 2), round(y, 2)] for p, x, y in record.still},
    }


def camera_from_json(data: Any, names: Collection[str], fail: Fail) -> CameraRecord:
    """Read a trace's ``camera``; ``fail(key, problem)`` makes the error that names the key."""
    if not isinstance(data, dict):
        raise fail("camera", "expected an object")

    def number(key: str, *, positive: bool = True) -> float:
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise fail(f"camera.{key}", f"expected a number, got {value!r}")
        if positive and value <= 0:
            raise fail(f"camera.{key}", f"must be positive, got {value!r}")
        return float(value)

    def integer(key: str) -> int:
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"camera.{key}", f"expected an integer, got {value!r}")
        return value

    fps, sigma, start, frames = number("fps"), number("sigma_mm"), integer("start_us"), integer("frames")
    if frames < 1:
        raise fail("camera.frames", f"must be at least 1, got {frames}")
    tracks_data, still_data = data.get("tracks", {}), data.get("still", {})
    if not isinstance(tracks_data, dict):
        raise fail("camera.tracks", "expected an object of piece: [[frame, x_mm, y_mm], ...]")
    if not isinstance(still_data, dict):
        raise fail("camera.still", "expected an object of piece: [x_mm, y_mm]")
    tracks = []
    for piece, points in tracks_data.items():
        where = f"camera.tracks.{piece}"
        if piece not in names:
            raise fail(where, f"unknown piece {piece!r}")
        if not isinstance(points, list) or not points:
            raise fail(where, "expected a non-empty list of [frame, x_mm, y_mm]")
        read: list[tuple[int, float, float]] = []
        for i, point in enumerate(points):
            if (
                not isinstance(point, list)
                or len(point) != 3
                or isinstance(point[0], bool)
                or not isinstance(point[0], int)
                or not all(
                    isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                    for v in point[1:]
                )
            ):
                raise fail(f"{where}[{i}]", f"expected [frame, x_mm, y_mm], got {point!r}")
            frame = point[0]
            if not 0 <= frame < frames or (read and frame <= read[-1][0]):
                raise fail(f"{where}[{i}]", f"frame {frame} out of order or outside 0..{frames - 1}")
            read.append((frame, float(point[1]), float(point[2])))
        tracks.append(CameraTrack(piece, tuple(read)))
    still = []
    for piece, point in still_data.items():
        where = f"camera.still.{piece}"
        if piece not in names:
            raise fail(where, f"unknown piece {piece!r}")
        if piece in tracks_data:
            raise fail(where, "a piece cannot be both tracked and still")
        if (
            not isinstance(point, list)
            or len(point) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in point)
        ):
            raise fail(where, f"expected [x_mm, y_mm], got {point!r}")
        still.append((piece, float(point[0]), float(point[1])))
    return CameraRecord(fps, sigma, start, frames, tuple(tracks), tuple(still))
