"""The cards a Catacombs & Castles 2E game is played with, as the rules read them.

``service.games.castles.adapter`` builds them from the validated content
(``content/catacombs-and-castles-2e``); tests build them by hand. Shot names are snake_case
(``giant_fireball``), as in the rest of the rules core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

CASTLE = "castle"
CATACOMB = "catacomb"
TRANSFERS = ("power", "assist", "health", "void", "capture")
ATTRIBUTES = (
    "anchor",
    "flying",
    "bloodless",
    "climber",
    "construct",
    "heat_resistant",
    "stun_resistant",
    "toughness",
    "toxic",
)


@dataclass(frozen=True)
class ShotRule:
    """One shot of the manual's shot reference: its damage and the transfers it enables beside power."""

    id: str
    kind: str  # "character" | "ranged" | "special" | "shield"
    damage: int
    transfers: tuple[str, ...] = ("power",)


@dataclass(frozen=True)
class Step:
    """One shot icon of a printed sequence; ``connector`` joins it to the previous icon (None: the first)."""

    shot: str
    connector: str | None = None  # "then" | "elastic"
    transfers: tuple[str, ...] | None = (
        None  # the card's own transfer icons, when they differ from the shot's
    )


Sequence = tuple[Step, ...]
Alternatives = tuple[Sequence, ...]  # joined by the Or connector


@dataclass(frozen=True)
class ChargedCard:
    """An Ability, Team Action or Boss Action: performed once ``charge`` Health Tokens sit on it.

    ``charge`` None: the number is not known (not printed in the manual, no overlay): the card takes no
    tokens and cannot be performed. ``horn_from``: the index of the first step after a Horn of Heroes icon.
    """

    id: str
    name: str
    kind: str  # "ability" | "team_action" | "boss_action"
    charge: int | None
    sequences: Alternatives = ()
    horn_from: int | None = None
    reinforcement: bool = False  # Summon Reinforcements: also discards a Reinforcement Token
    team_from: int | None = None  # 1E: the index of the first step after a Team icon (all heroes perform)
    team: str | None = None  # 1E: the team whose Ability cards it is among


@dataclass(frozen=True)
class HeroRules:
    id: str
    name: str
    team: str
    role: str | None
    sequences: Alternatives
    ability: ChargedCard | None = None
    team_action: ChargedCard | None = None
    attributes: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()  # 1E: the two Ability cards its Rules card recommends


@dataclass(frozen=True)
class WarriorRules:
    id: str
    name: str
    team: str
    sequences: Alternatives
    pieces: int = 1
    health: int = 1
    attributes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BossRules:
    """A boss: its forms (each with Or-joined sequences), its starting Armour Tokens, its Boss Actions."""

    id: str
    name: str
    team: str
    forms: tuple[tuple[str, Alternatives], ...]
    armour_tokens: int = 0
    form_change: str = "none"  # "last_armour" (Sothemir) | "at_will" (Xaugorth) | "none"
    attributes: tuple[str, ...] = ()


def _reference(*rows: tuple[str, str, int, tuple[str, ...]]) -> Mapping[str, ShotRule]:
    return {name: ShotRule(name, kind, damage, transfers) for name, kind, damage, transfers in rows}


SHOT_REFERENCE = _reference(
    # catacombs-and-castles-2e-manual.md: Character Shots, Ranged Shots, Special Shots, Shield Shots. The
    # shipped content (shots.yaml) states the same; this is the default for cards built by hand.
    ("rush", "character", 0, ()),
    ("melee", "character", 1, ("power",)),
    ("critical_melee", "character", 2, ("power", "void")),
    ("leech", "character", 1, ("power", "health")),
    ("target_melee", "character", 1, ("power",)),
    ("temporal_shift", "character", 1, ("power", "assist")),
    ("missile", "ranged", 1, ("power",)),
    ("fireball", "ranged", 1, ("power", "void")),
    ("giant_fireball", "ranged", 2, ("power", "void")),
    ("ice_boulder", "ranged", 1, ("power", "assist")),
    ("net", "ranged", 1, ("power", "capture")),
    ("web", "ranged", 2, ("power", "capture")),
    ("hook", "ranged", 0, ()),
    ("lightning", "ranged", 1, ("power",)),
    ("longbow", "ranged", 1, ("power", "assist")),
    ("shuriken", "ranged", 1, ("power", "assist")),
    ("target", "ranged", 1, ("power",)),
    ("vortex", "ranged", 1, ("power", "void")),
    ("egg", "ranged", 0, ()),
    ("grapple", "ranged", 1, ("power", "void")),
    ("move_to_rune", "special", 0, ()),
    ("open_portal", "special", 0, ()),
    ("runic_shift", "special", 1, ("power",)),
    ("shield", "shield", 0, ()),
)


@dataclass(frozen=True)
class CastlesCards:
    """The cards of one game. ``shots`` defaults to the manual's shot reference (``SHOT_REFERENCE``)."""

    heroes: Mapping[str, HeroRules]
    shots: Mapping[str, ShotRule] = field(default_factory=lambda: dict(SHOT_REFERENCE))
    warriors: Mapping[str, WarriorRules] = field(default_factory=dict)
    bosses: Mapping[str, BossRules] = field(default_factory=dict)
    boss_actions: Mapping[str, tuple[ChargedCard, ...]] = field(default_factory=dict)  # by team
    health_tokens: Mapping[str, int] = field(default_factory=dict)  # by mode, where the manual gives it
    game_lengths: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # Boss vs Boss: health, reinf.
    # 1E: every Ability card by id; a hero holds the two chosen at setup (its ``charges`` name them).
    ability_cards: Mapping[str, ChargedCard] = field(default_factory=dict)
    boss_health: Mapping[str, int] = field(default_factory=dict)  # 1E: a Lord's Health Tokens, by boss id

    def shot(self, name: str) -> ShotRule:
        try:
            return self.shots[name]
        except KeyError:
            raise LookupError(f"no Catacombs & Castles shot {name!r}") from None

    def hero(self, hero_id: str) -> HeroRules:
        try:
            return self.heroes[hero_id]
        except KeyError:
            raise LookupError(f"no hero {hero_id!r}; known: {sorted(self.heroes)}") from None

    def warrior(self, warrior_id: str) -> WarriorRules:
        try:
            return self.warriors[warrior_id]
        except KeyError:
            raise LookupError(f"no warrior {warrior_id!r}; known: {sorted(self.warriors)}") from None

    def ability_card(self, card_id: str) -> ChargedCard:
        try:
            return self.ability_cards[card_id]
        except KeyError:
            raise LookupError(f"no Ability card {card_id!r}; known: {sorted(self.ability_cards)}") from None

    def boss(self, boss_id: str) -> BossRules:
        try:
            return self.bosses[boss_id]
        except KeyError:
            raise LookupError(f"no boss {boss_id!r}; known: {sorted(self.bosses)}") from None
