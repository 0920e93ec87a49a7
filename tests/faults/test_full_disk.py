"""A full disk of 1 s and of 3 s, on a real small filesystem: no acknowledged board message is lost, the table
reads the mat again by itself once there is room, and its health says "not read" meanwhile.

The whole host side is real: the emulated board on a pseudo-terminal, ``SerialConnection``, the daemon and
its SQLite event log on a 8 MB tmpfs that a filler file fills up. Mounting needs root, which CI has (it runs
as root); elsewhere the test is skipped. The same fills on the link alone, with a journal that refuses
writes, are in tests/bridge/test_link_refusal.py.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.emulator.board import EmulatedMat
from firmware_bridge.emulator.source import StaticSensorSource
from firmware_bridge.link import LinkTiming
from firmware_bridge.messages import Button
from firmware_bridge.transport import SerialConnection
from service.daemon.daemon import Daemon, DaemonOptions
from service.eventlog.sqlite_log import SqliteEventLog
from service.publish.fake import FakeBroker, FakeMqttClient
from service.publish.publisher import TablePublisher
from service.table.config import load_table

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="mounting a small tmpfs needs root (CI runs as root)"
)

TIMING = LinkTiming(
    heartbeat_period_us=100_000,
    hello_retry_us=50_000,
    ack_timeout_us=150_000,
    resend_retry_us=100_000,
    silence_timeout_us=2_000_000,  # generous: the test machine is shared and may stall a thread
)
UNUSED_BUTTON = 9  # a button the table gives no meaning: its messages are journaled and change nothing


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=8m", "smartmat-test-disk", str(mount)], capture_output=True
    )
    # As root the mount must work: a skip here would hide the test from CI.
    assert done.returncode == 0, f"could not mount a small tmpfs as root: {done.stderr.decode()}"
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> Path:
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for block in (65536, 512):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * block):
                    pass
    finally:
        os.close(fd)
    return filler


class Table:
    """The daemon on the small disk, reading the emulated board; a thread presses an unused button."""

    def __init__(self, disk: Path, board: EmulatedMat) -> None:
        self.board = board
        self.eventlog = SqliteEventLog(disk / "t.sqlite")
        self.connection = SerialConnection(str(board.path), timing=TIMING, backoff_cap_s=0.2)
        self.broker = FakeBroker()
        holder: dict[str, Daemon] = {}
        publisher = TablePublisher(
            "fulldisk",
            FakeMqttClient(self.broker, "daemon"),
            handler=lambda c: holder["daemon"].on_command(c),
        )
        self.daemon = holder["daemon"] = Daemon(
            load_table(),
            self.connection,
            self.eventlog,
            publisher,
            size_of=lambda _: None,
            options=DaemonOptions(),
        )
        self.daemon.start()
        self.daemon.run_in_thread()
        self._stop = threading.Event()
        self._presser = threading.Thread(target=self._press, daemon=True)
        self._presser.start()

    def _press(self) -> None:
        pressed = False
        while not self._stop.wait(0.01):  # 100 messages a second: a send window (64) in under a second
            pressed = not pressed
            self.board.inject(Button(UNUSED_BUTTON, pressed, time.monotonic_ns() // 1000))

    def stop_pressing(self) -> None:
        self._stop.set()
        self._presser.join(5)

    def journaled(self) -> list[tuple[int, int]]:
        return [(e["boot_id"], e["seq"]) for e in self.eventlog.device_journal() if e["seq"] is not None]

    def close(self) -> None:
        self.stop_pressing()
        self.daemon.stop()
        self.connection.close()
        self.eventlog.close()


def wait_for(condition: object, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.02)
    return bool(condition())  # type: ignore[operator]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("fill_s", [1.0, 3.0])
def test_a_full_disk_loses_no_acknowledged_board_message(small_disk: Path, fill_s: float) -> None:
    with EmulatedMat(StaticSensorSource(), port_dir=small_disk.parent / "by-id", timing=TIMING) as board:
        table = Table(small_disk, board)
        try:
            assert wait_for(lambda: len(table.journaled()) >= 30, 10), "the table never read the mat"
            assert table.daemon.health().ok

            filler = fill(small_disk)
            unhealthy_seen = False
            end = time.monotonic() + fill_s
            while time.monotonic() < end:
                health = table.daemon.health()
                unhealthy_seen = unhealthy_seen or (not health.ok and not health.serial_link)
                time.sleep(0.02)
            assert unhealthy_seen, "health said the mat was read while its messages were refused"
            filler.unlink()

            # Reads the mat again within seconds of space returning, by itself.
            assert wait_for(lambda: table.daemon.health().ok, 5), "the table did not recover"
            table.stop_pressing()
            assert wait_for(lambda: board.unacked_count == 0, 5), "the board still holds messages"
            sent = [(e.boot_id, e.seq) for e in board.sent]
            journaled = table.journaled()
            # Everything the board sent is acknowledged now, and each is on disk exactly once: a hole would be
            # a message acknowledged but kept nowhere.
            assert sorted(set(journaled)) == sorted(set(sent))
            assert len(journaled) == len(set(journaled))
            assert table.connection.link_stats["refused"] >= 1
        finally:
            table.close()
