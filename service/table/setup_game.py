"""The set-up wizard's game: the referee picks the game; the table file gives the rule set, content and seed.

- Catacombs 3E: ``setup_game {heroes, lord, rooms?, expansions?}`` (``expansions: ["castles"]`` puts Castles
  heroes in the party; without it, the table file's ``game.expansions``).
- Catacombs & Castles 2E: ``setup_game {mode, sides, first?, game_length?, quick_start?}``, each side
  ``{team, heroes | boss and warriors, health_tokens?, reinforcement_tokens?}`` (the setup record's fields,
  docs/game-log.md).

Either becomes the ``setup`` record of a new game (after a ``new_game`` record when a game is already on the
table). Only the shape is checked here; the rules check the choice before anything is appended, so a refused
choice changes nothing (docs/setup.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from service.table.config import TableConfig

ARGUMENTS = frozenset({"heroes", "lord", "rooms", "expansions"})
CASTLES_ARGUMENTS = frozenset({"mode", "sides", "first", "game_length", "quick_start"})
CASTLES_SIDE_KEYS = frozenset({"team", "heroes", "boss", "warriors", "health_tokens", "reinforcement_tokens"})
# The rule sets whose games the wizard sets up from a choice (Castles 1E also needs abilities and board sides:
# its games come from the table file).
WIZARD_CASTLES_RULESETS = frozenset({"catacombs-and-castles-2e"})
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
    if table.game.modes:
        return castles_setup_payload(args, table, games_so_far)
    unknown = sorted(set(args) - ARGUMENTS)
    if unknown:
        raise SetupRefused(
            f"setup_game does not take {', '.join(map(repr, unknown))} (it takes heroes, lord, rooms, "
            "expansions)"
        )
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
    """A Catacombs & Castles 2E game of the chosen mode: its two sides, who goes first, the game's length."""
    if table.ruleset not in WIZARD_CASTLES_RULESETS:
        raise SetupRefused(
            f"the set-up wizard chooses Catacombs 3E and Catacombs & Castles 2E games; this table plays "
            f"{table.ruleset}, whose game is the table file's game.modes (smartmat run --mode picks one)"
        )
    unknown = sorted(set(args) - CASTLES_ARGUMENTS)
    if unknown:
        raise SetupRefused(
            f"this table plays {table.ruleset}: setup_game does not take {', '.join(map(repr, unknown))} "
            f"(it takes {', '.join(sorted(CASTLES_ARGUMENTS))})"
        )
    mode = _id(args, "mode", "team")
    sides = args.get("sides")
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(s, dict) for s in sides):
        raise SetupRefused(f"sides: expected the two sides, each an object, got {sides!r}")
    payload: dict[str, Any] = {
        "ruleset": table.ruleset,
        "mode": mode,
        "first": args.get("first", "random"),
        "sides": [_castles_side(side, index) for index, side in enumerate(sides)],
    }
    if not isinstance(payload["first"], str):
        raise SetupRefused(f"first: expected 'random' or a side's id, got {payload['first']!r}")
    if "game_length" in args:
        payload["game_length"] = _id(args, "game_length", "average")
    if "quick_start" in args:
        if not isinstance(args["quick_start"], bool):
            raise SetupRefused(f"quick_start: expected true or false, got {args['quick_start']!r}")
        payload["quick_start"] = args["quick_start"]
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
