"""A set-up wizard's choice, checked for its shape before a game turns it into a setup record: ids and lists
of ids, refused naming the argument (service/table/setup_game.py hands each game its choice)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class SetupRefused(ValueError):
    """A choice the wizard sent that cannot be a game's setup; says which argument and why."""


def ids(args: Mapping[str, Any], key: str, low: int, high: int, where: str = "") -> list[str]:
    """``args[key]``: from ``low`` to ``high`` distinct ids."""
    value = args.get(key)
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise SetupRefused(f"{where}{key}: expected a list of {low} to {high} ids, got {value!r}")
    if not all(isinstance(v, str) and ID.match(v) for v in value) or len(set(value)) != len(value):
        raise SetupRefused(f"{where}{key}: expected distinct ids like 'xoric', got {value!r}")
    return list(value)


def one_id(args: Mapping[str, Any], key: str, example: str, where: str = "") -> str:
    """``args[key]``: one id (``example`` shows one in the refusal)."""
    value = args.get(key)
    if not isinstance(value, str) or not ID.match(value):
        raise SetupRefused(f"{where}{key}: expected an id like {example!r}, got {value!r}")
    return value
