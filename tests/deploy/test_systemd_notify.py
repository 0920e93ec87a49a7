"""The sd_notify protocol against a real datagram socket: what systemd would receive from `smartmat run`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from firmware_bridge.emulator.board import EmulatedMat
from firmware_bridge.emulator.source import StaticSensorSource
from service.common.systemd_notify import ServiceWatch, SystemdNotifier, under_systemd
from service.eventlog.sqlite_log import SqliteEventLog
from service.table.config import load_table
from tests.helpers.broker import start_mosquitto

REPO = Path(__file__).resolve().parents[2]


@dataclass
class NotifySocket:
    """The socket systemd listens on for a Type=notify service: records every datagram with its time."""

    path: str  # as in $NOTIFY_SOCKET: a file path, or @name for the abstract namespace
    sock: socket.socket
    received: list[tuple[float, list[str]]] = field(default_factory=list)
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> NotifySocket:
        self.sock.settimeout(0.1)

        def receive() -> None:
            while True:
                try:
                    data = self.sock.recv(4096)
                except TimeoutError:
                    continue
                except OSError:
                    return
                with self._lock:
                    self.received.append((time.monotonic(), data.decode().split("\n")))

        self._thread = threading.Thread(target=receive, daemon=True)
        self._thread.start()
        return self

    def messages(self) -> list[tuple[float, list[str]]]:
        with self._lock:
            return list(self.received)

    def lines(self) -> list[str]:
        return [line for _, lines in self.messages() for line in lines]

    def wait_for(
        self, condition: Callable[[list[str]], bool], timeout_s: float, what: str, after: float = 0.0
    ) -> float:
        """The time the first datagram received after ``after`` that meets ``condition`` arrived."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for at, lines in self.messages():
                if at > after and condition(lines):
                    return at
            time.sleep(0.02)
        raise AssertionError(f"no {what} within {timeout_s} s; received {self.messages()}")

    def pings_between(self, start: float, end: float) -> int:
        return sum("WATCHDOG=1" in lines for at, lines in self.messages() if start <= at <= end)

    def close(self) -> None:
        self.sock.close()


def says(text: str) -> Callable[[list[str]], bool]:
    return lambda lines: any(line.startswith("STATUS=") and text in line for line in lines)


def pings_saying(text: str) -> Callable[[list[str]], bool]:
    return lambda lines: "WATCHDOG=1" in lines and says(text)(lines)


@pytest.fixture
def notify_socket(tmp_path: Path) -> Iterator[NotifySocket]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    listener = NotifySocket(str(path), sock).start()
    yield listener
    listener.close()


@pytest.fixture
def abstract_socket() -> Iterator[NotifySocket]:
    name = f"smartmat-test-{os.getpid()}-{time.monotonic_ns()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    listener = NotifySocket("@" + name, sock).start()
    yield listener
    listener.close()


def test_each_call_is_one_datagram_of_key_value_lines(notify_socket: NotifySocket) -> None:
    notifier = SystemdNotifier.from_environment({"NOTIFY_SOCKET": notify_socket.path})
    assert notifier.enabled and notifier.watchdog_usec is None
    assert notifier.status("replaying\nthe log")  # a newline would start a new key: folded into one line
    assert notifier.ready("serving table t1")
    assert notifier.watchdog()
    assert notifier.stopping()
    notify_socket.wait_for(lambda lines: lines[0] == "STOPPING=1", 5, "STOPPING=1")
    assert [lines for _, lines in notify_socket.messages()] == [
        ["STATUS=replaying the log"],
        ["READY=1", "STATUS=serving table t1"],
        ["WATCHDOG=1"],
        ["STOPPING=1", "STATUS=stopping"],
    ]


def test_an_abstract_socket_name_is_reached_too(abstract_socket: NotifySocket) -> None:
    assert SystemdNotifier(abstract_socket.path).ready()
    abstract_socket.wait_for(lambda lines: lines == ["READY=1"], 5, "READY=1")


def test_outside_systemd_nothing_is_sent_and_nothing_fails() -> None:
    notifier = SystemdNotifier.from_environment({})
    assert not notifier.enabled and not notifier.ready("x") and not notifier.watchdog()
    assert not under_systemd({})
    assert under_systemd({"INVOCATION_ID": "ab"}) and under_systemd({"NOTIFY_SOCKET": "/x"})
    # A socket that went away is a warning, not a crash.
    assert not SystemdNotifier("/nonexistent/notify").status("x")


def test_the_watchdog_is_this_processs_only() -> None:
    env = {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "30000000"}
    assert SystemdNotifier.from_environment(env).watchdog_interval_s == 10.0
    assert SystemdNotifier.from_environment({**env, "WATCHDOG_PID": str(os.getpid())}).watchdog_usec
    assert SystemdNotifier.from_environment({**env, "WATCHDOG_PID": "1"}).watchdog_usec is None


