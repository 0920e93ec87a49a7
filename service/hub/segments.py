"""The games inside a table's log, and which of them is a tournament match's.

A table's event log may hold several games: each begins at a ``setup`` record and ends where the referee's
``new_game`` record closes it (docs/game-log.md). A game started from the hub's match offer carries the match
in its setup (``"match": {"event", "round", "table"}``) and names each side by its entrant's id; a game set up
by hand may still name the sides by entrant id. The hub signs off the match's own game, found here, so a table
that has already started its next game never loses the finished one.

Pure: reads records, writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.eventlog import Record
from service.hub.model import Match


@dataclass(frozen=True)
class Segment:
    game: str  # the log's id (service.hub.shipper.game_id)
    start: int  # the seq of its setup record
    end: int | None  # the last seq of the game, None while it is the log's open game
    setup: dict[str, Any]

    def side_ids(self) -> list[str]:
        return [str(s.get("id")) for s in self.setup.get("sides") or [] if isinstance(s, dict) and "id" in s]

    def match_tag(self) -> dict[str, Any] | None:
        tag = self.setup.get("match")
        return tag if isinstance(tag, dict) else None


def segments(game: str, records: list[Record]) -> list[Segment]:
    """Every game in one log, oldest first."""
    found: list[Segment] = []
    start: int | None = None
    setup: dict[str, Any] = {}
    for record in records:
        if record.kind == "setup":
            if start is not None:  # a setup with no new_game before it: the earlier game ends here
                found.append(Segment(game, start, record.seq - 1, setup))
            start, setup = record.seq, dict(record.payload)
        elif record.kind == "new_game" and start is not None:
            found.append(Segment(game, start, record.seq - 1, setup))
            start, setup = None, {}
    if start is not None:
        found.append(Segment(game, start, None, setup))
    return found


def belongs_to(segment: Segment, match: Match) -> bool:
    """Whether a game is this match's: its setup names the match, or its sides are the two entrants."""
    tag = segment.match_tag()
    if tag is not None:
        return tag.get("round") == match.round and tag.get("table") == match.table
    return match.b is not None and sorted(segment.side_ids()) == sorted([match.a, match.b])


def sides_in_order(segment: Segment, match: Match) -> list[str] | None:
    """The two entrants in the order of the game's sides (the first side first), when the setup names them."""
    ids = segment.side_ids()
    if match.b is not None and sorted(ids) == sorted([match.a, match.b]):
        return ids
    return None
