"""The last picture the table's camera sent for the calibrate page, and the way to ask for the next one
(camera_view.py serves them; docs/camera.md, "The camera step")."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.camera.wire import CameraMessageError, decode_view

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CameraView:
    summary: dict[str, Any]
    jpeg: bytes
    received_s: float  # on the dashboard's monotonic clock


class CameraViews:
    """The last picture the camera sent, and the way to ask for the next one."""

    def __init__(self, ask: Callable[[], bool], clock: Callable[[], float] = time.monotonic) -> None:
        self._ask, self._clock = ask, clock
        self._lock = threading.Lock()
        self.last: CameraView | None = None
        self.asked_s: float | None = None

    def take(self, payload: bytes) -> None:
        """A ``camera/view`` message (on the MQTT thread); a malformed one is logged and dropped."""
        try:
            summary, jpeg = decode_view(payload)
        except CameraMessageError as error:
            log.warning("dropped a malformed camera view: %s", error)
            return
        with self._lock:
            self.last = CameraView(summary, jpeg, self._clock())

    def ask(self) -> bool:
        """Asks the camera for a picture; False when the ask could not be sent."""
        sent = self._ask()
        if sent:
            with self._lock:
                self.asked_s = self._clock()
        return sent

    def state(self) -> dict[str, Any]:
        with self._lock:
            last, asked = self.last, self.asked_s
            now = self._clock()
        return {
            "view": None if last is None else last.summary,
            "age_s": None if last is None else round(now - last.received_s, 1),
            "asked_s_ago": None if asked is None else round(now - asked, 1),
        }
