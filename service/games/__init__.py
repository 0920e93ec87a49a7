"""Every game the table plays, by name: the setup record's ``ruleset`` picks one (docs/game-log.md).

``GAMES`` lists the rule sets and ``find_game(name)`` finds one, as python-chess's ``VARIANTS`` and
``find_variant``. Each game is one package beside this file (docs/architecture.md, "Adding a fifth game").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.castles.content_check import castles_check
from service.games.castles.first_edition.ruleset import CastlesFirstEdition
from service.games.castles.loading import castles_content
from service.games.castles.second_edition.ruleset import CastlesSecondEdition
from service.games.catacombs.content_check import first_edition_check, third_edition_check
from service.games.catacombs.first_edition.ruleset import Catacombs1E
from service.games.catacombs.loading import first_edition_content, third_edition_content
from service.games.catacombs.third_edition.ruleset import Catacombs3E
from service.games.content_report import ContentCheck
from service.games.loading import ContentLoader, SetupContentError
from service.rules.ruleset import RuleSet

GAMES: tuple[type[RuleSet[Any, Any]], ...] = (
    Catacombs3E,
    CastlesSecondEdition,
    CastlesFirstEdition,
    Catacombs1E,
)


CONTENT: Mapping[str, ContentLoader] = {
    Catacombs3E.name: third_edition_content,
    CastlesSecondEdition.name: castles_content,
    CastlesFirstEdition.name: castles_content,
    Catacombs1E.name: first_edition_content,
}
"""Each game's content loader: a setup record (and the registered fixture card sets) to the cards its rules
read; it raises ``SetupContentError`` naming what is wrong."""

CONTENT_CHECKS: Mapping[str, ContentCheck] = {
    Catacombs3E.name: third_edition_check,
    CastlesSecondEdition.name: castles_check,
    CastlesFirstEdition.name: castles_check,
    Catacombs1E.name: first_edition_check,
}
"""Each game's ``smartmat content check``: its cards validated and summarised (``content_cli.py``)."""


def find_game(name: str) -> type[RuleSet[Any, Any]]:
    """The rule set named ``name`` (a setup record's ``ruleset``); ValueError names the known ones."""
    for game in GAMES:
        if game.name == name:
            return game
    raise ValueError(f"unknown rule set {name!r}; known: {sorted(game.name for game in GAMES)}")


def content_loader(name: str) -> ContentLoader:
    """The content loader of the rule set named ``name``; ValueError names the known ones."""
    return CONTENT[find_game(name).name]


def rulesets() -> dict[str, type[RuleSet[Any, Any]]]:
    """Catacombs 3E and 1E, Catacombs & Castles 2E and 1E, by name."""
    return {game.name: game for game in GAMES}


__all__ = [
    "CONTENT",
    "CONTENT_CHECKS",
    "GAMES",
    "SetupContentError",
    "content_loader",
    "find_game",
    "rulesets",
]
