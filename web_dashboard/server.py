"""The one web server, for the table's dashboard and the tournament hub's pages: cheroot in worker threads.

``serve_dashboard(config)`` serves a table's dashboard (``smartmat dashboard``, and ``smartmat run``, which
starts it in-process next to the daemon); ``serve_hub(app)`` serves the hub's pages (``smartmat hub serve``);
both go through ``serve_app`` and return a handle with ``.url`` (the referee's address), ``.spectator_url``,
``.fingerprint``, ``.port`` and ``.stop()``.

cheroot is a pure-Python HTTP/1.1 server with a pool of worker threads and TLS from the standard ``ssl``
module. Each live SSE stream holds one worker thread for as long as the phone stays; the pool grows on
demand up to ``MAX_STREAMS`` plus a reserve, and streams beyond ``MAX_STREAMS`` are told to come back
later, so spectators can never take the threads the referee's pages and commands need (the table's
``/table/<id>/events`` and the hub's ``/hub/api/stream`` alike).

Idle and slow clients cannot starve either listener: TLS handshakes happen on the worker threads, each
request head has a deadline, and header and body sizes are capped (``web_dashboard/slow_clients.py``).

With ``TLS_CERT`` and ``TLS_KEY`` the dashboard listens on HTTPS (``TLS_PORT``) and the plain-HTTP port
(``PORT``) serves only the read-only spectator pages: the referee's login, pages and commands answer there
with a redirect to HTTPS (or ``403`` for anything but GET/HEAD, which is never passed on). ``stop()`` ends the
streams first so the worker threads finish.
"""

from __future__ import annotations

import hashlib
import logging
import random
import ssl
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from cheroot import wsgi
from cheroot.ssl.builtin import BuiltinSSLAdapter
from cheroot.workers.threadpool import ThreadPool
from flask import Flask

from web_dashboard.slow_clients import DeferredHandshakeTLS, guard
from web_dashboard.table import create_app
from web_dashboard.table.resources import dashboard_of
from web_dashboard.web import close_app

log = logging.getLogger(__name__)

DEFAULT_MAX_STREAMS = 300  # phones streaming at once (memory per phone: docs/dashboard.md)
RESERVE_THREADS = 16  # worker threads no spectator stream may take: pages, logins, commands
MIN_THREADS = 8
SOCKET_TIMEOUT_S = 10  # a phone that accepts nothing for this long is dropped (it reconnects and catches up)

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def certificate_fingerprint(cert_path: str | Path) -> str:
    """SHA-256 of the (first) certificate in a PEM file, as browsers show it: ``AB:CD:…`` (32 bytes)."""
    text = Path(cert_path).read_text(encoding="ascii", errors="replace")
    begin = text.find("-----BEGIN CERTIFICATE-----")
    end_marker = "-----END CERTIFICATE-----"
    end = text.find(end_marker, begin)
    if begin < 0 or end < 0:
        raise ValueError(f"{cert_path} holds no PEM certificate")
    der = ssl.PEM_cert_to_DER_cert(text[begin : end + len(end_marker)] + "\n")
    return ":".join(f"{byte:02X}" for byte in hashlib.sha256(der).digest())


