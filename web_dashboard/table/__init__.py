"""The table's pages: spectator view, board view, turn controller and referee console for one table.

``create_app(config)`` builds a fresh Flask app on the web server's frame (``web_dashboard/web.py``: the one
security layer) with the table's blueprints, one per feature (``spectator``, ``auth``, ``controller``,
``console``, ``command_api``, ``setup_console``, ``rules``), and this package's ``templates/`` and
``static/``. Without injected stand-ins it opens two MQTT connections: a read-only one for the table feed and
a referee one for commands. The table's referee logs in with the table's PIN (``auth.py``), a role apart from
the hub's organiser and referees.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from flask import Flask

from service.publish import topics
from service.publish.broker_url import BrokerUrl
from web_dashboard.security import LoginLimiter, RefereeSessions, read_pin_file
from web_dashboard.table.camera_views import CameraViews
from web_dashboard.table.commands import CommandChannel
from web_dashboard.table.mat import shipped_mat
from web_dashboard.table.mqtt_link import MqttCommandChannel, MqttFeed
from web_dashboard.table.resources import Closable, Dashboard, dashboard_of
from web_dashboard.table.table_feed import TableFeed
from web_dashboard.web import new_app, on_stop

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
    settings = dict(DEFAULTS)
    settings.update(config or {})
    table = topics.check_id(str(settings["TABLE"]), "table id")
    # Browsers do not separate cookies by port: one name per table keeps the dashboards of several tables
    # on one host from logging each other's referee out.
    app = new_app(settings, cookie_name=f"smartmat_session_{table.replace('-', '_')}", home=__name__)

    pin_hash = _pin_hash(app)  # before any connection: a broken PIN file must not leave clients running
    feed: TableFeed = app.config.get("TABLE_FEED") or TableFeed(table)
    closers: list[Closable] = []
    if not app.config.get("TABLE_FEED"):
        closers.append(MqttFeed(feed, BrokerUrl.parse(str(app.config["MQTT_URL"]))))
    commands: CommandChannel | None = app.config.get("COMMAND_CHANNEL")
    camera_views: CameraViews | None = app.config.get("CAMERA_VIEWS")
    if commands is None:
        referee_url = app.config["MQTT_REFEREE_URL"] or app.config["MQTT_URL"]
        channel = MqttCommandChannel(table, BrokerUrl.parse(str(referee_url)))
        closers.append(channel)
        commands = channel
        camera_views = camera_views or CameraViews(channel.ask_camera_view)
        channel.on_camera_view = camera_views.take
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
        camera_views=camera_views,
    )

    on_stop(app, dashboard_of(app).close)  # ends every SSE stream, closes the MQTT connections
    app.extensions["smartmat_sessions"] = RefereeSessions()

    from web_dashboard.table import (
        auth,
        camera_view,
        command_api,
        console,
        controller,
        rule_pages,
        setup_console,
        spectator,
    )

    for module in (spectator, auth, controller, console, command_api, setup_console, camera_view, rule_pages):
        app.register_blueprint(module.bp)

    mat = app.config.get("MAT") or shipped_mat()
    app.jinja_env.globals["mat_json"] = json.dumps(mat, separators=(",", ":"))
    return app


def _pin_hash(app: Flask) -> str | None:
    if app.config["REFEREE_PIN_HASH"]:
        return str(app.config["REFEREE_PIN_HASH"])
    if app.config["REFEREE_PIN_FILE"]:
        return read_pin_file(Path(app.config["REFEREE_PIN_FILE"]))
    log.warning("no referee PIN is set (smartmat dashboard set-pin); the referee pages cannot be used")
    return None
