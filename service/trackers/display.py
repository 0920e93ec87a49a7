"""What a tracker's LEDs show for one character: a colour per LED. Pure.

- **Health bar** (the first ``bar_leds``): one LED per health point when the character's maximum fits the
  bar, else the bar in proportion. Lit LEDs are green; the top ``poison_total`` of them purple (health the
  poison will take); health already lost is dim red; LEDs past the maximum are off. A dead character's whole
  bar is dark red.
- **Status LEDs** (the next ``status_leds``): one colour per state, in this order: poisoned, stunned,
  teleported, frozen, devoured, trapped.
- **Charge LEDs** (the last ``charge_leds``): one white LED per charge, when the character's snapshot has
  ``charges`` (Catacombs & Castles: the Health Tokens on a hero's or boss's cards; docs/trackers.md).

Catacombs & Castles publishes a hero's or boss's ``health`` as its side's Health Pool and ``max_health`` as
the pool's starting size, so the bar of a Castles tracker is its team's pool.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from service.table.trackers import TrackerLayout

Colour = tuple[int, int, int]

OFF: Colour = (0, 0, 0)
HEALTH: Colour = (0, 200, 0)
LOST: Colour = (40, 0, 0)
DEAD: Colour = (120, 0, 0)
POISON: Colour = (150, 0, 255)
CHARGE: Colour = (255, 255, 255)
STATUS_COLOURS: dict[str, Colour] = {
    "poisoned": POISON,
    "stunned": (255, 200, 0),
    "teleported": (0, 160, 255),
    "frozen": (180, 220, 255),
    "devoured": (255, 60, 0),
    "trapped": (255, 0, 120),  # Catacombs & Castles: caught in a net or web trap
}


def _count(value: Any) -> int:
    return value if type(value) is int and value > 0 else 0


def states(character: Mapping[str, Any]) -> list[str]:
    """The character's states a tracker shows, in display order."""
    present = set(character.get("status") or ())
    if _count(character.get("poison_total")):
        present.add("poisoned")
    return [name for name in STATUS_COLOURS if name in present]


def bar_fill(health: int, max_health: int, bar_leds: int) -> tuple[int, int]:
    """(lit LEDs, LEDs standing for the maximum) on a bar of ``bar_leds``."""
    if max_health <= 0:
        return 0, 0
    if max_health <= bar_leds:
        return min(health, max_health), max_health
    lit = math.ceil(min(health, max_health) * bar_leds / max_health)  # one health point left still shows
    return lit, bar_leds


def tracker_colours(character: Mapping[str, Any] | None, layout: TrackerLayout) -> list[Colour]:
    """One colour per LED of the strip; ``None`` (no character, or it left the game) is all off."""
    leds = [OFF] * layout.leds
    if character is None:
        return leds
    health, max_health = _count(character.get("health")), _count(character.get("max_health"))
    lit, span = bar_fill(health, max_health, layout.bar_leds)
    if character.get("alive") is False:
        leds[: layout.bar_leds] = [DEAD] * layout.bar_leds
        return leds
    poison = min(_count(character.get("poison_total")), lit)
    if max_health > layout.bar_leds:
        poison = min(math.ceil(poison * layout.bar_leds / max_health), lit)
    for i in range(span):
        leds[i] = HEALTH if i < lit - poison else (POISON if i < lit else LOST)
    for offset, name in enumerate(states(character)[: layout.status_leds]):
        leds[layout.bar_leds + offset] = STATUS_COLOURS[name]
    start = layout.bar_leds + layout.status_leds
    for offset in range(min(_count(character.get("charges")), layout.charge_leds)):
        leds[start + offset] = CHARGE
    return leds
