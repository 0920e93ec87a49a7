"""The camera's paths of the pieces through a shot, and the plane geometry read from them (camera.py reads
who touched whom from these): where each piece was by frame, the camera's noise measured from the shot's own
frames, when and which way a piece set off, straight runs fitted through frames and how near they pass a spot.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from service.mat.camera_trace import CameraRecord

RADIUS_TOLERANCE_MM = 0.5  # a disc's real size against the catalogue's


MIN_NOISE_MM = 0.2


ONSET_FIT_FRAMES = 4  # frames after a piece sets off that fix when it set off


DIRECTION_FRAMES = 6  # ... and that fix which way it went


TIMING_FRAMES = 1.0  # a striker reaches the spot within this of the set-off (1 σ, in frames)


MAX_TIMING_FRAMES = 12.0


Point = tuple[float, float]


class Paths:
    """The camera's positions of each piece, by frame; a still piece is where the tracker saw it."""

    def __init__(self, camera: CameraRecord, relative_mm: float = 0.0) -> None:
        self.tracks = {t.piece: {k: (x, y) for k, x, y in t.points} for t in camera.tracks}
        self.still = {p: (x, y) for p, x, y in camera.still}
        # How uncertain two neighbouring discs' places are against each other beyond the frames' noise
        # (variance, mm²): the discs' real sizes against the catalogue's, and the lens's bias changing
        # between them (camera_quality.py).
        self.tolerance2 = 2 * RADIUS_TOLERANCE_MM**2 + relative_mm**2

    def at(self, piece: str, k: int) -> Point | None:
        if piece in self.still:
            return self.still[piece]
        return self.tracks.get(piece, {}).get(k)

    def noise(self, stated: float) -> float:
        """Per-axis noise from second differences of the tracks (a slide is nearly straight and even)."""
        diffs = []
        for points in self.tracks.values():
            for k, (x, y) in points.items():
                if k - 1 in points and k + 1 in points and k - 1 > 0:
                    (xa, ya), (xb, yb) = points[k - 1], points[k + 1]
                    diffs += [abs(xa - 2 * x + xb), abs(ya - 2 * y + yb)]
        if len(diffs) < 8:
            return max(stated, MIN_NOISE_MM)
        # Median absolute deviation of a second difference of white noise: 0.6745·σ·√6.
        return max(statistics.median(diffs) / (0.6745 * math.sqrt(6.0)), MIN_NOISE_MM)


def closest_approach(paths: Paths, a: str, b: str) -> float | None:
    """How near disc ``a``'s path, straight between the frames it was seen in, came to ``b``'s place."""
    best = None
    frames = sorted(paths.tracks[a])
    for k, j in zip(frames, frames[1:] or frames, strict=False):
        pa, pj, pb = paths.at(a, k), paths.at(a, j), paths.at(b, k)
        if pa is not None and pj is not None and pb is not None:
            d = segment_distance(pb, pa, pj)
            best = d if best is None else min(best, d)
    return best


@dataclass(frozen=True)
class SetOff:
    t_frames: float  # when it set off, in frames (fractional)
    direction: Point  # unit vector
    home: Point
    timing_frames: float = 1.0  # how uncertain ``t_frames`` is (1 σ): a slow start is hard to date
    direction_rad: float = 0.0  # how uncertain ``direction`` is (1 σ): a short move is hard to aim


