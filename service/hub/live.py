"""Every table as the hub last heard it (its status, its bridge, its published state, the game it plays) and
how much of each game's log the hub holds; ``TableLive.to_json`` is a row of the pages' overview."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from service.games import party_progress


@dataclass
class GameProgress:
    table: str
    contiguous: int = 0  # every record 1..contiguous is held
    above: set[int] = field(default_factory=set)  # held records past a gap
    head: int = 0  # the newest seq the table says it holds
    last_request: float = -1e9


@dataclass
class TableLive:
    table: str
    status: str = "unknown"  # the daemon: online / offline
    bridge: str = "unknown"  # the link to the hub: up / down
    state: dict[str, Any] | None = None
    game: str | None = None
    heard_at: float = 0.0  # monotonic time of the last message
    setup: dict[str, Any] | None = None  # the setup of the newest game in the table's current log
    setup_seq: int = 0

    def to_json(self, progress: GameProgress | None) -> dict[str, Any]:
        state = self.state or {}
        turn = state.get("turn") or {}
        pending_shot = (state.get("table") or {}).get("pending_shot")
        party = party_progress(state)
        return {
            "table": self.table,
            "status": self.status,
            "bridge": self.bridge,
            "online": self.status == "online" and self.bridge != "down",
            "ruleset": state.get("ruleset"),
            "phase": state.get("phase"),
            "round": state.get("round"),
            "turn": _turn_name(state, turn),
            "outcome": state.get("outcome"),
            "doubtful_shot": pending_shot is not None,
            "paused": bool(state.get("paused")),
            "seq": state.get("seq"),
            "game": self.game,
            "game_start": self.setup_seq or None,
            "setup_match": (self.setup or {}).get("match"),
            "side_ids": [
                side.get("id") for side in (self.setup or {}).get("sides") or [] if isinstance(side, dict)
            ],
            "log_held": progress.contiguous if progress else 0,
            "log_head": progress.head if progress else 0,
            "rooms_cleared": party.rooms_cleared,
            "party_gold": party.gold,
            # A game of two sides: each side's Health Pool, the live score of a match.
            "sides": [
                {"id": side.get("id"), "health": side.get("health")}
                for side in state.get("sides") or []
                if isinstance(side, dict)
            ],
        }


def _turn_name(state: dict[str, Any], turn: dict[str, Any]) -> str | None:
    """Whose turn, in words: the character's printed name where the snapshot has it (docs/state.md)."""
    character = turn.get("character")
    if character:
        for entry in state.get("characters") or []:
            if isinstance(entry, dict) and entry.get("id") == character and entry.get("name"):
                return str(entry["name"])
        return str(character)
    side = turn.get("side")
    return str(side) if side else None
