"""The camera step of the referee's calibrate page (docs/camera.md, "The camera step"): the dashboard's referee
channel asks the camera process for a picture on ``camera/view/ask`` and keeps its last answer from
``camera/view`` (the annotated JPEG and its summary), which only a logged-in referee can fetch
(``/referee/setup/camera/view.jpg`` and ``view.json``). Spectators' accounts cannot read the topic, and no
spectator page links to it."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, jsonify

from service.camera.wire import CameraMessageError, decode_view
from web_dashboard.security import referee_required
from web_dashboard.table.resources import current_dashboard

log = logging.getLogger(__name__)

bp = Blueprint("camera_view", __name__, url_prefix="/referee/setup/camera")


@dataclass(frozen=True)
class CameraView:
    summary: dict[str, Any]
    jpeg: bytes
    received_s: float  # on the dashboard's monotonic clock


class CameraViews:
    """The last picture the camera sent, and the way to ask for the next one."""

    def __init__(
        self, ask: Callable[[], bool], clock: Callable[[], float] = time.monotonic
    ) -> None:
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


def _views() -> CameraViews | None:
    return current_dashboard().camera_views


@bp.get("/view.json")
@referee_required
def view_json() -> Response:
    views = _views()
    if views is None:
        return jsonify({"view": None, "age_s": None, "asked_s_ago": None, "camera_link": False})
    return jsonify({**views.state(), "camera_link": True})


@bp.get("/view.jpg")
@referee_required
def view_jpg() -> Response:
    views = _views()
    last = views.last if views is not None else None
    if last is None:
        abort(404, description="the camera has sent no picture yet")
    response = Response(last.jpeg, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/ask")
@referee_required
def ask() -> Response:
    views = _views()
    if views is None or not views.ask():
        response = jsonify({"ok": False, "error": "not connected to the table's broker"})
        response.status_code = 503
        return response
    return jsonify({"ok": True})
