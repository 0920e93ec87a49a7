"""End-to-end latency on the simulated table: from the moment the discs come to rest to the phone.

What runs, each as in ``smartmat run``: a real Mosquitto on a free loopback port (started here from a
temporary config), the simulated mat and its players in a process of their own on a pseudo-terminal (the
daemon reads it through ``SerialConnection``, the serial code path of a real board), the real daemon with a
SQLite event log, the dashboard (``serve_dashboard``) and, in a third process, a phone: an SSE client of
``/table/<table>/events``.

The ground truth never reaches the daemon. The simulated mat's process writes, for every flick, the device
time at which the discs came to rest (and the device clock's origin on ``time.monotonic``, which is one clock
for every process on Linux) into a side-channel file that only this script reads. The daemon's stages are
timed from outside, by wrapping in this process the functions it calls (the segmenter's scan request after
the quiet period, ``attribute``, the event log's ``append``, the MQTT publish, the dashboard feed's
``ingest``); nothing in the product is changed for it.

Printed, over every auto-applied shot (the referee confirms the others, which is a person's time):
rest → the shot's attribution on the phone (SSE ``shot``) and rest → the new state on the phone (SSE
``snapshot``), at p50 and p99, and where the time goes: waiting for the quiet period, the post-shot scans,
attribution, log appends, the rest of the daemon (applying the rules, building and publishing the state),
MQTT (daemon → dashboard) and SSE (dashboard → phone). The baseline, measured in the same run after the
players stop: a referee command (``pause`` / ``resume``) from its MQTT publish to the new state on the phone,
the path a shot's result takes once it is decided. Ratios are against it.

    .venv/bin/python benchmarks/e2e_latency.py [--shots 60] [--baseline 30] [--timeout-s 900] [--json]
"""

from __future__ import annotations

import argparse
import getpass
import json
import logging
import os
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a script

TABLE_ROOMS = ("the-barracks", "zothas-gatehouse", "the-mitholaq-hive")


# == the simulated mat's process (its side channel is the only place the ground truth goes) ================
def sim_child(broker: str, side_channel: Path, seed: int) -> int:
    from service.simulator.table import SimulatedTable
    from service.table.config import load_table

    table = load_table()
    sim = SimulatedTable(table, broker, seed=seed)
    source = sim.source
    original = source.flick
    out = side_channel.open("a", encoding="utf-8")

    def flick(piece_id: str, angle_rad: float, speed_mm_s: float) -> Any:
        record = original(piece_id, angle_rad, speed_mm_s)
        rest_us = source.rest_at_us
        line = {
            "piece": piece_id,
            "start_us": rest_us - round(record.duration_s * 1e6),
            "rest_us": rest_us,
            "epoch_mono": sim.board._epoch,  # the device clock's zero on time.monotonic()
            "hits": sorted(record.direct_hits),
        }
        out.write(json.dumps(line) + "\n")
        out.flush()
        return record

    source.flick = flick  # type: ignore[method-assign]
    sim.start()
    print(sim.port, flush=True)
    try:
        sys.stdin.read()  # until the benchmark closes our stdin
    finally:
        sim.stop()
    return 0


