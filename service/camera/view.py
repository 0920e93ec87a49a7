"""The camera's view for the referee's set-up page (docs/camera.md, "The camera step"): one frame, downscaled,
with the mat's outline where the mapping puts its corners, each disc circled and named, and a summary (the
fiducials found, the mapping's error in mm, the discs seen and the enrolled discs not seen), encoded as a
JPEG. Made only when the referee asks (service/camera_process/process.py rate-limits it); needs OpenCV."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import cv2
import numpy as np

from service.camera.frames import FrameResult
from service.camera.layout import MatLayout
from service.camera.mapping import MatMapping

VIEW_WIDTH_PX = 640  # the picture's width on the page; a 1152-px frame comes to some 60 KB of JPEG
JPEG_QUALITY = 70


def disc_names(discs: Iterable[str], names: Mapping[str, str] | None = None) -> dict[str, str]:
    """The name drawn on each disc: its entry in ``names`` (an enrolled disc set's names), else its id in the
    discs file. The one place a disc's shown name is chosen."""
    given = names or {}
    return {disc: given.get(disc) or disc for disc in discs}


def summary_of(
    result: FrameResult, mapping: MatMapping | None, enrolled: Iterable[str], names: Mapping[str, str]
) -> dict[str, Any]:
    seen = sorted(result.places)
    return {
        "mapped": mapping is not None and result.mapped,
        "fiducials_seen": mapping.fiducials_seen if mapping is not None else 0,
        "mapping_error_mm": round(mapping.error_mm, 2) if mapping is not None else None,
        "seen": seen,
        "missing": sorted(d for d in enrolled if d not in result.places),
        "names": {d: names.get(d, d) for d in sorted(set(seen) | set(enrolled))},
        "problem": result.problem,
    }


def render_view(
    image: Any,
    result: FrameResult,
    mapping: MatMapping | None,
    layout: MatLayout,
    radii: Mapping[str, float],
    names: Mapping[str, str],
) -> bytes:
    """The annotated frame as a JPEG, ``VIEW_WIDTH_PX`` wide (never wider than the frame)."""
    height, width = image.shape[:2]
    scale = min(1.0, VIEW_WIDTH_PX / width)
    picture = cv2.resize(image, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    if mapping is not None:
        corners_mm = np.array(
            [[0.0, 0.0], [layout.width_mm, 0.0], [layout.width_mm, layout.height_mm], [0.0, layout.height_mm]]
        )
        corners = (mapping.to_px(corners_mm) * scale).round().astype(np.int32)
        cv2.polylines(picture, [corners.reshape(-1, 1, 2)], True, (0, 255, 0), 2)
        for x, y in corners:
            cv2.circle(picture, (int(x), int(y)), 6, (0, 255, 0), -1)
        for disc, (x_mm, y_mm) in sorted(result.places.items()):
            px = mapping.to_px(np.array([[x_mm, y_mm]]))[0] * scale
            radius = radii.get(disc, 15.0) / mapping.mm_per_px(x_mm, y_mm) * scale
            centre = (int(round(px[0])), int(round(px[1])))
            cv2.circle(picture, centre, max(int(round(radius)) + 2, 4), (255, 255, 255), 2)
            label = names.get(disc, disc)
            origin = (centre[0] + int(radius) + 4, centre[1] + 5)
            cv2.putText(picture, label, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
            cv2.putText(
                picture, label, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1, cv2.LINE_AA
            )
        caption = f"mapping error {mapping.error_mm:.2f} mm, {mapping.fiducials_seen} fiducials"
    else:
        caption = "the mat is not mapped"
    # White on a dark band: readable on a light floor and on the mat alike.
    cv2.rectangle(picture, (0, 0), (picture.shape[1], 30), (0, 0, 0), -1)
    cv2.putText(picture, caption, (8, 21), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
    ok, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("OpenCV could not encode the view as a JPEG")
    return bytes(encoded.tobytes())
