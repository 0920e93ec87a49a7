"""One record of the event log and its JSON form (a line of the game-log JSON Lines file)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

FORMAT_VERSION = 1

# The kinds the daemon writes today (docs/architecture.md §4). Other lower-case words are stored too, so a
# newer daemon can add a kind without a storage change; the rules decide what a kind means.
KNOWN_KINDS = ("setup", "action", "undo", "correction")

_KIND = re.compile(r"^[a-z][a-z_]*$")
_AT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$")
_FIELDS = ("v", "seq", "at", "by", "kind", "payload")


class EventLogError(Exception):
    """Base class of every event-log failure."""


class InvalidRecordError(EventLogError, ValueError):
    """A record (or a JSON Lines line) that does not fit the record format."""


class EventLogCorruptError(EventLogError):
    """The log file fails its integrity check; nothing was changed on disk."""


def numbered_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """The lines of a JSON Lines file with their numbers; a line that is not UTF-8 is refused by number
    (decoding the whole file at once would only say at which byte)."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                yield number, raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                where = f"byte 0x{raw[exc.start]:02x} at column {exc.start + 1}"
                raise InvalidRecordError(f"line {number}: not UTF-8 text ({where})") from None


def utc_now_text() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Record:
    seq: int
    at: str  # ISO-8601 UTC, "2026-11-22T10:00:00Z"
    by: str  # "referee:anna" | "sensor" | "daemon" | ...
    kind: str
    payload: dict[str, Any]
    v: int = FORMAT_VERSION

    def to_json(self) -> dict[str, Any]:
        return {
            "v": self.v,
            "seq": self.seq,
            "at": self.at,
            "by": self.by,
            "kind": self.kind,
            "payload": self.payload,
        }

    def to_line(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: object) -> Record:
        if not isinstance(data, dict):
            raise InvalidRecordError(f"a record must be a JSON object, not {type(data).__name__}")
        missing = [name for name in _FIELDS if name not in data]
        if missing:
            raise InvalidRecordError(f"record lacks field(s) {', '.join(missing)}")
        extra = sorted(set(data) - set(_FIELDS))
        if extra:
            raise InvalidRecordError(f"record has unknown field(s) {', '.join(extra)}")
        if data["v"] != FORMAT_VERSION or isinstance(data["v"], bool):
            raise InvalidRecordError(
                f"record version {data['v']!r} is not supported (expected {FORMAT_VERSION})"
            )
        seq = data["seq"]
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            raise InvalidRecordError(f"seq must be a positive integer, not {seq!r}")
        record = cls(seq=seq, at=data["at"], by=data["by"], kind=data["kind"], payload=data["payload"])
        check_fields(record.at, record.by, record.kind, record.payload, serialise=False)
        return record


def check_fields(at: object, by: object, kind: object, payload: object, *, serialise: bool = True) -> str:
    """Validate the caller-supplied fields; returns the payload as compact JSON text.

    A payload just parsed from JSON is plain JSON already: ``serialise=False`` skips proving it again (that
    re-encoding was a sixth of a log's replay time) and returns an empty string.
    """
    if not isinstance(at, str) or not _AT.match(at):
        raise InvalidRecordError(f"at {at!r} must be ISO-8601 UTC like 2026-11-22T10:00:00Z")
    if not isinstance(by, str) or not by.strip():
        raise InvalidRecordError(f"by {by!r} must name who caused the record (e.g. 'referee:anna', 'sensor')")
    if not isinstance(kind, str) or not _KIND.match(kind):
        raise InvalidRecordError(f"kind {kind!r} must be a lower-case word such as {', '.join(KNOWN_KINDS)}")
    if not isinstance(payload, dict):
        raise InvalidRecordError(f"payload must be a JSON object, not {type(payload).__name__}")
    if not serialise:
        return ""
    try:
        return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidRecordError(f"payload is not plain JSON: {exc}") from exc


def parse_line(line: str, line_number: int) -> Record:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InvalidRecordError(f"line {line_number}: not JSON ({exc.msg} at column {exc.colno})") from exc
    except RecursionError:  # json gives up on deep nesting with this, not a JSONDecodeError
        raise InvalidRecordError(f"line {line_number}: not a record (JSON nested too deeply)") from None
    try:
        return Record.from_json(data)
    except InvalidRecordError as exc:
        raise InvalidRecordError(f"line {line_number}: {exc}") from exc
