"""One frame through the whole of seeing: fiducials → mapping (checked for a bump) → discs → tracks."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import cv2
import numpy as np

from service.camera.capture import Frame
from service.camera.detect import DiscFinder, Sighting
from service.camera.frames import FrameResult
from service.camera.layout import DiscLook, MatLayout
from service.camera.mapping import (
    MatWatch,
    camera_nadir,
    find_markers,
    lifted_to_mat,
    marker_detector,
)
from service.camera.track import ALONE_GATE_MM, DiscTracker

SEARCH_MM = (
    120.0  # a disc's colour is looked for this far round its predicted place (plus two frames' travel)
)


@dataclass(frozen=True)
class CameraSettings:
    fps: float = 120.0
    readout_us: int = 0  # a rolling shutter's first-to-last row time (0: a global shutter)
    sigma_mm: float = 0.5  # the position noise the camera states (per axis and frame)
    # the lens's height above the mat (a tape's measure is enough); 0: discs are placed where their tops
    # meet the mat's plane, a little outwards from the point under the lens
    camera_height_mm: float = 0.0


class CameraPipeline:
    def __init__(self, layout: MatLayout, looks: dict[str, DiscLook], settings: CameraSettings) -> None:
        self.layout, self.looks, self.settings = layout, looks, settings
        self.detector = marker_detector()
        self.finder = DiscFinder(looks)
        self.watch: MatWatch | None = None
        self.tracker: DiscTracker | None = None

    def process(self, frame: Frame) -> FrameResult:
        started = time.process_time()
        image = frame.image
        height, width = image.shape[:2]
        if self.watch is None or self.tracker is None:
            self.watch = MatWatch(self.layout, (width, height))
            colours = {p: look.colour_bgr for p, look in self.looks.items()}
            self.tracker = DiscTracker(
                colours,
                readout_us=self.settings.readout_us,
                image_height=height,
                radii={p: look.radius_mm for p, look in self.looks.items()},
            )
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        markers = find_markers(self.detector, gray)
        bumps = len(self.watch.bumps)
        mapping = self.watch.update(frame.t_us, markers)
        if mapping is None:
            return FrameResult(
                frame.index, frame.t_us, {}, False, self.watch.last_problem, cpu_s=_since(started)
            )
        problem = self.watch.last_problem if len(self.watch.bumps) > bumps else None
        sightings = self.finder.by_markers(markers, mapping)
        radius: dict[tuple[int, int, int], float] = {}
        for look in self.looks.values():  # the smallest disc of each colour sets the size searched for
            radius[look.colour_bgr] = min(radius.get(look.colour_bgr, look.radius_mm), look.radius_mm)
        tracker = self.tracker

        def blobs_of(colour: tuple[int, int, int]) -> list[Sighting]:
            """Blobs of a colour round each of its discs' predicted places (the whole frame while one of
            them has never been seen): the search costs the discs' neighbourhoods, not the whole frame."""
            if not self.finder.searchable(colour):
                return []
            pieces = [p for p, look in self.looks.items() if look.colour_bgr == colour]
            if any(p not in tracker.tracks for p in pieces):
                return self.finder.by_colour(image, mapping, colour, radius[colour])
            found: list[Sighting] = []
            for piece in pieces:
                x, y = tracker.tracks[piece].predict(frame.t_us)
                # A disc alone in its colour is taken from further off (track.py): looked for as far.
                near = ALONE_GATE_MM if len(pieces) == 1 else SEARCH_MM
                reach = near + tracker.tracks[piece].speed() * 2 / self.settings.fps
                corners = mapping.to_px(np.array([[x - reach, y - reach], [x + reach, y + reach]]))
                box = (
                    max(int(corners[:, 0].min()), 0),
                    max(int(corners[:, 1].min()), 0),
                    min(int(corners[:, 0].max()) + 1, width),
                    min(int(corners[:, 1].max()) + 1, height),
                )
                if box[2] - box[0] < 4 or box[3] - box[1] < 4:
                    continue
                for blob in self.finder.by_colour(image, mapping, colour, radius[colour], box):
                    if all(math.dist((blob.x_mm, blob.y_mm), (b.x_mm, b.y_mm)) > 2.0 for b in found):
                        found.append(blob)
            return found

        seen = self.tracker.update(frame.t_us, sightings, blobs_of, self.finder.near)
        places = {p: (x, y) for p, (x, y, _, _) in seen.items()}
        lens_height = self.settings.camera_height_mm
        if lens_height > 0:
            # The tracker follows the tops as the mat's plane sees them; the places reported are the feet.
            nadir = camera_nadir(mapping.homography, mapping.centre, lens_height)
            places = {
                p: lifted_to_mat(xy, nadir, lens_height, self.looks[p].height_mm) for p, xy in places.items()
            }
        return FrameResult(
            frame.index,
            frame.t_us,
            places,
            True,
            problem,
            row_delay_us={p: d for p, (_, _, d, _) in seen.items()},
            by_marker={p for p, (_, _, _, marker) in seen.items() if marker},
            cpu_s=_since(started),
        )


def _since(started: float) -> float:
    return time.process_time() - started
