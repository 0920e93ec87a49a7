"""An overhead camera's view of one shot, as a trace carries it (docs/trace-format.md, ``camera``).

The camera's tracker reports the path of every piece that moved past its motion threshold, frame by frame,
and for every other piece one position averaged over the shot. Frame 0 is the flick's start; the tracker's
frame-0 position is the piece's place before the shot. Frames the camera lost, or where a hand hid a piece,
are simply absent from that piece's path.
"""

from __future__ import annotations

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


def camera_from_json(data: dict[str, Any], names: Collection[str], fail: Fail) -> CameraRecord:
    """Read a trace's ``camera``, whose shape the trace's schema has checked (service/mat/schemas/
    trace.schema.json, ``$defs/camera``); what it cannot say is checked here: every piece is one of the
    trace's, tracked or still but not both, its frames in order within the shot. ``fail(key, problem)`` makes
    the error that names the key."""
    frames: int = data["frames"]
    tracks_data: dict[str, Any] = data.get("tracks", {})
    still_data: dict[str, Any] = data.get("still", {})
    tracks = []
    for piece, points in tracks_data.items():
        where = f"camera.tracks.{piece}"
        if piece not in names:
            raise fail(where, f"unknown piece {piece!r}")
        read: list[tuple[int, float, float]] = []
        for i, (frame, x, y) in enumerate(points):
            if not 0 <= frame < frames or (read and frame <= read[-1][0]):
                raise fail(f"{where}[{i}]", f"frame {frame} out of order or outside 0..{frames - 1}")
            read.append((frame, float(x), float(y)))
        tracks.append(CameraTrack(piece, tuple(read)))
    still = []
    for piece, (x, y) in still_data.items():
        where = f"camera.still.{piece}"
        if piece not in names:
            raise fail(where, f"unknown piece {piece!r}")
        if piece in tracks_data:
            raise fail(where, "a piece cannot be both tracked and still")
        still.append((piece, float(x), float(y)))
    return CameraRecord(
        float(data["fps"]), float(data["sigma_mm"]), data["start_us"], frames, tuple(tracks), tuple(still)
    )
