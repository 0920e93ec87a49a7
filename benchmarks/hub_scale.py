"""The tournament hub at scale: many tables, each with its own Mosquitto bridged into a central one.

For each table count (the baseline, 1 table, first; then ``--tables``, 64 by default), in the same run:

- brokers: one central Mosquitto and one per table, on free ports of 127.0.0.1, configured from
  ``smartmat hub bridge-config``'s files (accounts, ACLs, bridges);
- tables: a process of its own runs every simulated table: an event-log file, the log shipper and a daemon's
  MQTT client publishing the table's state (no rules: the hub's load is records and states, not the game);
- the hub: this process, with its MQTT feed, its SQLite file and its web server; an SSE client reads the
  overview's live stream (``/hub/api/stream``) as a browser would.

Two phases: a *burst* (every table's log holds ``--burst`` records before its shipper starts, as after a
cut link; hub ingest is records stored per second, from the shippers' start until the hub holds every one)
and a *paced* phase (every table writes one record and publishes one event every ``--interval`` seconds for
``--seconds``). Three latencies of the paced phase, p50 and p99: the table publishing its state → that
state's row on the hub's live stream; and the table writing a log record → the hub holding it in its file
(through the log shipper, which sends a record as it is written, the bridge and the feed) → the overview's
"log held" count reaching it on the live stream. Also the hub process's resident memory (RSS)
before the hub starts and at the end. Every figure is printed beside the one-table baseline of the same
run. Bounded: at most 128 tables, 60 s per phase; nothing leaves the loopback address.

    .venv/bin/python benchmarks/hub_scale.py [--tables 64] [--burst 200] [--seconds 20] [--interval 1.0]
"""

from __future__ import annotations

import argparse
import getpass
import http.client
import json
import multiprocessing
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a script

from service.hub.bridge_config import HUB_USER, LOGSHIP_USER, BridgePlan, hashed_password_lines, write_bundle
from service.hub.feed import HubFeed
from service.hub.hub import Hub
from service.hub.store import HubStore
from service.publish.paho_transport import PahoTransport
from web_dashboard.hub import create_hub_app
from web_dashboard.server import serve_hub

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
SHIPPED_ACL = Path(__file__).resolve().parents[1] / "deploy" / "mosquitto" / "acl"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"mosquitto exited: {log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"mosquitto did not listen on {port}")


class Brokers:
    """The central broker and one per table, from the bridge-config files."""

    def __init__(self, root: Path, tables: list[str]) -> None:
        self.processes: list[subprocess.Popen[bytes]] = []
        self.table_ports: dict[str, int] = {}
        central_dir = root / "bundle" / "central"
        (root / "central-data").mkdir()
        plan = BridgePlan(tuple(tables), "127.0.0.1", free_port(), "127.0.0.1", f"{root / 'central-data'}/")
        self.central_port = plan.central_port
        self.passwords = write_bundle(plan, root / "bundle", central_dir=str(central_dir))
        me = f"user {getpass.getuser()}\nlog_type error\n"
        conf = central_dir / "smartmat-hub.conf"
        conf.write_text(conf.read_text() + me)
        self._start(conf, plan.central_port, root / "central.log")
        daemon_line = hashed_password_lines({"daemon": "daemon-pw"})
        for table in tables:
            side = root / "bundle" / "tables" / table
            port = free_port()
            (side / "passwords").write_text(daemon_line + (side / "passwords-logship").read_text())
            (side / "acl").write_text(SHIPPED_ACL.read_text() + (side / "acl-logship").read_text())
            conf = side / "mosquitto.conf"
            conf.write_text(
                f"listener {port} 127.0.0.1\npersistence false\nallow_anonymous false\n"
                f"password_file {side / 'passwords'}\nacl_file {side / 'acl'}\n{me}"
                + (side / "smartmat-bridge.conf").read_text()
            )
            self._start(conf, port, root / f"{table}.log")
            self.table_ports[table] = port

    def _start(self, conf: Path, port: int, log: Path) -> None:
        with log.open("ab") as out:
            process = subprocess.Popen([MOSQUITTO, "-c", str(conf)], stdout=out, stderr=out)
        self.processes.append(process)
        wait_port(port, process, log)

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()


