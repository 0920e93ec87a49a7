"""Who the flicked disc touched, read from an overhead camera's frames (docs/attribution.md, "An overhead
camera").

The frames show the shot itself, so no physics model is needed to read them, only two facts of contact
mechanics that hold on any mat: a piece at rest starts moving only when a moving disc reaches it, and it sets
off along the line between the two centres. So for every piece that moved, the reading finds when and in
which direction it set off, and which moving disc stood against it then, travelling on from where the
frames last saw it before that moment. A piece that the camera saw stay put can only have been touched
softly; the reading then asks how close the flicked disc came to rest against it. The camera's noise is
measured from the shot's own frames (a smooth slide's second differences), not taken from its data sheet.

Each piece gets a probability of a direct touch with the evidence in words. The probabilities are
likelihoods of the frames, combined with the physics posterior in ``fuse`` (infer.py), so a shot the frames
leave open is still weighed by what the piezos heard and where the scans found the pieces.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from service.mat.camera_trace import CameraRecord
from service.mat.trace import ShotTrace

from .model import COVER_KINDS

RADIUS_TOLERANCE_MM = 0.5  # a disc's real size against the catalogue's
MIN_NOISE_MM = 0.2
ONSET_FIT_FRAMES = 4  # frames after a piece sets off that fix when it set off
DIRECTION_FRAMES = 6  # ... and that fix which way it went
STRIKER_LOOKBACK_FRAMES = 3  # frames before the set-off that say where a striker was heading
THROW_DEG = 6.0  # how far off the line of centres friction between discs throws a struck piece (1 σ)
TIMING_FRAMES = 1.0  # a striker reaches the spot within this of the set-off (1 σ, in frames)
MAX_TIMING_FRAMES = 12.0
DEFLECTED_SHARE = 0.05  # struck pieces deflected at once (by a piece they rested against) off the line
NO_STRIKER_DENSITY = 1e-5  # likelihood of the set-off under "no disc the camera saw started it" (a hand)
STOP_SHORT_PER_MM = 1.0  # a disc stopping short of a still piece: odds per mm of gap against a soft touch
TOUCH_REBOUND_MM = 0.5  # how far a disc that touched a still piece typically rests from it
TOUCH_REBOUND_SPREAD_MM = 0.7
MIN_TRACE_BACK_MM = 10.0  # a run on must span this across missing frames to show where it came from
HIDDEN_BOUNCE_MM = 2.0  # how uncertain a bounce is that the frames did not see
THROUGH_MM = 3.0  # a path traced this far into a piece that stayed put did not run straight
STRAIGHT_SIGMAS = 4.0  # a run on that misses the frame before by more than this many σ turned unseen
HIDDEN_PATH = -math.inf  # marks a touch the frames cannot rule in or out: the disc's path was unseen
HIDDEN_PATH_TOUCH = 0.25  # ... and the chance given to it
FAR_MM = 25.0  # beyond this closest approach the flicked disc did not touch the piece
EDGE_MM = 60.0  # a disc last seen this near the mat's edge may have left the table


@dataclass(frozen=True)
class TouchReading:
    piece: str
    probability: float  # that the flicked disc touched it directly
    evidence: str  # what the frames show, in words

    @property
    def sure(self) -> bool:
        return self.probability <= SURE_NO or self.probability >= SURE_YES


SURE_NO, SURE_YES = 0.01, 0.99
# Between these the camera's doubt is real: on the dev sets about one such reading in three was a touch
# (outside them, none of 92 below and none of 40 above), so the physics alone may not settle it.
DOUBT_LOW, DOUBT_HIGH = 0.05, 0.9


Point = tuple[float, float]


class _Paths:
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


def camera_touches(
    trace: ShotTrace, relative_mm: float = 0.0, noise_floor_mm: float = 0.0
) -> dict[str, TouchReading]:
    """For each piece the flicked disc could have touched, the chance it did and why; pieces it never came
    near are left out (their chance is nil). ``relative_mm``: how far off the camera may be about two
    neighbouring discs beyond its noise (its lens); ``noise_floor_mm``: the least noise the table's camera
    has shown (a shot with few moving frames measures its own noise poorly)."""
    camera = trace.camera
    if camera is None:
        return {}
    flicked = trace.declaration.flicked
    paths = _Paths(camera, relative_mm)
    if flicked not in paths.tracks:
        return {}
    sigma = max(paths.noise(camera.sigma_mm), noise_floor_mm)
    readings: dict[str, TouchReading] = {}
    # Covers (ice) ride on their host: they neither strike nor are struck on the mat.
    radius = {p.piece: p.radius_mm for p in trace.pieces if p.kind not in COVER_KINDS}
    set_offs = {p: _set_off(paths, p, sigma) for p in paths.tracks if p != flicked and p in radius}
    for piece, set_off in set_offs.items():
        if set_off is not None:
            # Whatever set it off, even under the flicking hand where the flicked disc was not seen.
            readings[piece] = _moved_piece(paths, flicked, piece, set_off, radius, sigma, set_offs)
    # When the flicked disc surely struck these, it bounced off them: no unseen bounce to account for.
    bounces = [set_offs[p].t_frames for p, r in readings.items() if r.probability >= SURE_YES]  # type: ignore[union-attr]
    for piece in sorted(paths.tracks.keys() | paths.still.keys()):
        if piece == flicked or piece not in radius or piece in readings:
            continue
        reach = radius[flicked] + radius[piece]
        closest = _closest_approach(paths, flicked, piece)
        if closest is None or closest - reach > FAR_MM:
            continue
        # Still, or moved too little for a direction: judged as a piece that stayed put, at home.
        home = paths.still.get(piece) or paths.tracks[piece].get(0)
        if home is None:
            continue
        readings[piece] = _still_piece(paths, flicked, piece, home, reach, sigma, bounces)
    return dict(sorted(readings.items()))


def frame_facts(trace: ShotTrace) -> tuple[float, dict[str, float]]:
    """What a shot's frames say about the camera itself: its noise (mm, per axis and frame) and when each
    piece that moved set off (frames after frame 0), to weigh the camera by (camera_quality.py)."""
    camera = trace.camera
    if camera is None:
        return 0.0, {}
    paths = _Paths(camera)
    sigma = paths.noise(camera.sigma_mm)
    set_offs = {}
    for piece in paths.tracks:
        set_off = _set_off(paths, piece, sigma)
        if set_off is not None:
            set_offs[piece] = set_off.t_frames
    return sigma, set_offs


def flicked_disc_lost(trace: ShotTrace) -> bool:
    """Whether the frames lose the flicked disc before the shot ends, away from the mat's edge (where it
    could have left the table): what it did after that, the camera cannot say."""
    camera = trace.camera
    if camera is None:
        return True
    track = camera.track(trace.declaration.flicked)
    if track is None:
        return True
    last_frame, x, y = track.points[-1]
    if last_frame >= camera.frames - 1:
        return False
    # It may have left the table: last seen near the edge, running towards it.
    mat = trace.mat
    if len(track.points) < 3 or min(x, y, mat.width_mm - x, mat.height_mm - y) > EDGE_MM:
        return True
    (_, xa, ya), (_, xb, yb) = track.points[-2], track.points[-1]
    vx, vy = xb - xa, yb - ya
    heading_out = (
        (x < EDGE_MM and vx < 0)
        or (y < EDGE_MM and vy < 0)
        or (x > mat.width_mm - EDGE_MM and vx > 0)
        or (y > mat.height_mm - EDGE_MM and vy > 0)
    )
    return not heading_out


def _closest_approach(paths: _Paths, a: str, b: str) -> float | None:
    """How near disc ``a``'s path, straight between the frames it was seen in, came to ``b``'s place."""
    best = None
    frames = sorted(paths.tracks[a])
    for k, j in zip(frames, frames[1:] or frames, strict=False):
        pa, pj, pb = paths.at(a, k), paths.at(a, j), paths.at(b, k)
        if pa is not None and pj is not None and pb is not None:
            d = _segment_distance(pb, pa, pj)
            best = d if best is None else min(best, d)
    return best


# ---- a piece that moved ----
@dataclass(frozen=True)
class _SetOff:
    t_frames: float  # when it set off, in frames (fractional)
    direction: Point  # unit vector
    home: Point
    timing_frames: float = 1.0  # how uncertain ``t_frames`` is (1 σ): a slow start is hard to date
    direction_rad: float = 0.0  # how uncertain ``direction`` is (1 σ): a short move is hard to aim


def _set_off(paths: _Paths, piece: str, sigma: float) -> _SetOff | None:
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
    return _SetOff(t0, (ux, uy), home, min(timing, MAX_TIMING_FRAMES), direction_rad)


def _line(points: list[tuple[int, Point]]) -> tuple[Point, Point, float] | None:
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


def _where_at(before: list[tuple[int, Point]], after: list[tuple[int, Point]], t: float) -> Point | None:
    """Where a disc was at frame ``t``: its run-up carried on to ``t``, or its run on traced back to it."""
    for run_points in (before, after):
        run = _line(run_points)
        if run is not None:
            (mx, my), (vx, vy), mean_k = run
            return (mx + vx * (t - mean_k), my + vy * (t - mean_k))
    return None


def _mean(points: list[tuple[int, Point]]) -> Point:
    """Where a disc stood, on average, over these frames."""
    return statistics.fmean(p[0] for _, p in points), statistics.fmean(p[1] for _, p in points)


def _resting(points: list[tuple[int, Point]], sigma: float) -> bool:
    """Frames of a disc that did not move between them, as far as the camera's noise can tell: its first
    and last frames no further apart than the noise of two frames allows."""
    if len(points) < 2:
        return False
    return math.dist(points[0][1], points[-1][1]) < 3.0 * sigma + 0.5


def _passes(run: tuple[Point, Point, float], spot: Point) -> tuple[float, float] | None:
    """How far a straight run passes from ``spot`` (mm) and at what frame it is nearest it."""
    (mx, my), (vx, vy), mean_k = run
    speed = math.hypot(vx, vy)
    if speed < 0.05:  # under 6 mm/s at 120 fps: not a run
        return None
    ux, uy = vx / speed, vy / speed
    along = (spot[0] - mx) * ux + (spot[1] - my) * uy
    across = abs(-(spot[0] - mx) * uy + (spot[1] - my) * ux)
    return across, mean_k + along / speed


def _moved_piece(
    paths: _Paths,
    flicked: str,
    piece: str,
    set_off: _SetOff,
    radius: dict[str, float],
    sigma: float,
    set_offs: dict[str, _SetOff | None],
) -> TouchReading:
    first_touch = _striker_odds(paths, flicked, piece, set_off, radius, sigma, set_offs)
    if first_touch is None:
        p_first, words = 0.5, "set off with no moving disc against it that the camera saw"
    else:
        p_first, words = first_touch
    # A later touch: the flicked disc catching the piece again once it was already moving.
    p_later, later_words = _later_touch(
        paths, flicked, piece, set_off, radius[flicked] + radius[piece], sigma
    )
    p = 1.0 - (1.0 - p_first) * (1.0 - p_later)
    return TouchReading(piece, p, words if p_first >= p_later else later_words)


def _striker_odds(
    paths: _Paths,
    flicked: str,
    piece: str,
    set_off: _SetOff,
    radius: dict[str, float],
    sigma: float,
    set_offs: dict[str, _SetOff | None],
) -> tuple[float, str] | None:
    """Which moving disc set the piece off: the flicked disc's share of the likelihood, and words.

    The struck piece sets off along the line of centres, so its striker stood at ``home - reach · u`` at
    that moment. A disc's straight run-up before that moment and its run on after it must both pass
    through that spot, and reach it when the piece set off; timing against a fast disc is too loose to use
    alone, the spot is not.
    """
    t = set_off.t_frames
    ux, uy = set_off.direction
    hx, hy = set_off.home
    likelihoods: dict[str, float] = {}
    for other in paths.tracks:
        if other == piece or other not in radius:
            continue
        if other != flicked:
            own = set_offs.get(other)
            if own is None or own.t_frames > t + 0.5:
                continue  # at rest until after the piece set off: it cannot have struck it
            moving_from = math.floor(own.t_frames) + 1
        else:
            moving_from = 0
        reach = radius[other] + radius[piece]
        spot = (hx - reach * ux, hy - reach * uy)
        points = paths.tracks[other]
        frames = [k for k in sorted(points) if k >= moving_from]
        before = [(k, points[k]) for k in frames if k <= t][-STRIKER_LOOKBACK_FRAMES:]
        if other == flicked and len(before) == 1 and before[0][0] > 0 and 0 in points:
            before = [(0, points[0]), *before]  # the flick's start: it runs straight from there
        after = [(k, points[k]) for k in frames if k > t][:STRIKER_LOOKBACK_FRAMES]
        aim = math.hypot(math.radians(THROW_DEG), set_off.direction_rad)
        s_spot = math.sqrt(sigma**2 + paths.tolerance2 + (reach * aim) ** 2)
        s_t = set_off.timing_frames
        likelihood, runs = 1.0, 0
        for run_points in (before, after):
            if run_points is after and _resting(run_points, sigma):
                # It stopped dead where it met the piece (equal discs, head on): it rests on the spot.
                runs += 1
                likelihood *= _normal(math.dist(_mean(run_points), spot), s_spot) * _normal(0.0, s_t)
                continue
            run = _line(run_points)
            if run is None:
                continue
            passed = _passes(run, spot)
            if passed is None:
                continue
            across, at = passed
            runs += 1
            likelihood *= _normal(across, s_spot) * _normal(at - t, s_t)
        if runs:
            likelihoods[other] = likelihood ** (1.0 / runs)
        alternatives = []
        if other == flicked and 0 in points:
            # Flicked from against the piece: the flick's first push is the touch.
            alternatives.append(_normal(math.dist(points[0], spot), s_spot) * _normal(0.0, s_t))
        where = _where_at(before, after, t)
        if where is not None:
            # Deflected at once, so its direction says nothing: only that the disc stood against it then.
            gap = math.dist(where, set_off.home) - reach
            s_gap = math.sqrt(2 * sigma**2 + paths.tolerance2 + 1.0)
            alternatives.append(DEFLECTED_SHARE * _normal(gap, s_gap) * _normal(0.0, s_t))
        if alternatives:
            likelihoods[other] = max(likelihoods.get(other, 0.0), *alternatives)
    if not likelihoods:
        return None
    # "None of the discs the camera saw fits" leaves open whether the flicked disc did it: half each way.
    total = sum(likelihoods.values()) + NO_STRIKER_DENSITY
    best = max(likelihoods, key=lambda o: likelihoods[o])
    share = (likelihoods.get(flicked, 0.0) + NO_STRIKER_DENSITY / 2) / total
    if likelihoods[best] < NO_STRIKER_DENSITY:
        return share, f"set off with no disc the camera saw clearly against it (nearest: {best})"
    return share, f"set off as {best} reached it, along their line of centres"


def _later_touch(
    paths: _Paths, flicked: str, piece: str, set_off: _SetOff, reach: float, sigma: float
) -> tuple[float, str]:
    """The flicked disc meeting the piece again after it set off: the smallest gap between their smoothed
    paths from two frames after the set-off on."""
    start = math.ceil(set_off.t_frames) + 2
    best = math.inf
    for k in sorted(paths.tracks[flicked]):
        if k < start:
            continue
        a, b = _smoothed(paths, flicked, k), _smoothed(paths, piece, k)
        if a is not None and b is not None:
            best = min(best, math.dist(a, b) - reach)
    if not math.isfinite(best):
        return 0.0, ""
    s = math.sqrt(sigma**2 + paths.tolerance2)
    p = _soft_touch_odds(best, s)
    return p, f"the flicked disc came within {best:.1f} mm of it again while it moved"


def _smoothed(paths: _Paths, piece: str, k: int) -> Point | None:
    near = [paths.at(piece, j) for j in (k - 1, k, k + 1)]
    seen = [p for p in near if p is not None]
    if paths.at(piece, k) is None or not seen:
        return None
    return (statistics.fmean(p[0] for p in seen), statistics.fmean(p[1] for p in seen))


# ---- a piece the camera saw stay put ----
def _still_piece(
    paths: _Paths,
    flicked: str,
    piece: str,
    home: Point,
    reach: float,
    sigma: float,
    bounces: list[float],
) -> TouchReading:
    """A piece that stayed put was touched softly or by a disc that bounced off it (a heavy piece): the
    flicked disc's path runs up to the piece's edge and, if it goes on, leaves from there."""
    best = (0.0, math.inf, 0.0)  # (probability, gap, how much of it was guessed)
    for gap, hidden in _approaches(paths, flicked, home, reach, sigma, bounces):
        if gap == HIDDEN_PATH:
            if HIDDEN_PATH_TOUCH > best[0]:
                best = (HIDDEN_PATH_TOUCH, gap, hidden)
            continue
        s = math.sqrt(sigma**2 / 2 + paths.tolerance2 + hidden**2)
        p = _soft_touch_odds(gap, s)
        if p > best[0] or (p == best[0] and gap < best[1]):
            best = (p, gap, hidden)
    p, gap, hidden = best
    if gap == HIDDEN_PATH:
        words = "stayed put; the flicked disc bounced where the camera could not see it, near enough to touch"
        return TouchReading(piece, p, words)
    unseen = " (unseen under the hand)" if hidden > 1.0 else ""
    return TouchReading(piece, p, f"stayed put; the flicked disc came to {gap:.1f} mm of it{unseen}")


def _approaches(
    paths: _Paths, flicked: str, spot: Point, reach: float, sigma: float, bounces: list[float]
) -> list[tuple[float, float]]:
    """How close the flicked disc's edge came to a still piece's between each two frames it was seen, and
    how much of that was guessed (mm).

    Between two frames the disc's run-up carried on and its run on traced back both meet the piece's
    edge if it touched it there; a disc passing by misses it by the same gap on both. A disc resting by
    the piece is judged from where it rests."""
    points = paths.tracks[flicked]
    frames = sorted(points)
    found: list[tuple[float, float]] = []
    for i, (a, b) in enumerate(zip(frames, frames[1:], strict=False)):
        if min(math.dist(points[a], spot), math.dist(points[b], spot)) - reach > FAR_MM + 30.0 * (b - a):
            continue
        before = [(k, points[k]) for k in _unbroken(frames[max(0, i - 2) : i + 1], from_end=True)]
        after = [(k, points[k]) for k in _unbroken(frames[i + 1 : i + 4], from_end=False)]
        gaps, straight = [], 0.0
        for run_points, start, end in ((before, a, b), (after, b, a)):
            run = _line(run_points) if not _resting(run_points, sigma) else None
            if run is None:
                gaps.append(math.dist(_mean(run_points), spot) - reach)
                if run_points is after and any(a <= t <= b for t in bounces):
                    # At rest after missing frames in which it surely struck a piece: it bounced, and how
                    # it got there is unseen.
                    straight = math.inf
                continue
            (mx, my), (vx, vy), mean_k = run
            p0 = (mx + vx * (start - mean_k), my + vy * (start - mean_k))
            p1 = (mx + vx * (end - mean_k), my + vy * (end - mean_k))
            gaps.append(_segment_distance(spot, p0, p1) - reach)
            if run_points is after:
                # How far off its run on, traced back, the frame before lies: 0 when it ran straight
                # (across the line only: the mat's friction slows a run, it does not turn it).
                passed = _passes(run, points[a])
                speed = math.hypot(vx, vy)
                if passed is None or speed * (b - a) < MIN_TRACE_BACK_MM:
                    straight = math.inf  # too slow a run to trace back across the missing frames
                else:
                    # In units of what the run's noisy direction allows over that distance.
                    span = max(k for k, _ in run_points) - min(k for k, _ in run_points)
                    aim = sigma * math.sqrt(2.0) / (speed * max(span, 1))
                    lever = math.dist(p0, points[a])
                    straight = passed[0] / math.hypot(sigma, aim * lever)
        gap, unsure = max(gaps), 0.0
        hidden_bounce = b - a > 2 and straight > STRAIGHT_SIGMAS
        if a == 0 and len(before) == 1 and not hidden_bounce:
            # From the flick's start there is no run-up to carry on: the run on, traced back, is its path;
            # one that would run through a piece that stayed put cannot have been straight.
            gap = gaps[1]
            hidden_bounce = b - a > 2 and gap < -THROUGH_MM
        if hidden_bounce:
            # Frames missing (a hand, an arm) and a run on that does not lead straight back to where the
            # disc was last seen: it bounced off something unseen, by a path the frames do not show. A
            # piece whose edge lies within half the unseen stretch of the way between is in real doubt.
            chord = math.dist(points[a], points[b])
            near = _segment_distance(spot, points[a], points[b]) - reach
            if min(near, *gaps) <= chord / 2 + HIDDEN_BOUNCE_MM:
                found.append((HIDDEN_PATH, 0.0))
                continue
            gap = max(min(gaps), 0.0)
            unsure = HIDDEN_BOUNCE_MM + 0.5 * gap
        if a == 0 and (hidden_bounce or _heads_towards(after, points[0], spot)):
            # Flicked from against the piece, not straight away from it: the flick may have pressed into
            # it before the disc left.
            gap = min(gap, gaps[0])
        found.append((gap, unsure))
    return found


def _unbroken(frames: list[int], *, from_end: bool) -> list[int]:
    """The frames next to the pair, cut where frames are missing (a run is not traced across a gap)."""
    ordered = frames[::-1] if from_end else frames
    kept = ordered[:1]
    for k in ordered[1:]:
        if abs(k - kept[-1]) > 2:
            break
        kept.append(k)
    return kept[::-1] if from_end else kept


def _heads_towards(run_points: list[tuple[int, Point]], start: Point, spot: Point) -> bool:
    """Whether a disc's first run from ``start`` leaves other than straight away from ``spot`` (~135°)."""
    run = _line(run_points)
    if run is None:
        return True
    _, (vx, vy), _ = run
    dx, dy = spot[0] - start[0], spot[1] - start[1]
    norm = math.hypot(vx, vy) * math.hypot(dx, dy)
    return norm == 0 or (vx * dx + vy * dy) / norm > -0.7


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    f = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.dist(p, (a[0] + f * dx, a[1] + f * dy))


def _soft_touch_odds(gap: float, s: float) -> float:
    """Touching (gap 0, seen with noise s) against stopping short (any gap ≥ 0, ``STOP_SHORT_PER_MM``)."""
    # A disc that touched can rebound a little before it rests: its gap is a little open, and less sure.
    touch = _normal(gap - TOUCH_REBOUND_MM, math.hypot(s, TOUCH_REBOUND_SPREAD_MM))
    short = STOP_SHORT_PER_MM * 0.5 * (1.0 + math.erf(gap / (s * math.sqrt(2.0))))
    return touch / (touch + short) if touch + short > 0 else 0.0


def _normal(x: float, s: float) -> float:
    return math.exp(-0.5 * (x / s) ** 2) / (s * math.sqrt(2 * math.pi))
