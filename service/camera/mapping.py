"""The image mapped to mat millimetres, from the fiducial markers round the mat, and re-checked in play.

A camera above the mat sees it through a lens (barrel or pincushion) and at a slight angle (perspective). The
mapping undoes both: one radial distortion coefficient about the image centre, found as the one under which
the fiducials' corners fit a homography best, then that homography. Its error is the fiducials' own misfit in
millimetres. During play every frame's fiducials are checked against the mapping; once they sit further off
than a bumped camera would put them, the mapping is fitted again from that frame and the bump is reported.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from service.camera.layout import DICTIONARY, MAT_MARKER_IDS, MatLayout

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Points = NDArray[np.float64]
else:
    Points = Any

MIN_FIDUCIALS = 3  # markers a mapping needs (each gives four corners)
DISTORTION_RANGE = (-0.3, 0.3)
BUMP_MM = 2.5  # fiducials this far off (on average) mean the camera moved


class MappingError(Exception):
    """The mat cannot be mapped from this frame; the message says what was missing."""


def marker_detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Few bits corrected: a 4x4 marker one or two bits from another is better missed than misread.
    params.errorCorrectionRate = 0.25
    # A small disc's marker is some 3 px a cell: its bits are read from 8 samples a cell, not OpenCV's 4,
    # or a shift of a pixel decides whether it is read at all.
    params.perspectiveRemovePixelPerCell = 8
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    return cv2.aruco.ArucoDetector(dictionary, params)


def find_markers(detector: cv2.aruco.ArucoDetector, gray: Any) -> dict[int, Points]:
    """Marker id → its four corners in the image (px), ArUco's order. A marker seen twice is left out (a
    misread: no id is printed twice)."""
    corners, ids, _ = detector.detectMarkers(gray)
    found: dict[int, Points] = {}
    twice: set[int] = set()
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel(), strict=True):
        marker = int(i)
        if marker in found:
            twice.add(marker)
        found[marker] = c.reshape(4, 2).astype(np.float64)
    for marker in twice:
        del found[marker]
    return found


@dataclass(frozen=True)
class MatMapping:
    k1: float  # radial distortion: a normalised point r from the centre is seen at r(1 + k1 r²)
    centre: tuple[float, float]
    focal: float  # the normalising length (half the image diagonal), px
    homography: Points  # undistorted image px → mat mm
    error_mm: float  # RMS misfit of the fiducials' corners
    fiducials_seen: int

    def undistort(self, px: Points) -> Points:
        cx, cy = self.centre
        d = (np.asarray(px, np.float64).reshape(-1, 2) - (cx, cy)) / self.focal
        p = d.copy()
        for _ in range(6):
            p = d / (1.0 + self.k1 * (p * p).sum(axis=1, keepdims=True))
        return p * self.focal + (cx, cy)

    def distort(self, px: Points) -> Points:
        cx, cy = self.centre
        p = (np.asarray(px, np.float64).reshape(-1, 2) - (cx, cy)) / self.focal
        return p * (1.0 + self.k1 * (p * p).sum(axis=1, keepdims=True)) * self.focal + (cx, cy)  # type: ignore[no-any-return]

    def to_mm(self, px: Points) -> Points:
        flat = self.undistort(px).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(flat, self.homography).reshape(-1, 2)  # type: ignore[no-any-return]

    def to_px(self, mm: Points) -> Points:
        flat = np.asarray(mm, np.float64).reshape(-1, 1, 2)
        undistorted = cv2.perspectiveTransform(flat, np.linalg.inv(self.homography)).reshape(-1, 2)
        return self.distort(undistorted)

    def mm_per_px(self, x_mm: float, y_mm: float) -> float:
        """The image's scale at a place on the mat."""
        a, b = self.to_px(np.array([[x_mm, y_mm], [x_mm + 10.0, y_mm]]))
        return 10.0 / max(float(np.hypot(*(b - a))), 1e-9)

    def misfit_mm(self, layout: MatLayout, markers: dict[int, Points]) -> float | None:
        """How far this frame's fiducials sit from where the mapping puts them (mean, mm); None when fewer
        than ``MIN_FIDUCIALS`` are seen (a hand over them says nothing of the camera)."""
        seen = [m for m in MAT_MARKER_IDS if m in markers]
        if len(seen) < MIN_FIDUCIALS:
            return None
        px = np.concatenate([markers[m] for m in seen])
        mm = np.array([c for m in seen for c in layout.fiducial_corners(m)])
        return float(np.hypot(*(self.to_mm(px) - mm).T).mean())