def tables_process(
    root: str,
    ports: dict[str, int],
    logship_pw: str,
    burst: int,
    seconds: float,
    interval: float,
    go: Any,
    results: Any,
) -> None:
    """Every simulated table, in a process of its own: log file, log shipper, daemon client."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from service.eventlog import SqliteEventLog
    from service.hub.shipper import sqlite_log_shipper

    tables = {}
    logs = {}
    for table in ports:
        # The burst is written before the shippers start, as a table's log stands after a cut link: the
        # figure is how fast the hub takes it in, not how fast a table fsyncs its own records.
        # Each table's log in a folder of its own, as on a table's own machine (the shipper watches it).
        path = Path(root) / "tables" / table / "events.sqlite"
        path.parent.mkdir(parents=True, exist_ok=True)
        log = SqliteEventLog(path)
        log.append("setup", {"ruleset": "bench", "table": table}, "referee:bench")
        for number in range(burst):
            log.append("action", {"action": "bench", "n": number}, "sensor")
        logs[table] = (path, log)
    results.put(("ready", {t: log.last_seq() for t, (_, log) in logs.items()}))
    go.wait()
    for table, port in ports.items():
        path, log = logs[table]
        shipper = sqlite_log_shipper(
            table, path, PahoTransport(f"mqtt://{LOGSHIP_USER}:{logship_pw}@127.0.0.1:{port}", f"ls-{table}")
        )
        shipper.start()
        daemon = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"d-{table}", protocol=mqtt.MQTTv311)
        daemon.username_pw_set("daemon", "daemon-pw")
        daemon.connect("127.0.0.1", port)
        daemon.loop_start()
        daemon.publish(f"smartmat/{table}/status", "online", qos=1, retain=True)
        tables[table] = (log, shipper, daemon)
    go.wait()
    # Paced: every table, one event per interval, its state published with the time it left.
    sent: list[tuple[str, int, int]] = []
    deadline = time.monotonic() + seconds
    offsets = {table: i * interval / len(tables) for i, table in enumerate(tables)}
    start = time.monotonic()
    tick = 0
    while time.monotonic() < deadline:
        for table, (log, _, daemon) in tables.items():
            due = start + tick * interval + offsets[table]
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            written = time.time_ns()
            seq = log.append("action", {"action": "bench-paced", "n": tick}, "sensor")
            state = {"ruleset": "bench", "phase": "battle", "outcome": None, "seq": seq}
            sent.append((table, seq, time.time_ns(), written))
            daemon.publish(f"smartmat/{table}/state", json.dumps(state), qos=1, retain=True)
        tick += 1
    results.put(("paced-sent", sent))
    go.wait()
    for log, shipper, daemon in tables.values():
        shipper.stop()
        daemon.loop_stop()
        log.close()


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class StreamReader(threading.Thread):
    """Reads the hub's live stream as a browser would; notes when each (table, seq) row arrived."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.arrived: dict[tuple[str, int], int] = {}
        self.logged = LogCounts()  # when the row's "log held" reached each record
        self.connected = threading.Event()

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        connection.request("GET", "/hub/api/stream")
        response = connection.getresponse()
        self.connected.set()
        event = None
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "table":
                data = json.loads(line[6:])
                if isinstance(data.get("seq"), int):
                    self.arrived.setdefault((data["table"], data["seq"]), time.time_ns())
            elif line.startswith("data: ") and event == "log":
                self.logged.note("log", json.loads(line[6:]))


class LogCounts:
    """When each table's count of records held (contiguous from 1) first reached each seq."""

    def __init__(self) -> None:
        self.at: dict[tuple[str, int], int] = {}
        self._held: dict[str, int] = {}

    def note(self, kind: str, data: dict[str, Any]) -> None:
        if kind != "log":
            return
        now = time.time_ns()
        table, held = data["table"], data["log_held"]
        for seq in range(self._held.get(table, 0) + 1, held + 1):
            self.at.setdefault((table, seq), now)
        self._held[table] = max(self._held.get(table, 0), held)


def _ms(samples: list[float]) -> tuple[float, float]:
    """p50 and p99 of a list of milliseconds."""
    if len(samples) < 2:
        return (samples[0] if samples else float("nan")), float("nan")
    return statistics.median(samples), statistics.quantiles(samples, n=100)[98]


