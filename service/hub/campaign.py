"""The Catacombs 3E campaign leaderboard: one party per table, ranked by how far it got and what it carried.

A party's score is the rooms it cleared, then the party's gold, summed over its signed-off games. Progress
comes first because it is what the heroes play for (the Catacomb Lord's lair is the last room) and it
cannot be bought; gold breaks ties because it is what a party leaves a room with and, in the campaign,
what it spends at the Tavern and the shops between games. Then fewer games, then the table, so the order
is always the same. The live, unsigned game is shown beside it and counts for nothing until signed off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.hub.model import Tournament


def rooms_cleared(state: dict[str, Any]) -> int:
    """Rooms a party has cleared, read from a table's published state (docs/state.md).

    The current room counts once its battle is won: in the resolution phase, or when the heroes have won
    the game (the Lord's lair was the last room). A party that falls keeps the rooms before that one."""
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


@dataclass(frozen=True)
class PartyRow:
    rank: int
    entrant: str
    name: str
    table: str
    rooms_cleared: int
    gold: int
    games: int
    live: dict[str, Any] | None  # the unsigned game in progress: rooms, gold, phase

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "name": self.name,
            "table": self.table,
            "rooms_cleared": self.rooms_cleared,
            "gold": self.gold,
            "games": self.games,
            "live": self.live,
        }


def leaderboard(tournament: Tournament, live_states: dict[str, dict[str, Any]]) -> list[PartyRow]:
    rows = []
    for entrant in tournament.entrants.values():
        if entrant.table is None:
            continue
        results = [r for (_, table), r in tournament.results.items() if table == entrant.table]
        rooms = sum(r.rooms_cleared or 0 for r in results)
        gold = sum(r.gold or 0 for r in results)
        state = live_states.get(entrant.table)
        live = None
        if state is not None:
            live = {
                "rooms_cleared": rooms_cleared(state),
                "gold": party_gold(state),
                "phase": state.get("phase"),
            }
        rows.append((entrant, rooms, gold, len(results), live))
    rows.sort(key=lambda r: (-r[1], -r[2], r[3], r[0].table))
    return [
        PartyRow(rank, e.id, e.name, e.table or "", rooms, gold, games, live)
        for rank, (e, rooms, gold, games, live) in enumerate(rows, start=1)
    ]
