"""Every rule set by name: the setup record's ``ruleset`` picks one (docs/game-log.md)."""

from __future__ import annotations

from typing import Any

from service.rules.castles.ruleset import CastlesSecondEdition
from service.rules.catacombs3e import Catacombs3E
from service.rules.ruleset import RuleSet


def rulesets() -> dict[str, type[RuleSet[Any, Any]]]:
    """Catacombs 3E and Catacombs & Castles 2E (the 1E rule sets will register here)."""
    return {Catacombs3E.name: Catacombs3E, CastlesSecondEdition.name: CastlesSecondEdition}
