"""The hub's Flask app and its server (cheroot, as the table's dashboard)."""

from __future__ import annotations

import logging
import secrets
import threading
from dataclasses import dataclass
from typing import Any

from cheroot import wsgi
from flask import Flask

from service.hub.hub import Hub
from service.hub.web.pages import bp
from service.hub.web.stream import ChangeStream
from web_dashboard.security import LoginLimiter, check_csrf, csrf_token

log = logging.getLogger(__name__)


def create_hub_app(
    hub: Hub,
    table_urls: dict[str, str] | None = None,
    table_url_template: str | None = None,
    max_streams: int = 200,
    secret_key: str | None = None,
    public_url: str | None = None,
) -> Flask:
    """``table_urls`` (or ``table_url_template`` such as ``http://{table}.local:8080/``) are where the
    overview's drill-down links go: each table's own dashboard. ``public_url`` is the hub's address for
    phones, shown on the standings page."""
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secret_key or secrets.token_hex(32),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_NAME="smartmat_hub",
        HUB_TABLE_URLS=dict(table_urls or {}),
        HUB_TABLE_URL_TEMPLATE=table_url_template,
        HUB_PUBLIC_URL=public_url,
    )
    app.extensions["smartmat_hub"] = hub
    app.extensions["smartmat_hub_stream"] = ChangeStream(hub, max_clients=max_streams)
    app.extensions["smartmat_hub_limiter"] = LoginLimiter()
    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.register_blueprint(bp)
    return app


@dataclass
class HubServer:
    url: str
    _server: Any
    _thread: threading.Thread
    _stream: ChangeStream

    def stop(self) -> None:
        self._stream.close()  # end the live streams first, so the worker threads can finish
        self._server.stop()
        self._thread.join(timeout=10)


def serve_hub(app: Flask, host: str = "0.0.0.0", port: int = 8090, threads: int = 32) -> HubServer:
    stream: ChangeStream = app.extensions["smartmat_hub_stream"]
    server = wsgi.Server(
        (host, port), app, numthreads=threads + stream.max_clients, server_name="smartmat-hub"
    )
    server.prepare()
    bound_port = server.bind_addr[1]
    thread = threading.Thread(target=server.serve, name="hub-http", daemon=True)
    thread.start()
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    log.info("hub pages at http://%s:%d/hub/", shown, bound_port)
    return HubServer(f"http://{shown}:{bound_port}", server, thread, stream)
