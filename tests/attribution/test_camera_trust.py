"""A camera trusted only as far as it deserves (docs/attribution.md, "How far the camera is trusted"): its
quality measured from its frames, the NFC scans and the piezos, learnt per table, and used to weigh it."""

from __future__ import annotations

import dataclasses
import json

import pytest

from service.attribution.acoustics import HeardEvent
from service.attribution.calibration import (
    CalibrationFileError,
    calibration_from_json,
    wide_priors,
)
from service.attribution.camera import camera_touches
from service.attribution.camera_fusion import fuse_camera
from service.attribution.camera_quality import (
    KNOWN_AFTER_SHOTS,
    MIN_LENS_GRADIENT,
    PRIOR_LENS_GRADIENT,
    REGION_COLS,
    REGION_ROWS,
    CameraQuality,
    RegionStats,
    check_against_scans,
    clock_samples,
    learn_camera,
)
from service.attribution.reading import Candidate
from service.mat.camera_trace import CameraRecord, CameraTrack
from service.mat.trace import Declaration, MatGeometry, PieceSpec, Scan, SeenPiece, ShotTrace

HERO = PieceSpec("hero", 19.0, 7.4, "hero", "heroes")
ORC = PieceSpec("orc", 16.0, 5.2, "monster", "overseer")
REACH = HERO.radius_mm + ORC.radius_mm


def shot(
    hero_stops_at_x: float,
    *,
    hero_scanned_at: tuple[float, float] | None = None,
    orc_scanned_at: tuple[float, float] | None = (300.0, 300.0),
    start_us: int = 0,
) -> ShotTrace:
    """The hero slides along y = 300 from x = 100 and stops at ``hero_stops_at_x``; the orc at (300, 300)
    stays put. The post-shot scan finds each where the camera does unless told otherwise."""
    points, x, speed, k = [], 100.0, 12.0, 0
    while True:
        points.append((k, x, 300.0))
        if x >= hero_stops_at_x:
            break
        k += 1
        speed = max(speed * 0.93, 0.4)
        x = min(x + speed, hero_stops_at_x)
    for j in range(1, 6):
        points.append((k + j, hero_stops_at_x, 300.0))
    frames = points[-1][0] + 1
    camera = CameraRecord(
        120.0, 0.5, start_us, frames, (CameraTrack("hero", tuple(points)),), (("orc", 300.0, 300.0),)
    )
    before = Scan(0, (SeenPiece("hero", 100.0, 300.0, 3.0), SeenPiece("orc", 300.0, 300.0, 3.0)))
    hero_end = hero_scanned_at or (hero_stops_at_x, 300.0)
    seen_after = [SeenPiece("hero", *hero_end, 3.0)]
    if orc_scanned_at is not None:  # None: the grid missed the orc's tag after the shot
        seen_after.append(SeenPiece("orc", *orc_scanned_at, 3.0))
    after = Scan(1, tuple(seen_after))
    return ShotTrace(
        MatGeometry(900.0, 600.0, 30.0, ()),
        (HERO, ORC),
        before,
        Declaration("hero", "melee"),
        (),
        after,
        camera=camera,
    )


def candidate(direct: frozenset[str], probability: float) -> Candidate:
    return Candidate(direct, frozenset(), frozenset(), probability, ())


PHYSICS = [candidate(frozenset(), 0.6), candidate(frozenset({"orc"}), 0.4)]


def test_a_flicked_disc_whose_end_the_scan_contradicts_is_read_as_without_the_camera() -> None:
    # The camera says the hero stopped 6 mm short of the orc; the scan found the hero 90 mm further on: the
    # tracker followed another disc for part of the shot (a swap), so its frames do not decide the shot.
    trace = shot(300.0 - REACH - 6.0, hero_scanned_at=(350.0, 390.0))
    check = check_against_scans(trace, CameraQuality(), 0.5)
    assert "hero" in check.disagreeing
    fused, auto, reasons = fuse_camera(trace, PHYSICS, ("the physics is not sure",))
    assert fused == PHYSICS and not auto
    assert any("may have mixed up hero" in r for r in reasons)
    # With the frames believed, the same shot would have been the camera's to settle.
    trusted = fuse_camera(shot(300.0 - REACH - 6.0), PHYSICS, ("the physics is not sure",))
    assert trusted[0][0].direct_hits == frozenset() and trusted[0][0].probability > 0.9