def set_off_of(paths: Paths, piece: str, sigma: float) -> SetOff | None:
    """When and which way a piece set off from its place: the direction from its place to the mean of its
    first moving frames, and the time its distance along that direction left zero."""
    points = paths.tracks[piece]
    home = points.get(0)
    if home is None:
        return None
    moving = [k for k in sorted(points) if k > 0 and math.dist(points[k], home) > 4.0 * sigma + 0.5]
    if not moving:
        return None
    first = moving[0]
    early = [k for k in sorted(points) if first <= k < first + DIRECTION_FRAMES + 2][:DIRECTION_FRAMES]
    while True:
        mx = statistics.fmean(points[k][0] for k in early) - home[0]
        my = statistics.fmean(points[k][1] for k in early) - home[1]
        length = math.hypot(mx, my)
        if length < 1e-6:
            return None
        ux, uy = mx / length, my / length
        # Stop at a bend: a second contact soon after the first turns the piece.
        bent = max(abs(-(points[k][0] - home[0]) * uy + (points[k][1] - home[1]) * ux) for k in early)
        if len(early) <= 2 or bent <= 3.0 * sigma + 1.0:
            break
        early = early[:-1]
    direction_rad = sigma * math.sqrt(2.0 / len(early)) / length
    # The last frame that still shows it at home: it set off between that one and the first away.
    last_still = max(
        (k for k in points if k < first and math.dist(points[k], home) <= 2.0 * sigma + 0.3), default=0
    )
    fit = early[:ONSET_FIT_FRAMES]
    along = [((points[k][0] - home[0]) * ux + (points[k][1] - home[1]) * uy) for k in fit]
    v = 0.0
    if len(fit) >= 2:
        ks = [float(k) for k in fit]
        mean_k, mean_d = statistics.fmean(ks), statistics.fmean(along)
        var_k = sum((k - mean_k) ** 2 for k in ks)
        v = sum((k - mean_k) * (d - mean_d) for k, d in zip(ks, along, strict=True)) / var_k
    if v > 1e-6:
        # A slow piece creeps below the threshold for frames before the first one past it.
        t0 = min(max(mean_k - mean_d / v, float(last_still)), float(first))
        timing = math.hypot(TIMING_FRAMES, min(2.0 * sigma / v, (first - last_still) / 2))
    else:
        t0 = (last_still + first) / 2
        timing = math.hypot(TIMING_FRAMES, (first - last_still) / 2)
    return SetOff(t0, (ux, uy), home, min(timing, MAX_TIMING_FRAMES), direction_rad)


def straight_run(points: list[tuple[int, Point]]) -> tuple[Point, Point, float] | None:
    """Least-squares straight run through (frame, point)s: (a point on it at frame ``mean``, the velocity per
    frame, mean frame)."""
    if len(points) < 2:
        return None
    ks = [float(k) for k, _ in points]
    mean_k = statistics.fmean(ks)
    var_k = sum((k - mean_k) ** 2 for k in ks)
    if var_k == 0:
        return None
    mx = statistics.fmean(p[0] for _, p in points)
    my = statistics.fmean(p[1] for _, p in points)
    vx = sum((k - mean_k) * (p[0] - mx) for k, (_, p) in zip(ks, points, strict=True)) / var_k
    vy = sum((k - mean_k) * (p[1] - my) for k, (_, p) in zip(ks, points, strict=True)) / var_k
    return (mx, my), (vx, vy), mean_k


def where_at(before: list[tuple[int, Point]], after: list[tuple[int, Point]], t: float) -> Point | None:
    """Where a disc was at frame ``t``: its run-up carried on to ``t``, or its run on traced back to it."""
    for run_points in (before, after):
        run = straight_run(run_points)
        if run is not None:
            (mx, my), (vx, vy), mean_k = run
            return (mx + vx * (t - mean_k), my + vy * (t - mean_k))
    return None


def mean_point(points: list[tuple[int, Point]]) -> Point:
    """Where a disc stood, on average, over these frames."""
    return statistics.fmean(p[0] for _, p in points), statistics.fmean(p[1] for _, p in points)


def resting(points: list[tuple[int, Point]], sigma: float) -> bool:
    """Frames of a disc that did not move between them, as far as the camera's noise can tell: its first
    and last frames no further apart than the noise of two frames allows."""
    if len(points) < 2:
        return False
    return math.dist(points[0][1], points[-1][1]) < 3.0 * sigma + 0.5


def passes(run: tuple[Point, Point, float], spot: Point) -> tuple[float, float] | None:
    """How far a straight run passes from ``spot`` (mm) and at what frame it is nearest it."""
    (mx, my), (vx, vy), mean_k = run
    speed = math.hypot(vx, vy)
    if speed < 0.05:  # under 6 mm/s at 120 fps: not a run
        return None
    ux, uy = vx / speed, vy / speed
    along = (spot[0] - mx) * ux + (spot[1] - my) * uy
    across = abs(-(spot[0] - mx) * uy + (spot[1] - my) * ux)
    return across, mean_k + along / speed