def run(count: int, burst: int, seconds: float, interval: float) -> dict[str, float]:
    root = Path(tempfile.mkdtemp(prefix="hub-bench-"))
    tables = [f"t{i}" for i in range(1, count + 1)]
    brokers = Brokers(root, tables)
    context = multiprocessing.get_context("spawn")
    go = context.Barrier(2)
    results = context.Queue()
    child = context.Process(
        target=tables_process,
        args=(
            str(root),
            brokers.table_ports,
            brokers.passwords[LOGSHIP_USER],
            burst,
            seconds,
            interval,
            go,
            results,
        ),
    )
    rss_before = rss_mib()
    (root / "hub").mkdir()
    hub = Hub(HubStore(root / "hub" / "hub.sqlite"))
    stored = LogCounts()  # when the hub had each record in its file (it tells its listeners right after)
    hub.listen(stored.note)
    url = f"mqtt://{HUB_USER}:{brokers.passwords[HUB_USER]}@127.0.0.1:{brokers.central_port}"
    feed = HubFeed(hub, PahoTransport(url, "smartmat-hub"), retry_s=1.0)
    feed.start()
    server = serve_hub(create_hub_app(hub), "127.0.0.1", 0)
    reader = StreamReader(server.port)
    reader.start()
    reader.connected.wait(10)
    try:
        child.start()
        kind, written = results.get(timeout=300)
        expected = sum(written.values())
        held_before = hub.ingested
        go.wait()
        started = time.monotonic()
        while sum(hub.table_view(t)["log_held"] for t in tables) < expected:
            if time.monotonic() - started > 120:
                raise RuntimeError("the burst did not reach the hub within 120 s")
            time.sleep(0.01)
        burst_s = time.monotonic() - started
        ingest = (hub.ingested - held_before) / burst_s
        go.wait()
        kind, sent = results.get(timeout=seconds + 120)
        time.sleep(3.0)  # the last events' rows
        latencies = [
            (reader.arrived[(table, seq)] - at) / 1e6
            for table, seq, at, _ in sent
            if (table, seq) in reader.arrived
        ]
        lost_rows = len(sent) - len(latencies)
        to_file = [(stored.at[(t, seq)] - w) / 1e6 for t, seq, _, w in sent if (t, seq) in stored.at]
        to_page = [
            (reader.logged.at[(t, seq)] - w) / 1e6 for t, seq, _, w in sent if (t, seq) in reader.logged.at
        ]
        records_not_counted = len(sent) - len(to_page)
        go.wait()
        child.join(timeout=30)
        rss_after = rss_mib()
        complete = all(hub.table_view(t)["log_held"] == hub.table_view(t)["log_head"] for t in tables)
    finally:
        if child.is_alive():
            child.terminate()
        server.stop()
        feed.stop()
        hub.store.close()
        brokers.stop()
    quantiles = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else [float("nan")] * 99
    return {
        "tables": count,
        "burst_records": expected,
        "burst_s": burst_s,
        "ingest_per_s": ingest,
        "paced_events": len(sent),
        "rows_not_seen": lost_rows,
        "latency_p50_ms": statistics.median(latencies) if latencies else float("nan"),
        "latency_p99_ms": quantiles[98],
        "record_to_file_p50_ms": _ms(to_file)[0],
        "record_to_file_p99_ms": _ms(to_file)[1],
        "record_to_page_p50_ms": _ms(to_page)[0],
        "record_to_page_p99_ms": _ms(to_page)[1],
        "records_not_counted": records_not_counted,
        "rss_before_mib": rss_before,
        "rss_after_mib": rss_after,
        "every_log_complete": complete,
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--burst", type=int, default=200, help="records per table in the burst")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the paced phase")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between one table's events")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.tables <= 128 or not 0 < args.seconds <= 60 or not 1 <= args.burst <= 5000:
        parser.error("--tables 1–128, --seconds up to 60, --burst 1–5000")
    baseline = run(1, args.burst, args.seconds, args.interval)
    scaled = run(args.tables, args.burst, args.seconds, args.interval)
    if args.json:
        print(json.dumps({"baseline": baseline, "scaled": scaled}, indent=2))
        return 0
    rows = [
        ("records in the burst", "burst_records", "{:.0f}"),
        ("hub ingest, records/s", "ingest_per_s", "{:.0f}"),
        ("paced events", "paced_events", "{:.0f}"),
        ("event → hub page, p50 ms", "latency_p50_ms", "{:.1f}"),
        ("event → hub page, p99 ms", "latency_p99_ms", "{:.1f}"),
        ("rows not seen on the page", "rows_not_seen", "{:.0f}"),
        ("record → hub file, p50 ms", "record_to_file_p50_ms", "{:.1f}"),
        ("record → hub file, p99 ms", "record_to_file_p99_ms", "{:.1f}"),
        ("record → page's log count, p50 ms", "record_to_page_p50_ms", "{:.1f}"),
        ("record → page's log count, p99 ms", "record_to_page_p99_ms", "{:.1f}"),
        ("records the page never counted", "records_not_counted", "{:.0f}"),
        ("hub RSS before, MiB", "rss_before_mib", "{:.1f}"),
        ("hub RSS after, MiB", "rss_after_mib", "{:.1f}"),
    ]
    print(f"{'':36} {'1 table':>12} {str(args.tables) + ' tables':>12} {'ratio':>8}")
    for label, key, form in rows:
        a, b = baseline[key], scaled[key]
        ratio = f"{b / a:.2f}" if a else "–"
        print(f"{label:36} {form.format(a):>12} {form.format(b):>12} {ratio:>8}")
    print(
        "every game log complete at the hub:",
        baseline["every_log_complete"],
        "/",
        scaled["every_log_complete"],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
