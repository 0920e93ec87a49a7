"""Builds game-log records in memory (tests, examples, tools); the event log stores the same records."""

from __future__ import annotations

from typing import Any

from service.gamelog.records import Record
from service.rules.actions import Action, action_to_json


class LogWriter:
    def __init__(self, at: str = "2026-11-22T10:00:00Z") -> None:
        self.records: list[Record] = []
        self.at = at

    def add(self, kind: str, payload: dict[str, Any], by: str) -> Record:
        """A record of any kind (the table's own too: a shot, a binding), numbered next."""
        record = Record(seq=len(self.records) + 1, at=self.at, by=by, kind=kind, payload=payload)
        self.records.append(record)
        return record

    def setup(self, payload: dict[str, Any], by: str = "referee") -> Record:
        return self.add("setup", payload, by)

    def action(self, action: Action, by: str = "daemon") -> Record:
        return self.add("action", action_to_json(action), by)

    def undo(self, seq: int | None = None, by: str = "referee") -> Record:
        return self.add("undo", {} if seq is None else {"seq": seq}, by)

    def correction(self, action: Action | None, replaces: int | None = None, by: str = "referee") -> Record:
        payload: dict[str, Any] = {"action": action_to_json(action) if action is not None else None}
        if replaces is not None:
            payload["replaces"] = replaces
        return self.add("correction", payload, by)

    def lines(self) -> str:
        return "".join(r.to_line() + "\n" for r in self.records)
