"""The sensor model reports what the reference hardware would: coarse tag positions and piezo impacts."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from firmware_bridge.messages import ReaderGrid
from service.mat.geometry import load_mat, load_sensor_config
from service.sensing.locate import calibration_for, locate
from service.sensing.tags import RegisteredPiece, TagRegistry
from service.simulator.sensors import PiezoTruth, SensorModel, tag_uid
from service.simulator.world import Contact

MAT = load_mat()
REFERENCE = load_sensor_config("reference")


def _centroid_errors(config_name: str, samples: int = 400) -> list[tuple[float, float]]:
    config = load_sensor_config(config_name)
    sensors = SensorModel(config, MAT, seed=11)
    grid = ReaderGrid(sensors.cols, sensors.rows, config.nfc.pitch_mm, sensors.origin)
    registry = TagRegistry([RegisteredPiece("orc-1", tag_uid("orc-1"), "monster-medium")])
    rng = random.Random(12)
    errors = []
    for _ in range(samples):
        x, y = rng.uniform(30, MAT.width_mm - 30), rng.uniform(30, MAT.height_mm - 30)
        # The daemon's own estimator (service/sensing/locate.py) on the model's reads.
        seen = locate(sensors.scan({"orc-1": (x, y)}), grid, registry, calibration_for(config.nfc))
        if "orc-1" in seen:
            errors.append((seen["orc-1"].x_mm - x, seen["orc-1"].y_mm - y))
    return errors


def test_reference_grid_places_tags_to_about_three_millimetres() -> None:
    errors = _centroid_errors("reference")
    rms_per_axis = math.sqrt(statistics.mean(dx * dx + dy * dy for dx, dy in errors) / 2)
    assert 2.0 < rms_per_axis < 3.6
    assert abs(statistics.mean(dx for dx, _ in errors)) < 0.6  # no bias


def test_noisier_configuration_is_measurably_worse() -> None:
    reference = statistics.mean(math.hypot(*e) for e in _centroid_errors("reference"))
    noisier = statistics.mean(math.hypot(*e) for e in _centroid_errors("noisier"))
    assert noisier > 1.5 * reference


def test_about_two_percent_of_tags_are_missed_per_scan() -> None:
    sensors = SensorModel(REFERENCE, MAT, seed=13)
    scans = 3000
    missed = sum(not sensors.scan({"orc-1": (400.0, 300.0)}) for _ in range(scans))
    assert 0.01 < missed / scans < 0.03


def test_signal_is_strongest_on_the_antenna_under_the_tag() -> None:
    sensors = SensorModel(REFERENCE, MAT, seed=14)
    col, row = 10, 8
    x, y = sensors.cell_centre(col, row)
    reads = [r for r in sensors.scan({"orc-1": (x + 2.0, y - 1.0)}) if True]
    best = max(reads, key=lambda r: r.rssi)
    assert (best.col, best.row) == (col, row)
    assert all(-128 <= r.rssi <= 127 for r in reads)  # fits the wire's signed byte


def _wall_hit(impulse: float, kind: str = "wall", x: float = 430.0, y: float = 0.0) -> Contact:
    return Contact(0.1, x, y, "orc-1", "wall", kind, impulse, 1000.0)


def test_the_nearest_piezo_hears_a_wall_hit_first() -> None:
    sensors = SensorModel(REFERENCE, MAT, seed=15)
    impacts = sensors.impacts([_wall_hit(8000.0)], start_us=1_000_000, duration_s=0.0)
    assert len(impacts) >= 4
    first = min(impacts, key=lambda i: i.t_us)
    assert first.sensor_id == 4  # the piezo at the middle of the near wall (430, 0)
    assert first.t_us == pytest.approx(1_100_000, abs=150)


def test_disc_on_disc_contacts_couple_at_a_third_of_a_wall_hit() -> None:
    sensors = SensorModel(REFERENCE, MAT, seed=16)
    wall, disc = [], []
    for _ in range(200):
        wall += [i.amplitude for i in sensors.impacts([_wall_hit(30000.0)], 0, 0.0) if i.sensor_id == 4]
        disc += [
            i.amplitude for i in sensors.impacts([_wall_hit(30000.0, "disc")], 0, 0.0) if i.sensor_id == 4
        ]
    assert statistics.median(disc) / statistics.median(wall) == pytest.approx(0.3, abs=0.03)


def test_weakest_contacts_fall_below_the_detection_threshold() -> None:
    sensors = SensorModel(REFERENCE, MAT, seed=17)
    quiet = sensors.impacts([_wall_hit(300.0, "disc", x=430.0, y=300.0)], 0, 0.0)
    assert quiet == []


def test_false_triggers_come_at_the_configured_rate() -> None:
    sensors = SensorModel(REFERENCE, MAT, seed=18)
    seconds = 200.0
    triggers = sensors.impacts([], start_us=0, duration_s=seconds)
    expected = REFERENCE.piezo.false_triggers_per_s * len(sensors.piezos) * seconds
    assert 0.75 * expected < len(triggers) < 1.25 * expected
    assert all(t.amplitude >= REFERENCE.piezo.detection_threshold for t in triggers)


# ---- laws a real mat need not share with the configuration (PiezoTruth; hidden mats with varied laws) ----
def _far_and_near_amplitudes(truth: PiezoTruth, seed: int) -> tuple[float, float]:
    """Median amplitude at the near piezo (4, under the hit) and at a far one (2, a corner away)."""
    sensors = SensorModel(REFERENCE, MAT, seed=seed, truth=truth)
    near, far = [], []
    for _ in range(100):
        for i in sensors.impacts([_wall_hit(30000.0)], 0, 0.0):
            (near if i.sensor_id == 4 else far if i.sensor_id == 2 else []).append(i.amplitude)
    return statistics.median(near), statistics.median(far)


def test_an_exponential_mat_carries_far_impacts_more_weakly_than_the_configured_law() -> None:
    length = REFERENCE.piezo.amplitude_falloff_mm
    near_h, far_h = _far_and_near_amplitudes(PiezoTruth(), seed=19)
    near_e, far_e = _far_and_near_amplitudes(
        PiezoTruth(falloff_law="exponential", falloff_mm=length), seed=19
    )
    assert far_e / near_e < 0.6 * far_h / near_h


def test_a_slow_wave_front_makes_soft_hits_arrive_later_than_hard_ones() -> None:
    truth = PiezoTruth(rise_time_us=80.0)
    sensors = SensorModel(REFERENCE, MAT, seed=20, truth=truth)
    plain = SensorModel(REFERENCE, MAT, seed=20)

    def near_arrival(model: SensorModel, impulse: float) -> int:
        return next(i.t_us for i in model.impacts([_wall_hit(impulse)], 0, 0.0) if i.sensor_id == 4)

    # The same seed draws the same noise, so the difference is the rise time's delay alone.
    soft_delay = near_arrival(sensors, 2000.0) - near_arrival(plain, 2000.0)
    hard_delay = near_arrival(sensors, 200000.0) - near_arrival(plain, 200000.0)
    assert soft_delay > hard_delay + 10


def test_heavy_tailed_timing_noise_has_more_outliers_than_gaussian() -> None:
    def outliers(truth: PiezoTruth) -> int:
        sensors = SensorModel(REFERENCE, MAT, seed=21, truth=truth)
        sigma = REFERENCE.piezo.timing_jitter_us
        return sum(abs(sensors.timing_noise(sigma)) > 4 * sigma for _ in range(20000))

    assert outliers(PiezoTruth(timing_tail_dof=3.0)) > 10 * max(1, outliers(PiezoTruth()))


def test_an_unknown_fall_off_law_is_refused_by_name() -> None:
    sensors = SensorModel(REFERENCE, MAT, seed=22, truth=PiezoTruth(falloff_law="cubic"))
    with pytest.raises(ValueError, match="cubic"):
        sensors.impacts([_wall_hit(30000.0)], 0, 0.0)
