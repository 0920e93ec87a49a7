"""Run the dashboard in a background thread.

``serve_dashboard(config)`` returns a handle with ``.url`` and ``.stop()``.

Used by ``smartmat dashboard`` and by the demo command, which starts it in-process next to the daemon.
werkzeug's threaded server gives each SSE client its own thread; ``stop()`` ends the streams first so the
threads finish.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

from flask import Flask
from werkzeug.serving import BaseWSGIServer, make_server

from web_dashboard import create_app
from web_dashboard.resources import dashboard_of

log = logging.getLogger(__name__)


@dataclass
class DashboardServer:
    app: Flask
    url: str
    _server: BaseWSGIServer
    _thread: threading.Thread

    def stop(self) -> None:
        dashboard_of(self.app).close()  # ends every SSE stream, closes the MQTT connections
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> DashboardServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_dashboard(config: dict[str, Any] | None = None) -> DashboardServer:
    """Start serving; config ``HOST`` (default 127.0.0.1) and ``PORT`` (default 8080, 0 = any free)."""
    config = dict(config or {})
    host = str(config.pop("HOST", "127.0.0.1"))
    port = int(config.pop("PORT", 8080))
    app = create_app(config)
    server = make_server(host, port, app, threaded=True)
    # An SSE client still attached must not keep the process alive (make_server(threaded=True) gives a
    # ThreadingMixIn server).
    server.daemon_threads = True  # type: ignore[attr-defined]
    shown_host = "localhost" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown_host}:{server.server_port}/"
    thread = threading.Thread(target=server.serve_forever, name="smartmat-dashboard", daemon=True)
    thread.start()
    log.info("dashboard for table %s at %s", dashboard_of(app).table, url)
    return DashboardServer(app, url, server, thread)
