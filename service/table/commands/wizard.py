"""The set-up wizard's commands that the table answers itself: a game chosen on the page, a tracker placed.

Pure: reads the table file and the session, writes nothing. Like :mod:`service.table.commands`, each command
becomes the records to append; the daemon checks each against the session, appends and applies it
(docs/setup.md).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from service.gamelog.context import game_context
from service.gamelog.replay import new_game_from_setup
from service.sensing.tags import TableConfigError
from service.table.commands.catalogue import CommandRefused, Record
from service.table.config import TableConfig
from service.table.games import table_game
from service.table.session import TableSession
from service.table.setup_game import (
    SetupRefused,
    match_offer,
    match_table_file_payload,
    setup_payload,
    with_match,
)
from service.table.trackers import TrackerConfig, load_trackers

log = logging.getLogger(__name__)


def table_file_setup(table: TableConfig, games_so_far: int) -> dict[str, Any]:
    """The table file's game, as its rule set sets one up (service/table/games.py); each game of the log
    draws its own dice: the table's seed, then the next, and so on."""
    payload = table_game(table.ruleset).setup_payload(table, games_so_far)
    payload["context"] = game_context(payload)  # what the game is played with (docs/game-log.md)
    return payload


def setup_game(args: Mapping[str, Any], table: TableConfig, session: TableSession) -> list[Record]:
    """The set-up wizard's game (Catacombs 3E, or a Castles 2E mode), or the tournament match the referee
    accepted (``match``: alone, the table file's game for its mode): checked by the rules first, then the
    old game closed, the new begun."""
    choice = dict(args)
    try:
        offer = match_offer(choice.pop("match"), table) if "match" in choice else None
        if offer is not None and not choice:
            payload = match_table_file_payload(offer, table, session.games)
        else:
            payload = setup_payload(choice, table, session.games)
        if offer is not None:
            payload = with_match(payload, offer)
    except SetupRefused as exc:
        raise CommandRefused(str(exc)) from None
    payload["context"] = game_context(payload)  # what the game is played with (docs/game-log.md)
    new_game_from_setup(dict(payload))  # a SetupError names what is wrong before anything is logged
    closing: list[Record] = []
    if session.state is not None:
        why = (
            "the referee starts the tournament's match"
            if "match" in payload
            else "the set-up wizard starts a new game"
        )
        closing.append(("new_game", {"reason": why}))
    return [*closing, ("setup", payload)]


def assign_tracker(
    args: Mapping[str, Any], trackers: Sequence[TrackerConfig], session: TableSession
) -> list[Record]:
    """The set-up wizard puts an LED tracker beside a character's board (or switches it off: null); its
    arguments are checked against the catalogue first."""
    tracker, character = args.get("tracker"), args.get("character")
    if tracker not in {t.id for t in trackers}:
        known = ", ".join(t.id for t in trackers) or "none in the table file"
        raise CommandRefused(f"no tracker {tracker!r} at this table (trackers: {known})")
    state = session.character_state()
    if character is not None and (state is None or state.find(str(character)) is None):
        raise CommandRefused(f"no character {character!r} in this game")
    return [("assign_tracker", {"tracker": tracker, "character": character})]


def wizard_records(
    name: str,
    args: Mapping[str, Any],
    table: TableConfig,
    trackers: Sequence[TrackerConfig],
    session: TableSession,
) -> list[Record]:
    """The records for one of the set-up wizard's commands (``handled_by="wizard"`` in the catalogue)."""
    if name == "setup_game":
        return setup_game(args, table, session)
    if name == "assign_tracker":
        return assign_tracker(args, trackers, session)
    raise CommandRefused(f"{name} is not a command of the set-up wizard")


WIZARD_COMMANDS = ("setup_game", "assign_tracker")  # what wizard_records answers (tests/table compare)


def tracker_assignments(trackers: Sequence[TrackerConfig], session: TableSession) -> dict[str, str | None]:
    """Tracker id -> the character it stands beside: the table file's, then the referee's choices."""
    chosen = {t.id: t.character for t in trackers}
    chosen.update({k: v for k, v in session.tracker_assignments.items() if k in chosen})
    return chosen


def tracker_view(trackers: Sequence[TrackerConfig], session: TableSession, snapshot: dict[str, Any]) -> None:
    """Add the trackers to a ``state`` snapshot: the wizard's list, and on each character the trackers
    beside it (the WLED bridge follows this: each tracker shows the character that lists it)."""
    beside = tracker_assignments(trackers, session)
    snapshot["trackers"] = [
        {"id": t.id, "kind": t.kind, "character": beside[t.id], "topic": t.topic} for t in trackers
    ]
    for character in snapshot.get("characters", []) if trackers else ():
        character["trackers"] = sorted(t for t, c in beside.items() if c == character["id"])


def table_trackers(table: TableConfig) -> tuple[TrackerConfig, ...]:
    """The table file's LED trackers, for the set-up wizard; a broken list is logged, never fatal here."""
    try:
        return load_trackers(table.path)
    except TableConfigError as exc:
        log.error("the table's trackers cannot be read: %s", exc)
        return ()
