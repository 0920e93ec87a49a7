"""How a finished game ended, in the words the table's pages and the hub show (docs/state.md: result), and
how many Room cards are left: read from the rules state, duck-typed so every game's state will do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.table.wording import side_result_headline


def rooms_left(state: Any) -> int | None:
    """Room cards still face down (the deck's height, not its cards); None for a game without rooms."""
    deck = getattr(state, "room_deck", None)
    if state is None or deck is None:
        return None
    return max(0, len(deck) - int(state.room_index) - 1)


def game_result(state: Any, entrants: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """How a finished game ended, for people: who won, the gold, the rooms cleared, one sentence.

    Duck-typed on the rule set's state: a Catacombs game has rooms and a party's gold; a game without rooms
    (Catacombs & Castles) is won by a side, named by its team, or in a tournament match by its entrant
    (``entrants``: side id → name)."""
    if state is None or getattr(state, "outcome", None) is None:
        return None
    if getattr(state, "room_deck", None) is None:
        return _side_result(state, entrants or {})
    entered = state.room_index + 1
    # The heroes win by destroying the Lord in its Lair or by coming through the last room; either way every
    # room they entered is behind them. A defeat happens inside a room the party did not clear.
    cleared = entered if state.outcome == "heroes" else max(0, entered - 1)
    heroes = [c for c in state.characters if c.kind == "hero"]
    alive = [c.name for c in heroes if c.alive]
    gold = state.party_gold
    rooms = f"{cleared} room{'s' if cleared != 1 else ''}"
    if state.outcome == "heroes":
        headline = "The heroes win"
        standing = f"{len(alive)} of {len(heroes)} heroes stand"
        summary = f"The party cleared {rooms} and carried out {gold} gold; {standing}."
    else:
        headline = "The Overseer wins"
        where = state.room_name or "the catacomb"
        summary = f"The party fell in {where} after clearing {rooms}, with {gold} gold."
    return {
        "winner": state.outcome,
        "headline": headline,
        "summary": summary,
        "gold": gold,
        "rooms_cleared": cleared,
        "rooms_total": len(state.room_deck),
        "heroes_standing": alive,
    }


def _side_result(state: Any, entrants: Mapping[str, str]) -> dict[str, Any]:
    winner = str(state.outcome)
    side = next((s for s in getattr(state, "sides", ()) if getattr(s, "id", None) == winner), None)
    sides = [
        {"id": s.id, "team": getattr(s, "team", None), "player": entrants.get(s.id)}
        for s in getattr(state, "sides", ())
    ]
    headline = side_result_headline(winner, sides if side is not None else [{"id": winner, "team": winner}])
    rounds = getattr(state, "round", None)
    summary = headline + (f" in round {rounds}." if rounds else ".")
    return {
        "winner": winner,
        "headline": headline,
        "summary": summary,
        "gold": None,
        "rooms_cleared": None,
        "rooms_total": None,
        "heroes_standing": [],
    }
