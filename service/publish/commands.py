"""Commands that arrive on ``cmd/request`` and the answers that go back on ``cmd/response``.

A request is ``{"txn", "actor", "command", "args"}``; the reply echoes the txn: ``{"txn", "ok", "error"?,
"seq"?}``. This module checks the envelope only: which commands exist, what their ``args`` hold and who may
send them is declared once in the table's command catalogue (service/table/commands/catalogue.py), which the
daemon checks each command against before carrying it out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_COMMAND = re.compile(r"^[a-z][a-z_]{0,39}$")  # a command's name; which names exist is the table's catalogue

MAX_REQUEST_BYTES = 64 * 1024
_FIELDS = ("txn", "actor", "command", "args")
_ACTOR = re.compile(r"^[a-z]+(:[^\s]{1,64})?$")  # "referee:anna", "player:hero-xoric", "button"


class MalformedCommandError(ValueError):
    """A request that does not fit the envelope. ``txn`` is set when one could be recovered to answer."""

    def __init__(self, message: str, txn: str | None = None) -> None:
        super().__init__(message)
        self.txn = txn


@dataclass(frozen=True)
class Command:
    txn: str
    actor: str
    command: str
    args: dict[str, Any]


@dataclass(frozen=True)
class CommandResult:
    ok: bool
    error: str | None = None
    seq: int | None = None  # the event-log seq the command produced, when it produced one

    @classmethod
    def accepted(cls, seq: int | None = None) -> CommandResult:
        return cls(True, None, seq)

    @classmethod
    def refused(cls, error: str) -> CommandResult:
        return cls(False, error, None)


def response_payload(txn: str, result: CommandResult) -> dict[str, Any]:
    body: dict[str, Any] = {"txn": txn, "ok": result.ok}
    if result.error is not None:
        body["error"] = result.error
    if result.seq is not None:
        body["seq"] = result.seq
    return body


class _NotPlainJson(ValueError):
    """Something Python's json module accepts but JSON does not (NaN, a key given twice)."""


def _refuse_constant(name: str) -> Any:
    raise _NotPlainJson(f"{name} is not a JSON number")


def _refuse_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Python keeps the last of two equal keys, other parsers the first: a repeated "txn" would be
    # de-duplicated under one id and answered under another.
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _NotPlainJson(f"the key {key!r} is given twice")
        seen.add(key)
    return dict(pairs)


def _is_unicode(text: str) -> bool:
    """False for text holding an unpaired surrogate (JSON can escape one; UTF-8 cannot carry it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_command(payload: bytes) -> Command:
    if len(payload) > MAX_REQUEST_BYTES:
        raise MalformedCommandError(f"request of {len(payload)} bytes exceeds {MAX_REQUEST_BYTES}")
    try:
        data = json.loads(
            payload.decode("utf-8"),
            parse_constant=_refuse_constant,
            object_pairs_hook=_refuse_repeated_keys,
        )
    except UnicodeDecodeError as exc:
        raise MalformedCommandError(f"request is not UTF-8 ({exc.reason} at byte {exc.start})") from exc
    except json.JSONDecodeError as exc:
        raise MalformedCommandError(f"request is not JSON ({exc.msg} at column {exc.colno})") from exc
    except _NotPlainJson as exc:
        raise MalformedCommandError(f"request is not plain JSON ({exc})") from exc
    except RecursionError as exc:  # 64 KiB of "[" is a valid size but no command
        raise MalformedCommandError("request is nested too deeply to be a command") from exc
    if not isinstance(data, dict):
        raise MalformedCommandError(f"request must be a JSON object, not {type(data).__name__}")
    txn = data.get("txn")
    recovered = txn if isinstance(txn, str) and 0 < len(txn) <= 128 and _is_unicode(txn) else None
    if recovered is None:
        raise MalformedCommandError(f"request needs a txn: a string of 1 to 128 characters, not {txn!r}")
    if not _is_unicode(json.dumps(data, ensure_ascii=False)):
        # Such text could be neither logged to the event log nor published again.
        raise MalformedCommandError(
            "request holds text that is not Unicode (an unpaired surrogate)", recovered
        )
    missing = [name for name in _FIELDS if name not in data]
    if missing:
        raise MalformedCommandError(f"request lacks {', '.join(missing)}", recovered)
    extra = sorted(set(data) - set(_FIELDS))
    if extra:
        raise MalformedCommandError(f"request has unknown field(s) {', '.join(extra)}", recovered)
    actor, command, args = data["actor"], data["command"], data["args"]
    if not isinstance(actor, str) or not _ACTOR.match(actor):
        raise MalformedCommandError(f"actor {actor!r} must look like 'referee:anna'", recovered)
    if not isinstance(command, str) or not _COMMAND.match(command):
        raise MalformedCommandError(f"command {command!r} is not a command's name", recovered)
    if not isinstance(args, dict):
        raise MalformedCommandError(f"args must be a JSON object, not {type(args).__name__}", recovered)
    return Command(recovered, actor, command, args)
