"""The ids a command names → the game's characters, and the free text it records: the checks every game
command shares once its arguments fit the catalogue."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.sensing.tags import TagRegistry
from service.table.commands.catalogue import CommandRefused
from service.table.session import TableSession


def reason_of(args: Mapping[str, Any]) -> str:
    """The free text a command records in the game log: text or nothing, never an object turned to text."""
    value = args.get("reason")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise CommandRefused(f"reason must be text, got {value!r}")
    return value


def id_list(args: Mapping[str, Any], key: str) -> list[str]:
    value = args.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CommandRefused(f"{key} must be a list of character or disc ids")
    return value


def _character_of(session: TableSession, name: str) -> dict[str, str]:
    """Ids a page may send (a character id, or the id of the disc standing for it) → character ids."""
    state = session.character_state()
    return {piece: character for character, piece in session.discs.items()} | {
        c.id: c.id for c in (state.characters if state else ())
    }


def characters_named(
    session: TableSession, args: Mapping[str, Any], key: str, registry: TagRegistry | None = None
) -> list[str]:
    """Character ids for the ids given; discs that stand for no character (a ranged piece, an obstacle) take
    no damage and are left out; anything else unknown is refused."""
    value = id_list(args, key)
    known = _character_of(session, key)
    discs = {entry.piece for entry in registry.pieces} if registry else set()
    unknown = [v for v in value if v not in known and v not in discs]
    if unknown:
        raise CommandRefused(f"{key}: {unknown} are neither characters of this game nor discs of this table")
    return list(dict.fromkeys(known[v] for v in value if v in known))
