"""One line of a game log: ``{"v": 1, "seq", "at", "by", "kind", "payload"}`` (docs/game-log.md).

A game log is the event log's JSON Lines export, so both share one record type and one parser
(``service.eventlog.record``): a log the daemon exports is exactly a log ``smartmat replay`` reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from service.eventlog.record import FORMAT_VERSION as VERSION
from service.eventlog.record import InvalidRecordError as LogFormatError
from service.eventlog.record import Record, numbered_lines
from service.eventlog.record import parse_line as _parse_line

RULES_KINDS = ("setup", "action", "undo", "correction")
# Records the table daemon keeps in the same log (attributed shots, dismissals, pauses, disc bindings): they
# belong to the log but not to the rules, so replay passes over them.
# Any other lower-case word is accepted too, so a newer daemon can add a kind; the rules pass over it.
# ``new_game`` closes the game before it: the next record is the next game's setup (docs/game-log.md).
TABLE_KINDS = ("shot", "attribution", "dismiss", "pause", "resume", "bind", "new_game")

__all__ = [
    "RULES_KINDS",
    "TABLE_KINDS",
    "VERSION",
    "LogFormatError",
    "Record",
    "parse_line",
    "parse_lines",
    "read_log",
]


def parse_line(line: str, line_number: int = 0) -> Record:
    return _parse_line(line, line_number)


def parse_lines(lines: Iterable[str]) -> Iterator[Record]:
    """Records of a log's lines: seq 1, 2, 3, … with nothing missing (a gap means a damaged log)."""
    expected = 1
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        record = parse_line(line, number)
        if record.seq != expected:
            raise LogFormatError(f"line {number}: seq {record.seq} where {expected} was expected")
        expected += 1
        yield record


def read_log(path: str | Path) -> list[Record]:
    return list(parse_lines(line for _, line in numbered_lines(path)))
