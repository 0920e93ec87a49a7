"""The camera's vision on rendered video of simulated shots: capture → mapping → detection → tracking → the
trace's camera block, each checked against the world's true places (docs/camera.md)."""

from __future__ import annotations

import io
import math
import statistics
from pathlib import Path

import pytest

cv2 = pytest.importorskip("cv2")
pytestmark = pytest.mark.slow  # each renders and reads some 50 frames of 1152 x 864: several seconds

from service.camera.capture import DirectorySource, PipeSource, frames, write_directory, write_raw_frame  # noqa: E402
from service.camera.clock import motion_onset_us  # noqa: E402
from service.camera.frames import FrameResult  # noqa: E402
from service.camera.layout import DiscLook, MatLayout, default_looks  # noqa: E402
from service.camera.mapping import find_markers, fit_mapping, marker_detector  # noqa: E402
from service.camera.pipeline import CameraPipeline, CameraSettings  # noqa: E402
from service.camera.shots import cut_shot  # noqa: E402
from service.mat.camera_trace import camera_from_json, camera_to_json  # noqa: E402
from service.simulator.camera_render import CameraRenderer, RenderedFrame, RenderSettings  # noqa: E402
from service.simulator.shot_lab import SETTLE_US, ShotLab  # noqa: E402

READOUT_US = 4000
LENS_HEIGHT_MM = 1480.0  # the renderer's camera is 1.5 m up: measured with a tape, 2 cm short


def _lab(places: list[tuple[str, str, float, float]]) -> ShotLab:
    lab = ShotLab(seed=5, perturb=False)
    lab.world.frame_period_s = 1 / 1000
    for piece, cls, x, y in places:
        lab.place(piece, cls, x, y, side="monsters", kind=cls.split("-")[0])
    return lab


def _start_us(lab: ShotLab, shot) -> int:  # type: ignore[no-untyped-def]
    scan_started = shot.trace.post.t_us - lab.sensors.scan_duration_us
    return int(scan_started - SETTLE_US - round(shot.truth.duration_s * 1e6))


def _run(pipeline: CameraPipeline, rendered: list[RenderedFrame]) -> list[FrameResult]:
    return [pipeline.process(rf.frame) for rf in rendered]


ROOM = [
    ("hero-1", "hero", 200.0, 300.0),
    ("orc-1", "monster-medium", 420.0, 310.0),
    ("troll-1", "monster-large", 650.0, 450.0),
]


def _film(
    lab: ShotLab, looks: dict[str, DiscLook], piece: str, angle: float, speed: float, **settings: object
):  # type: ignore[no-untyped-def]
    renderer = CameraRenderer(
        MatLayout(lab.mat.width_mm, lab.mat.height_mm), looks, RenderSettings(**settings)
    )  # type: ignore[arg-type]
    shot = lab.shoot(piece, angle, speed)
    return renderer, shot, renderer.film_shot(shot.truth, _start_us(lab, shot))