def fit_mapping(
    layout: MatLayout, markers: dict[int, Points], image_size: tuple[int, int], *, k1: float | None = None
) -> MatMapping:
    """The mapping from one frame's fiducials; ``k1`` fixes the distortion instead of fitting it (a frame
    with too few side markers to see it, after an earlier fit)."""
    seen = [m for m in MAT_MARKER_IDS if m in markers]
    if len(seen) < MIN_FIDUCIALS:
        missing = ", ".join(str(m) for m in MAT_MARKER_IDS if m not in markers)
        raise MappingError(
            f"only {len(seen)} of the mat's {len(MAT_MARKER_IDS)} fiducial markers seen "
            f"(need {MIN_FIDUCIALS}; missing ids {missing}): is the mat in view and lit, or a hand over it?"
        )
    width, height = image_size
    centre, focal = (width / 2, height / 2), math.hypot(width, height) / 2
    px = np.concatenate([markers[m] for m in seen])
    mm = np.array([c for m in seen for c in layout.fiducial_corners(m)], np.float64)

    def fit(k: float) -> MatMapping:
        probe = MatMapping(k, centre, focal, np.eye(3), 0.0, len(seen))
        h, _ = cv2.findHomography(probe.undistort(px), mm, 0)
        if h is None:
            raise MappingError("the fiducial markers are in a degenerate arrangement (all in a line?)")
        mapping = MatMapping(k, centre, focal, h, 0.0, len(seen))
        error = float(np.sqrt(((mapping.to_mm(px) - mm) ** 2).sum(axis=1).mean()))
        return MatMapping(k, centre, focal, h, error, len(seen))

    if k1 is not None or len(seen) < 6:
        return fit(k1 or 0.0)
    # Golden-section search: the fiducials' misfit is smooth and single-dipped in the distortion.
    lo, hi = DISTORTION_RANGE
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = fit(a), fit(b)
    for _ in range(30):
        if fa.error_mm < fb.error_mm:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = fit(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = fit(b)
    return fa if fa.error_mm < fb.error_mm else fb


def camera_nadir(
    image_to_mat: Points, principal: tuple[float, float], height_mm: float
) -> tuple[float, float]:
    """The point of the mat under the lens (mm), from the mapping's homography and the camera's height.

    A view of a plane fixes the camera's focal length only as a ratio to its height (a long lens far away
    sees a flat mat as a short one near it does), so the height is given and the focal length follows from
    the image's scale where the optical axis meets the mat; with it the homography is taken apart into the
    camera's turn and place (the plane's two axes and its offset, in the camera's frame), whose place over the
    mat is the answer. An error of 10 % in the height moves the answer by under 10 % of the axis's offset."""
    to_image = np.linalg.inv(image_to_mat)
    cx, cy = principal
    under_axis = cv2.perspectiveTransform(np.array([[[cx, cy]]], np.float64), image_to_mat)[0, 0]
    probe = np.array([[under_axis, under_axis + (10.0, 0.0), under_axis + (0.0, 10.0)]], np.float64)
    a, b, c = cv2.perspectiveTransform(probe, to_image)[0]
    focal = (math.dist(a, b) + math.dist(a, c)) / 20.0 * height_mm
    k_inv = np.array([[1 / focal, 0, -cx / focal], [0, 1 / focal, -cy / focal], [0, 0, 1]], np.float64)
    m = k_inv @ to_image
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    if t[2] < 0:  # the mat is in front of the camera
        r1, r2, t = -r1, -r2, -t
    rotation = np.column_stack([r1, r2, np.cross(r1, r2)])
    centre = -np.linalg.solve(rotation, t)
    return float(centre[0]), float(centre[1])


def lifted_to_mat(
    place: tuple[float, float], nadir: tuple[float, float], camera_height_mm: float, top_mm: float
) -> tuple[float, float]:
    """Where a disc stands, from where the mapping puts its top ``top_mm`` above the mat: the mapping is of
    the mat's plane, so a raised point is seen further out from the point under the lens, by its height over
    the camera's (about 3 mm at a corner of a 1.2 m mat for a 10 mm disc under a camera 1.5 m up)."""
    keep = 1.0 - top_mm / camera_height_mm
    return nadir[0] + (place[0] - nadir[0]) * keep, nadir[1] + (place[1] - nadir[1]) * keep


class MatWatch:
    """The mapping in play: fitted once, checked on every frame, fitted again when the camera moved."""

    def __init__(self, layout: MatLayout, image_size: tuple[int, int]) -> None:
        self.layout, self.image_size = layout, image_size
        self.mapping: MatMapping | None = None
        self.bumps: list[tuple[int, float]] = []  # (t_us, how far off the fiducials were, mm)
        self.last_problem: str | None = None

    def update(self, t_us: int, markers: dict[int, Points]) -> MatMapping | None:
        """The mapping for this frame (None: the mat could not be mapped; ``last_problem`` says why)."""
        if self.mapping is None:
            try:
                self.mapping = fit_mapping(self.layout, markers, self.image_size)
                self.last_problem = None
            except MappingError as error:
                self.last_problem = str(error)
            return self.mapping
        off = self.mapping.misfit_mm(self.layout, markers)
        if off is not None and off > max(BUMP_MM, 4 * self.mapping.error_mm):
            try:
                refit = fit_mapping(self.layout, markers, self.image_size, k1=self.mapping.k1)
            except MappingError as error:
                self.last_problem = str(error)
                return None
            self.bumps.append((t_us, off))
            self.last_problem = (
                f"the camera moved: the mat's fiducials sat {off:.1f} mm off; mapped again "
                f"({refit.error_mm:.2f} mm)"
            )
            self.mapping = refit
        return self.mapping
