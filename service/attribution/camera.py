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

from service.mat.trace import ShotTrace

from .camera_paths import (
    DIRECTION_FRAMES,
    Paths,
    Point,
    SetOff,
    Strike,
    closest_approach,
    heads_towards,
    mean_point,
    normal_density,
    passes,
    path_through_strikes,
    polyline_distance,
    resting,
    segment_distance,
    set_off_of,
    straight_run,
    strike_of,
    unbroken,
    where_at,
)
from .model import COVER_KINDS

STRIKER_LOOKBACK_FRAMES = 3  # frames before the set-off that say where a striker was heading
THROW_DEG = 6.0  # how far off the line of centres friction between discs throws a struck piece (1 σ)
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
    # A piece that moved: when it set off (frames) and the disc the frames have reach it then; the reading
    # then rests on the frames up to ``until`` (its later path only matters for a touch it did not get first).
    set_off: float | None = None
    striker: str | None = None
    until: float | None = None

    @property
    def sure(self) -> bool:
        return self.probability <= SURE_NO or self.probability >= SURE_YES


SURE_NO, SURE_YES = 0.01, 0.99
# Between these the camera's doubt is real: on the dev sets about one such reading in three was a touch
# (outside them, none of 92 below and none of 40 above), so the physics alone may not settle it.
DOUBT_LOW, DOUBT_HIGH = 0.05, 0.9


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
    paths = Paths(camera, relative_mm)
    if flicked not in paths.tracks:
        return {}
    sigma = max(paths.noise(camera.sigma_mm), noise_floor_mm)
    readings: dict[str, TouchReading] = {}
    # Covers (ice) ride on their host: they neither strike nor are struck on the mat.
    radius = {p.piece: p.radius_mm for p in trace.pieces if p.kind not in COVER_KINDS}
    set_offs = {p: set_off_of(paths, p, sigma) for p in paths.tracks if p != flicked and p in radius}
    for piece, set_off in set_offs.items():
        if set_off is not None:
            # Whatever set it off, even under the flicking hand where the flicked disc was not seen.
            readings[piece] = _moved_piece(paths, flicked, piece, set_off, radius, sigma, set_offs)
    # Where the flicked disc surely struck these, it bounced off them: a bounce the frames saw, by its spot.
    bounces = [
        strike_of(set_offs[p], radius[flicked] + radius[p], sigma, paths)  # type: ignore[arg-type]
        for p, r in readings.items()
        if r.probability >= SURE_YES and r.striker == flicked
    ]
    for piece in sorted(paths.tracks.keys() | paths.still.keys()):
        if piece == flicked or piece not in radius or piece in readings:
            continue
        reach = radius[flicked] + radius[piece]
        closest = closest_approach(paths, flicked, piece)
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
    paths = Paths(camera)
    sigma = paths.noise(camera.sigma_mm)
    set_offs = {}
    for piece in paths.tracks:
        set_off = set_off_of(paths, piece, sigma)
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


# ---- a piece that moved ----


def _moved_piece(
    paths: Paths,
    flicked: str,
    piece: str,
    set_off: SetOff,
    radius: dict[str, float],
    sigma: float,
    set_offs: dict[str, SetOff | None],
) -> TouchReading:
    first_touch = _striker_odds(paths, flicked, piece, set_off, radius, sigma, set_offs)
    striker = None
    if first_touch is None:
        p_first, words = 0.5, "set off with no moving disc against it that the camera saw"
    else:
        p_first, words, striker = first_touch
    # A later touch: the flicked disc catching the piece again once it was already moving.
    p_later, later_words = _later_touch(
        paths, flicked, piece, set_off, radius[flicked] + radius[piece], sigma
    )
    p = 1.0 - (1.0 - p_first) * (1.0 - p_later)
    until = set_off.t_frames + DIRECTION_FRAMES + STRIKER_LOOKBACK_FRAMES + 1
    striker = striker if p_first >= p_later else None  # the reading is of a later touch
    return TouchReading(
        piece, p, words if p_first >= p_later else later_words, set_off.t_frames, striker, until
    )


