"""The set-up wizard's game: the referee picks the game; the table file gives the rule set, content and seed.

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
import re
from collections.abc import Mapping
from typing import Any

from service.games import definition_of
from service.table.config import TableConfig

CASTLES_SIDE_KEYS = frozenset({"team", "heroes", "boss", "warriors", "health_tokens", "reinforcement_tokens"})
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class SetupRefused(ValueError):
    """A choice the wizard sent that cannot be a game's setup; says which argument and why."""


def _ids(args: Mapping[str, Any], key: str, low: int, high: int, where: str = "") -> list[str]:
    value = args.get(key)
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise SetupRefused(f"{where}{key}: expected a list of {low} to {high} ids, got {value!r}")
    if not all(isinstance(v, str) and _ID.match(v) for v in value) or len(set(value)) != len(value):
        raise SetupRefused(f"{where}{key}: expected distinct ids like 'xoric', got {value!r}")
    return list(value)


def _id(args: Mapping[str, Any], key: str, example: str, where: str = "") -> str:
    value = args.get(key)
    if not isinstance(value, str) or not _ID.match(value):
        raise SetupRefused(f"{where}{key}: expected an id like {example!r}, got {value!r}")
    return value


def setup_payload(args: Mapping[str, Any], table: TableConfig, games_so_far: int) -> dict[str, Any]:
    """The ``setup`` record for the wizard's choice at this table (not yet checked by the rules)."""
    game = definition_of(table.ruleset)
    if game.wizard_choices is None:
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
    if table.game.modes:
        return castles_setup_payload(args, table, games_so_far)
    heroes = _ids(args, "heroes", 1, 4)
    lord = args.get("lord")
    if not isinstance(lord, str) or not _ID.match(lord):
        raise SetupRefused(f"lord: expected a Catacomb Lord's id like 'vasesak-the-sorcerer', got {lord!r}")
    rooms = _ids(args, "rooms", 1, 12) if args.get("rooms") else []
    # The table's expansions unless the choice names its own (castles: the Castles heroes in the party).
    expansions = _ids(args, "expansions", 0, 4) if "expansions" in args else list(table.game.expansions)
    return {
        "ruleset": table.ruleset,
        "heroes": heroes,
        "lord": lord,
        "rooms": rooms,
        "seed": table.game.seed + games_so_far,
        "content": table.game.content,
        **({"settings": dict(table.game.settings)} if table.game.settings else {}),
        **({"expansions": expansions} if expansions else {}),
    }


def castles_setup_payload(args: Mapping[str, Any], table: TableConfig, games_so_far: int) -> dict[str, Any]:
    """A game of the chosen mode for two sides: its sides, who goes first (where the game lets the players
    choose), the game's length, the board's side and the Armour Tokens (where the game has them)."""
    takes = definition_of(table.ruleset).wizard_arguments
    mode = _id(args, "mode", "team")
    sides = args.get("sides")
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(s, dict) for s in sides):
        raise SetupRefused(f"sides: expected the two sides, each an object, got {sides!r}")
    payload: dict[str, Any] = {
        "ruleset": table.ruleset,
        "mode": mode,
        **({"first": args.get("first", "random")} if "first" in takes else {}),
        "sides": [_castles_side(side, index) for index, side in enumerate(sides)],
    }
    if not isinstance(payload.get("first", ""), str):
        raise SetupRefused(f"first: expected 'random' or a side's id, got {payload['first']!r}")
    if "game_length" in args:
        payload["game_length"] = _id(args, "game_length", "average")
    if "board_side" in args:
        payload["board_side"] = _id(args, "board_side", "castle")
    for flag in ("quick_start", "armour_tokens"):
        if flag in args:
            if not isinstance(args[flag], bool):
                raise SetupRefused(f"{flag}: expected true or false, got {args[flag]!r}")
            payload[flag] = args[flag]
    payload["seed"] = table.game.seed + games_so_far
    return payload


def _castles_side(raw: Mapping[str, Any], index: int) -> dict[str, Any]:
    where = f"sides[{index}]."
    unknown = sorted(set(raw) - CASTLES_SIDE_KEYS)
    if unknown:
        raise SetupRefused(
            f"{where[:-1]} does not take {', '.join(map(repr, unknown))} "
            f"(a side takes {', '.join(sorted(CASTLES_SIDE_KEYS))})"
        )
    side: dict[str, Any] = {"team": _id(raw, "team", "castle", where)}
    if "boss" in raw:
        side["boss"] = _id(raw, "boss", "xaugorth", where)
        side["warriors"] = _ids(raw, "warriors", 1, 3, where)
    else:
        side["heroes"] = _ids(raw, "heroes", 1, 4, where)
        if "warriors" in raw:
            raise SetupRefused(f"{where}warriors: only a boss' side has warriors")
    for key in ("health_tokens", "reinforcement_tokens"):
        if key in raw:
            value = raw[key]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
                raise SetupRefused(f"{where}{key}: expected a whole number from 0 to 99, got {value!r}")
            side[key] = value
    return side


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
            f"a tournament match is a Catacombs & Castles game; this table plays {table.ruleset}"
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
