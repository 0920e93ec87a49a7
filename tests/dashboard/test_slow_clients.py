"""Idle and slow clients cannot lock the referee out (web_dashboard/slow_clients.py).

A few idle TCP connections used to hold every new HTTPS connection for up to 10 s each, because the TLS
handshake ran on the one thread that accepts connections. Everything here is on 127.0.0.1.
"""

from __future__ import annotations

import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import web_dashboard.slow_clients as slow_clients
from tests.dashboard.test_production_server import certificate, feed, https, port_of, request, start
from web_dashboard.server import DashboardServer
from web_dashboard.table.fake_feed import FakeFeed

__all__ = ["certificate", "feed"]  # fixtures, used by name
pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def tls(feed: FakeFeed, certificate: tuple[Path, Path]) -> Iterator[DashboardServer]:
    cert, key = certificate
    server = start(feed, TLS_CERT=str(cert), TLS_KEY=str(key), TLS_PORT=0)
    yield server
    server.stop()


def idle_sockets(port: int, count: int) -> list[socket.socket]:
    return [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(count)]


def still_open(sock: socket.socket) -> bool:
    """The server has not closed it: nothing to read yet, no end of stream."""
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def closed_by_server(sock: socket.socket, timeout_s: float) -> bool:
    sock.settimeout(timeout_s)
    try:
        while sock.recv(65536):
            pass
        return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def test_the_referees_https_page_answers_with_20_idle_sockets_open(
    tls: DashboardServer, certificate: tuple[Path, Path]
) -> None:
    cert, _ = certificate
    idle = idle_sockets(port_of(tls.url), 20)
    try:
        time.sleep(0.2)  # every one of them accepted and waiting (the old server sat in their handshakes)
        connection = https(tls, cert)
        connection.timeout = 5  # generous on a loaded machine: the old server took 10 s per idle socket first
        for _ in range(3):
            response, page = request(connection, "GET", "/login")
            assert response.status == 200 and "PIN" in page
        assert all(still_open(sock) for sock in idle), "the idle sockets were open throughout"
    finally:
        for sock in idle:
            sock.close()


def test_a_request_head_that_trickles_in_is_cut_off(
    tls: DashboardServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(slow_clients, "HEAD_TIMEOUT_S", 0.5)
    trickler = socket.create_connection(("127.0.0.1", port_of(tls.spectator_url)), timeout=5)
    half_handshake = socket.create_connection(("127.0.0.1", port_of(tls.url)), timeout=5)
    try:
        trickler.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        half_handshake.sendall(b"\x16\x03\x01\x02\x00\x01")  # the start of a ClientHello, never finished
        for _ in range(3):  # one header byte every 0.3 s: each read alone is well within cheroot's timeout
            time.sleep(0.3)
            try:
                trickler.sendall(b"X")
            except OSError:
                break
        assert closed_by_server(trickler, 5), "a head still incomplete after its deadline is dropped"
        assert closed_by_server(half_handshake, 5), "so is a TLS handshake that never completes"
    finally:
        trickler.close()
        half_handshake.close()


def test_an_oversized_header_is_refused_without_being_kept(tls: DashboardServer) -> None:
    sent = 0
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with socket.create_connection(("127.0.0.1", port_of(tls.spectator_url)), timeout=5) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
        chunk = b"a" * 65536
        try:
            while sent < 100 * 1024 * 1024:
                sent += sock.send(chunk)
        except OSError:  # the server answered and closed: the rest is never read
            pass
        reply = b""
        try:
            while part := sock.recv(65536):
                reply += part
        except OSError:
            pass
    assert reply.startswith(b"HTTP/1.1 413"), reply[:200]
    # The server stopped reading at its cap: only what the kernel's buffers held was ever sent.
    assert sent < 20 * 1024 * 1024
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before
    assert grown_kib < 32 * 1024, f"the server's memory grew by {grown_kib} KiB"