def test_the_mapping_undoes_perspective_and_lens_from_the_fiducials_alone() -> None:
    lab = _lab(ROOM)
    looks = default_looks({p: (s.kind, s.radius_mm) for p, s in lab.specs.items()})
    _, _, rendered = _film(lab, looks, "hero-1", 0.0, 800.0, k1=-0.08, tilt=0.06, roll_deg=2.0)
    image = rendered[0].frame.image
    markers = find_markers(marker_detector(), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    mapping = fit_mapping(
        MatLayout(lab.mat.width_mm, lab.mat.height_mm), markers, (image.shape[1], image.shape[0])
    )
    assert mapping.k1 == pytest.approx(-0.08, abs=0.015)
    assert mapping.error_mm < 0.8
    # A plain homography (no lens) fits the same fiducials clearly worse: the lens is really there.
    flat = fit_mapping(
        MatLayout(lab.mat.width_mm, lab.mat.height_mm), markers, (image.shape[1], image.shape[0]), k1=0.0
    )
    assert flat.error_mm > 2 * mapping.error_mm


def test_discs_are_found_and_followed_through_a_shot_within_a_millimetre_or_two() -> None:
    lab = _lab(ROOM)
    looks = default_looks({p: (s.kind, s.radius_mm) for p, s in lab.specs.items()})
    _, shot, rendered = _film(lab, looks, "hero-1", 0.0, 1500.0, exposure_s=0.002, readout_s=0.004)
    assert "orc-1" in shot.truth.direct_hits  # the hero really hit the orc: two discs moved
    pipeline = CameraPipeline(
        MatLayout(lab.mat.width_mm, lab.mat.height_mm),
        looks,
        CameraSettings(readout_us=READOUT_US, camera_height_mm=LENS_HEIGHT_MM),
    )
    results = _run(pipeline, rendered)
    errors, missing = [], 0
    for rf, result in zip(rendered, results, strict=True):
        assert result.mapped, result.problem
        for piece, xy in rf.truth.items():
            if piece in result.places:
                errors.append(math.dist(result.places[piece], xy))
            else:
                missing += 1
    assert statistics.median(errors) < 0.8
    assert max(errors) < 6.0
    assert missing <= 0.05 * len(errors)
    # The moving discs were followed (not only the still one), frame by frame.
    moved = {"hero-1", "orc-1"}
    for piece in moved:
        path = [r.places[piece] for r in results if piece in r.places]
        assert math.dist(path[0], path[-1]) > 30.0


def test_two_look_alike_discs_without_markers_keep_their_names_when_one_passes_the_other() -> None:
    """Two identical red discs with no marker to read: only the motion model and the assignment can tell
    them apart as one slides past the other, a few millimetres away."""
    lab = _lab([("orc-1", "monster-medium", 200.0, 300.0), ("orc-2", "monster-medium", 420.0, 338.0)])
    looks = {p: DiscLook(p, s.radius_mm, (50, 50, 200), marker_id=None) for p, s in lab.specs.items()}
    # Each needs a first sighting with its name: in play, the marker read at rest before the shot.
    pipeline = CameraPipeline(
        MatLayout(lab.mat.width_mm, lab.mat.height_mm),
        looks,
        CameraSettings(readout_us=READOUT_US, camera_height_mm=LENS_HEIGHT_MM),
    )
    assert pipeline.tracker is None
    _, shot, rendered = _film(lab, looks, "orc-1", 0.0, 1400.0, hand_s=0.0)
    assert not shot.truth.direct_hits, "the shot was meant to pass by, not to hit"
    passing = min(math.dist(rf.truth["orc-1"], rf.truth["orc-2"]) for rf in rendered if "orc-1" in rf.truth)
    assert passing < 40.0  # they came within a few mm of touching (32 mm: touching)
    pipeline.process(rendered[0].frame)  # sets the tracker up
    assert pipeline.tracker is not None
    for piece, spec in (("orc-1", (200.0, 300.0)), ("orc-2", (420.0, 338.0))):
        pipeline.tracker.observe(piece, _named(piece, *spec), rendered[0].frame.t_us)
    swaps = followed = 0
    for rf in rendered[1:]:
        result = pipeline.process(rf.frame)
        for piece in ("orc-1", "orc-2"):
            if piece in result.places and piece in rf.truth:
                followed += 1
                other = "orc-2" if piece == "orc-1" else "orc-1"
                if math.dist(result.places[piece], rf.truth[other]) < math.dist(
                    result.places[piece], rf.truth[piece]
                ):
                    swaps += 1
    assert followed > len(rendered)  # both were followed through most frames
    assert swaps == 0


def _named(piece: str, x: float, y: float):  # type: ignore[no-untyped-def]
    from service.camera.detect import Sighting

    return Sighting(x, y, 0.0, piece, (50, 50, 200))


def test_a_bumped_camera_is_noticed_and_the_mat_mapped_again() -> None:
    lab = _lab(ROOM)
    looks = default_looks({p: (s.kind, s.radius_mm) for p, s in lab.specs.items()})
    renderer, _, rendered = _film(lab, looks, "troll-1", 3.0, 400.0)
    pipeline = CameraPipeline(
        MatLayout(lab.mat.width_mm, lab.mat.height_mm),
        looks,
        CameraSettings(readout_us=READOUT_US, camera_height_mm=LENS_HEIGHT_MM),
    )
    _run(pipeline, rendered[:5])
    assert pipeline.watch is not None and not pipeline.watch.bumps
    renderer.bump(9.0, -6.0, 0.8)
    shot = lab.shoot("hero-1", 1.0, 500.0)
    after = renderer.film_shot(shot.truth, _start_us(lab, shot))
    results = _run(pipeline, after[:6])
    assert len(pipeline.watch.bumps) == 1
    assert "the camera moved" in (results[0].problem or "")
    # The discs read by their markers (the flicked one is half under the finger, found by colour):
    pairs = zip(after, results, strict=False)
    errors = [math.dist(r.places[p], rf.truth[p]) for rf, r in pairs for p in r.by_marker]
    assert len(errors) >= 12
    assert max(errors) < 1.5  # mapped again: the discs are where they are, not where the old view put them


def test_a_shot_is_cut_into_a_camera_block_the_trace_reader_accepts() -> None:
    lab = _lab(ROOM)
    looks = default_looks({p: (s.kind, s.radius_mm) for p, s in lab.specs.items()})
    offset = 2_345_678
    _, shot, rendered = _film(lab, looks, "hero-1", 0.0, 1500.0, clock_offset_us=offset)
    start = _start_us(lab, shot)
    results = _run(
        CameraPipeline(
            MatLayout(lab.mat.width_mm, lab.mat.height_mm),
            looks,
            CameraSettings(readout_us=READOUT_US, camera_height_mm=LENS_HEIGHT_MM),
        ),
        rendered,
    )
    onset = motion_onset_us(results, "hero-1")
    assert (
        onset is not None and abs(onset - (start + offset)) < 5000
    )  # the flick dated within 5 ms (0.6 frame)
    record = cut_shot(
        results,
        flicked="hero-1",
        start_cam_us=start + offset,
        end_cam_us=start + offset + shot.truth.duration_s * 1e6,
        offset_us=offset,
        fps=120.0,
        sigma_mm=0.5,
    )
    assert abs(record.start_us - start) <= 1e6 / 120
    assert {t.piece for t in record.tracks} == {"hero-1", "orc-1"}
    assert [p for p, _, _ in record.still] == ["troll-1"]
    hero = record.track("hero-1")
    assert hero is not None and hero.points[0][0] == 0
    assert math.dist(hero.points[0][1:], (200.0, 300.0)) < 1.0
    final = shot.truth.frames[-1][1]["hero-1"]
    assert math.dist(hero.points[-1][1:], final) < 1.5
    again = camera_from_json(
        camera_to_json(record), set(looks), lambda key, problem: ValueError(f"{key}: {problem}")
    )
    assert again.frames == record.frames and len(again.tracks) == 2


def test_recorded_frames_play_back_through_the_folder_and_the_pipe(tmp_path: Path) -> None:
    lab = _lab(ROOM)
    looks = default_looks({p: (s.kind, s.radius_mm) for p, s in lab.specs.items()})
    _, _, rendered = _film(lab, looks, "troll-1", 0.0, 300.0)
    clip = [rf.frame for rf in rendered[:4]]
    write_directory(tmp_path / "clip", clip)
    back = list(frames(DirectorySource(tmp_path / "clip")))
    assert [f.t_us for f in back] == [f.t_us for f in clip]
    assert all((a.image == b.image).all() for a, b in zip(back, clip, strict=True))
    pipe = io.BytesIO()
    for f in clip:
        write_raw_frame(pipe, f.t_us, f.image)
    pipe.seek(0)
    piped = list(frames(PipeSource(pipe)))
    assert [f.t_us for f in piped] == [f.t_us for f in clip]
    # The played-back frames are seen as the originals are.
    pipeline = CameraPipeline(
        MatLayout(lab.mat.width_mm, lab.mat.height_mm), looks, CameraSettings(camera_height_mm=LENS_HEIGHT_MM)
    )
    result = pipeline.process(piped[0])
    assert math.dist(result.places["troll-1"], rendered[0].truth["troll-1"]) < 1.0
