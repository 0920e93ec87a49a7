"""The append-only event log: every accepted input, in order, durable before it is applied.

``SqliteEventLog`` is the store; ``MemoryEventLog`` is the fake with the same interface for tests.
"""

from service.eventlog.base import EventLog, ImportConflictError, read_jsonl
from service.eventlog.memory import MemoryEventLog
from service.eventlog.record import (
    KNOWN_KINDS,
    EventLogCorruptError,
    EventLogError,
    InvalidRecordError,
    Record,
)
from service.eventlog.sqlite_log import SqliteEventLog

__all__ = [
    "KNOWN_KINDS",
    "EventLog",
    "EventLogCorruptError",
    "EventLogError",
    "ImportConflictError",
    "InvalidRecordError",
    "MemoryEventLog",
    "Record",
    "SqliteEventLog",
    "read_jsonl",
]
