"""An overhead camera and its tracker over the simulated mat (a sensor study: docs/sensor-model.md).

The world films each shot (``ShotRecord.frames``: every piece's true place at the frame times). This module
makes of it what a camera and a disc tracker would report: positions with the camera's own noise and its
registration error against the mat, frames lost now and then, the flicked disc hidden under the player's
hand for the flick's first moment, and only the pieces that moved past the tracker's threshold reported as
paths. Its constants (``CameraTruth``) are a hidden table's, which attribution is not told.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass

from service.mat.camera_trace import CameraRecord, CameraTrack
from service.mat.geometry import CameraConfig
from service.simulator.table_edges import ShotRecord

PRE_SHOT_FRAMES = 10  # frames the tracker watches the still mat before the flick, to fix each piece's place
SMOOTHING_FRAMES = 3  # the tracker's running mean when it decides whether a piece has started to move
THRESHOLD_SIGMAS = 5.0  # ... and how far past its own noise that mean must go


@dataclass(frozen=True)
class CameraTruth:
    sigma_mm: float  # the camera's real noise per axis and frame
    dropped_frames: float = 0.0  # share of frames lost
    hand_s: float = 0.0  # the flicking hand hides the flicked disc this long
    offset_mm: tuple[float, float] = (0.0, 0.0)  # the camera's registration against the mat
    # A player's arm over the mat during a shot: how often, and the patch it hides (radius, mm) for how long.
    arm_probability: float = 0.0
    arm_radius_mm: tuple[float, float] = (60.0, 150.0)
    arm_s: tuple[float, float] = (0.05, 0.30)


class CameraModel:
    def __init__(self, config: CameraConfig, truth: CameraTruth | None, seed: int) -> None:
        self.config = config
        self.truth = truth or CameraTruth(config.position_sigma_mm)
        self.rng = random.Random(seed)

    def _seen(self, x: float, y: float) -> tuple[float, float]:
        t, g = self.truth, self.rng.gauss
        return (x + t.offset_mm[0] + g(0.0, t.sigma_mm), y + t.offset_mm[1] + g(0.0, t.sigma_mm))

    def _arm(self, record: ShotRecord, duration_s: float) -> tuple[float, float, float, float, float] | None:
        """(x, y, from s, to s, radius) of an arm over the mat during this shot, or None. It reaches in
        somewhere near the flicked disc's path, where players lean."""
        t = self.truth
        if self.rng.random() >= t.arm_probability:
            return None
        cx, cy = _shot_centre(record)
        x, y = cx + self.rng.gauss(0.0, 120.0), cy + self.rng.gauss(0.0, 120.0)
        start = self.rng.uniform(0.0, max(duration_s, 0.05))
        return (x, y, start, start + self.rng.uniform(*t.arm_s), self.rng.uniform(*t.arm_radius_mm))

    def film(self, record: ShotRecord, start_us: int) -> CameraRecord:
        """The camera's report of one shot (``record.frames`` must hold its frames)."""
        period = 1.0 / self.config.fps
        if not record.frames:
            raise ValueError("the shot was not filmed: set the world's frame_period_s")
        by_frame: dict[int, dict[str, tuple[float, float]]] = {}
        for t_s, places in record.frames:
            by_frame[round(t_s / period)] = places  # the end-of-shot frame may land on the last one
        last = max(by_frame)
        start = by_frame[0]
        # Before the flick: the tracker's place for every piece, and its own estimate of its noise.
        before = {p: [self._seen(*start[p]) for _ in range(PRE_SHOT_FRAMES)] for p in sorted(start)}
        home = {
            p: (statistics.fmean(x for x, _ in v), statistics.fmean(y for _, y in v))
            for p, v in before.items()
        }
        spread = [x - home[p][0] for p, v in before.items() for x, _ in v]
        noise = statistics.pstdev(spread) if len(spread) > 1 else self.config.position_sigma_mm
        threshold = max(
            self.config.motion_threshold_mm, THRESHOLD_SIGMAS * noise / math.sqrt(SMOOTHING_FRAMES)
        )
        seen: dict[str, list[tuple[int, float, float]]] = {p: [] for p in start}
        arm = self._arm(record, last * period)
        for k in range(1, last + 1):
            frame = by_frame.get(k)
            if frame is None or (k < last and self.rng.random() < self.truth.dropped_frames):
                continue
            for piece, (x, y) in sorted(frame.items()):
                if piece not in seen:
                    continue  # a piece put on the mat during the shot is not one the tracker follows
                if piece == record.flicked and k * period < self.truth.hand_s:
                    continue
                if arm is not None and arm[2] <= k * period <= arm[3] and math.dist((x, y), arm[:2]) < arm[4]:
                    continue
                seen[piece].append((k, *self._seen(x, y)))
        tracks, still = [], []
        for piece in sorted(start):
            points = seen[piece]
            hx, hy = home[piece]
            fell = last in by_frame and piece not in by_frame[last]
            if piece == record.flicked or fell or _moved(points, hx, hy, threshold):
                tracks.append(CameraTrack(piece, ((0, hx, hy), *points)))
            else:
                xs = [hx] + [x for _, x, _ in points]
                ys = [hy] + [y for _, _, y in points]
                still.append((piece, statistics.fmean(xs), statistics.fmean(ys)))
        return CameraRecord(
            fps=self.config.fps,
            sigma_mm=self.config.position_sigma_mm,
            start_us=start_us,
            frames=last + 1,
            tracks=tuple(tracks),
            still=tuple(still),
        )


def _shot_centre(record: ShotRecord) -> tuple[float, float]:
    xs = [x for _, x, _ in record.path] or [record.flick_at[0]]
    ys = [y for _, _, y in record.path] or [record.flick_at[1]]
    return statistics.fmean(xs), statistics.fmean(ys)


def _moved(points: list[tuple[int, float, float]], hx: float, hy: float, threshold: float) -> bool:
    n = SMOOTHING_FRAMES
    for i in range(len(points) - n + 1):
        window = points[i : i + n]
        mx = sum(x for _, x, _ in window) / n
        my = sum(y for _, _, y in window) / n
        if math.hypot(mx - hx, my - hy) > threshold:
            return True
    return False
