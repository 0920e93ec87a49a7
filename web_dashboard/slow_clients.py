"""What keeps slow or idle clients from starving the dashboard's listeners (cheroot underneath).

* **TLS handshakes off the accepting thread.** cheroot completes each handshake on the one thread that
  accepts connections, blocking up to its socket timeout: a few idle sockets on the HTTPS port held every new
  connection for seconds each. ``DeferredHandshakeTLS`` only wraps the socket there; the handshake happens on
  a worker thread with the first read, once the client has sent something. An idle socket holds no thread
  and is dropped when cheroot's timeout expires.
* **A deadline for the request head.** From the first byte read (the TLS handshake included) the request
  line and headers must arrive within ``HEAD_TIMEOUT_S``, however slowly they trickle in; then the socket is
  shut down and the worker is free.
* **Size caps.** At most ``MAX_HEADER_BYTES`` of request line and headers and ``MAX_BODY_BYTES`` of body; more
  is answered 413 and never buffered.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import socket
import ssl
import threading
import time
from typing import Any

from cheroot.server import HTTPConnection, HTTPRequest
from cheroot.ssl.builtin import BuiltinSSLAdapter

log = logging.getLogger(__name__)

HEAD_TIMEOUT_S = 5.0  # TLS handshake, request line and headers, from the first byte
MAX_HEADER_BYTES = 16 * 1024  # request line and headers
MAX_BODY_BYTES = 64 * 1024  # a command or a login is a few hundred bytes (Flask refuses over 16 KiB)


class DeferredHandshakeTLS(BuiltinSSLAdapter):
    """cheroot's standard-library TLS, with the handshake done by the worker that reads the request."""

    def wrap(self, sock: socket.socket) -> tuple[ssl.SSLSocket, dict[str, str]]:
        wrapped = self.context.wrap_socket(sock, do_handshake_on_connect=False, server_side=True)
        # The cipher is not known before the handshake; the dashboard needs only the scheme.
        return wrapped, {"wsgi.url_scheme": "https", "HTTPS": "on"}


class _Deadlines:
    """One thread that shuts down the sockets whose request head is overdue."""

    def __init__(self) -> None:
        self._heap: list[tuple[float, int, socket.socket]] = []
        self._armed: set[int] = set()
        self._ids = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def arm(self, sock: socket.socket, seconds: float) -> int:
        token = next(self._ids)
        with self._wake:
            heapq.heappush(self._heap, (time.monotonic() + seconds, token, sock))
            self._armed.add(token)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="smartmat-head-deadlines", daemon=True)
                self._thread.start()
            self._wake.notify()
        return token

    def disarm(self, token: int) -> None:
        with self._wake:
            self._armed.discard(token)

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._heap and self._heap[0][1] not in self._armed:
                    heapq.heappop(self._heap)  # done in time
                if not self._heap:
                    self._wake.wait()
                    continue
                due, token, sock = self._heap[0]
                wait = due - time.monotonic()
                if wait > 0:
                    self._wake.wait(wait)
                    continue
                heapq.heappop(self._heap)
                self._armed.discard(token)
            log.info("a client sent no complete request head within %.0f s: dropped", HEAD_TIMEOUT_S)
            try:
                sock.shutdown(socket.SHUT_RDWR)  # the worker's blocked read returns at once
            except OSError:
                pass


DEADLINES = _Deadlines()


class _HeadDeadlineRequest(HTTPRequest):
    def parse_request(self) -> None:
        token = DEADLINES.arm(self.conn.socket, HEAD_TIMEOUT_S)
        try:
            super().parse_request()
        finally:
            DEADLINES.disarm(token)


class HeadDeadlineConnection(HTTPConnection):
    """cheroot's connection, reading each request head against ``HEAD_TIMEOUT_S``."""

    RequestHandlerClass = _HeadDeadlineRequest


def guard(server: Any) -> None:
    """Give a cheroot server the deadline and the size caps."""
    server.ConnectionClass = HeadDeadlineConnection
    server.max_request_header_size = MAX_HEADER_BYTES
    server.max_request_body_size = MAX_BODY_BYTES
