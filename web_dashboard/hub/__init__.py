"""The tournament hub's pages: blueprint ``hub`` (``/hub/…``) on the web server, its templates, its static.

- ``/hub/`` the organiser's overview: every table live, the round, sign-off and correction for referees;
- ``/hub/standings`` the public standings and live scores, for a big screen and phones (read-only, no login);
- ``/hub/api/…`` the same as JSON, ``/hub/api/stream`` Server-Sent Events when anything changes;
- ``/hub/export/…`` CSV, JSON and TRF; ``/hub/games/<game>/…`` any game's log and its replay.

The tournament itself (model, store, feed) is ``service.hub``'s; these pages read and change it through
:class:`service.hub.hub.Hub`. A hub is served alone (``smartmat hub serve``: :func:`create_hub_app`) or on
an app that already has a table's dashboard (:func:`add_hub`); its organiser login is its own, apart from the
table's referee PIN.
"""

from __future__ import annotations

from flask import Flask

from service.hub.hub import Hub
from web_dashboard.hub.pages import bp
from web_dashboard.hub.stream import ChangeStream
from web_dashboard.security import LoginLimiter
from web_dashboard.web import new_app, on_stop

__all__ = ["add_hub", "create_hub_app"]

HUB_COOKIE = "smartmat_hub"


def create_hub_app(
    hub: Hub,
    table_urls: dict[str, str] | None = None,
    table_url_template: str | None = None,
    max_streams: int = 200,
    secret_key: str | None = None,
    public_url: str | None = None,
) -> Flask:
    """The hub alone, without a table. ``table_urls`` (or ``table_url_template`` such as
    ``http://{table}.local:8080/``) are where the overview's drill-down links go: each table's own dashboard.
    ``public_url`` is the hub's address for phones, shown on the standings page."""
    app = new_app({"SECRET_KEY": secret_key}, cookie_name=HUB_COOKIE)
    add_hub(app, hub, table_urls, table_url_template, max_streams, public_url)
    return app


def add_hub(
    app: Flask,
    hub: Hub,
    table_urls: dict[str, str] | None = None,
    table_url_template: str | None = None,
    max_streams: int = 200,
    public_url: str | None = None,
) -> None:
    """Register the hub's blueprint and its resources on a web app made by ``web_dashboard.web.new_app``."""
    app.config.update(
        HUB_TABLE_URLS=dict(table_urls or {}),
        HUB_TABLE_URL_TEMPLATE=table_url_template,
        HUB_PUBLIC_URL=public_url,
    )
    stream = ChangeStream(hub, max_clients=max_streams)
    app.extensions["smartmat_hub"] = hub
    app.extensions["smartmat_hub_stream"] = stream
    app.extensions["smartmat_hub_limiter"] = LoginLimiter()
    on_stop(app, stream.close)  # end the live streams first, so the worker threads can finish
    app.register_blueprint(bp)
