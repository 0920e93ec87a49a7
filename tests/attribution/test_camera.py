"""Shots seen by an overhead camera: who the flicked disc touched, read from its frames (docs/attribution.md,
"An overhead camera").

The first tests play shots on a simulated mat with a camera whose noise, lost frames and hand the reading is
not told; the later ones hand-build a camera's report to pin down a single situation exactly.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from service.attribution import AttributionConfig, attribute
from service.attribution.calibration import wide_priors
from service.attribution.camera import SURE_NO, SURE_YES, camera_touches
from service.mat.camera_trace import CameraRecord, CameraTrack
from service.mat.trace import Declaration, MatGeometry, PieceSpec, Scan, SeenPiece, ShotTrace
from service.simulator.camera import CameraTruth
from service.simulator.shot_lab import ShotLab, SimulatedShot

QUICK = AttributionConfig(workers=1, broad_rollouts=64, refine_rounds=2, refine_rollouts=32, seed=1)
# A camera noisier than it says (0.5 mm), losing frames, with a hand over the flick's first 40 ms.
A_REAL_CAMERA = CameraTruth(sigma_mm=0.9, dropped_frames=0.03, hand_s=0.04, offset_mm=(1.0, -0.8))


def camera_table(seed: int) -> ShotLab:
    return ShotLab(seed=seed, sensor_config="camera", camera_truth=A_REAL_CAMERA)


def shoot(table: ShotLab, piece: str, angle_deg: float, speed_mm_s: float) -> SimulatedShot:
    return table.shoot(piece, math.radians(angle_deg), speed_mm_s)


def test_a_piece_that_sets_off_as_the_flicked_disc_reaches_it_was_touched() -> None:
    table = camera_table(seed=3)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    table.place("troll-1", "monster-large", 420, 520, side="overseer", kind="monster")
    shot = shoot(table, "hero-xoric", 0.0, 2000)
    assert shot.truth.direct_hits == {"orc-1"}
    readings = camera_touches(shot.trace)
    assert readings["orc-1"].probability >= SURE_YES
    assert "set off as hero-xoric reached it" in readings["orc-1"].evidence
    assert "troll-1" not in readings or readings["troll-1"].probability <= SURE_NO


def test_a_piece_set_off_by_the_struck_one_is_pushed_not_hit() -> None:
    table = camera_table(seed=5)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 300, 300, side="overseer", kind="monster")
    table.place("orc-2", "monster-medium", 345, 300, side="overseer", kind="monster")
    shot = shoot(table, "hero-xoric", 0.0, 1500)
    assert shot.truth.direct_hits == {"orc-1"} and "orc-2" in shot.truth.pushed
    readings = camera_touches(shot.trace)
    assert readings["orc-1"].probability >= SURE_YES
    assert readings["orc-2"].probability <= SURE_NO
    assert "set off as orc-1 reached it" in readings["orc-2"].evidence


def test_a_disc_sliding_past_a_piece_with_a_gap_did_not_touch_it() -> None:
    table = camera_table(seed=7)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    # The orc's edge stands 8 mm clear of the hero's path.
    reach = table.specs["hero-xoric"].radius_mm + 16.0
    table.place("orc-1", "monster-medium", 330, 300 + reach + 8.0, side="overseer", kind="monster")
    shot = shoot(table, "hero-xoric", 0.0, 1200)
    assert shot.truth.direct_hits == set()
    readings = camera_touches(shot.trace)
    assert "orc-1" not in readings or readings["orc-1"].probability <= SURE_NO


def test_the_camera_applies_a_clear_hit_that_the_piezos_alone_would_hold_back() -> None:
    # A table that has not learnt its mat yet: without the camera, the shot waits for the referee.
    table = camera_table(seed=3)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    shot = shoot(table, "hero-xoric", 0.0, 2000)
    new_table = dataclasses.replace(QUICK, table=wide_priors("new"))
    without = attribute(dataclasses.replace(shot.trace, camera=None), new_table)
    assert not without.auto_apply
    assert any("calibration not settled" in r for r in without.reasons)
    seen = attribute(shot.trace, new_table)
    assert seen.top.direct_hits == {"orc-1"}
    assert seen.auto_apply and seen.reasons == ()
    assert seen.top.probability >= 0.99


# ---- hand-built camera reports ----
HERO = PieceSpec("hero", 19.0, 7.4, "hero", "heroes")
ORC = PieceSpec("orc", 16.0, 5.2, "monster", "overseer")
REACH = HERO.radius_mm + ORC.radius_mm


def report(hero_stops_at_x: float, *, orc_at: tuple[float, float] = (300.0, 300.0)) -> ShotTrace:
    """The hero slides along y = 300 from x = 100 and stops at ``hero_stops_at_x``; the orc stays put."""
    points, x, speed, k = [], 100.0, 12.0, 0
    while True:
        points.append((k, x, 300.0))
        if x >= hero_stops_at_x:
            break
        k += 1
        speed = max(speed * 0.93, 0.4)
        x = min(x + speed, hero_stops_at_x)
    for j in range(1, 6):  # it rests there
        points.append((k + j, hero_stops_at_x, 300.0))
    frames = points[-1][0] + 1
    camera = CameraRecord(120.0, 0.5, 0, frames, (CameraTrack("hero", tuple(points)),), (("orc", *orc_at),))
    scan = Scan(0, (SeenPiece("hero", 100.0, 300.0, 3.0), SeenPiece("orc", *orc_at, 3.0)))
    after = Scan(1, (SeenPiece("hero", hero_stops_at_x, 300.0, 3.0), SeenPiece("orc", *orc_at, 3.0)))
    return ShotTrace(
        MatGeometry(900.0, 600.0, 30.0, ()),
        (HERO, ORC),
        scan,
        Declaration("hero", "melee"),
        (),
        after,
        camera=camera,
    )


def test_a_disc_that_stops_well_short_of_a_still_piece_did_not_touch_it() -> None:
    reading = camera_touches(report(300.0 - REACH - 6.0))["orc"]
    assert reading.probability <= SURE_NO
    assert "stayed put" in reading.evidence


def test_a_disc_that_comes_to_rest_against_a_still_piece_is_for_the_referee() -> None:
    # Touching softly and stopping a hair short look the same to a camera: it says so instead of guessing.
    reading = camera_touches(report(300.0 - REACH))["orc"]
    assert SURE_NO < reading.probability < SURE_YES
    assert not reading.sure


def test_a_shot_the_camera_leaves_open_names_the_piece_for_the_referee() -> None:
    result = attribute(report(300.0 - REACH), dataclasses.replace(QUICK, table=wide_priors("t")))
    assert not result.auto_apply
    assert any(r.startswith("the camera cannot tell whether orc was touched") for r in result.reasons)


def test_without_the_flicked_disc_in_the_frames_the_camera_adds_nothing() -> None:
    trace = report(200.0)
    assert trace.camera is not None
    blind = dataclasses.replace(trace, camera=dataclasses.replace(trace.camera, tracks=()))
    assert camera_touches(blind) == {}
    result = attribute(blind, QUICK)
    assert not result.auto_apply
    assert "the camera did not follow the flicked disc" in result.reasons


@pytest.mark.parametrize("sigma", [0.3, 1.2])
def test_the_camera_noise_is_measured_from_the_shot_not_taken_from_its_data_sheet(sigma: float) -> None:
    from service.attribution.camera_paths import Paths

    table = ShotLab(seed=9, sensor_config="camera", camera_truth=CameraTruth(sigma_mm=sigma))
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 500, 320, side="overseer", kind="monster")
    shot = shoot(table, "hero-xoric", 2.0, 2200)
    assert shot.trace.camera is not None and shot.trace.camera.sigma_mm == 0.5
    measured = Paths(shot.trace.camera).noise(shot.trace.camera.sigma_mm)
    assert measured == pytest.approx(sigma, rel=0.35)


def test_a_flicked_disc_the_camera_loses_midway_is_read_as_without_a_camera() -> None:
    # An arm over the mat hides the hero from x = 200 mm on: whatever it met after that, only the piezos and
    # the scans can say. The shot is read exactly as it would be without the camera.
    trace = report(300.0 - REACH)
    assert trace.camera is not None
    hero = trace.camera.tracks[0]
    cut = CameraTrack("hero", tuple(p for p in hero.points if p[1] < 200.0))
    lost = dataclasses.replace(trace, camera=dataclasses.replace(trace.camera, tracks=(cut,)))
    from service.attribution.camera import flicked_disc_lost

    assert flicked_disc_lost(lost) and not flicked_disc_lost(trace)
    with_lost_camera = attribute(lost, QUICK)
    without_camera = attribute(dataclasses.replace(trace, camera=None), QUICK)
    assert with_lost_camera.auto_apply == without_camera.auto_apply
    assert with_lost_camera.reasons == without_camera.reasons
    assert [c.direct_hits for c in with_lost_camera.candidates] == [
        c.direct_hits for c in without_camera.candidates
    ]


def test_a_flicked_disc_last_seen_by_the_edge_left_the_table_only_if_it_ran_off() -> None:
    from service.attribution.camera import flicked_disc_lost

    trace = report(300.0 - REACH)
    assert trace.camera is not None
    frames = trace.camera.frames + 10

    def seen(points: tuple[tuple[int, float, float], ...]) -> ShotTrace:
        camera = dataclasses.replace(trace.camera, frames=frames, tracks=(CameraTrack("hero", points),))
        return dataclasses.replace(trace, camera=camera)

    # Only its place before the shot: the hand, then an arm, hid it throughout.
    assert flicked_disc_lost(seen(((0, 100.0, 30.0),)))
    # Last seen 20 mm from the bottom edge running down towards it: it may have gone off the table.
    assert not flicked_disc_lost(seen(((0, 100.0, 80.0), (3, 100.0, 50.0), (4, 100.0, 20.0))))
    # ... running along it, away from it: the camera lost it on the mat.
    assert flicked_disc_lost(seen(((0, 100.0, 20.0), (3, 130.0, 22.0), (4, 140.0, 24.0))))
