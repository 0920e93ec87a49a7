"""Every rule set by name: the setup record's ``ruleset`` picks one (docs/game-log.md)."""

from __future__ import annotations

from typing import Any

from service.rules.catacombs3e import Catacombs3E
from service.rules.ruleset import RuleSet


def rulesets() -> dict[str, type[RuleSet[Any, Any]]]:
    """Catacombs 3E (the Catacombs & Castles and Catacombs 1E rule sets register here)."""
    return {Catacombs3E.name: Catacombs3E}
