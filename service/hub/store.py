"""The hub's SQLite file: the tournament's records and every game's log, both append-only.

Like the table's event log (WAL, ``synchronous=FULL``), a tournament record is durable when ``append``
returns, and
nothing is ever changed or deleted: triggers refuse UPDATE and DELETE, so a correction is a new record and
the tournament is always the fold of its records. A game record is stored under ``(game, seq)`` once; a
copy that arrives again (a resend after a cut link) is recognised and ignored, never counted twice.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from service.hub.records import TournamentRecord

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tournament (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    by TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS game_records (
    game TEXT NOT NULL,
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    record TEXT NOT NULL,
    received_at TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS game_records_table ON game_records (table_id, received_at);
CREATE TRIGGER IF NOT EXISTS tournament_no_update BEFORE UPDATE ON tournament
    BEGIN SELECT RAISE(ABORT, 'the tournament log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS tournament_no_delete BEFORE DELETE ON tournament
    BEGIN SELECT RAISE(ABORT, 'the tournament log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS game_records_no_update BEFORE UPDATE ON game_records
    BEGIN SELECT RAISE(ABORT, 'game logs are append-only'); END;
CREATE TRIGGER IF NOT EXISTS game_records_no_delete BEFORE DELETE ON game_records
    BEGIN SELECT RAISE(ABORT, 'game logs are append-only'); END;
"""


class HubStoreError(Exception):
    """The hub's file cannot be opened or written."""


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class HubStore:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
            # Game records go through a connection of their own that does not fsync each one: the table
            # holds the authoritative log, and a record lost to a power cut is a gap the hub asks for again
            # (docs/tournaments.md). Any later tournament record's fsync makes them durable too (one WAL).
            self._games_lock = threading.Lock()
            self._games_db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._games_db.execute("PRAGMA synchronous=NORMAL")
            self._games_db.execute("PRAGMA busy_timeout=5000")
        except sqlite3.Error as exc:
            raise HubStoreError(f"cannot open the hub's file {self.path}: {exc}") from exc

    # The tournament's own records -------------------------------------------------------------------
    def append(self, kind: str, payload: dict[str, Any], by: str, at: str | None = None) -> TournamentRecord:
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        when = at or utc_now()
        with self._lock:
            try:
                cursor = self._db.execute(
                    "INSERT INTO tournament (at, by, kind, payload) VALUES (?, ?, ?, ?)",
                    (when, by, kind, text),
                )
            except sqlite3.Error as exc:
                raise HubStoreError(f"cannot write to {self.path}: {exc}") from exc
        return TournamentRecord(int(cursor.lastrowid or 0), when, by, kind, payload)

    def records(self, after_seq: int = 0) -> list[TournamentRecord]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, at, by, kind, payload FROM tournament WHERE seq > ? ORDER BY seq", (after_seq,)
            ).fetchall()
        return [
            TournamentRecord(seq, at, by, kind, json.loads(payload)) for seq, at, by, kind, payload in rows
        ]

    # Game logs ---------------------------------------------------------------------------------------
    def add_game_record(self, game: str, table: str, record: dict[str, Any]) -> bool:
        """Store one game record; False when the hub already held it (a resend)."""
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        with self._games_lock:
            try:
                cursor = self._games_db.execute(
                    "INSERT OR IGNORE INTO game_records (game, table_id, seq, record, received_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game, table, int(record["seq"]), text, utc_now()),
                )
            except sqlite3.Error as exc:
                raise HubStoreError(f"cannot write to {self.path}: {exc}") from exc
        return cursor.rowcount == 1

    def game_records(self, game: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT record FROM game_records WHERE game = ? ORDER BY seq", (game,)
            ).fetchall()
        return [json.loads(text) for (text,) in rows]

    def games(self) -> list[tuple[str, str, int, int]]:
        """Every game the hub holds: (game, table, records held, highest seq), oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT game, table_id, COUNT(*), MAX(seq), MIN(rowid) FROM game_records"
                " GROUP BY game ORDER BY MIN(rowid)"
            ).fetchall()
        return [(game, table, count, top) for game, table, count, top, _ in rows]

    def close(self) -> None:
        with self._games_lock:
            self._games_db.close()
        with self._lock:
            self._db.close()
