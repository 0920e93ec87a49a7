"""The smartmat web dashboard: spectator view, board view, turn controller and referee console for one table.

``create_app(config)`` builds a fresh Flask app (one blueprint per feature). Without injected stand-ins it
opens two MQTT connections: a read-only one for the table feed and a referee one for commands.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from service.publish import topics
from service.publish.broker_url import BrokerUrl
from web_dashboard.commands import CommandChannel
from web_dashboard.mat import shipped_mat
from web_dashboard.mqtt_link import MqttCommandChannel, MqttFeed
from web_dashboard.resources import Closable, Dashboard, dashboard_of
from web_dashboard.security import LoginLimiter, RefereeSessions, check_csrf, csrf_token, read_pin_file
from web_dashboard.table_feed import TableFeed

__all__ = ["DEFAULTS", "Dashboard", "create_app", "dashboard_of"]

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "TABLE": "table-1",
    "MQTT_URL": "mqtt://127.0.0.1:1883",  # read-only credential: the table feed
    "MQTT_REFEREE_URL": None,  # referee credential for cmd/request; defaults to MQTT_URL
    "REFEREE_PIN_HASH": None,
    "REFEREE_PIN_FILE": None,
    "BEHIND_TLS": False,
    "LOGIN_ATTEMPTS": 5,
    "LOGIN_WINDOW_S": 60.0,
    "COMMAND_TIMEOUT_S": 5.0,
    "SSE_KEEPALIVE_S": 15.0,
    "PUBLIC_URL": None,  # what the QR code opens; defaults to the URL the referee used
    "MAX_CONTENT_LENGTH": 16 * 1024,
    "DOCS_DIR": None,  # rulings.md for the "rule" links; else $SMARTMAT_DOCS_DIR, else the checkout's docs/
    "RULEBOOKS_DIR": None,  # the rulebook transcriptions the "rule" links open; else $SMARTMAT_RULEBOOKS_DIR
}


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(DEFAULTS)
    if config:
        app.config.from_mapping(config)
    app.config.setdefault("SECRET_KEY", None)
    if not app.config["SECRET_KEY"]:
        # A fresh key per start: referees log in again after a restart, which is acceptable at a table.
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    table = topics.check_id(str(app.config["TABLE"]), "table id")
    app.config.update(
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_SECURE=bool(app.config["BEHIND_TLS"]),
        # Browsers do not separate cookies by port: one name per table keeps the dashboards of several
        # tables on one host from logging each other's referee out.
        SESSION_COOKIE_NAME=f"smartmat_session_{table.replace('-', '_')}",
    )

    pin_hash = _pin_hash(app)  # before any connection: a broken PIN file must not leave clients running
    feed: TableFeed = app.config.get("TABLE_FEED") or TableFeed(table)
    closers: list[Closable] = []
    if not app.config.get("TABLE_FEED"):
        closers.append(MqttFeed(feed, BrokerUrl.parse(str(app.config["MQTT_URL"]))))
    commands: CommandChannel | None = app.config.get("COMMAND_CHANNEL")
    if commands is None:
        referee_url = app.config["MQTT_REFEREE_URL"] or app.config["MQTT_URL"]
        channel = MqttCommandChannel(table, BrokerUrl.parse(str(referee_url)))
        closers.append(channel)
        commands = channel
    app.extensions["smartmat"] = Dashboard(
        table=table,
        feed=feed,
        commands=commands,
        limiter=LoginLimiter(
            int(app.config["LOGIN_ATTEMPTS"]),
            float(app.config["LOGIN_WINDOW_S"]),
            app.config.get("LOGIN_CLOCK") or time.monotonic,
        ),
        pin_hash=pin_hash,
        closers=closers,
    )

    app.extensions["smartmat_sessions"] = RefereeSessions()

    from web_dashboard import auth, command_api, console, controller, rule_pages, setup_console, spectator

    for module in (spectator, auth, controller, console, command_api, setup_console, rule_pages):
        app.register_blueprint(module.bp)

    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
    mat = app.config.get("MAT") or shipped_mat()
    app.jinja_env.globals["mat_json"] = json.dumps(mat, separators=(",", ":"))
    app.after_request(_security_headers)
    app.register_error_handler(HTTPException, _http_error)
    return app


def _pin_hash(app: Flask) -> str | None:
    if app.config["REFEREE_PIN_HASH"]:
        return str(app.config["REFEREE_PIN_HASH"])
    if app.config["REFEREE_PIN_FILE"]:
        return read_pin_file(Path(app.config["REFEREE_PIN_FILE"]))
    log.warning("no referee PIN is set (smartmat dashboard set-pin); the referee pages cannot be used")
    return None


def _security_headers(response: Response) -> Response:
    # Everything is served from this host: no CDN, no inline script.
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def _http_error(error: HTTPException) -> Any:
    code = error.code or 500
    description = error.description
    if isinstance(error, RequestEntityTooLarge):  # werkzeug's own text names no size
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        description = f"the request body is larger than the {limit} bytes this dashboard accepts"
    if code >= 400 and code != 404:
        log.info("%s %s → %d: %s", request.method, request.path, code, description)
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
        response = jsonify({"ok": False, "error": description})
    else:
        response = Response(f"{code} {error.name}: {description}\n", mimetype="text/plain")
    response.status_code = code
    if code == 405 and (allowed := error.get_headers()):
        for name, value in allowed:
            if name == "Allow":
                response.headers["Allow"] = value
    return response
