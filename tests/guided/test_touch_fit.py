"""Reading the prescribed touches (service/guided/touches.py), without a mat: the loudness law of
service/attribution/evidence.py run forwards gives the impacts, and the reading must find the loudness back.

Rulebook: none (a set-up routine, not a game rule); documented in docs/calibration.md, "Prescribed touches".
"""

from __future__ import annotations

import math

import pytest

from service.attribution.calibration import wide_priors
from service.attribution.evidence import EvidenceParams
from service.attribution.model import GRAVITY_MM_S2, ModelParams
from service.guided.touches import Touch, TouchError, fit_touches, read_touch, touch_spots

SENSORS = ((1, 0.0, 0.0), (2, 860.0, 0.0), (3, 860.0, 610.0), (4, 0.0, 610.0), (5, 430.0, 305.0))
THRESHOLD = 40.0
EP = EvidenceParams()


def heard_touch(number: int, slide_mm: float, loudness: float) -> Touch:
    """A touch at marked place ``number`` on a mat whose touches are ``loudness`` times the model's."""
    spot = touch_spots(860.0, 610.0)[number - 1]
    way = math.atan2(spot.aim_y_mm - spot.y_mm, spot.aim_x_mm - spot.x_mm)
    start = (spot.x_mm, spot.y_mm)
    rest = (start[0] + slide_mm * math.cos(way), start[1] + slide_mm * math.sin(way))
    met = (start[0] - 19.0 * math.cos(way), start[1] - 19.0 * math.sin(way))
    impulse = 7.4 * math.sqrt(2 * ModelParams().sliding_friction * GRAVITY_MM_S2 * slide_mm)
    strength = loudness * EP.impulse_scale * impulse * EP.disc_disc_coupling
    speed = wide_priors().speed_mm_per_us
    impacts = []
    for sid, x, y in SENSORS:
        distance = math.dist(met, (x, y))
        amplitude = strength / (1 + distance / EP.amplitude_falloff_mm)
        if amplitude >= THRESHOLD:
            impacts.append((sid, 1_000_000 + round(distance / speed), amplitude))
    return Touch(spot, start, rest, 19.0, 7.4, tuple(impacts))


def test_four_touches_find_a_loud_mats_touch_loudness_and_say_how_many_they_rest_on() -> None:
    start = wide_priors()
    readings = [read_touch(heard_touch(n, 60.0, 2.0), SENSORS, start, THRESHOLD) for n in range(1, 5)]
    assert all(r.heard for r in readings)
    fit = fit_touches(readings, [], start, THRESHOLD)
    assert fit.calibration.disc_loudness.scale == pytest.approx(2.0, rel=0.1)
    assert fit.calibration.disc_loudness.shots == start.disc_loudness.shots + 4
    assert fit.calibration.disc_loudness.sd < start.disc_loudness.sd
    assert fit.calibration.speed_loglik == start.speed_loglik  # the rest is kept
    assert (fit.figures["touches_read"], fit.figures["good"]) == (4, True)
    # Louder touches are heard further away.
    quiet = fit_touches(
        [read_touch(heard_touch(n, 60.0, 0.8), SENSORS, start, THRESHOLD) for n in range(1, 5)],
        [],
        start,
        THRESHOLD,
    )
    assert quiet.figures["soft_touch_heard_within_mm"] < fit.figures["soft_touch_heard_within_mm"]


def test_a_touch_no_piezo_heard_says_the_mat_is_quieter_than_the_threshold() -> None:
    start = wide_priors()
    silent = read_touch(heard_touch(1, 10.0, 0.01), SENSORS, start, THRESHOLD)
    assert not silent.heard and len(silent.unheard) == len(SENSORS)
    fit = fit_touches([silent], [], start, THRESHOLD)
    assert fit.calibration.disc_loudness.mean < start.disc_loudness.mean
    assert fit.figures["advice"] == ["only 1 of the touches could be read: make the touches again"]


def test_a_nudge_and_a_hard_flick_are_refused_with_what_to_do() -> None:
    start = wide_priors()
    with pytest.raises(TouchError, match="touch 2: the struck disc hardly moved .*flick a little harder"):
        read_touch(heard_touch(2, 4.0, 1.0), SENSORS, start, THRESHOLD)
    with pytest.raises(TouchError, match="touch 3: the struck disc slid 50 cm: flick more softly"):
        read_touch(heard_touch(3, 500.0, 1.0), SENSORS, start, THRESHOLD)
    with pytest.raises(TouchError, match="no touch could be read"):
        fit_touches([], ["touch 1: …"], start, THRESHOLD)
