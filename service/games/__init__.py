"""Every game the table plays, by name: the setup record's ``ruleset`` picks one (docs/game-log.md).

``DEFINITIONS`` is the registry: each game package's ``definition.py`` builds one ``GameDefinition`` per rule
set, and this file lists them, the first being the default. ``find_game(name)`` finds a rule set, as
python-chess's ``find_variant``; ``definition_of(name)`` finds everything else the product needs of it.
Nothing outside ``service/games/`` names a game (docs/architecture.md, "Adding a game").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from service.games.castles import definition as castles
from service.games.catacombs import definition as catacombs
from service.games.content_report import ContentCheck
from service.games.definition import CAMPAIGN, SWISS, GameDefinition, PartyProgress, TournamentFormat
from service.games.loading import ContentLoader, SetupContentError, SetupError
from service.rules.ruleset import RuleSet

# The registry: one line per rule set; the first is the game a setup or table file without ``ruleset`` plays.
DEFINITIONS: list[GameDefinition] = [
    catacombs.THIRD_EDITION,
    castles.SECOND_EDITION,
    castles.FIRST_EDITION,
    catacombs.FIRST_EDITION,
]

GAMES: tuple[type[RuleSet[Any, Any]], ...] = tuple(game.ruleset for game in DEFINITIONS)
"""The shipped rule sets, in the registry's order."""

DEFAULT_RULESET = DEFINITIONS[0].name
"""The rule set a setup record or table file without ``ruleset`` plays."""


def definitions() -> tuple[GameDefinition, ...]:
    """Every registered game, in the registry's order."""
    return tuple(DEFINITIONS)


def definition_of(name: str) -> GameDefinition:
    """The game whose rule set is named ``name``; ValueError names the known ones."""
    for game in DEFINITIONS:
        if game.name == name:
            return game
    raise ValueError(f"unknown rule set {name!r}; known: {sorted(game.name for game in DEFINITIONS)}")


def find_game(name: str) -> type[RuleSet[Any, Any]]:
    """The rule set named ``name`` (a setup record's ``ruleset``); ValueError names the known ones."""
    return definition_of(name).ruleset


def content_loader(name: str) -> ContentLoader:
    """The content loader of the rule set named ``name``; ValueError names the known ones."""
    return definition_of(name).content


def content_check(name: str) -> ContentCheck:
    """The content check of the rule set named ``name``; ValueError names the known ones."""
    return definition_of(name).content_check


def rulesets() -> dict[str, type[RuleSet[Any, Any]]]:
    """Every registered rule set by name."""
    return {game.name: game.ruleset for game in DEFINITIONS}


def game_names() -> tuple[str, ...]:
    """Every registered rule set's name, in the registry's order."""
    return tuple(game.name for game in DEFINITIONS)


def tournament_formats() -> dict[str, TournamentFormat]:
    """Every registered game's tournament formats by name, in the registry's order (``smartmat hub new``)."""
    found: dict[str, TournamentFormat] = {}
    for game in DEFINITIONS:
        for format_ in game.tournament_formats:
            if format_.name in found:
                raise ValueError(f"two games offer a tournament format named {format_.name!r}")
            found[format_.name] = format_
    return found


def tournament_format(name: str) -> TournamentFormat:
    """The tournament format named ``name``; ValueError names the known ones."""
    formats = tournament_formats()
    if name not in formats:
        raise ValueError(f"unknown tournament format {name!r}; known: {', '.join(formats)}")
    return formats[name]


def party_progress(state: dict[str, Any]) -> PartyProgress:
    """A table's published state as a campaign scores it, read by the game its ``ruleset`` names; nothing
    (no rooms, no gold) for a game that keeps no party, or a state that names no game this build knows."""
    ruleset = state.get("ruleset")
    game = next((g for g in DEFINITIONS if g.name == ruleset), None)
    if game is None or game.party_progress is None:
        return PartyProgress()
    return game.party_progress(state)


@contextmanager
def registered(game: GameDefinition) -> Iterator[GameDefinition]:
    """``game`` registered for the duration (a game outside the shipped package, as a test's toy game)."""
    if game.name in game_names():
        raise ValueError(f"a game named {game.name!r} is registered already")
    DEFINITIONS.append(game)
    try:
        yield game
    finally:
        DEFINITIONS.remove(game)


__all__ = [
    "CAMPAIGN",
    "DEFAULT_RULESET",
    "DEFINITIONS",
    "GAMES",
    "GameDefinition",
    "PartyProgress",
    "SWISS",
    "SetupContentError",
    "SetupError",
    "content_check",
    "content_loader",
    "definition_of",
    "definitions",
    "find_game",
    "game_names",
    "registered",
    "party_progress",
    "rulesets",
    "tournament_format",
    "tournament_formats",
    "TournamentFormat",
]
