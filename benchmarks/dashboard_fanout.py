"""How the dashboard's table feed scales with connected phones, and what one stalled phone costs the others.

Publishes the same burst of events into a TableFeed with 1, 50 and 200 streaming clients (each on its own
thread, as under werkzeug's threaded server) and prints the time until every client has every event, as a
ratio to the one-client time measured in the same run. Then repeats 50 clients with one more that never
reads: publishing never waits for it (a full queue drops that client instead), so the ratio stays near 1.

Then the web servers themselves: werkzeug's development server (the baseline; the dashboard used it before)
and cheroot (what ``serve_dashboard`` uses now, on plain HTTP and on HTTPS), each in a process of its own on
127.0.0.1. For each count of phones, that many SSE clients connect at once; a phone is *held* when it got the
first picture (``hello``) and every one of a few events published once all were connected, within the time
limit. Printed: phones held, the time until every phone had its ``hello``, the time from publishing the last
event until every phone had it, the server's resident memory (RSS) idle and with the phones attached (per
phone), and its threads. Counts and time are bounded (``--phones`` at most 1000, ``--seconds`` at most 120);
nothing leaves the loopback address.

    .venv/bin/python benchmarks/dashboard_fanout.py [--events 2000] [--phones 50,200,500] [--seconds 30]
    .venv/bin/python benchmarks/dashboard_fanout.py --servers-only
"""

from __future__ import annotations

import argparse
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a script

from web_dashboard.table.fake_feed import FakeFeed
from web_dashboard.table.table_feed import parse_event_id


def run(clients: int, events: int, stalled: int = 0) -> float:
    fake = FakeFeed("bench", queue_size=events + 10, ring_size=events + 10)
    fake.snapshot({"phase": "battle"}, seq=0)
    done = threading.Barrier(clients + 1)
    ready = threading.Barrier(clients + stalled + 1)

    def reader() -> None:
        stream = fake.feed.stream(parse_event_id("0"), keepalive_s=0.01)
        next(stream)  # connected (first keep-alive)
        ready.wait()
        got = 0
        for message in stream:
            if message is not None and message.kind == "event":
                got += 1
                if got == events:
                    break
        stream.close()
        done.wait()

    def staller() -> None:
        stream = fake.feed.stream(parse_event_id("0"), keepalive_s=0.01)
        next(stream)
        ready.wait()  # then never reads again

    threads = [threading.Thread(target=reader, daemon=True) for _ in range(clients)]
    threads += [threading.Thread(target=staller, daemon=True) for _ in range(stalled)]
    for thread in threads:
        thread.start()
    ready.wait()
    start = time.perf_counter()
    for seq in range(1, events + 1):
        fake.event("damage", f"Xoric's melee hits the Troll ({seq})", seq=seq)
        if seq % 16 == 0:
            # The state follows its records, as the daemon publishes it: the feed takes events only a few
            # records ahead of the state shown (web_dashboard/table/table_feed.py, PLAUSIBLE_AHEAD).
            fake.snapshot({"phase": "battle"}, seq=seq)
    done.wait()
    elapsed = time.perf_counter() - start
    fake.feed.close()
    return elapsed


# -- the web servers ----------------------------------------------------------------------------------------

SERVERS = ("werkzeug", "cheroot", "cheroot-https")
EVENTS_PER_LEVEL = 5


def serve(kind: str, max_streams: int, cert: str | None, key: str | None) -> None:
    """Child process: one dashboard on a fake feed behind ``kind``; commands on stdin, answers on stdout."""
    import logging

    from web_dashboard.table import create_app
    from web_dashboard.table.fake_feed import FakeCommandChannel

    logging.disable(logging.WARNING)
    fake = FakeFeed("bench", queue_size=200, ring_size=500)
    fake.online()
    fake.snapshot({"phase": "battle", "round": 1}, seq=1)
    config = {"TABLE": "bench", "TABLE_FEED": fake.feed, "COMMAND_CHANNEL": FakeCommandChannel()}
    stop: object
    if kind == "werkzeug":
        from werkzeug.serving import make_server

        server = make_server("127.0.0.1", 0, create_app(config), threaded=True)
        server.daemon_threads = True  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.server_port
        stop = server.shutdown
    else:
        from web_dashboard.server import serve_dashboard

        settings = {"HOST": "127.0.0.1", "PORT": 0, "MAX_STREAMS": max_streams, **config}
        if kind == "cheroot-https":  # HTTPS only: no plain listener
            settings.update(TLS_CERT=cert, TLS_KEY=key, TLS_PORT=0, PORT=None)
        handle = serve_dashboard(settings)
        port = int(handle.url.rsplit(":", 1)[1].strip("/"))
        stop = handle.stop
    print(port, flush=True)
    seq = 1
    for line in sys.stdin:
        if line.startswith("event"):
            seq += 1
            fake.event("damage", f"Xoric's melee hits the Troll ({seq})", seq=seq)
            fake.snapshot({"phase": "battle", "round": 1}, seq=seq)  # the state follows its record
            print(seq, flush=True)
        elif line.startswith("quit"):
            break
    fake.feed.close()
    stop()  # type: ignore[operator]


