"""The set-up wizard's game: the referee picks the heroes, the Lord and the rooms; the table file the rest.

``setup_game {heroes, lord, rooms?}`` becomes the ``setup`` record of a new game (after a ``new_game``
record when a game is already on the table), with the table file's rule set, content and seed. The choice is
checked by the rules before anything is appended, so a refused choice changes nothing (docs/setup.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from service.table_config import TableConfig

ARGUMENTS = frozenset({"heroes", "lord", "rooms"})
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class SetupRefused(ValueError):
    """A choice the wizard sent that cannot be a game's setup; says which argument and why."""


def _ids(args: Mapping[str, Any], key: str, low: int, high: int) -> list[str]:
    value = args.get(key)
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise SetupRefused(f"{key}: expected a list of {low} to {high} ids, got {value!r}")
    if not all(isinstance(v, str) and _ID.match(v) for v in value) or len(set(value)) != len(value):
        raise SetupRefused(f"{key}: expected distinct ids like 'xoric', got {value!r}")
    return list(value)


def setup_payload(args: Mapping[str, Any], table: TableConfig, games_so_far: int) -> dict[str, Any]:
    """The ``setup`` record for the wizard's choice (not yet checked by the rules)."""
    unknown = sorted(set(args) - ARGUMENTS)
    if unknown:
        raise SetupRefused(
            f"setup_game does not take {', '.join(map(repr, unknown))} (it takes heroes, lord, rooms)"
        )
    heroes = _ids(args, "heroes", 1, 4)
    lord = args.get("lord")
    if not isinstance(lord, str) or not _ID.match(lord):
        raise SetupRefused(f"lord: expected a Catacomb Lord's id like 'vasesak-the-sorcerer', got {lord!r}")
    rooms = _ids(args, "rooms", 1, 12) if args.get("rooms") else []
    return {
        "ruleset": table.ruleset,
        "heroes": heroes,
        "lord": lord,
        "rooms": rooms,
        "seed": table.game.seed + games_so_far,
        "content": table.game.content,
        **({"settings": dict(table.game.settings)} if table.game.settings else {}),
    }
