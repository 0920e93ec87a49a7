"""The discs in one frame: by the marker on each one's top, else by its colour.

A marker gives the disc's identity and its centre (where the marker's diagonals cross). A marker blurred by a
fast slide, or half under a finger, is not read; the disc's colour still shows, so the frame is searched for
blobs of that colour and of about the disc's size. A colour blob does not say which of two look-alike discs it
is: the tracker decides that from where each one was heading (track.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from service.camera.layout import DiscLook
from service.camera.mapping import MatMapping, Points

HUE_TOLERANCE = 7  # OpenCV hue units (0-179): red discs and skin are about 10 apart
MIN_SATURATION = 80  # colours paler than this are not searched by colour (a black or white disc: marker only)
MARKER_SIZE_TOLERANCE = 0.2  # a marker this much bigger or smaller than its disc's is a misread
MIN_BLOB_SHARE = 0.4  # a blob's area as a share of the disc's: smaller ones are a disc mostly hidden
MAX_BLOB_SHARE = 3.5  # bigger is no group of discs (a sleeve, a box lid)
MERGED_SHARE = 1.5  # a blob this much bigger than one disc is discs touching (or a disc and its blur)


@dataclass(frozen=True)
class Sighting:
    x_mm: float
    y_mm: float
    row: float  # image row of the disc's centre (a rolling shutter exposes lower rows later)
    piece: str | None  # known from its marker; None: a colour blob of ``colour``
    colour: tuple[int, int, int]
    merged: bool = False  # a blob big enough for two or more discs touching: its centre is none of theirs
    area_mm2: float = 0.0  # a colour blob's area (its marker's hole filled); 0 for a marker


def marker_centre(corners: Points) -> tuple[float, float]:
    """Where a marker's diagonals cross: its centre under perspective, unlike the corners' mean."""
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = corners
    d = (x1 - x3) * (y2 - y4) - (y1 - y3) * (x2 - x4)
    if abs(d) < 1e-9:
        return float(corners[:, 0].mean()), float(corners[:, 1].mean())
    a, b = x1 * y3 - y1 * x3, x2 * y4 - y2 * x4
    return (a * (x2 - x4) - (x1 - x3) * b) / d, (a * (y2 - y4) - (y1 - y3) * b) / d


class DiscFinder:
    def __init__(self, looks: dict[str, DiscLook]) -> None:
        self.looks = looks
        self.by_marker = {look.marker_id: p for p, look in looks.items() if look.marker_id is not None}
        self._hsv: dict[tuple[int, int, int], tuple[int, int, int]] = {}
        self._frame: tuple[Any, MatMapping] | None = None  # the frame last searched by colour
        self._radius_px: dict[tuple[int, int, int], float] = {}
        for look in looks.values():
            pixel = np.array([[look.colour_bgr]], np.uint8)
            h, s, v = cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0]
            self._hsv[look.colour_bgr] = (int(h), int(s), int(v))

    def searchable(self, colour: tuple[int, int, int]) -> bool:
        return self._hsv[colour][1] >= MIN_SATURATION

    def by_markers(self, markers: dict[int, Points], mapping: MatMapping) -> list[Sighting]:
        found = []
        for marker_id, corners in sorted(markers.items()):
            piece = self.by_marker.get(marker_id)
            if piece is None:
                continue
            mm = mapping.to_mm(corners)
            side = float(np.mean([np.hypot(*(mm[i] - mm[(i + 1) % 4])) for i in range(4)]))
            if abs(side / self.looks[piece].marker_mm - 1.0) > MARKER_SIZE_TOLERANCE:
                continue  # another disc's marker misread as this one's: the size gives it away
            u, v = marker_centre(corners)
            x, y = mapping.to_mm(np.array([[u, v]]))[0]
            found.append(Sighting(float(x), float(y), v, piece, self.looks[piece].colour_bgr))
        return found

    def _mask(self, image: Any, colour: tuple[int, int, int], box: tuple[int, int, int, int]) -> Any:
        """Pixels of ``colour`` in the box (left, top, right, bottom) of the image."""
        left, top, right, bottom = box
        hsv = cv2.cvtColor(image[top:bottom, left:right], cv2.COLOR_BGR2HSV)
        h0, s0, v0 = self._hsv[colour]
        hue = hsv[..., 0]
        diff = cv2.absdiff(hue, np.full_like(hue, h0))
        diff = np.minimum(diff, 180 - diff)
        return (diff <= HUE_TOLERANCE) & (hsv[..., 1] >= s0 * 0.6) & (hsv[..., 2] >= v0 * 0.35)

    def by_colour(
        self,
        image: Any,
        mapping: MatMapping,
        colour: tuple[int, int, int],
        radius_mm: float,
        box: tuple[int, int, int, int] | None = None,
    ) -> list[Sighting]:
        """Blobs of ``colour`` about the size of a disc of ``radius_mm`` or bigger (the smallest disc of that
        colour; the marker's white hole closed), in ``box`` (left, top, right, bottom; None: the whole image).
        A blob touching the box's edge is left out: it may be a disc cut in two by it."""
        height, width = image.shape[:2]
        left, top, right, bottom = box or (0, 0, width, height)
        self._frame = (image, mapping)
        mask = self._mask(image, colour, (left, top, right, bottom))
        cx, cy = mapping.to_mm(np.array([[(left + right) / 2, (top + bottom) / 2]]))[0]
        r_px = radius_mm / mapping.mm_per_px(float(cx), float(cy))
        self._radius_px[colour] = r_px
        size = max(3, round(r_px * 1.2) | 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        mask8 = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, kernel)
        count, _, stats, centroids = cv2.connectedComponentsWithStats(mask8, connectivity=8)
        expected = math.pi * r_px * r_px
        found = []
        for i in range(1, count):
            x0, y0, w, h = (int(v) for v in stats[i, :4])
            cut = (x0 == 0 and left > 0) or (y0 == 0 and top > 0)
            cut = (
                cut
                or (x0 + w >= right - left and right < width)
                or (y0 + h >= bottom - top and bottom < height)
            )
            share = stats[i, cv2.CC_STAT_AREA] / expected
            if not cut and MIN_BLOB_SHARE <= share <= MAX_BLOB_SHARE:
                u, v = centroids[i][0] + left, centroids[i][1] + top
                x, y = mapping.to_mm(np.array([[u, v]]))[0]
                merged = share > MERGED_SHARE
                area = share * math.pi * radius_mm * radius_mm
                found.append(Sighting(float(x), float(y), float(v), None, colour, merged, area))
        return found

    def near(self, colour: tuple[int, int, int], x_mm: float, y_mm: float) -> Sighting | None:
        """A disc of ``colour`` expected at (x, y) inside a merged blob: the centre of its colour's pixels
        within most of a disc's radius of there, moved there until it settles (mean shift)."""
        if self._frame is None or colour not in self._radius_px:
            return None
        image, mapping = self._frame
        height, width = image.shape[:2]
        u, v = mapping.to_px(np.array([[x_mm, y_mm]]))[0]
        reach = 0.8 * self._radius_px[colour]
        span = 4 * reach
        box = (
            max(int(u - span), 0),
            max(int(v - span), 0),
            min(int(u + span), width),
            min(int(v + span), height),
        )
        if box[2] - box[0] < 2 or box[3] - box[1] < 2:
            return None
        mask = self._mask(image, colour, box)
        u, v = u - box[0], v - box[1]
        for _ in range(6):
            top, left = max(int(v - reach), 0), max(int(u - reach), 0)
            window = mask[top : int(v + reach) + 1, left : int(u + reach) + 1]
            ys, xs = np.nonzero(window)
            if len(xs) < 0.2 * math.pi * reach * reach:
                return None
            inside = (xs + left - u) ** 2 + (ys + top - v) ** 2 <= reach * reach
            if inside.sum() < 0.2 * math.pi * reach * reach:
                return None
            nu, nv = float((xs[inside] + left).mean()), float((ys[inside] + top).mean())
            if math.hypot(nu - u, nv - v) < 0.05:
                break
            u, v = nu, nv
        x, y = mapping.to_mm(np.array([[u + box[0], v + box[1]]]))[0]
        return Sighting(float(x), float(y), float(v + box[1]), None, colour)
