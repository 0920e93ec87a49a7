"""A board message as the event log's device journal keeps it (docs/event-log.md: the device journal)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from firmware_bridge.link import Delivery


def journal_entry(delivery: Delivery) -> dict[str, Any]:
    """Who sent it (boot, seq) and its fields, as plain JSON."""
    message = delivery.message
    is_message = dataclasses.is_dataclass(message) and not isinstance(message, type)
    fields = dataclasses.asdict(message) if is_message else {"repr": repr(message)}
    return {
        "boot_id": delivery.boot_id,
        "seq": delivery.seq,
        "type": type(message).__name__,
        "message": json.loads(json.dumps(fields, default=_plain)),
    }


def _plain(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return value.hex()
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    return repr(value)
