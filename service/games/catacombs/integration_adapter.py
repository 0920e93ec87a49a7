"""A 3E game with the Castles cards (the ``castles`` expansion): the 3E rules content plus the Castles facts
(catacombs-and-castles-2e-manual.md: Catacombs 3E Integration) read from the loaded content's records."""

from __future__ import annotations

from typing import Any

from service.games.catacombs.adapter import rules_content
from service.games.catacombs.third_edition.expansions.castles_integration import (
    CastlesFacts,
    IntegratedContent,
)

EXPANSION = "castles"


def integrated_content(content: Any) -> IntegratedContent:
    """The rules' view of ``load_content("catacombs-3e", expansions=(..., "castles"))``."""
    facts = CastlesFacts(
        teams={h.id: h.team for h in content.heroes.values() if h.team},
        hero_types={h.id: h.hero_type for h in content.heroes.values() if h.hero_type},
        dark_spells=frozenset(s.id for s in content.spells.values() if s.dark),
        attributes={h.id: tuple(h.attributes) for h in content.heroes.values() if h.attributes},
        playmats={p.id: tuple(p.zones) for p in content.playmats.values() if p.set == EXPANSION},
    )
    return IntegratedContent(rules_content(content), facts)
