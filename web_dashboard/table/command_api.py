"""``POST /api/command``: a logged-in referee's command, checked, published on ``cmd/request``, answered."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, g, jsonify, request

from web_dashboard.security import referee_required
from web_dashboard.table.commands import CommandError, build_request
from web_dashboard.table.resources import current_dashboard

bp = Blueprint("command_api", __name__, url_prefix="/api")


@bp.post("/command")
@referee_required
def command() -> Response:
    dashboard = current_dashboard()
    try:
        body = request.get_json(silent=True)
    except RecursionError:  # a few KiB of "[" fit the size limit; json gives up with this, not a ValueError
        abort(400, description="the JSON body is nested too deeply to be a command")
    if body is None:
        abort(
            400, description='send a JSON body {"command": …, "args": {…}} with Content-Type application/json'
        )
    try:
        cmd = build_request(g.referee, body)
    except CommandError as exc:
        current_app.logger.warning("refused command from referee %s: %s", g.referee, exc)
        abort(400, description=str(exc))
    current_app.logger.info(
        "referee %s sends %s %s (txn %s)", g.referee, cmd["command"], cmd["args"], cmd["txn"]
    )
    result = dashboard.commands.send(cmd, timeout_s=float(current_app.config["COMMAND_TIMEOUT_S"]))
    if not result.ok:
        current_app.logger.info("command %s refused by the daemon: %s", cmd["txn"], result.error)
    response = jsonify({**result.to_json(), "command": cmd["command"], "args": cmd["args"]})
    response.status_code = 200 if result.ok else (409 if result.answered else 503)
    return response
