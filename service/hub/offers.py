"""What the hub offers each table when a round is paired: the match it plays, for its referee to accept.

The offer is published retained on ``smartmat/<t>/match`` (the central broker keeps it; the table's bridge
carries it in, docs/tournaments.md) as::

    {"event", "format", "mode", "round", "table",
     "sides": [{"id", "name", "members"?}, {"id", "name", "members"?}]}

``sides`` is in the order of the game's sides: the first entrant plays the table's first side (Match.a,
"white" in the TRF). ``mode`` is the table file's mode the format plays, as the game offering the format
declares it (``TournamentFormat.mode``). An offer is only an offer:
nothing reaches the table's game until its referee starts the match (the set-up wizard's ``setup_game``
with ``match``), and the game's setup then carries ``match`` and names each side by its entrant.

Pure: reads the tournament, writes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from service.hub.model import Tournament


def match_offers(tournament: Tournament) -> dict[str, dict[str, Any] | None]:
    """Per table: the offer of the current round's match there, or None for a table that played in an
    earlier round and has no match now (its old offer is withdrawn)."""
    format_ = tournament.format_of()
    if not tournament.is_swiss or format_ is None or format_.mode is None or not tournament.rounds:
        return {}
    offers: dict[str, dict[str, Any] | None] = {
        m.table: None for matches in tournament.rounds for m in matches if m.b is not None
    }
    for match in tournament.rounds[-1]:
        if match.b is None:
            continue
        offers[match.table] = {
            "event": tournament.name,
            "format": tournament.format,
            "mode": format_.mode,
            "round": match.round,
            "table": match.table,
            "sides": [_side(tournament, match.a), _side(tournament, match.b)],
        }
    return offers


def _side(tournament: Tournament, entrant_id: str) -> dict[str, Any]:
    entrant = tournament.entrants[entrant_id]
    side: dict[str, Any] = {"id": entrant.id, "name": entrant.name}
    if entrant.members:
        side["members"] = list(entrant.members)
    return side


def encode(offer: dict[str, Any] | None) -> bytes:
    """The retained payload; an empty one withdraws an offer (MQTT clears a retained topic so)."""
    if offer is None:
        return b""
    return json.dumps(offer, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
