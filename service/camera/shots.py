"""A shot's frames cut into the trace's ``camera`` block (service/mat/camera_trace.py).

Frame 0 is the last frame at or before the flick (its time on the board's clock is ``start_us``) and carries
each disc's place before the shot: its mean over the still frames before the flick. Later frames are numbered
by their time, so a frame the camera lost is a number missing. Like the sensor study's tracker, the record has
the path of the flicked disc and of every disc that moved past the threshold, and every other disc's mean.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from service.camera.frames import FrameResult
from service.mat.camera_trace import CameraRecord, CameraTrack

PRE_SHOT_FRAMES = 10
SMOOTHING_FRAMES = 3
THRESHOLD_SIGMAS = 5.0
MIN_THRESHOLD_MM = 1.5


class CutError(Exception):
    """The camera has no usable frames for this shot; the message says why in words."""


def cut_shot(
    results: Sequence[FrameResult],
    *,
    flicked: str,
    start_cam_us: float,
    end_cam_us: float,
    offset_us: float,
    fps: float,
    sigma_mm: float,
) -> CameraRecord:
    """The ``camera`` block of the shot from ``start_cam_us`` to ``end_cam_us`` (camera clock); ``offset_us``
    is the camera's clock minus the board's."""
    period = 1e6 / fps
    mapped = [r for r in results if r.mapped]
    before = [r for r in mapped if r.t_us <= start_cam_us][-PRE_SHOT_FRAMES:]
    if not before:
        raise CutError("the camera had no frame of the mat before the flick")
    t0 = before[-1].t_us
    if start_cam_us - t0 > 3 * period:
        raise CutError(
            f"the camera's last frame before the flick was {(start_cam_us - t0) / 1000:.0f} ms earlier"
        )
    during: dict[int, FrameResult] = {}
    for r in mapped:
        if t0 < r.t_us <= end_cam_us:
            during.setdefault(round((r.t_us - t0) / period), r)
    last = max(during, default=0)
    home: dict[str, tuple[float, float]] = {}
    noise: list[float] = []
    for piece in sorted({p for r in before for p in r.places}):
        # Its marker's places where it was read: a colour blob half under the flicking finger is off-centre.
        by_marker = [r.places[piece] for r in before if piece in r.by_marker]
        pts = by_marker or [r.places[piece] for r in before if piece in r.places]
        hx, hy = statistics.fmean(x for x, _ in pts), statistics.fmean(y for _, y in pts)
        home[piece] = (hx, hy)
        noise += [x - hx for x, _ in pts]
    sigma = statistics.pstdev(noise) if len(noise) > 1 else sigma_mm
    threshold = max(MIN_THRESHOLD_MM, THRESHOLD_SIGMAS * sigma / math.sqrt(SMOOTHING_FRAMES))
    pieces = sorted(set(home) | {p for r in during.values() for p in r.places})
    tracks, still = [], []
    for piece in pieces:
        points = [(k, *during[k].places[piece]) for k in sorted(during) if piece in during[k].places]
        start = home.get(piece)
        if start is None and not points:
            continue
        if piece == flicked or start is None or _moved(points, start, threshold):
            head = ((0, *start),) if start is not None else ()
            tracks.append(CameraTrack(piece, head + tuple(points)))
        else:
            xs = [start[0]] + [x for _, x, _ in points]
            ys = [start[1]] + [y for _, _, y in points]
            still.append((piece, statistics.fmean(xs), statistics.fmean(ys)))
    return CameraRecord(
        fps=fps,
        sigma_mm=sigma_mm,
        start_us=round(t0 - offset_us),
        frames=last + 1,
        tracks=tuple(tracks),
        still=tuple(still),
    )


def _moved(points: list[tuple[int, float, float]], home: tuple[float, float], threshold: float) -> bool:
    n = SMOOTHING_FRAMES
    for i in range(len(points) - n + 1):
        window = points[i : i + n]
        mx = sum(x for _, x, _ in window) / n
        my = sum(y for _, _, y in window) / n
        if math.hypot(mx - home[0], my - home[1]) > threshold:
            return True
    return False
