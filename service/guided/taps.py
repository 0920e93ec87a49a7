"""Tapping marked points: the mat's sound speed, each piezo's lag and gain, and how well they are known. Pure.

The referee taps the mat firmly (a disc's edge, a pen) once on each marked point. A tap is a contact at a
**known** place, so each one pins down the sound's travel time to every piezo that heard it: nine taps fit
the sound speed and every channel's lag together (``service.attribution.acoustics_joint.solve_joint``, each
tap anchored at its point) far better than the first shots of play can. Loudness at each piezo against the
distance fall-off gives each channel's relative gain.

The result is a :class:`~service.attribution.calibration.TableCalibration` whose source is ``guided``: the
same file attribution reads and goes on learning into from play (docs/calibration.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from firmware_bridge.messages import Impact
from service.attribution.acoustics import SPEED_GRID, KeptEvent
from service.attribution.acoustics_joint import solve_joint
from service.attribution.calibration import SensorStats, TableCalibration

TAP_GAP_US = 5_000  # impacts further apart than this (after the first) are another tap or an echo
POINT_SIGMA_MM = 5.0  # how closely a referee hits a marked point
MIN_SENSORS = 4  # a tap heard by fewer piezos says little about the speed

# What "good" means for the figures (docs/setup.md): the same bar attribution's own settling uses for the
# speed, a timing residual a reading can work with, and every piezo heard often enough to know its lag.
GOOD_SPEED_SD = 0.05
GOOD_JITTER_US = 60.0
GOOD_TAPS_PER_SENSOR = 4


class CalibrationRoutineError(ValueError):
    """The taps cannot be fitted (too few heard), or a request the routine cannot carry out."""


@dataclass(frozen=True)
class TapPoint:
    number: int  # as marked on the mat, from 1
    x_mm: float
    y_mm: float


def tap_points(width_mm: float, height_mm: float, inset_mm: float = 120.0) -> tuple[TapPoint, ...]:
    """Nine points: a 3 x 3 grid ``inset_mm`` in from the mat's edges, row by row from the first corner."""
    xs = (inset_mm, width_mm / 2, width_mm - inset_mm)
    ys = (inset_mm, height_mm / 2, height_mm - inset_mm)
    return tuple(TapPoint(i + 1, x, y) for i, (y, x) in enumerate((y, x) for y in ys for x in xs))


@dataclass(frozen=True)
class Tap:
    """The first arrival at each piezo that heard one tap: (sensor id, device µs, amplitude)."""

    point: TapPoint
    arrivals: tuple[tuple[int, int, float], ...]

    @property
    def sensors(self) -> int:
        return len(self.arrivals)


def tap_from_impacts(point: TapPoint, impacts: Iterable[Impact]) -> Tap:
    """One tap's impacts: each piezo's first arrival within TAP_GAP_US of the first (the rest: echoes)."""
    ordered = sorted(impacts, key=lambda i: i.t_us)
    if not ordered:
        return Tap(point, ())
    first = ordered[0].t_us
    seen: dict[int, tuple[int, int, float]] = {}
    for impact in ordered:
        if impact.t_us - first <= TAP_GAP_US and impact.sensor_id not in seen:
            seen[impact.sensor_id] = (impact.sensor_id, impact.t_us, float(impact.amplitude))
    return Tap(point, tuple(sorted(seen.values())))


@dataclass(frozen=True)
class GuidedFit:
    calibration: TableCalibration
    figures: dict[str, Any]  # for people: see :func:`quality_figures`


