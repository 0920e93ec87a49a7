"""What the set-up wizard offers at a Catacombs & Castles table: the modes, and each team's heroes, bosses and
warriors, from the shipped cards (each hero, boss and warrior with its team: the page offers a side only its
own team's).

The First Edition adds the side of the board played (catacombs-and-castles-1e-manual.txt: Team Mode Setup,
"Placing The Heroes": the team opposite the board's side goes first, so there is no choice of who starts) and
whether the heroes take Armour Tokens (Armour Tokens); each hero takes the Ability cards its content
recommends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.castles.content import load_castles_content
from service.games.choice import SetupRefused, ids, one_id
from service.games.definition import TableFile

SIDE_KEYS = frozenset({"team", "heroes", "boss", "warriors", "health_tokens", "reinforcement_tokens"})

BOARD_SIDES = [{"id": "castle", "name": "the Castle side"}, {"id": "catacomb", "name": "the Catacomb side"}]


def _listed(records: Any, *fields: str) -> list[dict[str, Any]]:
    return [
        {"id": k, "name": v.name, **{f: getattr(v, f) for f in fields}} for k, v in sorted(records.items())
    ]


def choices_of(ruleset: str) -> dict[str, Any]:
    content = load_castles_content(ruleset)
    return {
        "modes": _listed(content.modes),
        "heroes": _listed(content.heroes, "team", "role"),
        "bosses": _listed(content.bosses, "team"),
        "warriors": _listed(content.warriors, "team"),
    }


def second_edition_choices() -> dict[str, Any]:
    return choices_of("catacombs-and-castles-2e")


def first_edition_choices() -> dict[str, Any]:
    return {**choices_of("catacombs-and-castles-1e"), "board_sides": BOARD_SIDES, "armour_tokens": True}


def second_edition_setup(args: Mapping[str, Any], table: TableFile, games_so_far: int) -> dict[str, Any]:
    """Second Edition: the players choose who goes first (``first``, else at random)."""
    return castles_setup(args, table, games_so_far, chooses_first=True)


def first_edition_setup(args: Mapping[str, Any], table: TableFile, games_so_far: int) -> dict[str, Any]:
    """First Edition: the team opposite the board's side goes first, so there is no ``first``."""
    return castles_setup(args, table, games_so_far, chooses_first=False)


def castles_setup(
    args: Mapping[str, Any], table: TableFile, games_so_far: int, chooses_first: bool
) -> dict[str, Any]:
    """A game of the chosen mode for two sides: its sides, who goes first (where the game lets the players
    choose), the game's length, the board's side and the Armour Tokens (where the game has them)."""
    mode = one_id(args, "mode", "team")
    sides = args.get("sides")
    if not isinstance(sides, list) or len(sides) != 2 or not all(isinstance(s, dict) for s in sides):
        raise SetupRefused(f"sides: expected the two sides, each an object, got {sides!r}")
    payload: dict[str, Any] = {
        "ruleset": table.ruleset,
        "mode": mode,
        **({"first": args.get("first", "random")} if chooses_first else {}),
        "sides": [_castles_side(side, index) for index, side in enumerate(sides)],
    }
    if not isinstance(payload.get("first", ""), str):
        raise SetupRefused(f"first: expected 'random' or a side's id, got {payload['first']!r}")
    if "game_length" in args:
        payload["game_length"] = one_id(args, "game_length", "average")
    if "board_side" in args:
        payload["board_side"] = one_id(args, "board_side", "castle")
    for flag in ("quick_start", "armour_tokens"):
        if flag in args:
            if not isinstance(args[flag], bool):
                raise SetupRefused(f"{flag}: expected true or false, got {args[flag]!r}")
            payload[flag] = args[flag]
    payload["seed"] = table.game.seed + games_so_far
    return payload


def _castles_side(raw: Mapping[str, Any], index: int) -> dict[str, Any]:
    where = f"sides[{index}]."
    unknown = sorted(set(raw) - SIDE_KEYS)
    if unknown:
        raise SetupRefused(
            f"{where[:-1]} does not take {', '.join(map(repr, unknown))} "
            f"(a side takes {', '.join(sorted(SIDE_KEYS))})"
        )
    side: dict[str, Any] = {"team": one_id(raw, "team", "castle", where)}
    if "boss" in raw:
        side["boss"] = one_id(raw, "boss", "xaugorth", where)
        side["warriors"] = ids(raw, "warriors", 1, 3, where)
    else:
        side["heroes"] = ids(raw, "heroes", 1, 4, where)
        if "warriors" in raw:
            raise SetupRefused(f"{where}warriors: only a boss' side has warriors")
    for key in ("health_tokens", "reinforcement_tokens"):
        if key in raw:
            value = raw[key]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 99:
                raise SetupRefused(f"{where}{key}: expected a whole number from 0 to 99, got {value!r}")
            side[key] = value
    return side
