"""Shots, their damage, and the icons on cards that name them (nullifies, reflects, suppresses).

Vocabulary follows the content files: ``kind`` is melee, rush, bite, missile, fireball, giant_fireball,
boulder, ice, target, shield, roll, teleport, runic_shift, open_portal, summon, devour; ``modifier`` is
chain, corrosion, critical, fear, petrify, poison, reckless, regeneration, stun or transform.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

CHARACTER_SHOTS: Mapping[str, int] = {"rush": 0, "melee": 1, "bite": 2, "roll": 2, "devour": 1}
"""catacombs-3e-reference.txt: Character Shots (rush 0, melee 1, bite 2); Roll Shot (2); Devour Shot (1)."""

# RULINGS.md 1: the Ranged Shots table's damage row, read in the shot reference's order.
RANGED_SHOTS: Mapping[str, int] = {
    "missile": 1,
    "fireball": 1,
    "target": 1,
    "giant_fireball": 2,
    "boulder": 3,
    "ice": 0,
    "shield": 0,
}

# catacombs-and-castles-2e-manual.md: Catacombs & Castles Shots In Catacombs 3E: the Castles shots a 3E game
# may use (a Castles hero's card, a Castles expansion's card), with the 2E shot list's damage. Their transfers
# are ignored in 3E; what each does beyond damage is
# service/games/catacombs/third_edition/expansions/castles_shots.py.
CASTLES_CHARACTER_SHOTS: Mapping[str, int] = {"leech": 1, "target_melee": 1}
CASTLES_RANGED_SHOTS: Mapping[str, int] = {
    "grapple": 1,
    "longbow": 1,
    "net": 1,
    "web": 2,
    "shuriken": 1,
    "vortex": 1,
    "hook": 0,
    "ice_boulder": 1,
    "lightning": 1,
}
# Special Shots: Move To Rune, "placed directly on top of any unoccupied rune icon" (no flick, no damage): the
# flying attribute's optional shot at the end of a sequence (Hero Attributes, "the same in Catacombs 3E").
CASTLES_SPECIAL_SHOTS = frozenset({"move_to_rune"})

MOVEMENT_SHOTS = frozenset({"teleport", "runic_shift", "open_portal", "summon", "repeat"})
"""Shots that move or bring in pieces but inflict no damage themselves. ``repeat`` (a Cavern of Soloth icon
whose meaning the sources do not give) is accepted as a shot without effect."""

ICON_SHOTS = frozenset({"refresh_ability", "refresh_item"})
"""Icons in a sequence that are not flicked: the Refresh Ability / Refresh Item icons."""

MODIFIERS = frozenset(
    {
        "chain",
        "corrosion",
        "critical",
        "fear",
        "petrify",
        "poison",
        "reckless",
        "regeneration",
        "stun",
        "transform",
    }
)

SINGLE_TARGET_MODIFIERS = frozenset(
    {"corrosion", "critical", "fear", "petrify", "poison", "reckless", "stun"}
)
"""Modifiers affecting only one of several characters hit (shot-modifiers file: Shot Modifiers)."""

SHOT_NAMES: Mapping[str, str] = {
    "giant_fireball": "giant fireball",
    "runic_shift": "runic shift",
    "open_portal": "open portal",
    "target_melee": "target melee",
    "ice_boulder": "ice boulder",
    "move_to_rune": "move to rune",
}


class UnknownShotError(ValueError):
    """A card names a shot or modifier the rules do not know."""


@dataclass(frozen=True, slots=True)
class Shot:
    kind: str
    modifier: str | None = None
    count: int = 1  # Poison cards drawn by a poison modifier
    summons: str | None = None  # monster or antient brought in by a summon shot

    def __post_init__(self) -> None:
        if (
            self.kind not in CHARACTER_SHOTS
            and self.kind not in RANGED_SHOTS
            and self.kind not in CASTLES_CHARACTER_SHOTS
            and self.kind not in CASTLES_RANGED_SHOTS
            and self.kind not in CASTLES_SPECIAL_SHOTS
            and self.kind not in MOVEMENT_SHOTS
            and self.kind not in ICON_SHOTS
        ):
            raise UnknownShotError(f"unknown shot {self.kind!r}")
        if self.modifier is not None and self.modifier not in MODIFIERS:
            raise UnknownShotError(f"unknown shot modifier {self.modifier!r}")

    @property
    def ranged(self) -> bool:
        return self.kind in RANGED_SHOTS or self.kind in CASTLES_RANGED_SHOTS

    @property
    def base_damage(self) -> int:
        if self.kind in CHARACTER_SHOTS:
            return CHARACTER_SHOTS[self.kind]
        if self.kind in CASTLES_CHARACTER_SHOTS:
            return CASTLES_CHARACTER_SHOTS[self.kind]
        return RANGED_SHOTS.get(self.kind, CASTLES_RANGED_SHOTS.get(self.kind, 0))

    @property
    def label(self) -> str:
        name = SHOT_NAMES.get(self.kind, self.kind)
        if self.kind == "summon" and self.summons:
            name = f"summon {self.summons}"
        return f"{self.modifier} {name}" if self.modifier else name

    def matches(self, icon: Shot) -> bool:
        """Does a Nullifies / Reflects / Suppresses icon cover this shot?

        An unmodified icon covers the shot and all its modified forms; a modified icon covers only that
        modified shot (catacombs-3e-reference.txt: Nullifying Shots; Suppression).
        """
        if icon.kind != self.kind:
            return False
        return icon.modifier is None or icon.modifier == self.modifier

    @staticmethod
    def from_card(entry: Mapping[str, Any]) -> Shot:
        """A shot as the content files write it: ``{shot: melee, modifier: poison, count: 2}``."""
        try:
            kind = str(entry["shot"])
        except KeyError as exc:
            raise UnknownShotError(f"shot entry without 'shot': {dict(entry)!r}") from exc
        modifier = entry.get("modifier")
        summons = entry.get("summons") or entry.get("summon")
        return Shot(
            kind,
            str(modifier) if modifier else None,
            int(entry.get("count", 1)),
            str(summons) if summons else None,
        )


@dataclass(frozen=True, slots=True)
class Sequence:
    """One shot sequence: shots joined by Then (printed order) or, if ``elastic``, in any order."""

    shots: tuple[Shot, ...]
    elastic: bool = False

    @property
    def label(self) -> str:
        joiner = " and " if self.elastic else ", then "
        return joiner.join(s.label for s in self.shots) + (" (any order)" if self.elastic else "")


def sequences_from_card(raw: Any) -> tuple[Sequence, ...]:
    """``shot_sequences`` of a card: a list of Or-alternatives, each a list of shots."""
    return tuple(Sequence(tuple(Shot.from_card(s) for s in alternative)) for alternative in raw or ())
