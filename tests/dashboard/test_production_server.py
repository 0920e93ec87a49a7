"""The dashboard behind its production server (cheroot): pages, live streams, HTTPS for the referee.

Everything listens on 127.0.0.1 on ports the system picks. The certificate is made by
`smartmat dashboard make-cert` itself, and HTTPS clients trust exactly that certificate (as a referee's phone
does once the referee has checked its fingerprint), so these are the real TLS handshakes.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest

from tests.dashboard.conftest import PIN, PIN_HASH, csrf_of
from tests.dashboard.test_cli import smartmat
from web_dashboard.server import DashboardServer, certificate_fingerprint, serve_dashboard
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed

pytestmark = pytest.mark.timeout(60)
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    directory = tmp_path_factory.mktemp("tls")
    assert smartmat(["dashboard", "make-cert", "--dir", str(directory), "--name", "localhost",
                     "--name", "127.0.0.1"]) == 0  # fmt: skip
    return directory / "cert.pem", directory / "key.pem"


@pytest.fixture
def feed() -> FakeFeed:
    fake = FakeFeed("t1")
    fake.online()
    fake.snapshot({"phase": "battle", "round": 1}, seq=1)
    return fake


def start(feed: FakeFeed, **config: Any) -> DashboardServer:
    return serve_dashboard(
        {
            "HOST": "127.0.0.1",
            "PORT": 0,
            "TABLE": "t1",
            "TABLE_FEED": feed.feed,
            "COMMAND_CHANNEL": FakeCommandChannel(),
            "REFEREE_PIN_HASH": PIN_HASH,
            "SSE_KEEPALIVE_S": 0.5,
            **config,
        }
    )


@pytest.fixture
def plain(feed: FakeFeed) -> Iterator[DashboardServer]:
    server = start(feed)
    yield server
    server.stop()


@pytest.fixture
def tls(feed: FakeFeed, certificate: tuple[Path, Path]) -> Iterator[DashboardServer]:
    cert, key = certificate
    server = start(feed, TLS_CERT=str(cert), TLS_KEY=str(key), TLS_PORT=0)
    yield server
    server.stop()


def port_of(url: str) -> int:
    port = urlsplit(url).port
    assert port is not None
    return port


def https(server: DashboardServer, cert: Path) -> http.client.HTTPSConnection:
    context = ssl.create_default_context(cafile=str(cert))  # trust this certificate and nothing else
    return http.client.HTTPSConnection("127.0.0.1", port_of(server.url), timeout=10, context=context)


def plain_http(url: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection("127.0.0.1", port_of(url), timeout=10)


def request(
    connection: http.client.HTTPConnection, method: str, path: str, **kw: Any
) -> tuple[http.client.HTTPResponse, str]:
    connection.request(method, path, **kw)
    response = connection.getresponse()
    return response, response.read().decode()


class Phone:
    """One SSE client on its own connection, collecting every line it is sent."""

    def __init__(self, connection: http.client.HTTPConnection, path: str = "/table/t1/events") -> None:
        connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = connection.getresponse()
        self.text = ""
        self._changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                with self._changed:
                    self.text += raw.decode()
                    self._changed.notify_all()
        except (OSError, ValueError, http.client.HTTPException):
            pass

    def wait_for(self, fragment: str, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while fragment not in self.text:
                left = deadline - time.monotonic()
                assert left > 0, f"{fragment!r} never arrived; got {self.text!r}"
                self._changed.wait(left)


def test_the_production_server_serves_the_page_and_streams_to_two_phones_at_once(
    plain: DashboardServer, feed: FakeFeed
) -> None:
    response, page = request(plain_http(plain.url), "GET", "/")
    assert response.status == 200
    assert response.getheader("Server") == "smartmat"  # cheroot, not werkzeug's development server
    assert 'data-events-url="/table/t1/events"' in page

    phones = [Phone(plain_http(plain.url)), Phone(plain_http(plain.url))]
    for phone in phones:
        assert phone.response.status == 200
        assert phone.response.getheader("Content-Type", "").startswith("text/event-stream")
        phone.wait_for("event: hello")
    feed.event("damage", "Xoric's melee hits the Troll (1 damage)", seq=2)
    feed.event("damage", "Xoric's melee hits the Goblin (1 damage)", seq=3)
    for phone in phones:  # both still attached, both get each event as it happens
        phone.wait_for("id: 3\n")
        assert "id: 2\n" in phone.text and "hits the Troll" in phone.text


def test_a_crowd_of_phones_arriving_at_once_all_get_a_thread(plain: DashboardServer, feed: FakeFeed) -> None:
    # More phones than the pool starts with: it must grow while they wait, not leave some queued for good.
    phones = [Phone(plain_http(plain.url)) for _ in range(40)]
    for phone in phones:
        phone.wait_for("event: hello")
    feed.event("damage", "everyone sees this", seq=2)
    for phone in phones:
        phone.wait_for("everyone sees this")


def test_phones_beyond_the_stream_limit_are_asked_to_come_back_and_pages_still_load(
    feed: FakeFeed,
) -> None:
    server = start(feed, MAX_STREAMS=2)
    try:
        held = [Phone(plain_http(server.url)), Phone(plain_http(server.url))]
        for phone in held:
            phone.wait_for("event: hello")
        response, body = request(plain_http(server.url), "GET", "/table/t1/events")
        assert response.status == 200
        assert re.fullmatch(r"retry: \d+\n\n", body), body  # the browser reconnects by itself later
        response, _ = request(plain_http(server.url), "GET", "/login")
        assert response.status == 200  # the referee is never starved by spectators
        feed.event("damage", "still live", seq=2)
        for phone in held:
            phone.wait_for("still live")
    finally:
        server.stop()


def test_with_a_certificate_the_referee_logs_in_over_https_with_a_secure_cookie(
    tls: DashboardServer, certificate: tuple[Path, Path]
) -> None:
    cert, _ = certificate
    assert tls.url.startswith("https://127.0.0.1:")
    connection = https(tls, cert)
    response, page = request(connection, "GET", "/login")
    assert response.status == 200
    cookie = response.getheader("Set-Cookie", "")
    form = urlencode({"name": "anna", "pin": PIN, "csrf_token": csrf_of(page), "next": "/referee/console"})
    response, _ = request(
        connection,
        "POST",
        "/login",
        body=form,
        headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie.split(";")[0]},
    )
    assert response.status == 302, "the right PIN over HTTPS logs the referee in"
    assert response.getheader("Location") == "/referee/console"
    session = response.getheader("Set-Cookie", "")
    attributes = {part.strip().split("=")[0].lower(): part.strip() for part in session.split(";")[1:]}
    assert session.startswith("smartmat_session_t1=")
    assert "secure" in attributes and "httponly" in attributes
    assert attributes["samesite"] == "SameSite=Strict"

    response, console = request(
        connection, "GET", "/referee/console", headers={"Cookie": session.split(";")[0]}
    )
    assert response.status == 200
    assert tls.fingerprint is not None and tls.fingerprint in console  # next to the spectators' QR code


def test_over_plain_http_the_referee_pages_send_to_https_and_a_posted_pin_is_refused(
    tls: DashboardServer, feed: FakeFeed
) -> None:
    assert tls.spectator_url.startswith("http://127.0.0.1:") and tls.spectator_url != tls.url
    https_port = port_of(tls.url)
    connection = plain_http(tls.spectator_url)
    for path in ("/login", "/referee/console", "/referee/turn?x=1"):
        response, _ = request(connection, "GET", path)
        assert response.status == 302, path
        assert response.getheader("Location") == f"https://127.0.0.1:{https_port}{path}"
    form = urlencode({"name": "anna", "pin": PIN, "csrf_token": "x", "next": "/"})
    response, body = request(
        connection, "POST", "/login", body=form, headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    assert response.status == 403 and "HTTPS only" in body
    assert response.getheader("Set-Cookie") is None, "no session is ever started over plain HTTP"
    response, _ = request(
        connection, "POST", "/api/command", body="{}", headers={"Content-Type": "application/json"}
    )
    assert response.status == 403

    response, page = request(connection, "GET", "/")  # spectators may stay on plain HTTP, read-only
    assert response.status == 200 and 'data-events-url="/table/t1/events"' in page
    response, page = request(connection, "GET", "/table/t1/tv")  # and so may the screen beside the table
    assert response.status == 200 and 'class="tv-mat"' in page
    phone = Phone(plain_http(tls.spectator_url))
    phone.wait_for("event: hello")
    feed.event("damage", "seen over plain HTTP", seq=2)
    phone.wait_for("seen over plain HTTP")


def test_the_fingerprint_on_the_login_page_is_the_certificate_the_server_presents(
    tls: DashboardServer, certificate: tuple[Path, Path]
) -> None:
    cert, _ = certificate
    context = ssl.create_default_context(cafile=str(cert))
    with socket.create_connection(("127.0.0.1", port_of(tls.url)), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as wrapped:
            presented = wrapped.getpeercert(binary_form=True)
    assert presented is not None
    expected = ":".join(f"{b:02X}" for b in hashlib.sha256(presented).digest())
    openssl = subprocess.run(
        ["openssl", "x509", "-in", str(cert), "-noout", "-fingerprint", "-sha256"],
        capture_output=True, text=True, timeout=10, check=True,
    )  # fmt: skip
    assert openssl.stdout.strip().split("=", 1)[1] == expected
    assert tls.fingerprint == certificate_fingerprint(cert) == expected

    _, page = request(https(tls, cert), "GET", "/login")
    shown = re.search(r'<code id="tls-fingerprint">([0-9A-F:]+)</code>', page)
    assert shown and shown.group(1) == expected


def test_under_tls_the_qr_code_opens_the_plain_spectator_page(
    tls: DashboardServer, certificate: tuple[Path, Path]
) -> None:
    response, _ = request(https(tls, certificate[0]), "GET", "/qr.svg")
    assert response.status == 200
    assert response.getheader("X-Spectator-URL") == f"{tls.spectator_url}table/t1"


def test_make_cert_keeps_an_existing_certificate_and_a_broken_pair_is_refused(
    certificate: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], feed: FakeFeed
) -> None:
    cert, key = certificate
    before = cert.read_bytes()
    assert smartmat(["dashboard", "make-cert", "--dir", str(cert.parent)]) == 0
    assert cert.read_bytes() == before
    assert certificate_fingerprint(cert) in capsys.readouterr().out
    assert key.stat().st_mode & 0o077 == 0  # the key is the owner's alone

    with pytest.raises(ValueError, match="cannot load the TLS certificate"):
        start(feed, TLS_CERT=str(tmp_path / "missing.pem"), TLS_KEY=str(key), TLS_PORT=0)
    with pytest.raises(ValueError, match="both a certificate and its key"):
        start(feed, TLS_CERT=str(cert), TLS_PORT=0)


def test_smartmat_run_starts_the_dashboard_with_tls(
    certificate: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from service.app.cli import start_dashboard

    cert, key = certificate
    args = argparse.Namespace(
        pin_file=None, data_dir=tmp_path, dashboard_host="127.0.0.1", dashboard_port=0, dashboard_tls_port=0,
        spectator_broker=None, referee_broker=None, tls_cert=cert, tls_key=key, public_url=None,
    )  # fmt: skip
    with ExitStack() as stack:
        url = start_dashboard(args, "t1", f"mqtt://127.0.0.1:{_closed_port()}", stack)
        out = capsys.readouterr().out
        assert url.startswith("http://localhost:") or url.startswith("http://127.0.0.1:")
        referee = re.search(r"referee pages at (https://\S+)", out)
        assert referee and certificate_fingerprint(cert) in out
        response, _ = request(plain_http(url), "GET", "/referee/turn")
        assert response.status == 302 and response.getheader("Location", "").startswith("https://")
        context = ssl.create_default_context(cafile=str(cert))
        connection = http.client.HTTPSConnection(
            "127.0.0.1", port_of(referee.group(1)), timeout=10, context=context
        )
        response, page = request(connection, "GET", "/login")
        assert response.status == 200 and certificate_fingerprint(cert) in page


def test_smartmat_dashboard_serves_https_and_stops_on_sigterm(
    certificate: tuple[Path, Path], tmp_path: Path
) -> None:
    cert, key = certificate
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "dashboard", "--host", "127.0.0.1", "--port", "0",
         "--tls-port", "0", "--tls-cert", str(cert), "--tls-key", str(key), "--table", "t1",
         "--broker", f"mqtt://127.0.0.1:{_closed_port()}", "--pin-file", str(tmp_path / "no-pin")],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        text = "".join(lines)
        referee = re.search(r"referee (https://\S+)", text)
        spectators = re.search(r"spectators (http://\S+)", text)
        assert referee and spectators, text
        assert certificate_fingerprint(cert) in text
        context = ssl.create_default_context(cafile=str(cert))
        connection = http.client.HTTPSConnection(
            "127.0.0.1", port_of(referee.group(1)), timeout=10, context=context
        )
        response, page = request(connection, "GET", "/")
        assert response.status == 200 and response.getheader("Server") == "smartmat"
        response, _ = request(plain_http(spectators.group(1)), "GET", "/login")
        assert response.status == 302
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0


def _closed_port() -> int:
    """A port nothing listens on: the dashboard's MQTT clients keep retrying there, harmlessly."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
