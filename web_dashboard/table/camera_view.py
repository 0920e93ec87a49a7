"""The camera step of the referee's calibrate page (docs/camera.md, "The camera step"): the dashboard's
referee channel asks the camera process for a picture on ``camera/view/ask`` and keeps its last answer from
``camera/view`` (the annotated JPEG and its summary), which only a logged-in referee can fetch
(``/referee/setup/camera/view.jpg`` and ``view.json``). Spectators' accounts cannot read the topic, and no
spectator page links to it."""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify

from web_dashboard.security import referee_required
from web_dashboard.table.camera_views import CameraViews
from web_dashboard.table.resources import current_dashboard

bp = Blueprint("camera_view", __name__, url_prefix="/referee/setup/camera")


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
