"""The Catacombs table settings: rulings players may reasonably want the other way, and the optional rules.

Every default is the referee's ruling (docs/rulings.md) or the rulebook's basic rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.rules.settings import RuleSettings


@dataclass(frozen=True, slots=True)
class Settings(RuleSettings):
    """Catacombs (both editions): the rulings players may want the other way, and the optional rules."""

    # catacombs-3e-reference.txt: Hero Death. Advanced rule: a dead hero is out until resurrected.
    advanced_hero_death: bool = False
    # RULINGS.md 3: a hero returns with half of its *starting* health, rounded down (7 -> 3). False lets it
    # return at full starting health (a gentler table).
    return_with_half_starting_health: bool = True
    # RULINGS.md 2: Then-joined shots are taken in printed order. True lets them be taken in any order, as if
    # every connector were Elastic.
    then_any_order: bool = False
    # catacombs-3e-reference.txt: Monster Vulnerabilities (an optional rule "for new players").
    monster_vulnerabilities: bool = False
    # RULINGS.md 7: seeing the next Item card at Izchak's costs 1 gold (one community list says 2).
    merchant_peek_cost: int = 1
    # RULINGS.md 6: "Sleep for a night" at the Amaranth Inn is one payment for the whole party.
    inn_sleep_cost: int = 8
    # Physical decks: the referee names every card the table draws (draw_cards); false = the engine's seeded
    # draw (the digital deck).
    physical_decks: bool = False
