"""Prescribed flicks: the mat's sliding friction and how its walls bounce, from a few wall shots. Pure.

A disc flicked alone across open mat says nothing about friction: a hard flick on a slippery mat and a soft
one on a grippy mat stop at the same place, and the mat hears nothing while a disc slides. What the mat does
hear is contacts, each with its moment. So each prescribed flick is a **wall shot**: a disc stands on a
marked spot in front of a wall, and the referee flicks a second disc into it so that it glances off the wall
at a slant and comes back onto the mat. The mat then tells:

- when the discs met (the first contact, at the marked spot) and when the struck disc hit the wall (the
  last contact, located along the wall by the calibrated sound speed and lags — so the taps come first);
- where the struck disc stood, and where it came to rest.

The slide from the spot to the wall is timed over a known distance; the slide after the bounce ends at rest
over a known distance. With the sliding friction as the one unknown of both (the speed is fitted), they
pin it down. The angles in and out of the wall give its bounce: the wall keeps a disc's speed along it and
returns a share ``e`` of the speed into it, so ``e = tan(in) / tan(out)`` measured from the wall's normal.

The friction is read as the attribution model reads it (``ModelParams``: 0.40 on the mat, 0.30 on the strip
between the mat and the walls, both scaled by the table's friction belief); the bounce as the product of
disc and wall elasticity the model's contacts use.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from service.attribution.calibration import (
    PRIOR_FRICTION_SD,
    PRIOR_WALL_RESTITUTION_SD,
    Belief,
    TableCalibration,
)
from service.attribution.model import ModelParams
from service.mat.trace import FixedObstacle, WallSegment

from .taps import MIN_SENSORS, TAP_GAP_US
from .wall_slide import friction_scale, wall_bounce

SPOT_FROM_WALL_MM = 180.0  # where the struck disc stands: this far in from the wall's face
WALL_EITHER_SIDE_MM = 330.0  # wall either side of the spot: the disc's way in and back stays clear of corners
AIM_ALONG_MM = 150.0  # the aim: this far along the wall from the spot's foot (a slant of about 40°)
OBSTACLE_CLEARANCE_MM = 60.0  # between an obstacle and the disc's way (its centre's)
MIN_SLANT_DEG = 20.0
# A disc aimed at another's centre sends it within a few degrees of the line through both: the flicked
# disc's aim off by 2° turns the struck disc's way by about 4°.
AIM_SD_RAD = math.radians(4.0)  # straighter into the wall and its bounce cannot be told from its angles
FLICKS = 6
# What "good" means for the figures (docs/setup.md).
GOOD_FLICKS = 4
GOOD_SPREAD = 0.15  # the flicks' friction (log) spread at most this


class FlickError(ValueError):
    """A flick that cannot be read; says what the referee should do."""


@dataclass(frozen=True)
class FlickSpot:
    """A prescribed flick: the struck disc stands at (x, y), in front of ``wall`` (its inner face)."""

    number: int
    x_mm: float
    y_mm: float
    wall: WallSegment
    aim_x_mm: float = 0.0  # where on the wall to send it: a slant of about 40°, towards the wall's middle
    aim_y_mm: float = 0.0


@dataclass(frozen=True)
class Flick:
    """What the mat saw of one prescribed flick."""

    spot: FlickSpot
    start: tuple[float, float]  # the struck disc before (the scan)
    rest: tuple[float, float]  # and after
    radius_mm: float
    impacts: tuple[tuple[int, int, float], ...]  # (sensor id, device µs, amplitude), every impact of the shot
    flicked_from: tuple[float, float] | None = None  # where the flicked disc stood (before the scan), if seen


@dataclass(frozen=True)
class FlickReading:
    friction_scale: float  # against ModelParams.sliding_friction
    wall_bounce: float  # the disc-on-wall restitution (the product of both elasticities)
    slide_s: float  # from the discs' contact to the wall
    slant_deg: float  # into the wall, from its normal


def flick_spots(
    width_mm: float,
    height_mm: float,
    walls: Sequence[WallSegment],
    obstacles: Sequence[FixedObstacle] = (),
    count: int = FLICKS,
) -> tuple[FlickSpot, ...]:
    """``count`` spots in front of walls, each with wall enough either side for a slanted hit and no obstacle
    near the disc's way to the wall and back; spread over the mat (an open side or a short stretch has none).
    """
    candidates: list[FlickSpot] = []
    for wall in walls:
        length = math.hypot(wall.x2_mm - wall.x1_mm, wall.y2_mm - wall.y1_mm)
        normal = _inward_normal(wall, (width_mm / 2, height_mm / 2))
        steps = int((length - 2 * WALL_EITHER_SIDE_MM) // 50)
        for i in range(steps + 1):
            f = (WALL_EITHER_SIDE_MM + 50 * i) / length
            foot = (wall.x1_mm + f * (wall.x2_mm - wall.x1_mm), wall.y1_mm + f * (wall.y2_mm - wall.y1_mm))
            x, y = foot[0] + SPOT_FROM_WALL_MM * normal[0], foot[1] + SPOT_FROM_WALL_MM * normal[1]
            towards = 1.0 if f <= 0.5 else -1.0
            along = (wall.x2_mm - wall.x1_mm) / length * towards, (wall.y2_mm - wall.y1_mm) / length * towards
            aim = foot[0] + AIM_ALONG_MM * along[0], foot[1] + AIM_ALONG_MM * along[1]
            # The disc's way: in from the spot to the aim, and back out as far again on the other side.
            back = (x + 2 * AIM_ALONG_MM * along[0], y + 2 * AIM_ALONG_MM * along[1])
            clear = all(
                _to_segment((o.x_mm, o.y_mm), a, b) > _extent(o) + OBSTACLE_CLEARANCE_MM
                for o in obstacles
                for a, b in (((x, y), aim), (aim, back))
            )
            if clear and 0 <= x <= width_mm and 0 <= y <= height_mm:
                candidates.append(
                    FlickSpot(0, round(x, 1), round(y, 1), wall, round(aim[0], 1), round(aim[1], 1))
                )
    if not candidates:
        raise FlickError(
            "no stretch of wall faces the mat with 33 cm either side and the way clear of obstacles: "
            "nothing to flick into"
        )
    chosen = [min(candidates, key=lambda c: (c.y_mm, c.x_mm))]
    while len(chosen) < min(count, len(candidates)):
        chosen.append(
            max(candidates, key=lambda c: min(math.dist((c.x_mm, c.y_mm), (d.x_mm, d.y_mm)) for d in chosen))
        )
    # Fewer spots than flicks (walls with gaps, obstacles): the spots again, in turn.
    return tuple(replace(chosen[i % len(chosen)], number=i + 1) for i in range(count))


def _to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    f = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / max(dx * dx + dy * dy, 1e-9)))
    return math.dist(p, (a[0] + f * dx, a[1] + f * dy))


def _extent(obstacle: FixedObstacle) -> float:
    if obstacle.shape == "circle":
        return obstacle.radius_mm
    return max(math.dist((obstacle.x_mm, obstacle.y_mm), p) for p in obstacle.points)


def read_flick(
    flick: Flick,
    sensors: Sequence[tuple[int, float, float]],
    calibration: TableCalibration,
    width_mm: float,
    height_mm: float,
    model: ModelParams | None = None,
) -> FlickReading:
    """One wall shot's friction (as a scale of the model's) and the wall's bounce; FlickError says why not."""
    params = model or ModelParams()
    n = _inward_normal(flick.spot.wall, flick.start)
    heard = _contacts(flick.impacts)
    speed = calibration.speed_mm_per_us
    lags = calibration.sensor_offsets_us()
    where = {sid: (x, y) for sid, x, y in sensors}
    # The wall's contact: the first that fits a contact on the wall better than one at the spot (before it,
    # the finger's click, if it clicks, and the discs meeting).
    fits = [_wall_fit(c, flick.spot.wall, where, speed, lags) for c in heard]
    at_wall = [
        i
        for i, (c, fit) in enumerate(zip(heard, fits, strict=True))
        if i > 0 and min(fit.costs) < _spread(c, flick.start, where, speed, lags)
    ]
    if not at_wall:
        raise FlickError(
            f"flick {flick.spot.number}: the mat did not hear the discs meet and then the struck disc hit "
            "the wall: flick harder, so it reaches the wall"
        )
    index = at_wall[0]
    if index < len(heard) - 1:
        raise FlickError(
            f"flick {flick.spot.number}: after the wall the struck disc hit something else (another wall, a "
            "disc): aim at the arrow's end, a little more gently"
        )
    fit = fits[index]
    along, t_wall = _hit_along_wall(fit, flick, n)
    wall_face = _on_wall(flick.spot.wall, along)
    hit = (wall_face[0] + flick.radius_mm * n[0], wall_face[1] + flick.radius_mm * n[1])
    inward = _unit(hit[0] - flick.start[0], hit[1] - flick.start[1])
    met = (flick.start[0] - flick.radius_mm * inward[0], flick.start[1] - flick.radius_mm * inward[1])
    t_met = _event_time(heard[index - 1], met, where, speed, lags)
    slide_s = (t_wall - t_met) / 1e6
    length = math.dist(flick.start, hit)
    back = math.dist(hit, flick.rest)
    if slide_s <= 0.0 or length < 2 * flick.radius_mm or back < flick.radius_mm:
        raise FlickError(
            f"flick {flick.spot.number}: the struck disc did not glance off the wall and come back onto "
            "the mat"
        )
    outward = _unit(flick.rest[0] - hit[0], flick.rest[1] - hit[1])
    t = (-n[1], n[0])
    cos_in, along_in = -(inward[0] * n[0] + inward[1] * n[1]), inward[0] * t[0] + inward[1] * t[1]
    cos_out, along_out = outward[0] * n[0] + outward[1] * n[1], outward[0] * t[0] + outward[1] * t[1]
    slant = math.degrees(math.atan2(abs(along_in), cos_in))
    if slant < MIN_SLANT_DEG or cos_out <= 0.0 or along_in * along_out <= 0.0:
        raise FlickError(
            f"flick {flick.spot.number}: the disc went into the wall at {slant:.0f}° from straight; "
            f"flick it at a slant of 30-50°"
        )
    grip = params.wall_friction * params.disc_friction  # the disc's grip on the wall's face
    bounce, keeps = wall_bounce(cos_in, abs(along_in), abs(along_out) / cos_out, grip)
    scale = friction_scale(
        flick.start, inward, length, slide_s, hit, outward, back, keeps, width_mm, height_mm, params
    )
    import os

    if os.environ.get("FLICKDBG"):
        print(
            "   hit",
            [round(v) for v in hit],
            "L",
            round(length),
            "back",
            round(back),
            "keeps",
            round(keeps, 3),
            "T",
            round(slide_s, 4),
        )
    return FlickReading(scale, bounce, slide_s, slant)


