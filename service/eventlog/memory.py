"""An in-memory event log with the same behaviour as the SQLite store, for tests of code that logs events."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from typing import Any

from service.eventlog.base import EventLog, StoredRow
from service.eventlog.record import EventLogError, utc_now_text


class MemoryEventLog(EventLog):
    def __init__(self, clock: Callable[[], str] = utc_now_text) -> None:
        super().__init__(clock)
        self._lock = threading.Lock()
        self._stored: list[StoredRow] = []
        self._journal: list[dict[str, Any]] = []
        self._closed = False

    def _insert(self, rows: Sequence[StoredRow]) -> None:
        with self._lock:
            self._check_open()
            for offset, row in enumerate(rows):
                expected = len(self._stored) + 1 + offset
                if row.seq != expected:
                    raise EventLogError(f"seq {row.seq} would leave a gap or overwrite (next is {expected})")
            self._stored.extend(rows)

    def _append_text(self, at: str, by: str, kind: str, payload_text: str) -> int:
        with self._lock:
            self._check_open()
            seq = len(self._stored) + 1
            self._stored.append(StoredRow(seq, at, by, kind, payload_text))
            return seq

    def _rows(self, after_seq: int) -> list[StoredRow]:
        with self._lock:
            self._check_open()
            return self._stored[max(after_seq, 0) :]

    def last_seq(self) -> int:
        with self._lock:
            return len(self._stored)

    def journal_device(self, entries: Sequence[dict[str, Any]]) -> None:
        with self._lock:
            self._check_open()
            self._journal.extend(json.loads(json.dumps(e)) for e in entries)

    def device_journal(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._journal)

    def close(self) -> None:
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise EventLogError("the event log is closed")
