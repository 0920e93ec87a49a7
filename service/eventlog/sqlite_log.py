"""The event log on disk: one SQLite file, WAL journal, ``synchronous=FULL``, append-only.

``append`` commits before it returns, and with WAL + FULL the commit has been fsynced, so a record that was
acknowledged survives a crash of the process or the machine. Opening a file checks it first and refuses a
damaged one with :class:`EventLogCorruptError`; the file is left exactly as found, because silently dropping
accepted events is worse than stopping (docs/event-log.md).
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from service.eventlog.base import EventLog, StoredRow
from service.eventlog.record import EventLogCorruptError, EventLogError, utc_now_text

log = logging.getLogger(__name__)

APPLICATION_ID = 0x534D4154  # "SMAT": marks the file as a smartmat event log for `file(1)` and for us
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE events (
    seq     INTEGER PRIMARY KEY CHECK (seq > 0),
    v       INTEGER NOT NULL,
    at      TEXT    NOT NULL,
    by      TEXT    NOT NULL,
    kind    TEXT    NOT NULL,
    payload TEXT    NOT NULL CHECK (json_valid(payload))
);
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: records are never changed'); END;
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: records are never deleted'); END;
"""


_JOURNAL_TABLE = """CREATE TABLE IF NOT EXISTS device_journal (
    id    INTEGER PRIMARY KEY,
    at    TEXT NOT NULL,
    entry TEXT NOT NULL CHECK (json_valid(entry))
)"""


class SqliteEventLog(EventLog):
    def __init__(
        self,
        path: str | os.PathLike[str],
        clock: Callable[[], str] = utc_now_text,
        busy_timeout_ms: int = 5000,
    ) -> None:
        super().__init__(clock)
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise EventLogError(f"cannot open event log {self.path}: {exc}") from exc
        try:
            if self._is_blank():
                self._create()
            else:
                self._check()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise EventLogCorruptError(
                f"event log {self.path} is damaged and was not changed: {exc}"
            ) from exc
        except EventLogError:
            self._db.close()
            raise
        log.info("event log %s open, %d record(s)", self.path, self.last_seq())

    def _is_blank(self) -> bool:
        # Decided from the content SQLite sees (main file plus any WAL), never from file sizes: after a crash
        # the records may still live only in the WAL.
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        objects = self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        return bool(app_id == 0 and objects == 0)

    def _create(self) -> None:
        # WAL must be chosen before the first write so the file never holds a rollback journal.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("BEGIN IMMEDIATE")
        for statement in _split(_SCHEMA):
            self._db.execute(statement)
        self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._db.execute("COMMIT")
        _fsync_directory(self.path.parent)

    def _check(self) -> None:
        """Read-only checks; any failure leaves the file untouched."""
        problems = [row[0] for row in self._db.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise EventLogCorruptError(
                f"event log {self.path} fails SQLite's integrity check and was not changed: "
                + "; ".join(problems[:5])
            )
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise EventLogCorruptError(f"{self.path} is an SQLite file but not a smartmat event log")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise EventLogError(
                f"event log {self.path} has schema version {version}; this build reads {SCHEMA_VERSION}"
            )
        count, first, last = self._db.execute(
            "SELECT count(*), coalesce(min(seq), 0), coalesce(max(seq), 0) FROM events"
        ).fetchone()
        if count != last or (count and first != 1):
            raise EventLogCorruptError(
                f"event log {self.path} has gaps: {count} record(s) numbered {first}..{last}"
            )

    def _insert(self, rows: Sequence[StoredRow]) -> None:
        with self._lock, self._write_errors():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                next_seq = self._last_seq_locked() + 1
                for offset, row in enumerate(rows):
                    if row.seq != next_seq + offset:
                        raise EventLogError(
                            f"seq {row.seq} would leave a gap or overwrite (next is {next_seq + offset})"
                        )
                self._db.executemany(
                    "INSERT INTO events (seq, v, at, by, kind, payload) VALUES (?, 1, ?, ?, ?, ?)",
                    [(r.seq, r.at, r.by, r.kind, r.payload_text) for r in rows],
                )
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def _append_text(self, at: str, by: str, kind: str, payload_text: str) -> int:
        with self._lock, self._write_errors():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                seq = self._last_seq_locked() + 1
                self._db.execute(
                    "INSERT INTO events (seq, v, at, by, kind, payload) VALUES (?, 1, ?, ?, ?, ?)",
                    (seq, at, by, kind, payload_text),
                )
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
            return seq

    @contextmanager
    def _write_errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            # e.g. "database is locked" (another process writes) or a full disk: the record was not stored.
            log.error("event log %s refused a write: %s", self.path, exc)
            raise EventLogError(f"could not append to event log {self.path}: {exc}") from exc

    def _rows(self, after_seq: int) -> list[StoredRow]:
        with self._lock:
            cursor = self._db.execute(
                "SELECT seq, at, by, kind, payload FROM events WHERE seq > ? ORDER BY seq", (after_seq,)
            )
            return [StoredRow(*row) for row in cursor]

    def trace_statements(self, callback: Callable[[str], None] | None) -> None:
        """``callback`` gets each SQL statement just before SQLite runs it (None: no more); the fault suite
        kills the process inside a commit with it."""
        self._db.set_trace_callback(callback)

    @property
    def synchronous(self) -> int:
        """SQLite's ``synchronous`` level on this log's connection (2: FULL, every commit on the disk)."""
        with self._lock:
            return int(self._db.execute("PRAGMA synchronous").fetchone()[0])

    def last_seq(self) -> int:
        with self._lock:
            return self._last_seq_locked()

    def _last_seq_locked(self) -> int:
        return int(self._db.execute("SELECT coalesce(max(seq), 0) FROM events").fetchone()[0])

    def journal_device(self, entries: Sequence[dict[str, Any]]) -> None:
        if not entries:
            return
        rows = [(self._clock(), json.dumps(e, separators=(",", ":"))) for e in entries]
        with self._lock, self._write_errors():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                # Made on first use: a log written before the journal existed opens unchanged.
                self._db.execute(_JOURNAL_TABLE)
                self._db.executemany("INSERT INTO device_journal (at, entry) VALUES (?, ?)", rows)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    def device_journal(self) -> list[dict[str, Any]]:
        with self._lock:
            exists = self._db.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'device_journal'"
            ).fetchone()[0]
            if not exists:
                return []
            return [
                json.loads(row[0]) for row in self._db.execute("SELECT entry FROM device_journal ORDER BY id")
            ]

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _split(script: str) -> list[str]:
    """Split the schema into statements (trigger bodies hold ';' so split on the blank-line-free END;)."""
    statements: list[str] = []
    current: list[str] = []
    for line in script.strip().splitlines():
        current.append(line)
        text = "\n".join(current).strip()
        if text.endswith(";") and (not text.upper().startswith("CREATE TRIGGER") or text.endswith("END;")):
            statements.append(text)
            current = []
    return statements


def _fsync_directory(directory: Path) -> None:
    # A new file's directory entry must reach the disk too, or a power cut can lose the whole file.
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