def test_a_camera_the_table_has_not_proven_applies_only_what_the_physics_backs() -> None:
    # The frames are sure the hero stopped 6 mm short of the orc; the piezos and scans lean the same way at
    # 60 %. A camera the table has not yet measured may be one that loses a fast disc's touch between two
    # frames: the referee decides until it is known, unless the physics backs the frames' reading.
    trace = shot(300.0 - REACH - 6.0)
    fused, auto, reasons = fuse_camera(trace, PHYSICS, ())
    assert fused[0].direct_hits == frozenset() and fused[0].probability > 0.99
    assert not auto and reasons == (
        "the camera is new to this table and the piezos and scans give its reading only 60%",
    )
    backed = [candidate(frozenset(), 0.85), candidate(frozenset({"orc"}), 0.15)]
    assert fuse_camera(trace, backed, ())[1]
    known = CameraQuality(shots=KNOWN_AFTER_SHOTS, noise_sum_mm=0.4 * KNOWN_AFTER_SHOTS)
    assert fuse_camera(trace, PHYSICS, (), quality=known)[1]


def test_a_still_piece_whose_place_the_scan_contradicts_is_for_the_referee() -> None:
    trace = shot(300.0 - REACH - 6.0, orc_scanned_at=(300.0, 230.0))
    _, auto, reasons = fuse_camera(trace, PHYSICS, ())
    assert not auto
    assert any("whether orc was touched: the camera may have mixed it up" in r for r in reasons)


def test_a_camera_not_yet_shown_to_keep_names_doubts_a_pass_the_scans_cannot_check() -> None:
    # The hero ends against the orc and the grid read neither tag after the shot: had the tracker swapped
    # their names, the scans could not show it.
    trace = dataclasses.replace(shot(300.0 - REACH - 1.0), post=Scan(1, ()))
    unknown = check_against_scans(trace, CameraQuality(), 0.5)
    assert unknown.passes == (("hero", "orc"),) and unknown.unseen_swaps == (("hero", "orc"),)
    checked = check_against_scans(shot(300.0 - REACH - 1.0), CameraQuality(), 0.5)
    assert checked.unseen_swaps == ()  # with both ends scanned, a swap would have shown
    # One scan is enough: the grid found the hero where the camera ended it, not where it ended the orc.
    one = check_against_scans(shot(300.0 - REACH - 1.0, orc_scanned_at=None), CameraQuality(), 0.5)
    assert one.unseen_swaps == ()
    # A swap of the flicked disc nobody could see, on a camera not yet shown to keep names (one in ten):
    # the reading of the orc is no longer sure, so the shot is the referee's while the physics is unsure.
    fused, auto, reasons = fuse_camera(trace, PHYSICS, ("the physics is not sure",))
    assert not auto and any("passed close and the scans cannot tell them apart: 10%" in r for r in reasons)
    # A table whose camera kept names through 400 close passes: the pass no longer puts them in doubt.
    proven = CameraQuality(shots=200, noise_sum_mm=100.0, passes=400)
    _, _, reasons = fuse_camera(trace, PHYSICS, ("the physics is not sure",), quality=proven)
    assert not any("passed close" in r for r in reasons)


def test_a_camera_with_an_unknown_lens_reads_a_near_touch_more_humbly() -> None:
    trace = shot(300.0 - REACH - 2.0)
    sharp = camera_touches(trace)["orc"].probability
    humble = camera_touches(trace, relative_mm=PRIOR_LENS_GRADIENT * 40.0)["orc"].probability
    assert humble > sharp  # a 2 mm gap proves less when the lens may be off by a millimetre between them


