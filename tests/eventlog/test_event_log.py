"""The event log as a game uses it: records go in during play, come back in order, survive restarts."""

from __future__ import annotations

import logging
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.eventlog import (
    EventLog,
    EventLogError,
    ImportConflictError,
    InvalidRecordError,
    MemoryEventLog,
    SqliteEventLog,
)

SETUP = {"ruleset": "catacombs-3e", "heroes": ["hero-xoric", "hero-elf"], "seed": 7}
MELEE = {"type": "shot", "piece": "hero-xoric", "shot": "melee", "direct_hits": ["goblin-1"]}
UNDO = {"reason": "the goblin was pushed, not hit"}


def fixed_clock() -> str:
    return "2026-11-22T10:00:00Z"


@pytest.fixture(params=["sqlite", "memory"])
def event_log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[EventLog]:
    log: EventLog
    if request.param == "sqlite":
        log = SqliteEventLog(tmp_path / "table-1.db", clock=fixed_clock)
    else:
        log = MemoryEventLog(clock=fixed_clock)
    with log:
        yield log


def test_a_room_is_logged_in_order_and_read_back(event_log: EventLog) -> None:
    assert event_log.last_seq() == 0
    assert event_log.append("setup", SETUP, by="daemon") == 1
    assert event_log.append("action", MELEE, by="sensor") == 2
    assert event_log.append("undo", UNDO, by="referee:anna") == 3

    records = event_log.records()
    assert [(r.seq, r.kind, r.by) for r in records] == [
        (1, "setup", "daemon"),
        (2, "action", "sensor"),
        (3, "undo", "referee:anna"),
    ]
    assert records[1].payload == MELEE
    assert records[0].to_json() == {
        "v": 1,
        "seq": 1,
        "at": "2026-11-22T10:00:00Z",
        "by": "daemon",
        "kind": "setup",
        "payload": SETUP,
    }
    assert [r.seq for r in event_log.records(after_seq=1)] == [2, 3]
    assert event_log.records(after_seq=3) == []
    assert event_log.last_seq() == 3


def test_changing_a_returned_payload_does_not_change_the_log(event_log: EventLog) -> None:
    event_log.append("action", MELEE, by="sensor")
    event_log.records()[0].payload["direct_hits"].append("troll")
    assert event_log.records()[0].payload == MELEE


@pytest.mark.parametrize(
    ("kind", "payload", "by", "at", "complaint"),
    [
        ("action", ["not", "an", "object"], "sensor", None, "payload must be a JSON object"),
        ("action", {"damage": float("nan")}, "sensor", None, "not plain JSON"),
        ("action", {"when": object()}, "sensor", None, "not plain JSON"),
        ("Action!", {}, "sensor", None, "kind 'Action!'"),
        ("action", {}, "  ", None, "must name who caused"),
        ("action", {}, "sensor", "yesterday", "ISO-8601"),
    ],
)
def test_a_bad_record_is_refused_logged_and_loses_nothing(
    event_log: EventLog,
    caplog: pytest.LogCaptureFixture,
    kind: str,
    payload: object,
    by: str,
    at: str | None,
    complaint: str,
) -> None:
    event_log.append("setup", SETUP, by="daemon")
    with caplog.at_level(logging.ERROR, logger="service.eventlog"):
        with pytest.raises(InvalidRecordError, match=complaint):
            event_log.append(kind, payload, by=by, at=at)  # type: ignore[arg-type]
    assert complaint.split()[0] in caplog.text
    assert [r.payload for r in event_log.records()] == [SETUP]
    assert event_log.append("action", MELEE, by="sensor") == 2


def test_export_then_import_reproduces_the_log(event_log: EventLog, tmp_path: Path) -> None:
    event_log.append("setup", SETUP, by="daemon")
    event_log.append("action", MELEE, by="sensor")
    event_log.append("correction", {"character": "hero-elf", "health": 5}, by="referee:anna")
    exported = tmp_path / "game.jsonl"
    assert event_log.export_jsonl(exported) == 3
    assert exported.read_text().splitlines()[1] == (
        '{"v":1,"seq":2,"at":"2026-11-22T10:00:00Z","by":"sensor","kind":"action",'
        '"payload":{"type":"shot","piece":"hero-xoric","shot":"melee","direct_hits":["goblin-1"]}}'
    )

    restored = SqliteEventLog(tmp_path / "restored.db")
    assert restored.import_jsonl(exported) == 3
    assert restored.records() == event_log.records()
    assert restored.import_jsonl(exported) == 0, "importing the same game twice adds nothing"
    assert restored.append("undo", UNDO, by="referee:anna") == 4
    restored.close()


def test_an_import_that_contradicts_the_log_is_refused(event_log: EventLog, tmp_path: Path) -> None:
    other = MemoryEventLog(clock=fixed_clock)
    other.append("setup", {"ruleset": "catacombs-and-castles-2e"}, by="daemon")
    other.export_jsonl(tmp_path / "other.jsonl")
    event_log.append("setup", SETUP, by="daemon")
    with pytest.raises(ImportConflictError, match="seq 1 differs"):
        event_log.import_jsonl(tmp_path / "other.jsonl")
    assert [r.payload for r in event_log.records()] == [SETUP]