def fit_taps(
    taps: Sequence[Tap],
    sensors: Sequence[tuple[int, float, float]],
    width_mm: float,
    height_mm: float,
    gap_mm: float,
    falloff_mm: float,
    start: TableCalibration,
) -> GuidedFit:
    """Fit speed, lags, jitter and gains from the taps; the rest of ``start`` (surface beliefs) is kept."""
    heard = [t for t in taps if t.sensors >= MIN_SENSORS]
    if len(heard) < 3:
        raise CalibrationRoutineError(
            f"only {len(heard)} tap(s) were heard by {MIN_SENSORS} or more piezos; at least 3 are needed: "
            "tap harder, on the marked points"
        )
    kept = [
        KeptEvent(
            tuple((sid, float(t - min(a[1] for a in tap.arrivals))) for sid, t, _ in tap.arrivals),
            (tap.point.x_mm, tap.point.y_mm, POINT_SIGMA_MM),
        )
        for tap in heard
    ]
    joint = solve_joint(
        kept,
        tuple(sensors),
        width_mm,
        height_mm,
        gap_mm,
        start.speed_mm_per_us,
        start.sensor_offsets_us(),
        start.jitter_us,
    )
    if joint is None:
        raise CalibrationRoutineError("the taps could not be fitted: the piezos named do not match the mat's")
    sd = max(joint.speed_log_sd, 0.005)
    speed_loglik = tuple(-0.5 * (math.log(v / joint.speed_mm_per_us) / sd) ** 2 for v in SPEED_GRID)
    calibration = replace(
        start,
        source="guided",
        speed_loglik=speed_loglik,
        offsets_us=joint.offsets_us,
        jitter_ss_us2=joint.jitter_us**2 * max(joint.jitter_dof, 1),
        jitter_dof=float(max(joint.jitter_dof, 1)),
        sensors=_gains(heard, sensors, falloff_mm),
        acoustic_events=tuple(kept),
    )
    return GuidedFit(calibration, quality_figures(calibration, taps, heard, sensors))


def _gains(
    taps: Sequence[Tap], sensors: Sequence[tuple[int, float, float]], falloff_mm: float
) -> tuple[tuple[int, SensorStats], ...]:
    """Each piezo's loudness against the others', after the distance fall-off (as learning.py reads it)."""
    positions = {sid: (x, y) for sid, x, y in sensors}
    stats: dict[int, SensorStats] = {}
    for tap in taps:
        level = {
            sid: math.log(max(amp, 1e-6))
            + math.log(
                1
                + math.hypot(tap.point.x_mm - positions[sid][0], tap.point.y_mm - positions[sid][1])
                / falloff_mm
            )
            for sid, _, amp in tap.arrivals
            if sid in positions
        }
        mean = sum(level.values()) / len(level)
        for sid, value in level.items():
            old = stats.get(sid, SensorStats())
            stats[sid] = SensorStats(old.log_gain_sum + value - mean, old.gain_n + 1)
    return tuple(sorted(stats.items()))


def quality_figures(
    calibration: TableCalibration,
    taps: Sequence[Tap],
    heard: Sequence[Tap],
    sensors: Sequence[tuple[int, float, float]],
) -> dict[str, Any]:
    """How well the taps pinned the mat down, and in words what to do about a weak figure."""
    per_sensor = {sid: sum(1 for t in heard if any(a[0] == sid for a in t.arrivals)) for sid, _, _ in sensors}
    advice: list[str] = []
    if calibration.speed_log_sd > GOOD_SPEED_SD:
        advice.append(
            f"the sound speed is known only to ±{calibration.speed_log_sd:.0%}: tap the points again, harder"
        )
    if calibration.jitter_us > GOOD_JITTER_US:
        advice.append(
            f"arrival times scatter by {calibration.jitter_us:.0f} µs: "
            "check that each piezo is stuck down firmly"
        )
    for sid, count in sorted(per_sensor.items()):
        if count < GOOD_TAPS_PER_SENSOR:
            advice.append(f"piezo {sid} heard only {count} of {len(taps)} taps: check its cable and mounting")
    return {
        "taps": len(taps),
        "taps_heard": len(heard),
        "sound_speed_m_per_s": round(calibration.speed_mm_per_us * 1000),
        "sound_speed_uncertainty": round(calibration.speed_log_sd, 4),
        "timing_jitter_us": round(calibration.jitter_us, 1),
        "sensor_offsets_us": {
            str(k): round(v, 1) for k, v in sorted(calibration.sensor_offsets_us().items())
        },
        "sensor_gains": {str(k): round(v, 3) for k, v in sorted(calibration.sensor_gains().items())},
        "taps_per_sensor": {str(k): v for k, v in sorted(per_sensor.items())},
        "good": not advice,
        "advice": advice,
    }