@dataclass(frozen=True)
class FlickFit:
    calibration: TableCalibration
    figures: dict[str, Any]


def fit_flicks(
    flicks: Sequence[Flick],
    sensors: Sequence[tuple[int, float, float]],
    width_mm: float,
    height_mm: float,
    start: TableCalibration,
    model: ModelParams | None = None,
) -> FlickFit:
    """The friction and wall-bounce beliefs from the flicks read; the rest of ``start`` is kept."""
    params = model or ModelParams()
    readings: list[FlickReading] = []
    problems: list[str] = []
    for flick in flicks:
        try:
            readings.append(read_flick(flick, sensors, start, width_mm, height_mm, params))
        except FlickError as exc:
            problems.append(str(exc))
    if not readings:
        raise FlickError("no flick could be read: " + "; ".join(problems or ["no flicks were made"]))
    friction = _belief([math.log(r.friction_scale) for r in readings], PRIOR_FRICTION_SD)
    # The model bounces a disc off a wall with (disc elasticity) x (wall elasticity): the disc's is kept.
    disc = params.disc_restitution * start.disc_restitution.scale
    walls = _belief(
        [math.log(r.wall_bounce / (disc * params.wall_restitution)) for r in readings],
        PRIOR_WALL_RESTITUTION_SD,
    )
    calibration = replace(start, friction=friction, wall_restitution=walls)
    return FlickFit(calibration, flick_figures(readings, problems, friction, walls, params, disc))