def _proc_status(pid: int) -> tuple[float, int]:
    """Resident memory (MiB) and thread count of a process, from /proc."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line
    )
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["Threads"])


class Phone(threading.Thread):
    """One SSE client with a blocking socket: the time it got ``hello`` and the event ids it has seen."""

    def __init__(self, port: int, context: ssl.SSLContext | None, deadline: float) -> None:
        super().__init__(daemon=True)
        self.port, self.context, self.deadline = port, context, deadline
        self.hello_at: float | None = None
        self.seen: set[int] = set()
        self.failed: str | None = None
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            raw = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            sock = self.context.wrap_socket(raw, server_hostname="localhost") if self.context else raw
            with sock:
                sock.sendall(b"GET /table/bench/events HTTP/1.1\r\nHost: localhost\r\n"
                             b"Accept: text/event-stream\r\n\r\n")  # fmt: skip
                sock.settimeout(0.5)
                buffer = b""
                while not self.stop.is_set() and time.monotonic() < self.deadline:
                    try:
                        chunk = sock.recv(65536)
                    except TimeoutError:
                        continue
                    if not chunk:
                        self.failed = self.failed or "closed by the server"
                        return
                    buffer += chunk
                    if self.hello_at is None and b"event: hello" in buffer:
                        self.hello_at = time.monotonic()
                    *lines, buffer = buffer.split(b"\n")
                    for line in lines:
                        if line.startswith(b"id: "):
                            self.seen.add(int(line[4:].split(b".")[0]))
        except OSError as exc:
            self.failed = str(exc)


def measure(kind: str, phones: int, seconds: float, cert: str, key: str) -> dict[str, float]:
    child = subprocess.Popen(
        [sys.executable, __file__, "--serve", kind, "--max-streams", str(phones + 10), "--cert", cert,
         "--key", key],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    try:
        port = int(child.stdout.readline())
        context = None
        if kind == "cheroot-https":
            context = ssl.create_default_context(cafile=cert)
        time.sleep(0.5)
        rss_idle, _ = _proc_status(child.pid)
        start = time.monotonic()
        deadline = start + seconds
        clients = [Phone(port, context, deadline) for _ in range(phones)]
        for client in clients:
            client.start()
        while time.monotonic() < deadline and any(c.hello_at is None and not c.failed for c in clients):
            time.sleep(0.05)
        connected = [c for c in clients if c.hello_at is not None]
        all_hello_s = max((c.hello_at or start) - start for c in connected) if connected else float("nan")
        published = []
        for _ in range(EVENTS_PER_LEVEL):
            time.sleep(0.05)
            child.stdin.write("event\n")
            child.stdin.flush()
            published.append(int(child.stdout.readline()))
        sent_at = time.monotonic()  # the last event is in the feed: how long until every phone has it

        def held(client: Phone) -> bool:
            return client.hello_at is not None and set(published) <= client.seen

        while time.monotonic() < deadline and sum(held(c) for c in connected) < len(connected):
            time.sleep(0.02)
        delivered_s = time.monotonic() - sent_at
        rss_busy, threads = _proc_status(child.pid)
        count = sum(held(c) for c in clients)
        for client in clients:
            client.stop.set()
        for client in clients:
            client.join(timeout=5)
        return {
            "held": count, "all_hello_s": all_hello_s, "delivered_s": delivered_s,
            "rss_idle": rss_idle, "rss_busy": rss_busy, "threads": threads,
        }  # fmt: skip
    finally:
        try:
            child.stdin.write("quit\n")
            child.stdin.flush()
            child.wait(timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            child.kill()
            child.wait()


def servers(levels: list[int], seconds: float) -> None:
    with tempfile.TemporaryDirectory() as directory:
        from web_dashboard.tls import make_certificate

        made = make_certificate(Path(directory), ["localhost", "127.0.0.1"], days=2)
        print(f"\nweb servers: {EVENTS_PER_LEVEL} events once all phones are in, {seconds:.0f} s limit each")
        print(
            f"{'server':<14} {'phones':>6} {'held':>6} {'hello':>7} {'last':>7} "
            f"{'RSS idle':>9} {'RSS':>8} {'per phone':>10} {'threads':>8}"
        )
        for phones in levels:
            for kind in SERVERS:
                r = measure(kind, phones, seconds, str(made.cert), str(made.key))
                per_phone = (r["rss_busy"] - r["rss_idle"]) * 1024 / max(r["held"], 1)
                print(
                    f"{kind:<14} {phones:>6} {r['held']:>6.0f} {r['all_hello_s']:>6.2f}s "
                    f"{r['delivered_s']:>6.2f}s {r['rss_idle']:>7.1f}MB {r['rss_busy']:>6.1f}MB "
                    f"{per_phone:>8.0f}kB {r['threads']:>8.0f}",
                    flush=True,
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--phones", default="50,200,500", help="phone counts for the servers (max 1000)")
    parser.add_argument("--seconds", type=float, default=30.0, help="time limit per server and count")
    parser.add_argument("--servers-only", action="store_true", help="skip the feed figures")
    parser.add_argument("--serve", choices=SERVERS, help=argparse.SUPPRESS)
    parser.add_argument("--max-streams", type=int, default=1000, help=argparse.SUPPRESS)
    parser.add_argument("--cert", help=argparse.SUPPRESS)
    parser.add_argument("--key", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.max_streams, args.cert, args.key)
        return
    levels = [min(int(n), 1000) for n in args.phones.split(",") if n.strip()]
    seconds = min(args.seconds, 120.0)
    if not args.servers_only:
        feed_figures(args.events)
    servers(levels, seconds)


def feed_figures(events: int) -> None:
    baseline = run(1, events)
    print(f"{events} events, 1 phone: {baseline * 1000:.1f} ms (baseline)")
    for clients in (50, 200):
        elapsed = run(clients, events)
        print(
            f"{clients:>4} phones: {elapsed * 1000:8.1f} ms  = {elapsed / baseline:6.1f} x baseline "
            f"({elapsed / baseline / clients:.2f} x per phone)"
        )
    healthy = run(50, events)
    with_stalled = run(50, events, stalled=1)
    ratio = with_stalled / healthy
    print(f"50 phones + 1 stalled: {with_stalled * 1000:.1f} ms = {ratio:.2f} x 50 phones alone")


if __name__ == "__main__":
    main()
