"""What a Catacombs campaign scores of a table's game, read from its published state (docs/state.md): how far
the party got and what it carried (the hub's campaign leaderboard, service/hub/campaign.py)."""

from __future__ import annotations

from typing import Any

from service.games.definition import PartyProgress


def rooms_cleared(state: dict[str, Any]) -> int:
    """Rooms a party has cleared. The current room counts once its battle is won: in the resolution phase,
    or when the heroes have won the game (the Lord's lair was the last room). A party that falls keeps the
    rooms before that one."""
    room = state.get("room") or {}
    index = room.get("index")
    if not isinstance(index, int):
        return 0
    done = state.get("phase") == "resolution" or state.get("outcome") == "heroes"
    return index + (1 if done else 0)


def party_gold(state: dict[str, Any]) -> int:
    """All the gold the party's heroes carry. ``gold.party`` is what they may pool, which leaves out a Team
    Catacomb hero's own gold (docs/state.md), so the heroes' own gold is summed when the state lists it."""
    heroes = [c for c in state.get("characters") or () if isinstance(c, dict) and c.get("kind") == "hero"]
    held = [c["gold"] for c in heroes if isinstance(c.get("gold"), int)]
    if held:
        return sum(held)
    gold = (state.get("gold") or {}).get("party")
    return gold if isinstance(gold, int) else 0


def party_progress(state: dict[str, Any]) -> PartyProgress:
    """The rooms cleared and the party's gold, as a campaign scores a game."""
    return PartyProgress(rooms_cleared=rooms_cleared(state), gold=party_gold(state))