def flick_figures(
    readings: Sequence[FlickReading],
    problems: Sequence[str],
    friction: Belief,
    walls: Belief,
    params: ModelParams,
    disc: float,
) -> dict[str, Any]:
    """The flicks' figures, with advice in words where they are weak."""
    advice = list(problems)  # a flick not read is named; the others may still be enough
    weak = []
    if len(readings) < GOOD_FLICKS:
        weak.append(f"only {len(readings)} of the flicks could be read: make the flicks again")
    if friction.sd > GOOD_SPREAD:
        weak.append(
            f"the flicks disagree on the friction (±{friction.sd:.0%}): check the mat is clean and flat, "
            "and flick again"
        )
    advice += weak
    return {
        "flicks": len(readings) + len(problems),
        "flicks_read": len(readings),
        "sliding_friction": round(params.sliding_friction * friction.scale, 3),
        "friction_uncertainty": round(friction.sd, 3),
        "wall_bounce": round(disc * params.wall_restitution * walls.scale, 3),
        "wall_bounce_uncertainty": round(walls.sd, 3),
        "good": not weak,
        "advice": advice,
    }


# ---- reading the sounds -----------------------------------------------------------------------------------


def _contacts(impacts: Sequence[tuple[int, int, float]]) -> list[list[tuple[int, int, float]]]:
    """The shot's contacts: impacts grouped by quiet gaps, each piezo's first arrival, heard by enough
    piezos."""
    groups: list[list[tuple[int, int, float]]] = []
    for impact in sorted(impacts, key=lambda i: i[1]):
        if groups and impact[1] - groups[-1][0][1] <= TAP_GAP_US:
            if all(s != impact[0] for s, _, _ in groups[-1]):
                groups[-1].append(impact)
        else:
            groups.append([impact])
    return [g for g in groups if len(g) >= MIN_SENSORS]


