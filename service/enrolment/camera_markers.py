"""``smartmat enrol markers --source SRC``: the camera reads each disc's marker as the discs are shown to it
one at a time (markers.MarkerShowing), and the set file is written after every marker (docs/setup.md).

The source is any camera source ``smartmat camera watch`` takes (picamera2, v4l2:N, dir:PATH, …); it needs
the ``camera`` extra, imported only here, when asked for.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from service.table.disc_sets import DiscSet, save_set

from .core import ASSIGNED, EnrolmentError, Notice
from .markers import MarkerShowing


class FrameSource(Protocol):
    def read(self) -> Any: ...  # a service.camera.capture.Frame, or None when the source has ended

    def close(self) -> None: ...


def show_discs(
    source: FrameSource,
    disc_set: DiscSet,
    wanted: list[str],
    set_path: Path,
    say: Callable[[Notice], None],
    *,
    on_next: Callable[[str], None] | None = None,
    idle_timeout_s: float = 120.0,
    clock: Callable[[], float] = time.monotonic,
) -> MarkerShowing:
    """Read frames until every wanted disc has its marker, the source ends, or nothing new comes for
    ``idle_timeout_s``; each marker given is written to ``set_path`` at once."""
    import cv2

    from service.camera.mapping import find_markers, marker_detector

    detector = marker_detector()
    showing = MarkerShowing(disc_set, wanted)
    last_change = clock()
    announced: str | None = None
    while (piece := showing.next_piece()) is not None and clock() - last_change <= idle_timeout_s:
        if on_next is not None and piece != announced:
            announced = piece
            on_next(piece)
        frame = source.read()
        if frame is None:
            break
        seen = set(find_markers(detector, cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)))
        notices = showing.frame(seen)
        for notice in notices:
            say(notice)
        if any(n.kind == ASSIGNED for n in notices):
            last_change = clock()
            save_set(set_path, disc_set.name, disc_set.registry.pieces, showing.markers)
    return showing


def open_camera(spec: str) -> FrameSource:
    """A camera source by its name (service.camera.capture.open_source); refused in words when it cannot be
    opened or the camera extra is not installed."""
    from service.camera.capture import CaptureError, open_source

    try:
        import cv2  # noqa: F401  (the camera extra)

        source: FrameSource = open_source(spec)
    except ImportError as error:
        raise EnrolmentError(
            f"--source needs the camera extra (pip install -e '.[camera]'): {error}"
        ) from None
    except CaptureError as error:
        raise EnrolmentError(str(error)) from None  # it names the source and says why
    return source
