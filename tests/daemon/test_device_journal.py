"""Every message the board sends is on disk before the daemon acknowledges it, even mid-flick.

A flick is recorded as a shot only when the discs are at rest again (two agreeing scans later); the board's
impacts and scans of a flick still in motion are kept in the log's device journal first, so a kill or a board
reboot at that moment loses nothing that was acknowledged (docs/event-log.md, PROTOCOL.md: ACK).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.messages import Impact
from service.eventlog.record import EventLogError
from service.eventlog.sqlite_log import SqliteEventLog
from tests.daemon.table_harness import FakeTable


def test_impacts_of_a_flick_in_motion_are_journaled_before_they_are_acknowledged() -> None:
    table = FakeTable()
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


def test_a_journal_that_cannot_be_written_leaves_the_messages_unacknowledged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = FakeTable()

    def refuse(entries: object) -> None:
        raise EventLogError("could not append: database or disk is full")

    table.eventlog.journal_device = refuse  # type: ignore[method-assign]
    table.connection.feed(Impact(3, 6_000_000, 512))
    table.daemon.step(0.5)
    table.settle()
    assert table.connection.unacknowledged == 1  # the board will send it again
    assert "not acknowledged" in caplog.text


def test_the_sqlite_journal_survives_a_reopen_and_leaves_the_records_alone(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with SqliteEventLog(path) as log:
        log.append("pause", {"reason": "test"}, "referee:anna")
        log.journal_device([{"boot_id": 1, "seq": 9, "type": "Impact", "message": {"t_us": 5}}])
    with SqliteEventLog(path) as log:
        assert log.device_journal() == [{"boot_id": 1, "seq": 9, "type": "Impact", "message": {"t_us": 5}}]
        assert [r.kind for r in log.records()] == ["pause"]
