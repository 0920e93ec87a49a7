"""Prescribed touches: how loud a disc-on-disc touch is on this mat, from a few soft flicks. Pure.

Attribution weighs a silent mat against the touches a reading claims: a touch too soft for any piezo to hear
is no evidence against it. How loud a touch is, at what distance, is the table's ``disc_loudness`` belief
(the same field the referee's answers teach during play, learning.py). A new table starts it wide; these
touches start it narrow before the doors open.

At each of a few marked places the referee puts one disc and a second beside it, and flicks the second
softly into the first. The scans say which disc moved and how far it slid; the slide, with the table's
sliding friction, says how fast it left the touch (``v = sqrt(2 mu g d)``), so what impulse the model gives
that touch. The piezos that heard it say how loud it was, each with its gain and distance fall-off taken out
(evidence.py's loudness law); the piezos that heard nothing say it was quieter than the board's threshold
at their distance (censored readings, as in play).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from service.attribution.calibration import Belief, TableCalibration
from service.attribution.evidence import CONTACT_LOUDNESS_SPREAD, EvidenceParams
from service.attribution.learning import LOUDNESS_SAMPLE_SD, UNRECOGNISED_SHARE
from service.attribution.model import GRAVITY_MM_S2, ModelParams

from .taps import TAP_GAP_US

TOUCHES = 4
GOOD_TOUCHES = 3
MIN_SLIDE_MM = 8.0  # a struck disc that moved less was nudged, not struck: its speed cannot be read
MAX_SLIDE_MM = 400.0  # "softly": further, and the touch is a shot's, loud enough for every piezo
NEXT_TO_MM = 60.0  # the struck disc stood this close to the marked place


class TouchError(ValueError):
    """A touch that cannot be read; says what the referee should do."""


@dataclass(frozen=True)
class TouchSpot:
    """A prescribed touch: a disc stands at (x, y); a second is flicked softly into it from the aim's
    opposite side, so that it slides towards (aim_x, aim_y)."""

    number: int
    x_mm: float
    y_mm: float
    aim_x_mm: float
    aim_y_mm: float


@dataclass(frozen=True)
class Touch:
    """What the mat saw of one prescribed touch."""

    spot: TouchSpot
    start: tuple[float, float]  # the struck disc before (the scan)
    rest: tuple[float, float]  # and after
    radius_mm: float
    mass_g: float
    impacts: tuple[tuple[int, int, float], ...]  # (sensor, device µs, amplitude)


@dataclass(frozen=True)
class TouchReading:
    heard: tuple[tuple[float, float], ...]  # (distance mm, log loudness against the model's) per piezo heard
    unheard: tuple[tuple[float, float], ...]  # (distance mm, log bound) per piezo that heard nothing
    impulse: float


def touch_spots(width_mm: float, height_mm: float, count: int = TOUCHES) -> tuple[TouchSpot, ...]:
    """Places spread over the mat (near its middle and towards each side), each sliding towards the middle:
    the piezos hear them from near and far."""
    fractions = ((0.5, 0.5), (0.22, 0.28), (0.78, 0.3), (0.25, 0.75), (0.75, 0.72))[:count]
    spots = []
    for i, (fx, fy) in enumerate(fractions):
        x, y = fx * width_mm, fy * height_mm
        # Slide 15 cm towards the middle (the middle one: to the right).
        dx, dy = width_mm / 2 - x, height_mm / 2 - y
        norm = math.hypot(dx, dy)
        ux, uy = (dx / norm, dy / norm) if norm > 1.0 else (1.0, 0.0)
        spots.append(
            TouchSpot(i + 1, round(x, 1), round(y, 1), round(x + 150 * ux, 1), round(y + 150 * uy, 1))
        )
    return tuple(spots)


def read_touch(
    touch: Touch,
    sensors: Sequence[tuple[int, float, float]],
    calibration: TableCalibration,
    threshold: float,
    ep: EvidenceParams | None = None,
    model: ModelParams | None = None,
) -> TouchReading:
    """One touch's loudness at each piezo, against the model's for the impulse its slide says."""
    ep = ep or EvidenceParams()
    params = model or ModelParams()
    slide = math.dist(touch.start, touch.rest)
    if slide < MIN_SLIDE_MM:
        raise TouchError(
            f"touch {touch.spot.number}: the struck disc hardly moved ({slide:.0f} mm): flick a little harder"
        )
    if slide > MAX_SLIDE_MM:
        raise TouchError(
            f"touch {touch.spot.number}: the struck disc slid {slide / 10:.0f} cm: flick more softly "
            f"(at most {MAX_SLIDE_MM / 10:.0f} cm)"
        )
    mu = params.sliding_friction * calibration.friction.scale
    impulse = touch.mass_g * math.sqrt(2 * mu * GRAVITY_MM_S2 * slide)
    strength = ep.impulse_scale * impulse * ep.disc_disc_coupling
    # Where the discs met: the struck disc's edge, on the side it was struck from.
    ux, uy = _unit(touch.rest[0] - touch.start[0], touch.rest[1] - touch.start[1])
    met = (touch.start[0] - touch.radius_mm * ux, touch.start[1] - touch.radius_mm * uy)
    speed = calibration.speed_mm_per_us
    lags = calibration.sensor_offsets_us()
    where = {sid: (x, y) for sid, x, y in sensors}
    contact = _touch_contact(touch.impacts, met, where, speed, lags)
    gains = calibration.sensor_gains()
    heard, unheard = [], []
    amplitude = {sid: amp for sid, _, amp in contact}
    for sid, (sx, sy) in sorted(where.items()):
        distance = math.dist(met, (sx, sy))
        expected = strength * gains.get(sid, 1.0) / (1 + distance / ep.amplitude_falloff_mm)
        if sid in amplitude:
            heard.append((distance, math.log(max(amplitude[sid], 1e-6) / expected)))
        else:
            unheard.append((distance, math.log(threshold / expected)))
    return TouchReading(tuple(heard), tuple(unheard), impulse)


def _touch_contact(
    impacts: Sequence[tuple[int, int, float]],
    met: tuple[float, float],
    where: dict[int, tuple[float, float]],
    speed: float,
    lags: dict[int, float],
) -> list[tuple[int, int, float]]:
    """The impacts of the discs' touch: of the groups heard (a finger's click may come first), the one
    whose arrivals fit a contact where the discs met best; each piezo's first arrival in it."""
    groups: list[list[tuple[int, int, float]]] = []
    for impact in sorted(impacts, key=lambda i: i[1]):
        if groups and impact[1] - groups[-1][0][1] <= TAP_GAP_US:
            if all(s != impact[0] for s, _, _ in groups[-1]):
                groups[-1].append(impact)
        else:
            groups.append([impact])
    groups = [[i for i in g if i[0] in where] for g in groups]
    groups = [g for g in groups if g]
    if not groups:
        return []

    def misfit(group: list[tuple[int, int, float]]) -> float:
        if len(group) < 3:
            return math.inf
        residuals = [t - lags.get(s, 0.0) - math.dist(met, where[s]) / speed for s, t, _ in group]
        mean = sum(residuals) / len(residuals)
        return sum((r - mean) ** 2 for r in residuals) / (len(residuals) - 1)

    # The touch is the last group heard (the struck disc then slid to rest on open mat) unless an earlier
    # one fits the meeting place clearly better.
    best = min(groups, key=misfit)
    return best if misfit(best) < math.inf else groups[-1]


