"""The simulated overhead camera's faults (docs/sensor-model.md, "Overhead camera"): exposure blur, a lens
bias that varies across the mat, look-alike discs swapping labels, a clock that is not the board's, and a
frame rate of its own. Each is checked on a shot whose true frames are built by hand."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from service.mat.geometry import load_sensor_config
from service.simulator.camera import CAMERA_QUALITIES, CameraModel, CameraTruth, draw_lens_waves
from service.simulator.hidden_mats import hidden_table
from service.simulator.table_edges import ShotRecord

CONFIG = load_sensor_config("camera").camera
assert CONFIG is not None


def sliding(speed_mm_per_frame: float, frames: int = 30) -> ShotRecord:
    """A disc sliding along y = 300 at a constant speed, filmed at 120 fps, and an orc far away."""
    period = 1.0 / 120.0
    shots = [
        (k * period, {"hero": (100.0 + speed_mm_per_frame * k, 300.0), "orc": (700.0, 100.0)})
        for k in range(frames)
    ]
    return ShotRecord("hero", 0.0, speed_mm_per_frame * 120.0, 0.0, frames=shots)


def hero_points(record: ShotRecord, truth: CameraTruth) -> dict[int, tuple[float, float]]:
    report = CameraModel(CONFIG, truth, seed=4).film(record, 1_000_000)
    track = report.track("hero")
    assert track is not None
    return {k: (x, y) for k, x, y in track.points}


def test_exposure_smears_a_moving_disc_back_along_its_motion() -> None:
    # 10 mm per frame at 120 fps (1.2 m/s), shutter open for half a frame: the smear's centre is 2.5 mm back.
    record = sliding(10.0)
    sharp = hero_points(record, CameraTruth(sigma_mm=0.05))
    blurred = hero_points(record, CameraTruth(sigma_mm=0.05, exposure_s=0.5 / 120.0))
    lag = statistics.fmean(sharp[k][0] - blurred[k][0] for k in range(2, 29))
    assert lag == pytest.approx(2.5, abs=0.3)
    across = statistics.fmean(abs(blurred[k][1] - 300.0) for k in range(2, 29))
    assert across < 0.2  # smeared along its motion only


def test_the_lens_bias_stays_within_its_bound_and_changes_smoothly_across_the_mat() -> None:
    waves = draw_lens_waves(random.Random(3), 3.0)
    truth = CameraTruth(sigma_mm=0.0, lens_waves=waves)
    grid = [(x, y) for x in range(0, 901, 50) for y in range(0, 601, 50)]
    sizes = [math.hypot(*truth.lens_bias(x, y)) for x, y in grid]
    assert max(sizes) <= 3.0 + 1e-9
    assert max(sizes) > 0.5  # not flat
    # Two discs that touch stand about 40 mm apart: the bias between them differs by far less than its size.
    steps = [math.dist(truth.lens_bias(x, y), truth.lens_bias(x + 40, y)) for x, y in grid]
    assert max(steps) < 1.5


def passing(gap_mm: float) -> ShotRecord:
    """Disc a slides past disc b (both 19 mm) along y = 300; b stands with its edge ``gap_mm`` off a's."""
    period = 1.0 / 120.0
    frames = [
        (k * period, {"a": (100.0 + 10.0 * k, 300.0), "b": (300.0, 300.0 + 38.0 + gap_mm)}) for k in range(40)
    ]
    return ShotRecord("a", 0.0, 1200.0, 0.0, frames=frames)


def test_look_alike_discs_passing_close_can_leave_with_each_others_labels() -> None:
    record = passing(5.0)
    report = CameraModel(CONFIG, CameraTruth(sigma_mm=0.1, swap_probability=1.0), seed=1).film(
        record, 0, {"a": 19.0, "b": 19.0}
    )
    track_a, track_b = report.track("a"), report.track("b")
    assert track_a is not None and track_b is not None
    # After the pass, the track named a stays where b stood and the one named b runs on with a.
    assert math.dist(track_a.points[-1][1:], (300.0, 343.0)) < 2.0
    assert track_b.points[-1][1] > 450.0
    assert record.camera_swaps and record.camera_swaps[0][1:] == ("a", "b")


@pytest.mark.parametrize(("looks", "gap"), [({"a": 19.0, "b": 16.0}, 5.0), ({"a": 19.0, "b": 19.0}, 40.0)])
def test_discs_that_differ_or_pass_far_apart_keep_their_labels(looks: dict[str, float], gap: float) -> None:
    record = passing(gap)
    report = CameraModel(CONFIG, CameraTruth(sigma_mm=0.1, swap_probability=1.0), seed=1).film(
        record, 0, looks
    )
    track_a = report.track("a")
    assert track_a is not None and track_a.points[-1][1] > 450.0
    assert not record.camera_swaps


def test_the_camera_clock_is_off_the_boards_by_its_offset() -> None:
    report = CameraModel(CONFIG, CameraTruth(sigma_mm=0.1, clock_offset_us=-3000.0), seed=1).film(
        sliding(5.0), 1_000_000
    )
    assert report.start_us == 997_000


def test_a_camera_reports_its_own_frame_rate() -> None:
    model = CameraModel(CONFIG, CameraTruth(sigma_mm=0.1, fps=60.0), seed=1)
    period = 1.0 / 60.0
    frames = [(k * period, {"hero": (100.0 + 10.0 * k, 300.0)}) for k in range(20)]
    report = model.film(ShotRecord("hero", 0.0, 600.0, 0.0, frames=frames), 0)
    assert report.fps == 60.0 and report.frames == 20


@pytest.mark.parametrize("quality", sorted(CAMERA_QUALITIES))
def test_hidden_tables_draw_their_cameras_from_the_qualitys_ranges(quality: str) -> None:
    ranges = CAMERA_QUALITIES[quality]
    drawn = [hidden_table(77, k, "camera", "shared", quality).camera for k in range(4)]
    for camera in drawn:
        assert camera is not None
        assert ranges["sigma_mm"][0] <= camera.sigma_mm <= ranges["sigma_mm"][1]
        assert ranges["exposure_s"][0] <= camera.exposure_s <= ranges["exposure_s"][1]
        assert ranges["clock_offset_us"][0] <= camera.clock_offset_us <= ranges["clock_offset_us"][1]
        assert camera.fps == ranges["fps"][0]
        assert camera.lens_waves
    assert len({c.sigma_mm for c in drawn if c is not None}) == 4  # each table its own camera


def test_the_study_camera_is_unchanged_by_the_qualities() -> None:
    camera = hidden_table(77, 0, "camera", "shared").camera
    assert camera is not None
    assert (
        camera.fps is None
        and camera.exposure_s == 0.0
        and camera.lens_waves == ()
        and camera.swap_probability == 0.0
    )
