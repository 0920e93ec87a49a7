"""The venue-network attacks of docs/security.md, replayed against a table's broker and dashboard on loopback.

Each attack is run as a stranger on the table's network would run it, and what it achieved is printed:

1. **client-id takeover**: for ``--seconds``, every other account connects once a second with the daemon's
   client id (and with the daemon's account name as its id) to the shipped Mosquitto configuration; printed:
   the share of that time the daemon was off the broker, and the ``offline`` statuses phones saw;
2. **anonymous command**: a client without a password tries to connect to that broker and send ``correct``;
3. **a stranger's seq**: a state and an event numbered 999999 reach the dashboard's feed, then the table plays
   on; printed: whether the page shows the table's next state and how many of its later events reach a phone;
4. **idle sockets against HTTPS**: 20 idle TCP connections to the HTTPS port (and one more every 0.5 s), while
   the referee loads the login page 10 times; printed: the slowest load;
5. **a session cookie copied before logout**, used after it;
6. **parallel wrong PINs**: 60 over HTTP and 150 over HTTPS at once from one address; printed: PIN checks;
7. **an oversized header** of 100 MB; printed: the answer, how much was sent, the server's memory growth.

    sudo -E .venv/bin/python benchmarks/attack_suite.py [--seconds 30]

Everything listens on and connects to 127.0.0.1 only; brokers are ``mosquitto -c <tmpconf>`` on free ports.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import http.client
import json
import resource
import socket
import ssl
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a script

import web_dashboard.table.auth as auth  # noqa: E402
from service.publish import PahoTransport, TablePublisher  # noqa: E402
from tests.helpers.broker import MosquittoBroker, free_port  # noqa: E402
from tests.helpers.mqtt_probe import MqttProbe  # noqa: E402
from tests.publish.test_broker_security import PASSWORDS, production_config  # noqa: E402
from web_dashboard.security import hash_pin  # noqa: E402
from web_dashboard.server import DashboardServer, serve_dashboard  # noqa: E402
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed  # noqa: E402
from web_dashboard.tls import make_certificate  # noqa: E402

PIN = "owl-bear-42"
T = "smartmat/table-1"


def takeover(work: Path, seconds: float) -> None:
    port = free_port()
    broker = MosquittoBroker("127.0.0.1", port, production_config(work, port), work / "mosquitto.log")
    broker.start()
    try:
        daemon_id = "smartmat-daemon-table-1"
        transport = PahoTransport(broker.url("daemon", PASSWORDS["daemon"]), daemon_id)
        table = TablePublisher("table-1", transport)
        table.start()
        transport.wait_connected(5)
        with MqttProbe(broker.host, broker.port, "referee", PASSWORDS["referee"]) as phone:
            phone.subscribe(f"{T}/status")
            offline_s, tries, started = 0.0, 0, time.monotonic()
            roles = [r for r in PASSWORDS if r != "daemon"]
            while time.monotonic() - started < seconds:
                role = roles[tries % len(roles)]
                for stolen in (daemon_id, "daemon"):
                    MqttProbe(broker.host, broker.port, role, PASSWORDS[role], client_id=stolen).close()
                    tries += 1
                tick = time.monotonic()
                while time.monotonic() - tick < 1.0:
                    if not transport.connected:
                        offline_s += 0.05
                    time.sleep(0.05)
            offline = [s for s in phone.on(f"{T}/status") if s.payload == b"offline"]
        table.stop()
        elapsed = time.monotonic() - started
        print(
            f"1. client-id takeover: {tries} connections with the daemon's id by {len(roles)} accounts in "
            f"{elapsed:.0f} s; daemon off the broker {100 * offline_s / elapsed:.1f} % of the time; "
            f"'offline' statuses seen by phones: {len(offline)}"
        )
        try:
            MqttProbe(broker.host, broker.port).close()
            anonymous = "ACCEPTED"
        except PermissionError as exc:
            anonymous = f"refused ({exc})"
        print(f"2. anonymous client on the shipped broker: {anonymous}; no command can be sent")
    finally:
        broker.stop()


def strangers_seq() -> None:
    fake = FakeFeed("t1")
    fake.snapshot({"phase": "battle"}, seq=10)
    phone = fake.feed.stream(None, history=50, keepalive_s=0.05)
    next(phone)  # hello
    fake.publish("state", {"phase": "game_over", "seq": 999_999})
    fake.event("damage", "a stranger's event", seq=999_999)
    for seq in range(11, 31):
        fake.event("damage", f"the table's event {seq}", seq=seq)
        fake.publish("state", {"phase": "battle", "seq": seq})
    got: list[str] = []
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and sum("the table's" in t for t in got) < 20:
        message = next(phone)
        if message is not None and message.kind == "event":
            got.append(message.data["text"])
    shown = fake.feed.view()["state"]
    real = sum("the table's" in t for t in set(got))
    print(
        f"3. a stranger's state and event with seq 999999: page shows seq {shown['seq']} ({shown['phase']}); "
        f"the table's 20 later events reached the phone: {real}; the stranger's event in the story: "
        f"{any('stranger' in e['text'] for e in fake.feed.recent_events())}"
    )


def start_dashboard(cert: Path | None = None, key: Path | None = None) -> DashboardServer:
    feed = FakeFeed("t1")
    feed.online()
    feed.snapshot({"phase": "battle"}, seq=1)
    config: dict[str, Any] = {
        "HOST": "127.0.0.1", "PORT": 0, "TABLE": "t1", "TABLE_FEED": feed.feed,
        "COMMAND_CHANNEL": FakeCommandChannel(), "REFEREE_PIN_HASH": hash_pin(PIN),
    }  # fmt: skip
    if cert is not None:
        config.update(TLS_CERT=str(cert), TLS_KEY=str(key), TLS_PORT=0)
    return serve_dashboard(config)


def connect(url: str, cert: Path | None, timeout: float = 30) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    assert parts.port is not None
    if parts.scheme == "https":
        context = ssl.create_default_context(cafile=str(cert))
        return http.client.HTTPSConnection("127.0.0.1", parts.port, timeout=timeout, context=context)
    return http.client.HTTPConnection("127.0.0.1", parts.port, timeout=timeout)


def idle_sockets(server: DashboardServer, cert: Path) -> None:
    port = urlsplit(server.url).port
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
    stop = threading.Event()

    def one_more_every_half_second() -> None:
        while not stop.wait(0.5):
            idle.append(socket.create_connection(("127.0.0.1", port)))

    threading.Thread(target=one_more_every_half_second, daemon=True).start()
    times = []
    try:
        for _ in range(10):
            time.sleep(0.5)
            started = time.monotonic()
            connection = connect(server.url, cert)  # a new connection each time, as a phone's browser may
            connection.request("GET", "/login")
            assert connection.getresponse().status == 200
            connection.close()
            times.append(time.monotonic() - started)
    finally:
        stop.set()
        for sock in idle:
            sock.close()
    print(
        f"4. idle sockets against HTTPS ({len(idle)} by the end): referee's login page in "
        f"{1000 * min(times):.0f}-{1000 * max(times):.0f} ms over 10 new connections"
    )


def parallel_pins(server_url: str, cert: Path | None, tries: int) -> int:
    checked = 0
    lock = threading.Lock()
    real = auth.pin_matches

    def counting(stored: str | None, attempt: str) -> bool:
        nonlocal checked
        with lock:
            checked += 1
        return real(stored, attempt)

    auth.pin_matches = counting  # type: ignore[assignment]
    try:
        connection = connect(server_url, cert)
        connection.request("GET", "/login")
        response = connection.getresponse()
        page = response.read().decode()
        cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
        token = page.split('name="csrf_token" value="')[1].split('"')[0]
        barrier = threading.Barrier(tries)

        def attempt(i: int) -> int:
            conn = connect(server_url, cert)
            body = urlencode({"name": f"guess-{i % 9}", "pin": f"{i:06d}", "csrf_token": token})
            barrier.wait()
            headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
            conn.request("POST", "/login", body=body, headers=headers)
            status = conn.getresponse().status
            conn.close()
            return status

        with concurrent.futures.ThreadPoolExecutor(max_workers=tries) as pool:
            list(pool.map(attempt, range(tries)))
    finally:
        auth.pin_matches = real  # type: ignore[assignment]
    return checked


def oversized_header(server: DashboardServer) -> None:
    port = urlsplit(server.spectator_url).port  # plain HTTP: the header reaches the HTTP parser as sent
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
        try:
            while sent < 100 * 1024 * 1024:
                sent += sock.send(b"a" * 65536)
        except OSError:
            pass
        reply = b""
        try:
            while part := sock.recv(65536):
                reply += part
        except OSError:
            pass
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    status = reply.split(b"\r\n", 1)[0].decode(errors="replace") or "(connection closed)"
    print(
        f"7. a 100 MB request header: answered {status!r} after {sent / 1e6:.1f} MB had been sent "
        f"(the rest refused); server memory grew {grown:.0f} MB"
    )


def copied_cookie(server: DashboardServer, cert: Path) -> None:
    connection = connect(server.url, cert)
    connection.request("GET", "/login")
    response = connection.getresponse()
    page = response.read().decode()
    cookie = (response.getheader("Set-Cookie") or "").split(";")[0]
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    body = urlencode({"name": "anna", "pin": PIN, "csrf_token": token, "next": "/referee/turn"})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    connection.request("POST", "/login", body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    session = (response.getheader("Set-Cookie") or "").split(";")[0]
    connection.request("GET", "/referee/turn", headers={"Cookie": session})
    response = connection.getresponse()
    page = response.read().decode()
    session = (response.getheader("Set-Cookie") or session).split(";")[0]  # the page's token joined it
    token = page.split('data-csrf="')[1].split('"')[0]
    connection.request(
        "POST", "/logout", body=urlencode({"csrf_token": token}),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": session},
    )  # fmt: skip
    connection.getresponse().read()
    thief = connect(server.url, cert)
    thief.request(
        "POST", "/api/command", body=json.dumps({"command": "pause", "args": {}}),
        headers={"Content-Type": "application/json", "Cookie": session, "X-CSRF-Token": token},
    )  # fmt: skip
    print(f"5. a session cookie copied before logout, used after it: HTTP {thief.getresponse().status}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the takeover attack")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="smartmat-attacks-") as tmp:
        work = Path(tmp)
        takeover(work, min(args.seconds, 300.0))
        strangers_seq()
        tls_files = make_certificate(work / "tls", names=["localhost", "127.0.0.1"])
        with start_dashboard(tls_files.cert, tls_files.key) as https_server:
            idle_sockets(https_server, tls_files.cert)
            copied_cookie(https_server, tls_files.cert)  # before the PIN storm uses up this address's tries
            with start_dashboard() as http_server:
                over_http = parallel_pins(http_server.url, None, 60)
            over_https = parallel_pins(https_server.url, tls_files.cert, 150)
            print(f"6. parallel wrong PINs from one address: 60 over HTTP -> {over_http} PIN checks, "
                  f"150 over HTTPS -> {over_https} PIN checks")  # fmt: skip
            oversized_header(https_server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
