"""The campaign leaderboard: one party per table, ranked by how far it got and what it carried.

A party's score is the rooms it cleared, then the party's gold, summed over its signed-off games; the game the
table plays reads both from its published state (``service.games.party_progress``). Progress comes first
because it is what the heroes play for (the Lord's lair is the last room) and it cannot be bought; gold
breaks ties because it is what a party leaves a room with and, in a campaign, what it spends between games.
Then fewer games, then the table, so the order is always the same. The live, unsigned game is shown beside
it and counts for nothing until signed off.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.games import party_progress
from service.hub.model import Tournament


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
            progress = party_progress(state)
            live = {
                "rooms_cleared": progress.rooms_cleared,
                "gold": progress.gold,
                "phase": state.get("phase"),
            }
        rows.append((entrant, rooms, gold, len(results), live))
    rows.sort(key=lambda r: (-r[1], -r[2], r[3], r[0].table))
    return [
        PartyRow(rank, e.id, e.name, e.table or "", rooms, gold, games, live)
        for rank, (e, rooms, gold, games, live) in enumerate(rows, start=1)
    ]