class _GrowingPool(ThreadPool):
    """cheroot's pool never grows by itself. This one adds workers whenever connections wait for one
    (doubling, so a crowd scanning the QR code at once waits for few rounds), and gives half of the idle ones
    back once most have been idle for a while. A watcher re-checks every quarter second: a count taken while
    a worker is just picking up a connection must not leave the next phones waiting."""

    CHECK_S = 0.25
    SHRINK_AFTER_S = 10.0
    _threads: list[threading.Thread]  # the workers, set by cheroot's ThreadPool; its stub leaves it out

    def start(self) -> None:
        self._adjusting = threading.Lock()
        self._stopping = threading.Event()
        self._idle_since: float | None = None
        super().start()
        threading.Thread(target=self._watch, name="smartmat-dashboard-pool", daemon=True).start()

    def put(self, obj: Any) -> None:
        super().put(obj)
        self._adjust()

    def stop(self, timeout: float | None = 5) -> None:
        self._stopping.set()
        with self._adjusting:
            # cheroot's stub says int; its stop() takes any number of seconds, or None for no limit.
            super().stop(timeout)  # type: ignore[arg-type]

    def _watch(self) -> None:
        while not self._stopping.wait(self.CHECK_S):
            self._adjust()

    def _adjust(self) -> None:
        with self._adjusting:
            if self._stopping.is_set():
                return
            threads, idle, waiting = len(self._threads), self.idle, self.qsize
            if waiting > idle and threads < self.max:
                self.grow(max(8, threads, waiting))
                self._idle_since = None
            elif threads > 2 * self.min and idle > 3 * threads // 4:
                now = time.monotonic()
                if self._idle_since is None:
                    self._idle_since = now
                elif now - self._idle_since >= self.SHRINK_AFTER_S:
                    self.shrink(idle // 2)
                    self._idle_since = None
            else:
                self._idle_since = None


class _StreamLimit:
    """At most ``limit`` SSE streams at once; one more is answered with ``retry:`` and closed, so the phone's
    EventSource comes back a little later by itself (and never holds a thread meant for the referee)."""

    def __init__(self, app: WsgiApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.active = 0
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if not (path.startswith("/table/") and path.endswith("/events") or path == HUB_STREAM):
            return self.app(environ, start_response)
        with self._lock:
            full = self.active >= self.limit
            if not full:
                self.active += 1
        if full:
            log.warning("%d phones streaming (the limit): one more is asked to come back later", self.limit)
            start_response("200 OK", [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")])
            return [f"retry: {random.randint(10_000, 30_000)}\n\n".encode()]
        try:
            body = self.app(environ, start_response)
        except BaseException:
            self._release()
            raise
        return _Counted(body, self._release)

    def _release(self) -> None:
        with self._lock:
            self.active -= 1


@dataclass
class _Counted:
    body: Iterable[bytes]
    release: Callable[[], None]
    _released: bool = field(default=False, init=False)

    def __iter__(self) -> Any:
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            if not self._released:
                self._released = True
                self.release()


HUB_STREAM = "/hub/api/stream"
SPECTATOR_PATHS = frozenset({"/", "/qr.svg", "/favicon.ico"})
SPECTATOR_PREFIXES = ("/table/", "/api/table/", "/static/")


class _SpectatorsOnly:
    """The plain-HTTP listener when TLS is on: spectator pages as usual, every referee address sent to HTTPS.

    A login or command posted over plain HTTP is refused without being looked at: the PIN it carried has
    crossed the network in clear, and checking it would tell a listener whether it was right."""

    def __init__(self, app: WsgiApp, https_port: int) -> None:
        self.app = app
        self.https_port = https_port

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "") or "/"
        method = environ.get("REQUEST_METHOD", "GET")
        if method in ("GET", "HEAD") and (path in SPECTATOR_PATHS or path.startswith(SPECTATOR_PREFIXES)):
            return self.app(environ, start_response)
        location = self.https_url(environ, path)
        if method in ("GET", "HEAD"):
            body = f"The referee pages are served over HTTPS only: {location}\n".encode()
            start_response(
                "302 Found",
                [
                    ("Location", location),
                    ("Content-Type", "text/plain; charset=utf-8"),
                    ("Content-Length", str(len(body))),
                    ("Cache-Control", "no-store"),
                ],
            )
            return [body]
        log.warning("%s %s over plain HTTP refused (TLS is on)", method, path)
        body = (
            f"Refused: the referee pages take requests over HTTPS only. Nothing was done. Open {location}\n"
        ).encode()
        start_response(
            "403 Forbidden",
            [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
        )
        return [body]

    def https_url(self, environ: dict[str, Any], path: str) -> str:
        host = environ.get("HTTP_HOST") or environ.get("SERVER_NAME", "localhost")
        hostname = urlsplit(f"//{host}").hostname or "localhost"
        if ":" in hostname:
            hostname = f"[{hostname}]"
        query = environ.get("QUERY_STRING", "")
        return f"https://{hostname}:{self.https_port}{quote(path)}" + (f"?{query}" if query else "")


@dataclass
class _Listener:
    server: wsgi.Server
    thread: threading.Thread

    @property
    def port(self) -> int:
        return int(self.server.bind_addr[1])


def _listen(host: str, port: int, app: WsgiApp, max_threads: int, tls: BuiltinSSLAdapter | None) -> _Listener:
    server = wsgi.Server(
        (host, port),
        app,
        numthreads=MIN_THREADS,
        max=max_threads,
        server_name="smartmat",
        timeout=SOCKET_TIMEOUT_S,
        shutdown_timeout=5,
        request_queue_size=128,
    )
    server.requests = _GrowingPool(server, min=MIN_THREADS, max=max_threads)
    guard(server)  # a deadline for each request head, caps on its size and the body's (slow_clients.py)
    if tls is not None:
        server.ssl_adapter = tls
    server.prepare()  # binds now: a port in use is an error here, not in the thread
    thread = threading.Thread(target=server.serve, name=f"smartmat-dashboard-{server.bind_addr[1]}")
    thread.daemon = True
    thread.start()
    return _Listener(server, thread)


def _url(scheme: str, host: str, port: int) -> str:
    shown = "localhost" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"{scheme}://{shown}:{port}/"


@dataclass
class DashboardServer:
    """The web server: the table's dashboard, the hub's pages, or both, on one or two listeners."""

    app: Flask
    url: str  # the referee's address: HTTPS when TLS is on
    spectator_url: str  # plain HTTP when TLS is on and the plain listener runs; else the same as url
    fingerprint: str | None
    _listeners: list[_Listener]

    @property
    def port(self) -> int:
        """The port of ``url`` (the one the system chose when 0 was asked for)."""
        return self._listeners[0].port

    def stop(self) -> None:
        close_app(self.app)  # ends every SSE stream, closes the MQTT connections
        for listener in self._listeners:
            listener.server.stop()
        for listener in self._listeners:
            listener.thread.join(timeout=5)

    def __enter__(self) -> DashboardServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_dashboard(config: dict[str, Any] | None = None) -> DashboardServer:
    """Start serving a table's dashboard. Server keys (the rest go to ``create_app``):

    ``HOST`` (default 127.0.0.1), ``PORT`` (plain HTTP, default 8080, 0 = any free port, ``None`` = no plain
    listener when TLS is on), ``TLS_CERT`` and ``TLS_KEY`` (PEM files: serve HTTPS on ``TLS_PORT``, default
    8443), ``MAX_STREAMS`` (SSE streams at once, default 300).
    """
    config = dict(config or {})
    host = str(config.pop("HOST", "127.0.0.1"))
    port = config.pop("PORT", 8080)
    cert = config.pop("TLS_CERT", None)
    key = config.pop("TLS_KEY", None)
    tls_port = int(config.pop("TLS_PORT", 8443))
    max_streams = int(config.pop("MAX_STREAMS", DEFAULT_MAX_STREAMS))
    if bool(cert) != bool(key):
        raise ValueError("TLS needs both a certificate and its key (--tls-cert and --tls-key)")
    tls: BuiltinSSLAdapter | None = None
    fingerprint = None
    if cert:
        tls = _tls_adapter(str(cert), str(key))
        fingerprint = certificate_fingerprint(cert)
        config["BEHIND_TLS"] = True  # Secure session cookie
        config["TLS_FINGERPRINT"] = fingerprint
    elif port is None:
        raise ValueError("no port to listen on")

    app = create_app(config)
    server = serve_app(app, host, port, tls, tls_port, max_streams, fingerprint)
    log.info("dashboard for table %s at %s", dashboard_of(app).table, server.url)
    if fingerprint:
        log.info("TLS certificate SHA-256 fingerprint %s", fingerprint)
    return server


def serve_hub(app: Flask, host: str = "0.0.0.0", port: int = 8090) -> DashboardServer:
    """Serve an app made by ``web_dashboard.hub.create_hub_app`` (plain HTTP, as `smartmat hub serve`)."""
    max_streams = int(app.extensions["smartmat_hub_stream"].max_clients)
    server = serve_app(app, host, port, max_streams=max_streams)
    log.info("hub pages at %shub/", server.url)
    return server


def serve_app(
    app: Flask,
    host: str = "127.0.0.1",
    port: int | None = 8080,
    tls: BuiltinSSLAdapter | None = None,
    tls_port: int = 8443,
    max_streams: int = DEFAULT_MAX_STREAMS,
    fingerprint: str | None = None,
) -> DashboardServer:
    """Serve ``app`` (made by ``web_dashboard.web.new_app``) in background threads: on ``port`` alone, or
    with ``tls`` on ``tls_port`` and, when ``port`` is not None, the spectator pages on plain HTTP."""
    limited = _StreamLimit(app, max_streams)
    max_threads = max_streams + RESERVE_THREADS
    listeners: list[_Listener] = []
    try:
        if tls is not None:
            listeners.append(_listen(host, tls_port, limited, max_threads, tls))
            url = _url("https", host, listeners[0].port)
            spectator_url = url
            if port is not None:
                spectators_only = _SpectatorsOnly(limited, listeners[0].port)
                plain = _listen(host, int(port), spectators_only, max_threads, None)
                listeners.append(plain)
                spectator_url = _url("http", host, plain.port)
                app.config["SPECTATOR_HTTP_PORT"] = plain.port
        else:
            if port is None:
                raise ValueError("no port to listen on")
            listeners.append(_listen(host, int(port), limited, max_threads, None))
            url = spectator_url = _url("http", host, listeners[0].port)
    except BaseException:
        for listener in listeners:
            listener.server.stop()
        close_app(app)
        raise
    return DashboardServer(app, url, spectator_url, fingerprint, listeners)


def _tls_adapter(cert: str, key: str) -> BuiltinSSLAdapter:
    try:
        adapter = DeferredHandshakeTLS(cert, key)  # handshakes on the workers, never on the accepting thread
    except (OSError, ssl.SSLError) as exc:
        raise ValueError(f"cannot load the TLS certificate {cert} with the key {key}: {exc}") from None
    context = adapter.context
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return adapter
