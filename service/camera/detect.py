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
        self._masks: dict[tuple[int, int, int], tuple[Any, MatMapping, float]] = {}
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

    def by_colour(
        self, hsv: Any, mapping: MatMapping, colour: tuple[int, int, int], radius_mm: float
    ) -> list[Sighting]:
        """Blobs of ``colour`` about the size of a disc of ``radius_mm`` or bigger (the smallest disc of that
        colour; the marker's white hole closed)."""
        h0, s0, v0 = self._hsv[colour]
        hue = hsv[..., 0]
        diff = cv2.absdiff(hue, np.full_like(hue, h0))
        diff = np.minimum(diff, 180 - diff)
        mask = (diff <= HUE_TOLERANCE) & (hsv[..., 1] >= s0 * 0.6) & (hsv[..., 2] >= v0 * 0.35)
        cx, cy = mapping.to_mm(np.array([[hsv.shape[1] / 2, hsv.shape[0] / 2]]))[0]
        r_px = radius_mm / mapping.mm_per_px(float(cx), float(cy))
        size = max(3, round(r_px * 1.2) | 1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        self._masks[colour] = (mask, mapping, r_px)
        mask8 = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, kernel)
        count, _, stats, centroids = cv2.connectedComponentsWithStats(mask8, connectivity=8)
        expected = math.pi * r_px * r_px
        found = []
        for i in range(1, count):
            share = stats[i, cv2.CC_STAT_AREA] / expected
            if MIN_BLOB_SHARE <= share <= MAX_BLOB_SHARE:
                u, v = centroids[i]
                x, y = mapping.to_mm(np.array([[u, v]]))[0]
                merged = share > MERGED_SHARE
                area = share * math.pi * radius_mm * radius_mm
                found.append(Sighting(float(x), float(y), float(v), None, colour, merged, area))
        return found

    def near(self, colour: tuple[int, int, int], x_mm: float, y_mm: float) -> Sighting | None:
        """A disc of ``colour`` expected at (x, y) inside a merged blob: the centre of its colour's pixels
        within most of a disc's radius of there, moved there until it settles (mean shift)."""
        if colour not in self._masks:
            return None
        mask, mapping, r_px = self._masks[colour]
        u, v = mapping.to_px(np.array([[x_mm, y_mm]]))[0]
        reach = 0.8 * r_px
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
        x, y = mapping.to_mm(np.array([[u, v]]))[0]
        return Sighting(float(x), float(y), float(v), None, colour)