# == the phone's process: an SSE client stamping each message as it arrives =================================
def sse_child(url: str) -> int:
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=3600)
    connection.request("GET", parts.path, headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    event: str | None = None
    stamp = 0.0
    data: list[str] = []
    while True:
        raw = response.readline()
        if not raw:
            return 0
        line = raw.decode("utf-8").rstrip("\n")
        if line and event is None and not data:
            stamp = time.monotonic()  # the first line of a message: it arrives whole, in one write
        if not line:
            if event in ("snapshot", "shot", "hello", "reset") and data:
                body = json.loads("\n".join(data))
                seq = body.get("seq") if isinstance(body, dict) else None
                out = {"t": stamp, "event": event, "seq": seq, "shot_seq": None}
                if event == "snapshot" and isinstance(body, dict):
                    out["over"] = bool(body.get("outcome")) or body.get("phase") == "game_over"
                    out["phase"] = body.get("phase")
                    out["room"] = (body.get("room") or {}).get("id")
                    out["waiting"] = bool(
                        (body.get("table") or {}).get("pending_shot") or body.get("pending")
                    )
                if event == "shot":
                    out["shot_seq"] = body.get("shot_seq")
                    out["resolved"] = body.get("resolved")
                    out["status"] = body.get("status")
                print(json.dumps(out), flush=True)
            event = None
            data = []
            continue
        key, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if key == "event":
            event = value
        elif key == "data":
            data.append(value)


# == the benchmark ========================================================================================
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_mosquitto(workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    port = free_port()
    config = workdir / "mosquitto.conf"
    config.write_text(
        f"listener {port} 127.0.0.1\npersistence false\nallow_anonymous true\n"
        f"log_type error\nlog_type warning\nuser {getpass.getuser()}\n"
    )
    log = (workdir / "mosquitto.log").open("ab")
    process = subprocess.Popen([binary, "-c", str(config)], stdout=log, stderr=log)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"mosquitto did not start: {(workdir / 'mosquitto.log').read_text()}")


class Probes:
    """Timestamps (time.monotonic) taken around what the daemon and the dashboard call."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.shots: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None
        self.scans: list[tuple[float, int, int]] = []  # scans during motion: arrival, device t_us, agreeing
        self.quiet_ends: list[float] = []  # the segmenter asked for a scan after the quiet period
        self.appends: list[tuple[str, float, float, int]] = []  # kind, start, end, seq
        self.published: list[tuple[float, str, bytes]] = []  # daemon → broker (state, shot)
        self.ingested: list[tuple[float, str, bytes]] = []  # broker → dashboard feed (state, shot)

    def install(self, daemon: Any) -> None:
        from service.sensing import segmenter as segmenter_module

        probes = self
        tick = segmenter_module.ShotSegmenter.tick

        def timed_tick(segmenter: Any, host_s: float) -> Any:
            events = tick(segmenter, host_s)
            if events:
                probes.quiet_ends.append(time.monotonic())
            return events

        segmenter_module.ShotSegmenter.tick = timed_tick  # type: ignore[method-assign]

        in_motion = segmenter_module.ShotSegmenter._on_scan_in_motion

        def timed_scan(segmenter: Any, scan: Any, host_s: float) -> Any:
            events = in_motion(segmenter, scan, host_s)
            motion = segmenter._motion
            agreeing = len(motion.agreeing) if motion is not None else -1
            probes.scans.append((time.monotonic(), scan.t_us, agreeing))
            return events

        segmenter_module.ShotSegmenter._on_scan_in_motion = timed_scan  # type: ignore[method-assign]

        # A shot is recorded on the game thread, attributed on the shot reader's (one shot at a time, in
        # order), and its reading recorded back on the game thread: one probe record spans all three.
        attribute = daemon.reader._attribute
        timings: list[tuple[float, float]] = []

        def timed_attribute(*args: Any, **kwargs: Any) -> Any:
            start = time.monotonic()
            result = attribute(*args, **kwargs)
            with probes.lock:
                timings.append((start, time.monotonic()))
            return result

        daemon.reader._attribute = timed_attribute

        on_shot, on_reading = daemon.shots.on_shot, daemon.shots.on_reading
        being_read: dict[int, dict[str, Any]] = {}

        def finished(record: dict[str, Any]) -> None:
            record["done"] = time.monotonic()
            with probes.lock:
                probes.shots.append(record)

        def timed_on_shot(shot: Any) -> None:
            record: dict[str, Any] = {
                "observed": time.monotonic(),
                "impacts_us": [i.t_us for i in shot.impacts],
                "post_us": shot.post.t_us,
                "timed_out": shot.timed_out,
                "appends": [],
            }
            probes.current = record
            try:
                on_shot(shot)
            finally:
                probes.current = None
            pending = daemon.session.pending_shot
            shot_seq = next((a[3] for a in record["appends"] if a[0] == "shot"), None)
            if shot_seq is not None and pending and pending.get("attributing") and pending["seq"] == shot_seq:
                being_read[shot_seq] = record  # finished when its reading is recorded
            else:
                finished(record)

        def timed_on_reading(reading: Any) -> None:
            record = being_read.pop(reading.shot_seq, None)
            probes.current = record
            try:
                on_reading(reading)
            finally:
                probes.current = None
            if record is not None:
                with probes.lock:
                    if reading.result is not None and timings:
                        record["attribution"] = timings.pop(0)
                finished(record)

        daemon.shots.on_shot = timed_on_shot
        daemon.shots.on_reading = timed_on_reading

        append = daemon.eventlog.append

        def timed_append(kind: str, payload: Any, by: str, **kwargs: Any) -> int:
            start = time.monotonic()
            seq = int(append(kind, payload, by, **kwargs))
            end = time.monotonic()
            with probes.lock:
                probes.appends.append((kind, start, end, seq))
            if probes.current is not None:
                probes.current["appends"].append((kind, start, end, seq))
            return seq

        daemon.eventlog.append = timed_append

        transport = daemon.publisher._transport
        publish = transport.publish

        def timed_publish(topic: str, payload: bytes, qos: int = 0, retain: bool = False) -> Any:
            if topic.endswith(("/state", "/shot")):
                with probes.lock:
                    probes.published.append((time.monotonic(), topic.rsplit("/", 1)[1], payload))
            return publish(topic, payload, qos=qos, retain=retain)

        transport.publish = timed_publish

    def install_feed(self) -> None:
        from web_dashboard.table import table_feed

        probes = self
        ingest = table_feed.TableFeed.ingest

        def timed_ingest(feed: Any, topic: str, payload: Any, retained: bool = False) -> None:
            if topic.endswith(("/state", "/shot")):
                with probes.lock:
                    probes.ingested.append((time.monotonic(), topic.rsplit("/", 1)[1], bytes(payload)))
            ingest(feed, topic, payload, retained)

        table_feed.TableFeed.ingest = timed_ingest  # type: ignore[method-assign]


def _seq_of(payload: bytes) -> int | None:
    try:
        body = json.loads(payload)
    except ValueError:
        return None
    seq = body.get("seq") if isinstance(body, dict) else None
    return seq if isinstance(seq, int) else None


def first(items: list[tuple[float, str, bytes]], kind: str, seq: int) -> float | None:
    for stamp, topic, payload in items:
        if topic == kind and (_seq_of(payload) or -1) >= seq:
            return stamp
    return None


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    low, high = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def run(args: argparse.Namespace) -> dict[str, Any]:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from firmware_bridge.transport import SerialConnection
    from service.app.cli import piece_sizes
    from service.attribution.infer import AttributionConfig, shutdown_pool
    from service.daemon.daemon import Daemon, DaemonOptions
    from service.eventlog.sqlite_log import SqliteEventLog
    from service.publish.paho_transport import PahoTransport
    from service.publish.publisher import TablePublisher
    from service.table.config import load_table
    from web_dashboard.server import serve_dashboard

    work = Path(tempfile.mkdtemp(prefix="smartmat-e2e-"))
    broker, port = start_mosquitto(work)
    url = f"mqtt://127.0.0.1:{port}"
    side_channel = work / "rest-times.jsonl"
    side_channel.touch()
    me = str(Path(__file__).resolve())
    sim = subprocess.Popen(
        [sys.executable, me, "--sim-child", url, str(side_channel), str(args.seed)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    sse: subprocess.Popen[str] | None = None
    daemon = dashboard = connection = eventlog = None
    probes = Probes()
    sse_lines: list[dict[str, Any]] = []
    try:
        assert sim.stdout is not None
        ready, _, _ = select.select([sim.stdout], [], [], 30)
        if not ready:
            raise SystemExit("the simulated mat did not start")
        pty = sim.stdout.readline().strip()
        table = load_table()
        table = replace(table, game=replace(table.game, rooms=TABLE_ROOMS))
        connection = SerialConnection(pty)
        eventlog = SqliteEventLog(work / "table.sqlite")
        holder: dict[str, Any] = {}
        publisher = TablePublisher(
            table.table,
            PahoTransport(url, client_id=f"smartmat-daemon-{table.table}"),
            handler=lambda command: holder["daemon"].on_command(command),
        )
        options = DaemonOptions(attribution=AttributionConfig(workers=args.workers, seed=None))
        daemon = Daemon(
            table, connection, eventlog, publisher, size_of=piece_sizes(table.ruleset), options=options
        )
        holder["daemon"] = daemon
        probes.install(daemon)
        probes.install_feed()
        dashboard = serve_dashboard(
            {"HOST": "127.0.0.1", "PORT": 0, "TABLE": table.table, "MQTT_URL": url, "MQTT_REFEREE_URL": url}
        )
        sse = subprocess.Popen(
            [sys.executable, me, "--sse-child", dashboard.url.rstrip("/") + f"/table/{table.table}/events"],
            stdout=subprocess.PIPE,
            text=True,
        )

        def read_sse() -> None:
            assert sse is not None and sse.stdout is not None
            for line in sse.stdout:
                sse_lines.append(json.loads(line))

        threading.Thread(target=read_sse, name="sse reader", daemon=True).start()
        deadline = time.monotonic() + 15
        while not any(m["event"] == "hello" for m in sse_lines) and time.monotonic() < deadline:
            time.sleep(0.05)
        daemon.start()
        daemon.run_in_thread()

        # -- shots until enough were auto-applied, the game ended, or the time is up --------------------
        started = time.monotonic()
        last_report = last_shot = started
        seen_shots = 0
        while time.monotonic() - started < args.timeout_s:
            time.sleep(1.0)
            autos = sum(1 for s in probes.shots if any(a[0] == "action" for a in s["appends"]))
            snapshots = [m for m in sse_lines if m["event"] == "snapshot"]
            latest = snapshots[-1] if snapshots else {}
            if len(probes.shots) != seen_shots:
                seen_shots, last_shot = len(probes.shots), time.monotonic()
            if autos >= args.shots or latest.get("over"):
                break
            if time.monotonic() - last_shot > args.stall_s:
                print(f"  no shot for {args.stall_s:.0f} s ({latest}); stopping", file=sys.stderr)
                break
            if time.monotonic() - last_report > 30:
                last_report = time.monotonic()
                print(
                    f"  … {len(probes.shots)} shot(s) seen, {autos} auto-applied; {latest.get('phase')} in "
                    f"{latest.get('room')}",
                    file=sys.stderr,
                )
        time.sleep(3.0)  # the last shot's messages reach the phone
        assert sim.stdin is not None
        logging.getLogger("firmware_bridge").setLevel(logging.CRITICAL)  # the mat goes with them
        sim.stdin.close()  # the players leave the table
        sim.wait(timeout=30)

        # -- the baseline: a referee's command to the phone ---------------------------------------------
        baseline: list[float] = []
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{uuid.uuid4().hex[:6]}")
        client.connect("127.0.0.1", port)
        client.loop_start()
        time.sleep(0.5)
        for i in range(args.baseline):
            command = "pause" if i % 2 == 0 else "resume"
            before = daemon.session.seq
            body = {"txn": uuid.uuid4().hex, "actor": "referee:bench", "command": command, "args": {}}
            seen = len(sse_lines)
            t0 = time.monotonic()
            client.publish(f"smartmat/{table.table}/cmd/request", json.dumps(body), qos=1)
            deadline = t0 + 10
            arrived = None
            while arrived is None and time.monotonic() < deadline:
                for message in sse_lines[seen:]:
                    if message["event"] == "snapshot" and (message["seq"] or 0) > before:
                        arrived = message["t"]
                        break
                time.sleep(0.002)
            if arrived is not None:
                baseline.append(arrived - t0)
            time.sleep(0.2)
        client.loop_stop()
        client.disconnect()
        baseline_appends = [
            end - start for kind, start, end, _ in probes.appends if kind in ("pause", "resume")
        ]
        return analyse(args, probes, sse_lines, side_channel, baseline, baseline_appends, daemon)
    finally:
        if sim.poll() is None:
            if sim.stdin and not sim.stdin.closed:
                sim.stdin.close()
            try:
                sim.wait(timeout=20)
            except subprocess.TimeoutExpired:
                sim.kill()
        if sse is not None:
            sse.terminate()
        if dashboard is not None:
            dashboard.stop()
        if daemon is not None:
            daemon.stop()
        if connection is not None:
            connection.close()
        if eventlog is not None:
            eventlog.close()
        shutdown_pool()
        broker.terminate()
        broker.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


def analyse(
    args: argparse.Namespace,
    probes: Probes,
    sse_lines: list[dict[str, Any]],
    side_channel: Path,
    baseline: list[float],
    baseline_appends: list[float],
    daemon: Any,
) -> dict[str, Any]:
    flicks = [json.loads(line) for line in side_channel.read_text().splitlines() if line.strip()]
    shots = [
        s
        for s in probes.shots
        if any(a[0] == "shot" for a in s["appends"]) and s["impacts_us"] and "attribution" in s
    ]
    used: set[int] = set()
    rows: list[dict[str, float]] = []
    doubtful_to_phone: list[float] = []
    for flick in flicks:
        match = None
        for index, shot in enumerate(shots):
            if index in used:
                continue
            if flick["start_us"] - 5_000 <= shot["impacts_us"][0] <= flick["rest_us"] + 5_000:
                match = index
                break
        if match is None:
            continue
        used.add(match)
        shot = shots[match]
        rest = flick["epoch_mono"] + flick["rest_us"] / 1e6
        shot_seq = next(a[3] for a in shot["appends"] if a[0] == "shot")
        on_phone_shot = next(
            (
                m["t"]
                for m in sse_lines
                if m["event"] == "shot"
                and m.get("shot_seq") == shot_seq
                and m.get("status") != "attributing"  # its reading, not the notice that it is read
                and m["t"] > rest
            ),
            None,
        )
        action = next((a for a in shot["appends"] if a[0] == "action"), None)
        if action is None:  # doubtful: the referee decides, a person's time
            if on_phone_shot is not None:
                doubtful_to_phone.append(on_phone_shot - rest)
            continue
        seq = action[3]
        published = first(probes.published, "state", seq)
        ingested = first(probes.ingested, "state", seq)
        on_phone = next(
            (m["t"] for m in sse_lines if m["event"] == "snapshot" and (m["seq"] or -1) >= seq), None
        )
        if published is None or ingested is None or on_phone is None or on_phone_shot is None:
            continue
        observed = shot["observed"]
        quiet = [q for q in probes.quiet_ends if rest - 10 < q <= observed]
        quiet_end = quiet[-1] if quiet else observed
        last_impact = flick["epoch_mono"] + shot["impacts_us"][-1] / 1e6
        attribution = shot["attribution"][1] - shot["attribution"][0]
        scans = [s for s in probes.scans if max(rest, quiet_end) - 0.01 <= s[0] <= observed + 0.01]
        appends = sum(end - start for _, start, end, _ in shot["appends"])
        rows.append(
            {
                "e2e_state": on_phone - rest,
                "e2e_shot": on_phone_shot - rest,
                "flick_to_state": on_phone - (flick["epoch_mono"] + flick["start_us"] / 1e6),
                "slide_after_last_impact": rest - last_impact,
                "quiet": max(0.0, quiet_end - rest),
                "scans": observed - max(rest, quiet_end),
                "segmentation": observed - rest,
                "attribution": attribution,
                "appends": appends,
                "daemon_other": (published - observed) - attribution - appends,
                "mqtt": ingested - published,
                "sse": on_phone - ingested,
                "scans_taken": float(len(scans)),
                "timed_out": float(shot["timed_out"]),
            }
        )
    return {
        "flicks": len(flicks),
        "shots_seen": len(probes.shots),
        "matched_auto": len(rows),
        "doubtful": len(doubtful_to_phone),
        "rows": rows,
        "doubtful_to_phone": doubtful_to_phone,
        "baseline": baseline,
        "baseline_appends": baseline_appends,
        "workers": args.workers,
    }


STAGES = [
    ("segmentation", "rest → the daemon has the shot (quiet period + two agreeing scans)"),
    ("quiet", "  of which: waiting out the quiet period after rest"),
    ("scans", "  of which: the post-shot scans (and scans that disagreed)"),
    ("attribution", "attribution (physics rollouts)"),
    ("appends", "event-log appends (shot + action, SQLite synchronous=FULL)"),
    ("daemon_other", "rest of the daemon (rules, snapshot, publishing the shot and state)"),
    ("mqtt", "MQTT: daemon publish → dashboard feed"),
    ("sse", "SSE: dashboard feed → phone"),
]


def report(result: dict[str, Any]) -> None:
    rows = result["rows"]
    print(
        f"flicks {result['flicks']}, shots the daemon saw {result['shots_seen']}, auto-applied and matched "
        f"{result['matched_auto']}, to the referee {result['doubtful']} "
        f"(attribution workers: {result['workers'] or 'one per core'})"
    )
    if not rows:
        print("no auto-applied shot was matched; nothing to report")
        return
    base = statistics.median(result["baseline"]) if result["baseline"] else float("nan")

    def line(label: str, values: list[float]) -> None:
        p50, p99 = pct(values, 0.5), pct(values, 0.99)
        print(f"  {label:<70} {p50 * 1000:8.0f} {p99 * 1000:8.0f} {p50 / base:9.1f}x")

    print(f"\n  {'(milliseconds; ratio = p50 / baseline p50)':<70} {'p50':>8} {'p99':>8} {'ratio':>10}")
    line("rest → state on the phone (SSE snapshot)", [r["e2e_state"] for r in rows])
    line("rest → attribution on the phone (SSE shot)", [r["e2e_shot"] for r in rows])
    line("flick → state on the phone", [r["flick_to_state"] for r in rows])
    line("(slide after the last impact heard, before rest)", [r["slide_after_last_impact"] for r in rows])
    for key, label in STAGES:
        line(label, [r[key] for r in rows])
    taken = [r["scans_taken"] for r in rows]
    timed_out = sum(1 for r in rows if r["timed_out"])
    print(
        f"  {'scans the segmenter took after the quiet period (count, not ms)':<70} "
        f"{statistics.median(taken):8.0f} {pct(taken, 0.99):8.0f}"
    )
    print(f"  shots closed by the segmenter's motion timeout ({timed_out} of {len(rows)})")
    if result["doubtful_to_phone"]:
        line("doubtful shots: rest → candidates on the referee's phone", result["doubtful_to_phone"])
    if result["baseline"]:
        line("BASELINE: referee command (pause/resume) → state on the phone", result["baseline"])
        line("  its event-log append", result["baseline_appends"])
    e2e = sum(r["e2e_state"] for r in rows)
    print("\n  share of rest → state on the phone (sum over shots):")
    for key, _label in STAGES:
        if key in ("quiet", "scans"):
            continue
        print(f"    {key:<14} {100 * sum(r[key] for r in rows) / e2e:5.1f} %")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--sim-child":
        return sim_child(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]))
    if len(sys.argv) > 1 and sys.argv[1] == "--sse-child":
        return sse_child(sys.argv[2])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shots", type=int, default=60, help="stop after this many auto-applied shots")
    parser.add_argument("--baseline", type=int, default=30, help="referee commands timed for the baseline")
    parser.add_argument("--timeout-s", type=float, default=900.0, help="stop playing after this long anyway")
    parser.add_argument("--stall-s", type=float, default=90.0, help="stop when no shot came for this long")
    parser.add_argument("--workers", type=int, default=0, help="attribution processes (0: one per core)")
    parser.add_argument("--seed", type=int, default=5, help="the simulated table's seed")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    result = run(args)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