def _striker_odds(
    paths: Paths,
    flicked: str,
    piece: str,
    set_off: SetOff,
    radius: dict[str, float],
    sigma: float,
    set_offs: dict[str, SetOff | None],
) -> tuple[float, str, str | None] | None:
    """Which moving disc set the piece off: the flicked disc's share of the likelihood, words, and the disc
    likeliest to have done it.

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
        through = _runs_through(before, after, spot, s_spot, t, s_t, sigma)
        if through is not None:
            likelihoods[other] = through
        alternatives = []
        if other == flicked and 0 in points:
            # Flicked from against the piece: the flick's first push is the touch.
            alternatives.append(normal_density(math.dist(points[0], spot), s_spot) * normal_density(0.0, s_t))
        where = where_at(before, after, t)
        if where is not None:
            # Deflected at once, so its direction says nothing: only that the disc stood against it then.
            gap = math.dist(where, set_off.home) - reach
            s_gap = math.sqrt(2 * sigma**2 + paths.tolerance2 + 1.0)
            alternatives.append(DEFLECTED_SHARE * normal_density(gap, s_gap) * normal_density(0.0, s_t))
        if alternatives:
            likelihoods[other] = max(likelihoods.get(other, 0.0), *alternatives)
    if not likelihoods:
        return None
    # "None of the discs the camera saw fits" leaves open whether the flicked disc did it: half each way.
    total = sum(likelihoods.values()) + NO_STRIKER_DENSITY
    best = max(likelihoods, key=lambda o: likelihoods[o])
    share = (likelihoods.get(flicked, 0.0) + NO_STRIKER_DENSITY / 2) / total
    if likelihoods[best] < NO_STRIKER_DENSITY:
        return share, f"set off with no disc the camera saw clearly against it (nearest: {best})", None
    return share, f"set off as {best} reached it, along their line of centres", best


def _runs_through(
    before: list[tuple[int, Point]],
    after: list[tuple[int, Point]],
    spot: Point,
    s_spot: float,
    t: float,
    s_t: float,
    sigma: float,
) -> float | None:
    """How well a disc's run-up and run on pass through ``spot`` at frame ``t`` (geometric mean of the runs'
    likelihoods); None when neither run can say."""
    likelihood, runs = 1.0, 0
    for run_points in (before, after):
        if run_points is after and resting(run_points, sigma):
            # It stopped dead where it met the piece (equal discs, head on): it rests on the spot.
            runs += 1
            likelihood *= normal_density(math.dist(mean_point(run_points), spot), s_spot) * normal_density(
                0.0, s_t
            )
            continue
        run = straight_run(run_points)
        if run is None:
            continue
        passed = passes(run, spot)
        if passed is None:
            continue
        across, at = passed
        runs += 1
        likelihood *= normal_density(across, s_spot) * normal_density(at - t, s_t)
    if runs:
        return float(likelihood ** (1.0 / runs))
    return None


def _later_touch(
    paths: Paths, flicked: str, piece: str, set_off: SetOff, reach: float, sigma: float
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


def _smoothed(paths: Paths, piece: str, k: int) -> Point | None:
    near = [paths.at(piece, j) for j in (k - 1, k, k + 1)]
    seen = [p for p in near if p is not None]
    if paths.at(piece, k) is None or not seen:
        return None
    return (statistics.fmean(p[0] for p in seen), statistics.fmean(p[1] for p in seen))


# ---- a piece the camera saw stay put ----
def _still_piece(
    paths: Paths,
    flicked: str,
    piece: str,
    home: Point,
    reach: float,
    sigma: float,
    bounces: list[Strike],
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
    paths: Paths, flicked: str, spot: Point, reach: float, sigma: float, bounces: list[Strike]
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
        before = [(k, points[k]) for k in unbroken(frames[max(0, i - 2) : i + 1], from_end=True)]
        after = [(k, points[k]) for k in unbroken(frames[i + 1 : i + 4], from_end=False)]
        gaps, straight, runs = _runs_across(points, a, b, before, after, spot, reach, sigma, bounces)
        gap, unsure = max(gaps), 0.0
        hidden_bounce = b - a > 2 and straight > STRAIGHT_SIGMAS
        if a == 0 and len(before) == 1 and not hidden_bounce:
            # From the flick's start there is no run-up to carry on: the run on, traced back, is its path;
            # one that would run through a piece that stayed put cannot have been straight.
            gap = gaps[1]
            hidden_bounce = b - a > 2 and gap < -THROUGH_MM
        run_up = None if a == 0 and len(before) == 1 else runs[0]
        seen_way = path_through_strikes(
            bounces, (a, points[a]), run_up, runs[1], (b, points[b]), sigma, STRAIGHT_SIGMAS
        )
        if hidden_bounce and seen_way is not None:
            # The turn it took unseen is a strike the frames date and place (the struck piece set off along
            # their line of centres): its path ran from where it was last seen, by that spot, to where it
            # was seen again, as sure as the spot is.
            nearest, unsure = polyline_distance(spot, seen_way)
            gap, hidden_bounce = nearest - reach, False
            if a == 0 and len(before) == 1:
                # From the flick's start it ran straight at its first strike: that is the way it left.
                after = [(a, points[a]), (a + 1, seen_way[1][0])]
        elif hidden_bounce:
            # Frames missing (a hand, an arm) and a run on that does not lead straight back to where the
            # disc was last seen: it bounced off something unseen, by a path the frames do not show. A
            # piece whose edge lies within half the unseen stretch of the way between is in real doubt.
            chord = math.dist(points[a], points[b])
            near = segment_distance(spot, points[a], points[b]) - reach
            if min(near, *gaps) <= chord / 2 + HIDDEN_BOUNCE_MM:
                found.append((HIDDEN_PATH, 0.0))
                continue
            gap = max(min(gaps), 0.0)
            unsure = HIDDEN_BOUNCE_MM + 0.5 * gap
        if a == 0 and (hidden_bounce or heads_towards(after, points[0], spot)):
            # Flicked from against the piece, not straight away from it: the flick may have pressed into
            # it before the disc left.
            gap = min(gap, gaps[0])
        found.append((gap, unsure))
    return found


def _runs_across(
    points: dict[int, Point],
    a: int,
    b: int,
    before: list[tuple[int, Point]],
    after: list[tuple[int, Point]],
    spot: Point,
    reach: float,
    sigma: float,
    bounces: list[Strike],
) -> tuple[list[float], float, list[tuple[Point, Point, float] | None]]:
    """Between frames ``a`` and ``b``: the gap to the piece at ``spot`` by the run-up carried on and by the
    run on traced back (or where the disc rested), how far (in σ) the run on misses where the disc was last
    seen (0: it ran straight), and the two runs (None: at rest)."""
    gaps: list[float] = []
    straight = 0.0
    runs: list[tuple[Point, Point, float] | None] = []
    for run_points, start, end in ((before, a, b), (after, b, a)):
        run = straight_run(run_points) if not resting(run_points, sigma) else None
        runs.append(run)
        if run is None:
            gaps.append(math.dist(mean_point(run_points), spot) - reach)
            if run_points is after and any(a <= s.t_frames <= b for s in bounces):
                # At rest after missing frames in which it surely struck a piece: it bounced, and how
                # it got there is unseen.
                straight = math.inf
            continue
        (mx, my), (vx, vy), mean_k = run
        p0 = (mx + vx * (start - mean_k), my + vy * (start - mean_k))
        p1 = (mx + vx * (end - mean_k), my + vy * (end - mean_k))
        gaps.append(segment_distance(spot, p0, p1) - reach)
        if run_points is after:
            # How far off its run on, traced back, the frame before lies: 0 when it ran straight
            # (across the line only: the mat's friction slows a run, it does not turn it).
            passed = passes(run, points[a])
            speed = math.hypot(vx, vy)
            if passed is None or speed * (b - a) < MIN_TRACE_BACK_MM:
                straight = math.inf  # too slow a run to trace back across the missing frames
            else:
                # In units of what the run's noisy direction allows over that distance.
                span = max(k for k, _ in run_points) - min(k for k, _ in run_points)
                aim = sigma * math.sqrt(2.0) / (speed * max(span, 1))
                lever = math.dist(p0, points[a])
                straight = passed[0] / math.hypot(sigma, aim * lever)
    return gaps, straight, runs


def _soft_touch_odds(gap: float, s: float) -> float:
    """Touching (gap 0, seen with noise s) against stopping short (any gap ≥ 0, ``STOP_SHORT_PER_MM``)."""
    # A disc that touched can rebound a little before it rests: its gap is a little open, and less sure.
    touch = normal_density(gap - TOUCH_REBOUND_MM, math.hypot(s, TOUCH_REBOUND_SPREAD_MM))
    short = STOP_SHORT_PER_MM * 0.5 * (1.0 + math.erf(gap / (s * math.sqrt(2.0))))
    return touch / (touch + short) if touch + short > 0 else 0.0
