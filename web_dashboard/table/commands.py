"""The commands a referee may send to the daemon, checked before anything is published.

A request on ``cmd/request`` is ``{"txn", "actor": "referee:<name>", "command", "args"}``; the daemon
answers on ``cmd/response`` with ``{"txn", "ok", "error"?, "seq"?}``. :func:`build_request` turns what a
page posted into that request or raises :class:`CommandError` saying exactly what is wrong, so a malformed
request never reaches the broker. What each command takes, and who may send it, is the table's command
catalogue (service/table/commands/catalogue.py), the same declaration the daemon checks against.
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from typing import Any, Protocol

from service.table.commands import CommandRefused, check_command, from_form

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class CommandError(ValueError):
    """A command request that is not in the catalogue or has wrong arguments."""


@dataclass(frozen=True)
class CommandResult:
    """The daemon's answer, or a timeout (``ok`` False, ``error`` says so)."""

    txn: str
    ok: bool
    error: str | None = None
    seq: int | None = None
    answered: bool = True  # False when the daemon never answered (broker down, daemon stopped)

    def to_json(self) -> dict[str, Any]:
        return {
            "txn": self.txn,
            "ok": self.ok,
            "error": self.error,
            "seq": self.seq,
            "answered": self.answered,
        }


class CommandChannel(Protocol):
    """Where the referee's commands go: the MQTT referee credential, or a fake in tests."""

    def send(self, request: dict[str, Any], timeout_s: float) -> CommandResult: ...

    def close(self) -> None: ...


def build_request(referee: str, body: Any) -> dict[str, Any]:
    """The ``cmd/request`` payload for what a page posted, or :class:`CommandError`."""
    if not isinstance(body, dict):
        raise CommandError('the request body must be a JSON object {"command": …, "args": {…}}')
    command = body.get("command")
    args = body.get("args", {})
    if not isinstance(args, dict):
        raise CommandError("'args' must be a JSON object")
    if not _ID.match(referee):
        raise CommandError(f"referee name {referee!r} is not an identifier")
    actor = f"referee:{referee}"
    if isinstance(command, str):
        args = from_form(command, args)
    try:
        check_command(command, args, actor)
    except CommandRefused as exc:
        raise CommandError(str(exc)) from None
    for key, value in args.items():
        if not _is_unicode(json.dumps(value, ensure_ascii=False)):
            raise CommandError(f"'{key}' holds text that is not Unicode (an unpaired surrogate)")
    return {"txn": uuid.uuid4().hex, "actor": actor, "command": command, "args": args}


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # an escaped unpaired surrogate: JSON allows it, the game log cannot hold it
        return False
    return True