def test_a_table_learns_its_camera_noise_lost_frames_swaps_and_lens_from_its_shots() -> None:
    quality = CameraQuality()
    for _ in range(KNOWN_AFTER_SHOTS):
        quality = learn_camera(quality, shot(300.0 - REACH - 6.0, orc_scanned_at=(301.5, 299.0)), ())
    assert quality.known and quality.shots == KNOWN_AFTER_SHOTS
    assert quality.swaps == 0 and quality.ends_checked == 2 * KNOWN_AFTER_SHOTS
    assert quality.noise_mm is not None and quality.noise_mm < 0.5
    assert quality.lost_share == 0.0
    region = quality.regions[4 + 1]  # the orc at (300, 300) on a 900 × 600 mat: second column, middle row
    assert region.n == KNOWN_AFTER_SHOTS * 2 and region.sum_x / region.n == pytest.approx(-0.75)
    swapped = learn_camera(quality, shot(300.0 - REACH - 6.0, hero_scanned_at=(350.0, 390.0)), ())
    assert swapped.swaps == 1 and swapped.swap_rate > quality.swap_rate


def test_the_lens_gradient_is_the_prior_until_the_regions_are_measured() -> None:
    assert CameraQuality().lens_gradient() == PRIOR_LENS_GRADIENT
    flat = tuple(RegionStats(100, 50.0, -30.0) for _ in range(REGION_COLS * REGION_ROWS))
    assert CameraQuality(shots=50, regions=flat).lens_gradient() == MIN_LENS_GRADIENT
    bent = list(flat)
    bent[0] = RegionStats(100, 250.0, -30.0)  # 2 mm more bias in one corner than its neighbours
    assert CameraQuality(shots=50, regions=tuple(bent)).lens_gradient() == pytest.approx(2.0 / 200.0)


def test_the_clock_offset_is_measured_from_a_heard_set_off() -> None:
    trace = shot(300.0 - REACH - 6.0, start_us=1_000_000)
    # The hero set off at frame 0 on the camera's clock; the board heard the flick at (100, 300) 3 ms later.
    heard = (HeardEvent(1_003_000.0, 100.0, 300.0, 5, 10.0),)
    assert clock_samples(trace, {"hero": 0.0}, heard) == [pytest.approx(-3000.0)]
    quality = CameraQuality()
    for _ in range(3):
        quality = learn_camera(quality, trace, heard)
    offset = quality.clock_offset_us()
    assert offset is not None and offset[0] == pytest.approx(-3000.0, abs=200)


def test_the_camera_quality_is_kept_in_the_calibration_under_one_key() -> None:
    learnt = learn_camera(CameraQuality(), shot(300.0 - REACH - 6.0), ())
    cal = dataclasses.replace(wide_priors("t"), camera=learnt)
    data = json.loads(json.dumps(cal.to_json()))
    assert data["camera"]["shots"] == 1 and "noise_mm" in data["camera"]["summary"]
    assert calibration_from_json(data).camera == learnt


def test_a_calibration_written_before_the_camera_key_reads_as_a_camera_not_yet_measured() -> None:
    data = wide_priors("old").to_json()
    assert "camera" not in data  # a table without a camera writes its file as before
    assert calibration_from_json(data).camera == CameraQuality()


@pytest.mark.parametrize(
    ("camera", "key"),
    [([], "camera"), ({"swaps": -1}, "camera.swaps"), ({"regions": [[1, 0, 0]]}, "camera.regions")],
)
def test_a_bad_camera_record_in_a_calibration_is_named(camera: object, key: str) -> None:
    data = wide_priors("t").to_json() | {"camera": camera}
    with pytest.raises(CalibrationFileError, match=key):
        calibration_from_json(data)
