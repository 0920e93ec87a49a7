"""End to end over a real pseudo-terminal: the emulated board and the host's SerialConnection, with the
cable pulled mid-stream and the board rebooted."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.emulator.board import EmulatedMat
from firmware_bridge.emulator.source import PlacedTag, StaticSensorSource
from firmware_bridge.link import Delivery, LinkTiming
from firmware_bridge.messages import DeviceMessage, Hello, Impact, ScanDone, ScanRequest, TagSeen
from firmware_bridge.transport import SerialConnection

FAST = LinkTiming(
    heartbeat_period_us=50_000,
    hello_retry_us=50_000,
    ack_timeout_us=100_000,
    resend_retry_us=60_000,
    silence_timeout_us=1_000_000,  # generous: the test machine is shared and may stall a thread
)
TAGS = (PlacedTag(3, 4, bytes.fromhex("04a1b2c3")), PlacedTag(10, 7, bytes.fromhex("04d4e5f6a7b8c9")))


@pytest.fixture
def mat(tmp_path: Path) -> Iterator[EmulatedMat]:
    with EmulatedMat(StaticSensorSource(TAGS), port_dir=tmp_path / "by-id", timing=FAST) as board:
        yield board


@pytest.fixture
def host(mat: EmulatedMat) -> Iterator[SerialConnection]:
    with SerialConnection(str(mat.path), timing=FAST, backoff_initial_s=0.02, backoff_cap_s=0.2) as conn:
        assert conn.wait_until_up(3), "the host never opened a session with the emulated board"
        yield conn


def impacts(start: int, count: int) -> list[Impact]:
    return [Impact(sensor_id=i % 4, t_us=1000 * i, amplitude=i) for i in range(start, start + count)]


def take_events(conn: SerialConnection, count: int, *, acknowledge: bool = True) -> list[Delivery]:
    """Take deliveries until ``count`` sensor events have arrived (HELLOs are kept but not counted)."""
    taken: list[Delivery] = []
    deadline = time.monotonic() + 4
    while sum(d.seq is not None for d in taken) < count and time.monotonic() < deadline:
        delivery = conn.next_delivery(timeout=0.2)
        if delivery is None:
            continue
        taken.append(delivery)
        if acknowledge:
            conn.acknowledge(delivery)
    return taken


def events(deliveries: list[Delivery]) -> list[DeviceMessage]:
    return [d.message for d in deliveries if d.seq is not None]


def test_the_host_opens_the_board_by_its_path_and_gets_its_hello(
    mat: EmulatedMat, host: SerialConnection
) -> None:
    assert mat.path.is_symlink() and os.readlink(mat.path).startswith("/dev/pts/")
    first = host.next_delivery(timeout=2)
    assert first is not None and isinstance(first.message, Hello)
    assert first.boot_id == mat.boot_id
    assert host.capabilities is not None and host.capabilities.grid.cols == 18


def test_a_scan_request_makes_the_board_scan(mat: EmulatedMat, host: SerialConnection) -> None:
    host.send(ScanRequest())
    got = events(take_events(host, 3))
    assert got[:2] == [
        TagSeen(scan_id=1, col=3, row=4, uid=TAGS[0].uid, rssi=-45),
        TagSeen(scan_id=1, col=10, row=7, uid=TAGS[1].uid, rssi=-45),
    ]
    assert isinstance(got[2], ScanDone) and got[2].cells_read == 18 * 12
    assert mat.scan_requests == 1


def test_pulling_the_cable_mid_stream_loses_nothing_and_repeats_nothing(
    mat: EmulatedMat, host: SerialConnection, caplog: pytest.LogCaptureFixture
) -> None:
    mat.inject(*impacts(0, 20))
    first = take_events(host, 20, acknowledge=False)
    for delivery in first[:11]:  # HELLO + 10 events persisted; the daemon is still busy with the other 10
        host.acknowledge(delivery)
    assert mat.wait_for(lambda: mat.unacked_count == 10, timeout=2)

    mat.inject(*impacts(20, 10))
    mat.pull_cable()  # with 10 delivered-but-unacked and up to 10 more in flight or not yet sent
    assert mat.unacked_count >= 10
    mat.inject(*impacts(30, 10))  # the board keeps sensing with the cable out
    time.sleep(0.15)
    assert not mat.path.exists()
    mat.plug_cable()

    for delivery in first[11:]:  # the daemon finishes with the held events after the reconnect
        host.acknowledge(delivery)
    rest = take_events(host, 20)

    received = events(first) + events(rest)
    assert received == impacts(0, 40), "every event exactly once, in order"
    assert received == [sent.message for sent in mat.sent]
    assert host.connects == 2
    assert any(isinstance(d.message, Hello) for d in rest), "the board said HELLO again after the reconnect"
    assert mat.wait_for(lambda: mat.unacked_count == 0, timeout=2)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == [], "nothing crashed"
    assert any("lost the device" in r.getMessage() for r in caplog.records), "the pull was noticed and logged"


@pytest.mark.parametrize("reenumerate", [False, True], ids=["port-stays", "usb-reenumerates"])
def test_a_board_reboot_opens_a_new_session_and_numbering_starts_again(
    mat: EmulatedMat, host: SerialConnection, reenumerate: bool
) -> None:
    mat.inject(*impacts(0, 5))
    before = take_events(host, 5)
    assert mat.wait_for(lambda: mat.unacked_count == 0, timeout=2)
    old_boot = mat.boot_id
    new_boot = mat.reboot(reenumerate=reenumerate)
    mat.inject(*impacts(5, 5))
    after = take_events(host, 5)
    assert events(before) + events(after) == impacts(0, 10)
    assert [d.seq for d in after if d.seq is not None] == [0, 1, 2, 3, 4]
    hellos = [d.boot_id for d in before + after if isinstance(d.message, Hello)]
    assert hellos == [old_boot, new_boot]
    assert host.capabilities is not None and host.capabilities.boot_id == new_boot
    assert host.link_stats["reboots"] == 1
    assert host.connects == (2 if reenumerate else 1)


def test_sim_mat_command_serves_a_port_the_host_can_open(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "firmware_bridge.emulator.cli",
            "--dir",
            str(tmp_path),
            "--scan-period-ms",
            "100",
            "--tag",
            "5,6,0a0b0c0d",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        path = process.stdout.readline().strip()
        assert path == str(tmp_path / "usb-Elzra_SmartMat_emulated-if00")
        with SerialConnection(path, timing=LinkTiming()) as conn:
            got = events(take_events(conn, 2))
        tag = TagSeen(scan_id=got[0].scan_id, col=5, row=6, uid=bytes.fromhex("0a0b0c0d"), rssi=-45)
        assert got[0] == tag
        assert isinstance(got[1], ScanDone)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=5) == 0
    assert not Path(path).exists(), "the port path goes away with the board"


def test_a_burst_bigger_than_the_send_window_arrives_whole(mat: EmulatedMat, host: SerialConnection) -> None:
    burst = impacts(0, 1500)
    mat.inject(*burst)
    got = take_events(host, 1500)
    assert events(got) == burst
    assert not any(name.startswith("frame_errors") for name in host.link_stats)


def test_a_host_that_opens_the_port_late_gets_whole_frames(tmp_path: Path) -> None:
    with EmulatedMat(StaticSensorSource(TAGS), port_dir=tmp_path, timing=FAST) as board:
        board.inject(*impacts(0, 30))
        time.sleep(0.6)  # HELLOs pile up unread in the port meanwhile
        with SerialConnection(str(board.path), timing=FAST) as conn:
            got = take_events(conn, 30)
            assert events(got) == impacts(0, 30)
            assert not any(name.startswith("frame_errors") for name in conn.link_stats)


def test_a_second_host_process_cannot_open_the_same_board(mat: EmulatedMat, host: SerialConnection) -> None:
    from firmware_bridge.transport import open_serial_port

    with pytest.raises(ConnectionError, match="exclusively lock"):
        open_serial_port(str(mat.path), 115200)
    mat.inject(*impacts(0, 3))
    assert events(take_events(host, 3)) == impacts(0, 3), "the first host is undisturbed"