@dataclass(frozen=True)
class TouchFit:
    calibration: TableCalibration
    figures: dict[str, Any]


def fit_touches(
    readings: Sequence[TouchReading],
    problems: Sequence[str],
    start: TableCalibration,
    threshold: float,
    ep: EvidenceParams | None = None,
) -> TouchFit:
    """The table's disc-on-disc loudness belief with the touches read folded in, as play folds in a right
    reading's touches: per touch, the heard piezos' mean loudness as one reading; a touch no piezo heard as
    a censored one. The rest of ``start`` is kept."""
    if not readings:
        raise TouchError("no touch could be read: " + "; ".join(problems or ["no touches were made"]))
    ep = ep or EvidenceParams()
    disc = start.disc_loudness
    for reading in readings:
        if reading.heard:
            sample = sum(v for _, v in reading.heard) / len(reading.heard)
            disc = _floor(disc.update(sample, LOUDNESS_SAMPLE_SD))
        else:
            bound = min(b for _, b in reading.unheard)
            disc = _floor(disc.below(bound, CONTACT_LOUDNESS_SPREAD, UNRECOGNISED_SHARE))
    calibration = replace(start, disc_loudness=disc)
    return TouchFit(calibration, touch_figures(readings, problems, disc, threshold, ep))


def hearing_range_mm(disc: Belief, impulse: float, threshold: float, ep: EvidenceParams) -> float:
    """How far from a piezo (of nominal gain) a touch of that impulse is still heard, by the belief."""
    loud = ep.impulse_scale * impulse * ep.disc_disc_coupling * disc.scale
    return max(0.0, (loud / threshold - 1) * ep.amplitude_falloff_mm)


def touch_figures(
    readings: Sequence[TouchReading],
    problems: Sequence[str],
    disc: Belief,
    threshold: float,
    ep: EvidenceParams,
) -> dict[str, Any]:
    advice = list(problems)
    if len(readings) < GOOD_TOUCHES:
        advice.append(f"only {len(readings)} of the touches could be read: make the touches again")
    impulses = sorted(r.impulse for r in readings)
    typical = impulses[len(impulses) // 2]
    farthest = max((d for r in readings for d, _ in r.heard), default=0.0)
    return {
        "touches": len(readings) + len(problems),
        "touches_read": len(readings),
        "touch_loudness": round(disc.scale, 3),
        "touch_loudness_uncertainty": round(disc.sd, 3),
        "heard_up_to_mm": round(farthest),
        "soft_touch_heard_within_mm": round(hearing_range_mm(disc, typical, threshold, ep)),
        "good": len(readings) >= GOOD_TOUCHES,
        "advice": advice,
    }


def _floor(belief: Belief) -> Belief:
    """Contact loudness is never known better than the model's impulses (learning.py keeps the same floor)."""
    return replace(belief, sd=max(belief.sd, 0.12))


def _unit(dx: float, dy: float) -> tuple[float, float]:
    norm = math.hypot(dx, dy) or 1.0
    return dx / norm, dy / norm
