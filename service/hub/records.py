"""A tournament record as the hub stores it: the one shape the pure model and the SQLite store share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TournamentRecord:
    seq: int
    at: str
    by: str
    kind: str
    payload: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "by": self.by, "kind": self.kind, "payload": self.payload}
