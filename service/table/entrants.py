"""A tournament match's sides by their entrants' names: the hub's offer, put in the setup record by
``setup_game`` (docs/tournaments.md), shown wherever the game names a side (docs/state.md: sides)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol


class _Record(Protocol):
    @property
    def kind(self) -> str: ...

    @property
    def payload(self) -> dict[str, Any]: ...


def entrants_of(rules_records: Iterable[_Record]) -> dict[str, str]:
    """Side id → entrant name, from the game's setup record; empty for a game that is not a match."""
    setup = next((r for r in rules_records if r.kind == "setup"), None)
    if setup is None or not setup.payload.get("match"):
        return {}
    sides = setup.payload.get("sides") or []
    return {
        str(side["id"]): str(side["name"])
        for side in sides
        if isinstance(side, Mapping) and side.get("id") and isinstance(side.get("name"), str)
    }


def name_sides(view: dict[str, Any], entrants: Mapping[str, str]) -> None:
    """A match's sides carry their entrant's name as ``player``."""
    for side in view.get("sides") or []:
        if isinstance(side, dict) and side.get("id") in entrants:
            side["player"] = entrants[side["id"]]
