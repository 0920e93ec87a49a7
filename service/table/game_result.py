"""How a finished game ended, in the words the table's pages and the hub show (docs/state.md: result), and
how many Room cards are left: read from the rules state, duck-typed so every game's state will do; a game
that tells its end its own way gives ``game_result`` in its definition."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.games import definition_of, game_names
from service.rules.ruleset import RulesState
from service.table.wording import side_result_headline


def rooms_left(state: RulesState | None) -> int | None:
    """Room cards still face down (the deck's height, not its cards); None for a game without rooms."""
    deck = getattr(state, "room_deck", None)
    if state is None or deck is None:
        return None
    return max(0, len(deck) - int(getattr(state, "room_index", 0)) - 1)


def game_result(state: RulesState | None, entrants: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """How a finished game ended, for people: who won, the gold, the rooms cleared, one sentence.

    A game that tells its end its own way says so in its definition (``game_result``: a party's rooms and
    gold); any other is won by a side, named by its team, or in a tournament match by its entrant
    (``entrants``: side id → name)."""
    if state is None or getattr(state, "outcome", None) is None:
        return None
    told = _told_by_its_game(state)
    if told is not None:
        return told(state)
    return _side_result(state, entrants or {})


def _told_by_its_game(state: RulesState) -> Callable[[Any], dict[str, Any]] | None:
    ruleset = getattr(state, "ruleset", None)
    return definition_of(ruleset).game_result if ruleset in game_names() else None


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