def unbroken(frames: list[int], *, from_end: bool) -> list[int]:
    """The frames next to the pair, cut where frames are missing (a run is not traced across a gap)."""
    ordered = frames[::-1] if from_end else frames
    kept = ordered[:1]
    for k in ordered[1:]:
        if abs(k - kept[-1]) > 2:
            break
        kept.append(k)
    return kept[::-1] if from_end else kept


def heads_towards(run_points: list[tuple[int, Point]], start: Point, spot: Point) -> bool:
    """Whether a disc's first run from ``start`` leaves other than straight away from ``spot`` (~135°)."""
    run = straight_run(run_points)
    if run is None:
        return True
    _, (vx, vy), _ = run
    dx, dy = spot[0] - start[0], spot[1] - start[1]
    norm = math.hypot(vx, vy) * math.hypot(dx, dy)
    return norm == 0 or (vx * dx + vy * dy) / norm > -0.7


def segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    f = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + f * dx, a[1] + f * dy))


def normal_density(x: float, s: float) -> float:
    return math.exp(-0.5 * (x / s) ** 2) / (s * math.sqrt(2 * math.pi))


THROW_RAD = math.radians(6.0)  # how far off the line of centres friction between discs throws a struck piece


@dataclass(frozen=True)
class Strike:
    """A touch the frames surely show the flicked disc make: when, and where its centre stood then."""

    t_frames: float
    spot: Point
    spread_mm: float  # how uncertain ``spot`` is (1 σ)


def strike_of(set_off: SetOff, reach: float, sigma: float, paths: Paths) -> Strike:
    """Where the striker of a piece that set off stood: behind it on their line of centres, at ``reach``."""
    ux, uy = set_off.direction
    hx, hy = set_off.home
    aim = math.hypot(THROW_RAD, set_off.direction_rad)
    spread = math.sqrt(sigma**2 + paths.tolerance2 + (reach * aim) ** 2)
    return Strike(set_off.t_frames, (hx - reach * ux, hy - reach * uy), spread)


def path_through_strikes(
    strikes: list[Strike],
    start: tuple[int, Point],
    run_up: tuple[Point, Point, float] | None,
    run_on: tuple[Point, Point, float] | None,
    end: tuple[int, Point],
    sigma: float,
    straight_sigmas: float,
) -> list[tuple[Point, float]] | None:
    """The flicked disc's path across frames the camera lost, where it surely struck pieces in between: from
    where it was last seen, through each strike's spot in turn, to where it was seen again, each point with
    how uncertain it is beyond the frames' noise (mm). None unless its run-up carried on (or the flick's
    start, ``run_up`` None) meets the first spot and its run on traced back meets the last: then every turn
    it took unseen is one the frames date and place, and no other bounce fits."""
    (a, first), (b, last) = start, end
    inside = sorted((s for s in strikes if a - 0.5 <= s.t_frames <= b + 0.5), key=lambda s: s.t_frames)
    if not inside or run_on is None:
        return None
    for run, strike in ((run_up, inside[0]), (run_on, inside[-1])):
        if run is None:
            continue  # from the flick's start: it ran straight to its first strike
        passed = passes(run, strike.spot)
        if passed is None or passed[0] > straight_sigmas * math.hypot(sigma, strike.spread_mm):
            return None
    return [(first, 0.0), *((s.spot, s.spread_mm) for s in inside), (last, 0.0)]


def polyline_distance(p: Point, way: list[tuple[Point, float]]) -> tuple[float, float]:
    """How near a path of uncertain points passes ``p``, and how uncertain that is where it is nearest (the
    two ends' uncertainties interpolated)."""
    best = (math.inf, 0.0)
    for (a, sa), (b, sb) in zip(way, way[1:], strict=False):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length2 = dx * dx + dy * dy
        f = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
        d = math.dist(p, (a[0] + f * dx, a[1] + f * dy))
        if d < best[0]:
            best = (d, (1.0 - f) * sa + f * sb)
    return best
