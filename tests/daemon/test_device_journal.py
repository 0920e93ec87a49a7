"""Every message the board sends is on disk before the daemon acknowledges it, even mid-flick.

A flick is recorded as a shot only when the discs are at rest again (two agreeing scans later); the board's
impacts and scans of a flick still in motion are kept in the log's device journal first, so a kill or a board
reboot at that moment loses nothing that was acknowledged (docs/event-log.md, PROTOCOL.md: ACK).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.messages import Hello, Impact
from service.app.cli import health_check
from service.eventlog.record import EventLogError
from service.eventlog.sqlite_log import SqliteEventLog
from tests.helpers.game_script import GameScript


def test_impacts_of_a_flick_in_motion_are_journaled_before_they_are_acknowledged() -> None:
    table = GameScript()
    records_before = table.eventlog.last_seq()
    table.connection.feed(Impact(3, 5_000_000, 512), Impact(4, 5_000_150, 430))
    table.daemon.step(0.5)  # the reader thread hands both on; one step takes them together
    table.settle()
    assert table.connection.unacknowledged == 0
    impacts = [e for e in table.eventlog.device_journal() if e["type"] == "Impact"]
    assert [(e["message"]["sensor_id"], e["message"]["t_us"]) for e in impacts] == [
        (3, 5_000_000),
        (4, 5_000_150),
    ]
    assert all(e["boot_id"] == 7 for e in impacts)
    assert table.eventlog.last_seq() == records_before  # no game record: the flick is still in motion


class FillableJournal:
    """The log's journal_device, refusing every write while ``full`` (a disk with no room left)."""

    def __init__(self, keep: object) -> None:
        self.keep = keep
        self.full = True

    def __call__(self, entries: object) -> None:
        if self.full:
            raise EventLogError("could not append: database or disk is full")
        self.keep(entries)  # type: ignore[operator]


def test_a_message_the_journal_could_not_keep_is_never_acknowledged_and_is_taken_again_when_resent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = GameScript()
    journal = FillableJournal(table.eventlog.journal_device)
    table.eventlog.journal_device = journal  # type: ignore[method-assign]
    table.connection.feed(Impact(3, 6_000_000, 512))
    table.daemon.step(0.5)
    table.settle()
    assert [d.seq for d in table.connection.refused] == [0]
    table.connection.feed(Impact(4, 6_000_100, 300))  # sent while the first is still refused
    deadline = time.monotonic() + 5
    while table.connection.pending and time.monotonic() < deadline:
        table.daemon.step(0.05)
    table.settle()
    assert table.connection.unacknowledged == 2  # not even a cumulative ack released the first
    assert "not acknowledged" in caplog.text
    # Health tells the truth: the mat is not read, so the watchdog is not fed, and every page says so.
    health = table.daemon.health()
    assert not health.ok and not health.serial_link and not health.journal
    assert table.state["health"]["serial_link"] is False
    assert table.state["health"]["journal"] is False
    healthy, status = health_check(table.daemon, table.table.table, "/dev/smartmat", "mqtt://broker")()
    assert not healthy, "systemd's watchdog must not be fed while the mat's messages are refused"
    assert "CANNOT BE KEPT" in status

    journal.full = False  # room again: the board's next retransmission gets through
    assert table.connection.resend() == 2
    deadline = time.monotonic() + 5
    while table.connection.unacknowledged and time.monotonic() < deadline:
        table.daemon.step(0.05)  # the reader thread hands the resent messages on one by one
    table.settle()
    journal_entries = table.eventlog.device_journal()
    kept = [(e["seq"], e["message"]["sensor_id"]) for e in journal_entries if e["seq"] is not None]
    assert kept[-2:] == [(0, 3), (1, 4)]
    assert [seq for seq, _ in kept].count(1) == 1  # taken once, not once per time it was sent
    assert table.connection.unacknowledged == 0
    assert table.daemon.health().ok
    assert health_check(table.daemon, table.table.table, "/dev/smartmat", "mqtt://broker")()[0]
    assert table.state["health"]["serial_link"] is True


def test_the_sqlite_journal_survives_a_reopen_and_leaves_the_records_alone(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with SqliteEventLog(path) as log:
        log.append("pause", {"reason": "test"}, "referee:anna")
        log.journal_device([{"boot_id": 1, "seq": 9, "type": "Impact", "message": {"t_us": 5}}])
    with SqliteEventLog(path) as log:
        assert log.device_journal() == [{"boot_id": 1, "seq": 9, "type": "Impact", "message": {"t_us": 5}}]
        assert [r.kind for r in log.records()] == ["pause"]


def test_a_board_that_reboots_while_its_messages_are_refused_is_read_again() -> None:
    table = GameScript()
    journal = FillableJournal(table.eventlog.journal_device)
    table.eventlog.journal_device = journal  # type: ignore[method-assign]
    table.connection.feed(Impact(3, 7_000_000, 512))
    table.daemon.step(0.5)
    table.settle()
    assert len(table.connection.refused) == 1
    journal.full = False
    # The board reboots: its unacknowledged message is gone with the old boot, and the new boot's are taken.
    table.connection.feed(Hello(default_capabilities(boot_id=8)), Impact(5, 100, 300))
    deadline = time.monotonic() + 5
    while table.connection.pending and time.monotonic() < deadline:
        table.daemon.step(0.05)
    table.settle()
    kept = [(e["boot_id"], e["message"]["sensor_id"]) for e in table.eventlog.device_journal()]
    assert (8, 5) in kept and (7, 3) not in kept
    assert table.daemon.health().ok
