"""One estimate of the camera's clock against the board's (service/camera/clock.py), made the same way on the
table's camera feed and in the table's calibration, with an uncertainty that does not claim more than the
shots can show (docs/camera.md, "clock")."""

from __future__ import annotations

import math
import statistics

from service.attribution.calibration import calibration_from_json, wide_priors
from service.attribution.camera_quality import CameraQuality
from service.camera.clock import (
    KEEP_SHOTS,
    SHOT_SCATTER_FLOOR_US,
    SYSTEMATIC_US,
    ClockSync,
    offset_from_shots,
)

# Each shot's own camera − board offset (µs): a camera 3.2 ms ahead, one shot scattering about 0.6 ms.
SHOTS_US = [3200.0, 3900.0, 2600.0, 3300.0, 3150.0, 2500.0, 3700.0, 3250.0]


def test_the_offset_is_the_median_of_the_shots_and_no_surer_than_what_shots_cannot_average_away() -> None:
    assert offset_from_shots(SHOTS_US[:1]) is None
    two = offset_from_shots(SHOTS_US[:2])
    assert two is not None and two.offset_us == 3550.0 and two.uncertainty_us is None
    estimate = offset_from_shots(SHOTS_US)
    assert estimate is not None and estimate.offset_us == statistics.median(SHOTS_US)
    assert estimate.uncertainty_us is not None and estimate.uncertainty_us > SYSTEMATIC_US
    # Three shots that happen to agree to the microsecond do not make the offset known to the microsecond:
    # one shot dates a set-off only to a millisecond or two.
    lucky = offset_from_shots([3200.0] * 3)
    assert lucky is not None and lucky.uncertainty_us is not None
    assert lucky.uncertainty_us >= SHOT_SCATTER_FLOOR_US / math.sqrt(3)
    # However many shots agree, the piezos' hearing lag and the shutter's readout still stand.
    many = offset_from_shots([3200.0] * KEEP_SHOTS)
    assert many is not None and many.uncertainty_us is not None
    assert SYSTEMATIC_US < many.uncertainty_us < lucky.uncertainty_us
    # Only the latest shots count: a camera restarted on another clock is followed.
    moved = offset_from_shots([0.0] * KEEP_SHOTS + [9000.0] * (KEEP_SHOTS // 2 + 1))
    assert moved is not None and moved.offset_us == 9000.0


def test_the_camera_feed_and_the_tables_calibration_state_the_same_offset_for_the_same_shots() -> None:
    sync = ClockSync()
    for n, offset in enumerate(SHOTS_US):
        # One set-off and the impact that matches it, and a later impact nothing in the frames matches.
        sync.add_shot([1_000_000.0 + offset], [1_000_000.0, 1_100_000.0 + 20_000.0 * n])
    quality = CameraQuality(clock_shots_us=tuple(SHOTS_US))
    measured = quality.clock_offset_us()
    assert sync.estimate is not None and measured is not None
    assert (sync.estimate.offset_us, sync.estimate.uncertainty_us) == measured
    assert "± " in sync.describe() and "8 of 8 shots agree" in sync.describe()


def test_a_calibration_that_kept_only_sums_of_clock_offsets_measures_the_clock_again() -> None:
    data = wide_priors("old").to_json()
    data["camera"] = {"shots": 40, "clock": {"n": 31, "sum_us": 112004.2, "ss_us2": 4.1e8}}
    camera = calibration_from_json(data).camera
    assert camera.shots == 40 and camera.clock_shots_us == () and camera.clock_offset_us() is None
    kept = CameraQuality(shots=40, clock_shots_us=tuple(SHOTS_US))
    data["camera"] = kept.to_json()
    assert calibration_from_json(data).camera == kept
