"""The event-log interface shared by the SQLite store and the in-memory fake.

Records are only ever appended: undo and corrections are new records, never rewrites (docs/event-log.md).
Subclasses supply three storage primitives; validation, numbering rules and JSON Lines export/import live here
so the fake and the real store cannot drift apart.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from service.eventlog.record import (
    EventLogError,
    InvalidRecordError,
    Record,
    check_fields,
    numbered_lines,
    parse_line,
    utc_now_text,
)

log = logging.getLogger(__name__)


class ImportConflictError(EventLogError):
    """A JSON Lines file that disagrees with what the log already holds."""


@dataclass(frozen=True)
class StoredRow:
    """A record as stored. The payload stays JSON text so no caller can mutate the log through a dict."""

    seq: int
    at: str
    by: str
    kind: str
    payload_text: str

    def to_record(self) -> Record:
        return Record(
            seq=self.seq, at=self.at, by=self.by, kind=self.kind, payload=json.loads(self.payload_text)
        )


class EventLog(ABC):
    def __init__(self, clock: Callable[[], str] = utc_now_text) -> None:
        self._clock = clock

    # -- storage primitives -------------------------------------------------------------------------------
    @abstractmethod
    def _insert(self, rows: Sequence[StoredRow]) -> None:
        """Store rows atomically (all or none); each row's seq must be the next one, else EventLogError."""

    @abstractmethod
    def _rows(self, after_seq: int) -> list[StoredRow]: ...

    @abstractmethod
    def last_seq(self) -> int:
        """The seq of the newest record, 0 for an empty log."""

    @abstractmethod
    def close(self) -> None: ...

    # -- the board's raw messages, kept before they are acknowledged ----------------------------------------
    @abstractmethod
    def journal_device(self, entries: Sequence[dict[str, Any]]) -> None:
        """Keep the board's messages durably (all or none) before the daemon acknowledges them.

        Not game records: a flick still being segmented when the daemon dies or the board reboots would
        otherwise be acknowledged yet nowhere on disk. They sit beside the record sequence, which they never
        change, for the referee and for audits (docs/event-log.md).
        """

    @abstractmethod
    def device_journal(self) -> list[dict[str, Any]]:
        """The kept board messages, oldest first."""

    # -- the interface ------------------------------------------------------------------------------------
    def append(self, kind: str, payload: dict[str, Any], by: str, *, at: str | None = None) -> int:
        """Append one record and return its seq. When this returns the record is durable."""
        at = self._clock() if at is None else at
        try:
            payload_text = check_fields(at, by, kind, payload)
        except InvalidRecordError as exc:
            log.error("event log refused a record from %r: %s", by, exc)
            raise
        return self._append_text(at, by, kind, payload_text)

    def _append_text(self, at: str, by: str, kind: str, payload_text: str) -> int:
        # Subclasses with real concurrency override this to pick the seq inside their transaction.
        seq = self.last_seq() + 1
        self._insert([StoredRow(seq, at, by, kind, payload_text)])
        return seq

    def records(self, after_seq: int = 0) -> list[Record]:
        """Every record with seq > after_seq, oldest first."""
        return [row.to_record() for row in self._rows(after_seq)]

    def export_jsonl(self, path: str | os.PathLike[str]) -> int:
        """Write the whole log as JSON Lines, atomically (never half a file). Returns the record count."""
        target = Path(path)
        records = self.records()
        handle = tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
        )
        try:
            with handle:
                for record in records:
                    handle.write(record.to_line() + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(handle.name, target)
        except BaseException:
            Path(handle.name).unlink(missing_ok=True)
            raise
        return len(records)

    def import_jsonl(self, path: str | os.PathLike[str]) -> int:
        """Append the records of a JSON Lines file, keeping their seq, at and by. Returns how many were added.

        The file must number its records 1, 2, 3, ... Records the log already holds must match the file
        exactly (so importing the same file twice adds nothing); the rest are appended in one transaction.
        A bad line anywhere rejects the whole file and the log is unchanged.
        """
        source = Path(path)
        incoming = read_jsonl(source)
        existing = self._rows(0)
        for row, record in zip(existing, incoming, strict=False):
            if row.to_record() != record:
                raise ImportConflictError(
                    f"{source}: record seq {record.seq} differs from the one already in the log; "
                    "import into an empty log instead"
                )
        new = incoming[len(existing) :]
        if not new:
            return 0
        self._insert(
            [StoredRow(r.seq, r.at, r.by, r.kind, check_fields(r.at, r.by, r.kind, r.payload)) for r in new]
        )
        log.info("imported %d record(s) from %s (seq %d..%d)", len(new), source, new[0].seq, new[-1].seq)
        return len(new)

    def __enter__(self) -> EventLog:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def read_jsonl(path: str | os.PathLike[str]) -> list[Record]:
    """Parse and check a game-log JSON Lines file: every line a record, seqs 1, 2, 3, ... in order."""
    records: list[Record] = []
    for number, line in numbered_lines(path):
        if not line.strip():
            continue
        record = parse_line(line, number)
        expected = len(records) + 1
        if record.seq != expected:
            raise InvalidRecordError(f"{path} line {number}: seq {record.seq} where {expected} was expected")
        records.append(record)
    return records
