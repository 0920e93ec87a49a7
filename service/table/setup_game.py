"""The set-up wizard's game: the referee picks the game; the table file gives the rule set, content and seed.
The game's ``wizard_setup`` (its package's ``wizard.py``) turns the choice into its setup record:

- Catacombs 3E: ``setup_game {heroes, lord, rooms?, expansions?}`` (``expansions: ["castles"]`` puts Castles
  heroes in the party; without it, the table file's ``game.expansions``).
- Catacombs 1E: ``setup_game {heroes, lord, rooms?}`` (the four heroes; without rooms the deck is dealt).
- Catacombs & Castles 2E: ``setup_game {mode, sides, first?, game_length?, quick_start?}``, each side
  ``{team, heroes | boss and warriors, health_tokens?, reinforcement_tokens?}`` (the setup record's fields,
  docs/game-log.md); the First Edition takes ``{mode, sides, board_side?, armour_tokens?}`` instead (the team
  opposite the board's side goes first). Each game's ``wizard_arguments`` (service/games/) are what it takes.

Either may come with ``match``: the tournament hub's offer of this table's match, which the referee accepts
(docs/tournaments.md). Each side is then named by its entrant (``id``, ``name``) in the offer's order, and the
setup records the match (``match: {event, round, table}``), so the hub signs off this very game. ``match``
alone sets up the table file's game for the offer's mode.

Either becomes the ``setup`` record of a new game (after a ``new_game`` record when a game is already on the
table). Only the shape is checked here; the rules check the choice before anything is appended, so a refused
choice changes nothing (docs/setup.md).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from service.games import definition_of
from service.games.choice import SetupRefused
from service.games.choice import one_id as _id
from service.table.config import TableConfig

__all__ = ["SetupRefused", "match_offer", "match_table_file_payload", "setup_payload", "with_match"]


def setup_payload(args: Mapping[str, Any], table: TableConfig, games_so_far: int) -> dict[str, Any]:
    """The ``setup`` record for the wizard's choice at this table (not yet checked by the rules): the game's
    own ``wizard_setup`` builds it, once the choice names only the arguments the game takes."""
    game = definition_of(table.ruleset)
    if game.wizard_choices is None or game.wizard_setup is None:
        raise SetupRefused(
            f"the set-up wizard does not set up {game.title} games: this table's game is its table file's "
            "game section"
        )
    unknown = sorted(set(args) - game.wizard_arguments)
    if unknown:
        raise SetupRefused(
            f"a {game.title} game does not take {', '.join(map(repr, unknown))} "
            f"(it takes {', '.join(sorted(game.wizard_arguments))})"
        )
    return game.wizard_setup(args, table, games_so_far)


MATCH_KEYS = frozenset({"event", "format", "mode", "round", "table", "sides"})


def match_offer(raw: Any, table: TableConfig) -> dict[str, Any]:
    """The hub's offer as the referee passed it on, checked: for this table, two named entrants."""
    if not isinstance(raw, Mapping):
        raise SetupRefused(f"match: expected the hub's offer, an object, got {raw!r}")
    unknown = sorted(set(raw) - MATCH_KEYS)
    if unknown:
        raise SetupRefused(f"match does not take {', '.join(map(repr, unknown))}")
    if raw.get("table") != table.table:
        raise SetupRefused(
            f"match: this offer is for table {raw.get('table')!r}; this is table {table.table!r}"
        )
    round_number = raw.get("round")
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise SetupRefused(f"match: 'round' must be a round number, got {round_number!r}")
    mode = _id(raw, "mode", "one-versus-one", "match.")
    sides = raw.get("sides")
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(x, Mapping) for x in sides):
        raise SetupRefused(f"match.sides: expected the two entrants, got {sides!r}")
    entrants = []
    for index, side in enumerate(sides):
        entrant = {"id": _id(side, "id", "ada", f"match.sides[{index}]."), "name": side.get("name")}
        if not isinstance(entrant["name"], str) or not entrant["name"].strip() or len(entrant["name"]) > 80:
            raise SetupRefused(
                f"match.sides[{index}].name: expected the entrant's name, got {side.get('name')!r}"
            )
        entrants.append(entrant)
    if entrants[0]["id"] == entrants[1]["id"]:
        raise SetupRefused("match.sides: the two entrants must differ")
    event = raw.get("event")
    if not isinstance(event, str) or len(event) > 120:
        raise SetupRefused(f"match.event: expected the event's name, got {event!r}")
    return {"event": event, "round": round_number, "table": table.table, "mode": mode, "sides": entrants}


def match_table_file_payload(
    offer: Mapping[str, Any], table: TableConfig, games_so_far: int
) -> dict[str, Any]:
    """The table file's game for the offer's mode (``game.modes``), before the entrants are put in."""
    if not table.game.modes:
        raise SetupRefused(
            "a tournament match is played from the table file's game.modes; this table plays"
            f" {table.ruleset}, whose table file has none"
        )
    chosen = table.game.modes.get(offer["mode"])
    if chosen is None:
        raise SetupRefused(
            f"the table file has no {offer['mode']!r} game in game.modes (it has {sorted(table.game.modes)}):"
            " add one, or choose the heroes in the set-up wizard"
        )
    payload = copy.deepcopy(dict(chosen))
    return {
        "ruleset": table.ruleset,
        "mode": offer["mode"],
        **payload,
        "seed": table.game.seed + games_so_far,
    }


def with_match(payload: dict[str, Any], offer: Mapping[str, Any]) -> dict[str, Any]:
    """A Castles setup whose sides are the offer's entrants, in the offer's order, naming the match."""
    if payload.get("mode") != offer["mode"]:
        raise SetupRefused(f"the match is a {offer['mode']} game; the choice is {payload.get('mode')!r}")
    sides = [dict(side) for side in payload["sides"]]
    old_ids = [side.get("id", side.get("team")) for side in sides]
    for side, entrant in zip(sides, offer["sides"], strict=True):
        side["id"], side["name"] = entrant["id"], entrant["name"]
    first = payload.get("first", "random")
    if first in old_ids:  # the side named to go first, by its team or its old id, keeps going first
        first = sides[old_ids.index(first)]["id"]
    match = {"event": offer["event"], "round": offer["round"], "table": offer["table"]}
    return {**payload, "sides": sides, "first": first, "match": match}
