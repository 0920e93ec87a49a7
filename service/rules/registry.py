"""Every rule set by name: the setup record's ``ruleset`` picks one (docs/game-log.md)."""

from __future__ import annotations

from typing import Any

from service.rules.castles.first_edition import CastlesFirstEdition
from service.rules.castles.ruleset import CastlesSecondEdition
from service.rules.catacombs1e import Catacombs1E
from service.rules.catacombs3e import Catacombs3E
from service.rules.ruleset import RuleSet


def rulesets() -> dict[str, type[RuleSet[Any, Any]]]:
    """Catacombs 3E and 1E, Catacombs & Castles 2E and 1E."""
    return {
        Catacombs3E.name: Catacombs3E,
        CastlesSecondEdition.name: CastlesSecondEdition,
        CastlesFirstEdition.name: CastlesFirstEdition,
        Catacombs1E.name: Catacombs1E,
    }