def _event_time(
    heard: Sequence[tuple[int, int, float]],
    at: tuple[float, float],
    where: dict[int, tuple[float, float]],
    speed: float,
    lags: dict[int, float],
) -> float:
    """When a contact at ``at`` happened (device µs): the median of each piezo's arrival less its travel."""
    times = sorted(t - lags.get(s, 0.0) - math.dist(at, where[s]) / speed for s, t, _ in heard if s in where)
    return times[len(times) // 2]


def _spread(
    heard: Sequence[tuple[int, int, float]],
    at: tuple[float, float],
    where: dict[int, tuple[float, float]],
    speed: float,
    lags: dict[int, float],
) -> float:
    """How badly a contact's arrivals fit a contact at ``at`` (the sum of squared residuals, µs²)."""
    residuals = [t - lags.get(s, 0.0) - math.dist(at, where[s]) / speed for s, t, _ in heard if s in where]
    mean = sum(residuals) / len(residuals)
    return sum((r - mean) ** 2 for r in residuals)


@dataclass(frozen=True)
class _WallFit:
    costs: tuple[float, ...]  # how badly the arrivals fit a contact at each millimetre along the wall
    times: tuple[float, ...]  # when that contact would have been
    residual_var: float  # µs², of one arrival at the best fit


def _wall_fit(
    heard: Sequence[tuple[int, int, float]],
    wall: WallSegment,
    where: dict[int, tuple[float, float]],
    speed: float,
    lags: dict[int, float],
) -> _WallFit:
    """The fit of a contact's arrivals at each millimetre along the wall's face."""
    length = math.hypot(wall.x2_mm - wall.x1_mm, wall.y2_mm - wall.y1_mm)
    costs, times = [], []
    for step in range(int(length) + 1):
        point = _on_wall(wall, float(step))
        residuals = [
            t - lags.get(s, 0.0) - math.dist(point, where[s]) / speed for s, t, _ in heard if s in where
        ]
        t0 = sum(residuals) / len(residuals)
        costs.append(sum((r - t0) ** 2 for r in residuals))
        times.append(t0)
    heard_by = len({s for s, _, _ in heard if s in where})
    return _WallFit(tuple(costs), tuple(times), min(costs) / max(heard_by - 2, 1))


def _hit_along_wall(fit: _WallFit, flick: Flick, normal: tuple[float, float]) -> tuple[float, float]:
    """Where along the wall the struck disc hit it (mm from the wall's first end), and when (device µs).

    The sound places it to a few centimetres on a fast mat with noisy timing. When the flicked disc was seen
    too, the line from it through the struck disc's centre (the way a disc aimed at another's centre sends
    it) places the hit as well; the two are weighed by how sure each is.
    """
    best = min(range(len(fit.costs)), key=fit.costs.__getitem__)
    lo, hi = max(best - 10, 0), min(best + 10, len(fit.costs) - 1)
    curve = (fit.costs[lo] + fit.costs[hi] - 2 * fit.costs[best]) / max(((hi - lo) / 2) ** 2, 1.0)
    heard_sd = math.sqrt(2 * max(fit.residual_var, 100.0) / curve) if curve > 0 else math.inf
    along, weight = float(best), 1 / heard_sd**2 if heard_sd < math.inf else 0.0
    aimed = _aimed_hit(flick, normal)
    if aimed is not None:
        aimed_along, aimed_sd = aimed
        if weight == 0.0:
            along = aimed_along
        else:
            w2 = 1 / aimed_sd**2
            along = (along * weight + aimed_along * w2) / (weight + w2)
    index = min(max(round(along), 0), len(fit.times) - 1)
    return along, fit.times[index]


def _aimed_hit(flick: Flick, normal: tuple[float, float]) -> tuple[float, float] | None:
    """Where the line from the flicked disc through the struck one meets the wall (mm along it, its sd)."""
    if flick.flicked_from is None:
        return None
    way = _unit(flick.start[0] - flick.flicked_from[0], flick.start[1] - flick.flicked_from[1])
    wall = flick.spot.wall
    # The struck disc's centre meets the wall on the face's line moved in by its radius.
    ax = wall.x1_mm + flick.radius_mm * normal[0]
    ay = wall.y1_mm + flick.radius_mm * normal[1]
    dx, dy = _unit(wall.x2_mm - wall.x1_mm, wall.y2_mm - wall.y1_mm)
    into = -(way[0] * normal[0] + way[1] * normal[1])
    if into <= 0.05:
        return None
    gap = (flick.start[0] - ax) * normal[0] + (flick.start[1] - ay) * normal[1]  # the disc's distance to it
    reach = gap / into
    x, y = flick.start[0] + reach * way[0], flick.start[1] + reach * way[1]
    along = (x - ax) * dx + (y - ay) * dy
    return along, max(8.0, gap * AIM_SD_RAD / into**2)


def _on_wall(wall: WallSegment, along: float) -> tuple[float, float]:
    dx, dy = _unit(wall.x2_mm - wall.x1_mm, wall.y2_mm - wall.y1_mm)
    return wall.x1_mm + along * dx, wall.y1_mm + along * dy


def _belief(logs: Sequence[float], prior_sd: float) -> Belief:
    """The flicks' mean with its uncertainty (their spread over the root of their number, never below 5 %).

    With four or more flicks, one far from the others' median (a misheard wall hit) is left out.
    """
    if len(logs) >= 4:
        middle = statistics.median(logs)
        mad = statistics.median(abs(v - middle) for v in logs)
        logs = [v for v in logs if abs(v - middle) <= max(3 * mad, 0.1)]
    n = len(logs)
    mean = sum(logs) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in logs) / (n - 1)) if n > 1 else prior_sd / 2
    sd = max(0.05, spread / math.sqrt(n))
    return Belief(mean, sd, n)


def _unit(dx: float, dy: float) -> tuple[float, float]:
    norm = math.hypot(dx, dy) or 1.0
    return dx / norm, dy / norm


def _inward_normal(wall: WallSegment, towards: tuple[float, float]) -> tuple[float, float]:
    """The wall face's unit normal on the side of ``towards`` (the mat)."""
    nx, ny = _unit(-(wall.y2_mm - wall.y1_mm), wall.x2_mm - wall.x1_mm)
    side = (towards[0] - wall.x1_mm) * nx + (towards[1] - wall.y1_mm) * ny
    return (nx, ny) if side >= 0 else (-nx, -ny)
