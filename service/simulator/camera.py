"""An overhead camera and its tracker over the simulated mat (a sensor study: docs/sensor-model.md).

The world films each shot (``ShotRecord.frames``: every piece's true place at the frame times). This module
makes of it what a camera and a disc tracker would report: positions with the camera's own noise, its
registration error against the mat and a lens bias that varies smoothly across it, a moving disc's place
smeared back along its motion by the exposure, frames lost now and then, the flicked disc hidden under the
player's hand for the flick's first moment, two look-alike discs' labels exchanged after they pass close, a
clock that is not the board's, and only the pieces that moved past the tracker's threshold reported as
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
SMEAR_CENTROID_SHARE = 0.1  # how far off a smeared blob's centre the tracker lands, per mm of smear (1 σ)
SWAP_GAP_MM = (
    15.0  # two look-alike discs whose edges come this close (half a disc) may leave with each other's labels
)


# ``camera="typical"`` and ``camera="poor"``: what the study's camera lacks (exposure blur, a lens bias that
# varies across the mat, look-alike discs swapping labels, a clock that is not the board's, lower frame
# rates), each drawn per table from a wide range. "study" is the camera above, unchanged.
CAMERA_QUALITIES: dict[str, dict[str, tuple[float, float]]] = {
    "typical": {
        "fps": (90.0, 90.0),
        "sigma_mm": (0.3, 1.0),
        "exposure_s": (0.001, 0.004),
        "lens_bias_mm": (0.5, 2.0),  # the largest bias anywhere on the mat
        "offset_max_mm": (0.0, 1.5),
        "dropped_frames": (0.0, 0.05),
        "hand_s": (0.0, 0.06),
        "arm_share_of_shots": (0.0, 0.3),
        "swap_probability": (
            0.0,
            0.08,
        ),  # per close pass of look-alikes (~40 % of shots have one)
        "clock_offset_us": (-5000.0, 5000.0),
        "clock_jitter_us": (0.0, 1000.0),
    },
    "poor": {  # around an independent check's poor camera: 60 fps, 8 ms, 1.5 mm, 3 mm lens, 8 % lost
        "fps": (60.0, 60.0),
        "sigma_mm": (1.2, 1.8),
        "exposure_s": (0.006, 0.010),
        "lens_bias_mm": (2.0, 3.5),
        "offset_max_mm": (0.5, 1.5),
        "dropped_frames": (0.06, 0.10),
        "hand_s": (0.02, 0.06),
        "arm_share_of_shots": (0.25, 0.35),
        "swap_probability": (0.08, 0.15),
        "clock_offset_us": (-5000.0, 5000.0),
        "clock_jitter_us": (500.0, 2000.0),
    },
}
CAMERA_QUALITY_NAMES = ("study", *CAMERA_QUALITIES)


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
    fps: float | None = None  # the camera's real frame rate (None: the one it states)
    exposure_s: float = 0.0  # how long each frame's shutter is open: a moving disc is smeared over it
    # A lens bias that varies smoothly across the mat: (amplitude mm, direction rad, cycles per mm in x,
    # in y, phase rad) per wave; the bias at a place is the sum.
    lens_waves: tuple[tuple[float, float, float, float, float], ...] = ()
    swap_probability: float = 0.0  # two look-alike discs passing close exchange their labels this often
    clock_offset_us: float = 0.0  # the camera's clock against the board's
    clock_jitter_us: float = 0.0  # ... and how much each shot's frame 0 wanders around it (1 σ)

    def lens_bias(self, x: float, y: float) -> tuple[float, float]:
        bx = by = 0.0
        for amplitude, direction, fx, fy, phase in self.lens_waves:
            wave = amplitude * math.sin(2 * math.pi * (fx * x + fy * y) + phase)
            bx += wave * math.cos(direction)
            by += wave * math.sin(direction)
        return bx, by


def draw_lens_waves(
    rng: random.Random, max_bias_mm: float, waves: int = 3, period_mm: tuple[float, float] = (300.0, 1500.0)
) -> tuple[tuple[float, float, float, float, float], ...]:
    """A smooth lens bias field no larger than ``max_bias_mm`` anywhere (the waves' amplitudes sum to it)."""
    shares = [rng.random() + 0.2 for _ in range(waves)]
    drawn = []
    for share in shares:
        period = rng.uniform(*period_mm)
        heading = rng.uniform(0.0, math.pi)
        drawn.append(
            (
                max_bias_mm * share / sum(shares),
                rng.uniform(0.0, 2 * math.pi),
                math.cos(heading) / period,
                math.sin(heading) / period,
                rng.uniform(0.0, 2 * math.pi),
            )
        )
    return tuple(drawn)


def draw_camera(rng: random.Random, quality: str) -> CameraTruth:
    """A hidden table's camera of this quality (``CAMERA_QUALITIES``), drawn from its ranges."""
    if quality not in CAMERA_QUALITIES:
        raise ValueError(f"camera must be one of {', '.join(CAMERA_QUALITY_NAMES)}, not {quality!r}")
    ranges = CAMERA_QUALITIES[quality]

    def u(key: str) -> float:
        return rng.uniform(*ranges[key])

    offset = u("offset_max_mm")
    heading = rng.uniform(0.0, 2 * math.pi)
    return CameraTruth(
        sigma_mm=u("sigma_mm"),
        dropped_frames=u("dropped_frames"),
        hand_s=u("hand_s"),
        offset_mm=(offset * math.cos(heading), offset * math.sin(heading)),
        arm_probability=u("arm_share_of_shots"),
        fps=u("fps"),
        exposure_s=u("exposure_s"),
        lens_waves=draw_lens_waves(rng, u("lens_bias_mm")),
        swap_probability=u("swap_probability"),
        clock_offset_us=u("clock_offset_us"),
        clock_jitter_us=u("clock_jitter_us"),
    )


class CameraModel:
    def __init__(self, config: CameraConfig, truth: CameraTruth | None, seed: int) -> None:
        self.config = config
        self.truth = truth or CameraTruth(config.position_sigma_mm)
        self.rng = random.Random(seed)
        self.fps = self.truth.fps or config.fps

    def _seen(self, x: float, y: float) -> tuple[float, float]:
        t, g = self.truth, self.rng.gauss
        bx, by = t.lens_bias(x, y) if t.lens_waves else (0.0, 0.0)
        return (x + t.offset_mm[0] + bx + g(0.0, t.sigma_mm), y + t.offset_mm[1] + by + g(0.0, t.sigma_mm))

    def _exposed(
        self, now: tuple[float, float], before: tuple[float, float] | None, period: float
    ) -> tuple[float, float]:
        """Where the tracker finds a disc in a frame exposed for ``exposure_s`` up to its time: the centre of
        its smear, half the exposure back along its motion, found less surely along the smear's length."""
        exposure = min(self.truth.exposure_s, period)
        if exposure <= 0 or before is None:
            return now
        share = exposure / period
        dx, dy = now[0] - before[0], now[1] - before[1]
        smear = math.hypot(dx, dy) * share
        if smear < 1e-9:
            return now
        along = self.rng.gauss(0.0, SMEAR_CENTROID_SHARE * smear)
        ux, uy = dx / math.hypot(dx, dy), dy / math.hypot(dx, dy)
        back = share / 2
        return (now[0] - back * dx + along * ux, now[1] - back * dy + along * uy)

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

    def film(self, record: ShotRecord, start_us: int, looks: dict[str, float] | None = None) -> CameraRecord:
        """The camera's report of one shot (``record.frames`` must hold its frames). ``looks``: each disc's
        radius, mm: discs of one size look alike to the tracker and can swap labels."""
        period = 1.0 / self.fps
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
        label = {p: p for p in start}  # the tracker's name for each disc: look-alikes may swap
        passed: set[tuple[str, str]] = set()
        for k in range(1, last + 1):
            frame = by_frame.get(k)
            if frame is None:
                continue
            for a, b in self._swaps(frame, by_frame.get(k - 1), looks or {}, label, passed):
                record.camera_swaps.append((k, a, b))
            if k < last and self.rng.random() < self.truth.dropped_frames:
                continue
            previous = by_frame.get(k - 1, {})
            for piece, (x, y) in sorted(frame.items()):
                if piece not in seen:
                    continue  # a piece put on the mat during the shot is not one the tracker follows
                if piece == record.flicked and k * period < self.truth.hand_s:
                    continue
                if arm is not None and arm[2] <= k * period <= arm[3] and math.dist((x, y), arm[:2]) < arm[4]:
                    continue
                seen[label[piece]].append(
                    (k, *self._seen(*self._exposed((x, y), previous.get(piece), period)))
                )
        for points in seen.values():
            points.sort()
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
        clock = self.truth.clock_offset_us
        if self.truth.clock_jitter_us > 0:
            clock += self.rng.gauss(0.0, self.truth.clock_jitter_us)
        return CameraRecord(
            fps=self.fps,
            sigma_mm=self.config.position_sigma_mm,
            start_us=start_us + round(clock),
            frames=last + 1,
            tracks=tuple(tracks),
            still=tuple(still),
        )

    def _swaps(
        self,
        frame: dict[str, tuple[float, float]],
        previous: dict[str, tuple[float, float]] | None,
        looks: dict[str, float],
        label: dict[str, str],
        passed: set[tuple[str, str]],
    ) -> list[tuple[str, str]]:
        """Two look-alike discs whose edges come close, one of them moving, may leave with each other's
        labels (a tracker cannot tell them apart); each pair gets one chance per shot."""
        swapped: list[tuple[str, str]] = []
        if self.truth.swap_probability <= 0 or previous is None:
            return swapped
        moving = [p for p in frame if p in previous and p in label and math.dist(frame[p], previous[p]) > 0.3]
        for a in moving:
            for b in frame:
                pair = (min(a, b), max(a, b))
                alike = looks.get(a) is not None and looks.get(a) == looks.get(b)
                if b == a or b not in label or pair in passed or not alike:
                    continue
                if math.dist(frame[a], frame[b]) - 2 * looks[a] > SWAP_GAP_MM:
                    continue
                passed.add(pair)
                if self.rng.random() < self.truth.swap_probability:
                    label[a], label[b] = label[b], label[a]
                    swapped.append(pair)
        return swapped


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
