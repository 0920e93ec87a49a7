"""A disc's marker is on its top, 10 mm above the mat, and the mapping is of the mat's plane: a disc far from
the point under the lens is seen a little outwards. Given the camera's height, the pipeline puts it back
(docs/camera.md)."""

from __future__ import annotations

import math
import statistics

import pytest

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

from service.camera.layout import MatLayout, default_looks  # noqa: E402
from service.camera.mapping import camera_nadir, lifted_to_mat  # noqa: E402
from service.camera.pipeline import CameraPipeline, CameraSettings  # noqa: E402
from service.simulator.camera_render import CameraRenderer, RenderSettings  # noqa: E402
from service.simulator.shot_lab import SETTLE_US, ShotLab  # noqa: E402


def _pinhole_view(centre_mm: tuple[float, float, float], pitch_deg: float, focal_px: float):  # type: ignore[no-untyped-def]
    """The homography (image px → mat mm) of a real pinhole camera at ``centre_mm`` (z: its height), looking
    down, tipped forward by ``pitch_deg``."""
    a = math.radians(pitch_deg)
    # camera axes in mat coordinates (mat z points down into the table, as the image's y points down)
    rotation = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    c = np.array([centre_mm[0], centre_mm[1], -centre_mm[2]])
    t = -rotation @ c
    k = np.array([[focal_px, 0, 576], [0, focal_px, 432], [0, 0, 1]])
    mat_to_image = k @ np.column_stack([rotation[:, 0], rotation[:, 1], t])
    return np.linalg.inv(mat_to_image)


def test_the_point_under_the_lens_comes_from_the_view_and_the_cameras_height() -> None:
    view = _pinhole_view((430.0, 250.0, 1500.0), pitch_deg=6.0, focal_px=1100.0)
    x, y = camera_nadir(view, (576.0, 432.0), 1500.0)
    assert math.dist((x, y), (430.0, 250.0)) < 3.0
    # A tape's measure 5 % off moves it by a few mm, not by the axis's 158 mm offset on the mat.
    x, y = camera_nadir(view, (576.0, 432.0), 1575.0)
    assert math.dist((x, y), (430.0, 250.0)) < 15.0
    # And a raised point seen 500 mm out from it is brought in by its height over the camera's.
    assert lifted_to_mat((930.0, 250.0), (430.0, 250.0), 1500.0, 10.0) == pytest.approx((926.667, 250.0))


CORNER = (
    "orc-1",
    "monster-medium",
    30.0,
    30.0,
)  # at the mat's corner: some 420 mm from the point under the lens


def _corner_errors(camera_height_mm: float) -> list[float]:
    lab = ShotLab(seed=5, perturb=False)
    lab.world.frame_period_s = 1 / 1000
    for piece, cls, x, y in [("hero-1", "hero", 430.0, 300.0), CORNER]:
        lab.place(piece, cls, x, y, side="monsters", kind=cls.split("-")[0])
    looks = default_looks({p: (s.kind, s.radius_mm) for p, s in lab.specs.items()})
    layout = MatLayout(lab.mat.width_mm, lab.mat.height_mm)
    renderer = CameraRenderer(layout, looks, RenderSettings(camera_height_mm=1500.0, hand_s=0.0))
    shot = lab.shoot("hero-1", math.pi / 2, 300.0)
    start = int(shot.trace.post.t_us - lab.sensors.scan_duration_us - SETTLE_US - shot.truth.duration_s * 1e6)
    rendered = renderer.film_shot(shot.truth, start)[:12]
    pipeline = CameraPipeline(layout, looks, CameraSettings(camera_height_mm=camera_height_mm))
    errors = []
    for rf in rendered:
        result = pipeline.process(rf.frame)
        if "orc-1" in result.places:
            errors.append(math.dist(result.places["orc-1"], rf.truth["orc-1"]))
    assert len(errors) >= 10  # the corner disc was seen in (nearly) every frame
    return errors


@pytest.mark.slow
def test_a_disc_at_the_mats_corner_is_placed_where_it_stands_once_the_cameras_height_is_known() -> None:
    uncorrected = statistics.median(_corner_errors(0.0))
    # measured with a tape 3 cm short of the true 1.5 m
    corrected = statistics.median(_corner_errors(1470.0))
    # the point under this tilted lens is ~420 mm from the corner: 10 mm × 420 / 1490 ≈ 2.8 mm outwards
    assert uncorrected > 2.0
    assert corrected < 0.8
    assert corrected < uncorrected / 3