def test_the_watch_pings_only_while_healthy_and_says_what_changed(notify_socket: NotifySocket) -> None:
    health = {"ok": True, "text": "mat connected"}
    notifier = SystemdNotifier(notify_socket.path, watchdog_usec=150_000)  # a ping every 50 ms
    with ServiceWatch(notifier, lambda: (health["ok"], health["text"])):
        notify_socket.wait_for(lambda lines: "WATCHDOG=1" in lines, 5, "a first ping")
        time.sleep(0.3)
        health.update(ok=False, text="NO MAT")
        went_bad = notify_socket.wait_for(lambda lines: "STATUS=NO MAT" in lines, 5, "the new status")
        time.sleep(0.4)
        assert notify_socket.pings_between(went_bad, time.monotonic()) == 0
        health.update(ok=True, text="mat connected")
        back = notify_socket.wait_for(pings_saying("mat connected"), 5, "pings again", went_bad)
        time.sleep(0.3)
        assert notify_socket.pings_between(back, time.monotonic()) >= 3
    statuses = [line for line in notify_socket.lines() if line.startswith("STATUS=")]
    assert statuses == ["STATUS=mat connected", "STATUS=NO MAT", "STATUS=mat connected"]  # only on change


@pytest.mark.broker
@pytest.mark.slow
def test_smartmat_run_is_ready_after_replay_and_pings_only_while_mat_and_broker_are_up(
    tmp_path: Path, notify_socket: NotifySocket
) -> None:
    """`smartmat run` as the unit starts it, with $NOTIFY_SOCKET and $WATCHDOG_USEC as systemd sets them."""
    table = load_table()
    data = tmp_path / "data"
    data.mkdir()
    with SqliteEventLog(data / f"{table.table}.sqlite") as eventlog:  # a game already under way
        game = table.game
        payload = {"ruleset": table.ruleset, "heroes": list(game.heroes), "lord": game.lord,
                   "rooms": list(game.rooms or ()), "seed": game.seed, "content": game.content}  # fmt: skip
        eventlog.append("setup", payload, "daemon")
        eventlog.append("pause", {"reason": "lunch"}, "referee:anna")
        logged = eventlog.last_seq()
    broker = start_mosquitto(tmp_path / "broker", users={"daemon": "pw"})  # a real table refuses anonymous
    mat = EmulatedMat(StaticSensorSource(()), port_dir=tmp_path / "by-id").start()
    log = tmp_path / "daemon.log"
    env = {k: v for k, v in os.environ.items() if k not in ("INVOCATION_ID", "WATCHDOG_PID")}
    env.update(NOTIFY_SOCKET=notify_socket.path, WATCHDOG_USEC="600000")  # a ping every 0.2 s
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "service.cli",
                "run",
                "--serial",
                str(mat.path),
                "--broker",
                broker.url("daemon", "pw"),
                "--data-dir",
                str(data),
                "--no-dashboard",
                "--workers",
                "1",
            ],  # fmt: skip
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        ready = notify_socket.wait_for(lambda lines: "READY=1" in lines, 60, "READY=1")
        # The daemon logged its replay before it said READY: the line is in its log by the time READY is here.
        assert f"log record(s) replayed, now at seq {logged}" in log.read_text()
        before = [lines for at, lines in notify_socket.messages() if at < ready]
        assert before and all("WATCHDOG=1" not in lines for lines in before)
        assert any("replaying the event log" in line for lines in before for line in lines)
        ready_lines = next(lines for _, lines in notify_socket.messages() if "READY=1" in lines)
        assert any(line.startswith("STATUS=") and f"at seq {logged}" in line for line in ready_lines)

        healthy = notify_socket.wait_for(says("mat connected, MQTT connected"), 30, "all up")
        time.sleep(1.0)
        assert notify_socket.pings_between(healthy, time.monotonic()) >= 3

        mat.pull_cable()  # the USB cable comes out
        unplugged = notify_socket.wait_for(says("NO MAT"), 15, "NO MAT", healthy)
        time.sleep(1.0)
        assert notify_socket.pings_between(unplugged + 0.05, time.monotonic()) == 0
        mat.plug_cable()
        replugged = notify_socket.wait_for(pings_saying("mat connected"), 30, "the mat back", unplugged)

        broker.stop()  # Mosquitto stops
        cut_off = notify_socket.wait_for(says("NO MQTT BROKER"), 15, "NO MQTT BROKER", replugged)
        time.sleep(1.0)
        assert notify_socket.pings_between(cut_off + 0.05, time.monotonic()) == 0
        broker.start()
        notify_socket.wait_for(pings_saying("MQTT connected"), 30, "MQTT back", cut_off)

        process.send_signal(signal.SIGINT)  # systemd's KillSignal=SIGINT
        try:
            code = process.wait(30)
        except subprocess.TimeoutExpired:
            tail = log.read_text()[-3000:]
            pytest.fail(f"smartmat run did not stop within 30 s of SIGINT; its log ends:\n{tail}")
        assert code == 0, log.read_text()[-3000:]
        notify_socket.wait_for(lambda lines: "STOPPING=1" in lines, 5, "STOPPING=1")
        with SqliteEventLog(data / f"{table.table}.sqlite") as eventlog:
            assert eventlog.last_seq() == logged  # resumed the game, did not start another
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        mat.stop()
        broker.stop()