@pytest.mark.parametrize(
    ("third_line", "complaint"),
    [
        ('{"v":1,"seq":3,"at":"2026-11-22T10:00:00Z","by":"sensor","kind":"action"', "line 3: not JSON"),
        (
            '{"v":1,"seq":4,"at":"2026-11-22T10:00:00Z","by":"sensor","kind":"action","payload":{}}',
            "line 3: seq 4 where 3 was expected",
        ),
        (
            '{"v":2,"seq":3,"at":"2026-11-22T10:00:00Z","by":"sensor","kind":"action","payload":{}}',
            "line 3: record version 2",
        ),
        (
            '{"seq":3,"at":"2026-11-22T10:00:00Z","by":"sensor","kind":"action","payload":{}}',
            "line 3: record lacks field",
        ),
    ],
)
def test_a_broken_game_file_is_rejected_whole(
    event_log: EventLog, tmp_path: Path, third_line: str, complaint: str
) -> None:
    good = MemoryEventLog(clock=fixed_clock)
    good.append("setup", SETUP, by="daemon")
    good.append("action", MELEE, by="sensor")
    path = tmp_path / "broken.jsonl"
    good.export_jsonl(path)
    with path.open("a") as handle:
        handle.write(third_line + "\n")
    with pytest.raises(InvalidRecordError, match=complaint):
        event_log.import_jsonl(path)
    assert event_log.records() == []


def test_the_store_survives_a_restart_and_keeps_numbering(tmp_path: Path) -> None:
    path = tmp_path / "table-1.db"
    with SqliteEventLog(path) as first_run:
        first_run.append("setup", SETUP, by="daemon")
        first_run.append("action", MELEE, by="sensor")
    with SqliteEventLog(path) as second_run:
        assert [r.payload for r in second_run.records()] == [SETUP, MELEE]
        assert second_run.append("undo", UNDO, by="referee:anna") == 3


def test_the_store_is_wal_with_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "table-1.db"
    with SqliteEventLog(path) as event_log:
        event_log.append("setup", SETUP, by="daemon")
        assert event_log.synchronous == 2  # FULL
        probe = sqlite3.connect(path)
        assert probe.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        probe.close()


def test_records_cannot_be_rewritten_even_with_raw_sql(tmp_path: Path) -> None:
    path = tmp_path / "table-1.db"
    with SqliteEventLog(path) as event_log:
        event_log.append("action", MELEE, by="sensor")
    raw = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        raw.execute("UPDATE events SET payload = '{}' WHERE seq = 1")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        raw.execute("DELETE FROM events")
    raw.close()
    with SqliteEventLog(path) as event_log:
        assert event_log.records()[0].payload == MELEE


def test_a_damaged_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "table-1.db"
    with SqliteEventLog(path) as event_log:
        for shot in range(400):
            event_log.append("action", {**MELEE, "shot_index": shot, "note": "x" * 200}, by="sensor")
    data = bytearray(path.read_bytes())
    page_size = 4096
    assert len(data) > 6 * page_size
    data[3 * page_size : 4 * page_size] = bytes([0x5A]) * page_size
    path.write_bytes(bytes(data))

    with pytest.raises(EventLogError, match="damaged|integrity") as refused:
        SqliteEventLog(path)
    assert str(path) in str(refused.value)
    assert path.read_bytes() == bytes(data), "the damaged file must be kept as evidence, not repaired"


def test_a_file_that_is_not_an_event_log_is_refused(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("shopping list: dice, discs, neoprene\n" * 200)
    with pytest.raises(EventLogError, match="damaged"):
        SqliteEventLog(notes)
    assert notes.read_text().startswith("shopping list")

    other_app = tmp_path / "other.db"
    db = sqlite3.connect(other_app)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(EventLogError, match="not a smartmat event log"):
        SqliteEventLog(other_app)


def test_a_write_blocked_by_another_writer_fails_clearly_and_the_log_carries_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "table-1.db"
    with SqliteEventLog(path, busy_timeout_ms=50) as event_log:
        event_log.append("setup", SETUP, by="daemon")
        intruder = sqlite3.connect(path, isolation_level=None)
        intruder.execute("BEGIN IMMEDIATE")  # e.g. a second daemon started on the same table by mistake
        with caplog.at_level(logging.ERROR), pytest.raises(EventLogError, match="locked"):
            event_log.append("action", MELEE, by="sensor")
        assert "refused a write" in caplog.text
        intruder.execute("ROLLBACK")
        intruder.close()
        assert event_log.append("action", MELEE, by="sensor") == 2
        assert [r.payload for r in event_log.records()] == [SETUP, MELEE]


json_payloads = st.dictionaries(
    st.text(max_size=12),
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
        max_leaves=10,
    ),
    max_size=4,
)


@settings(max_examples=40, deadline=None)
@given(st.lists(json_payloads, min_size=1, max_size=5))
def test_any_json_payload_survives_store_export_and_import(payloads: list[dict[str, object]]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        with SqliteEventLog(directory / "a.db", clock=fixed_clock) as store:
            for payload in payloads:
                store.append("action", payload, by="referee:anna")
            store.export_jsonl(directory / "game.jsonl")
            original = store.records()
        restored = MemoryEventLog()
        restored.import_jsonl(directory / "game.jsonl")
        assert restored.records() == original
        assert [r.payload for r in original] == payloads
