"""Typed, immutable views of the Catacombs cards (monsters, rooms, Lords, heroes, items, spells, playmats,
layouts) that Third Edition's content becomes (``third_edition.load_content``); the records' provenance marks
and shot icons are every game's (``service.content.records``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from service.content.records import Record, ShotAlternatives, ShotSpec


@dataclass(frozen=True, kw_only=True)
class MonsterCard(Record):
    family: str
    level: int
    health: int | None  # None for shadow monsters: destroyed only by being pushed off the playmat
    shadow: bool
    reward_gold: int
    disc_size: str | None
    disc_color: str | None
    nullifies: tuple[ShotSpec, ...]
    reflects: tuple[ShotSpec, ...]
    shot_sequences: ShotAlternatives
    sequence_selection: Literal["choice", "ordered_by_round"] = "choice"
    special: str | None = None
    suppresses_while_alive: tuple[ShotSpec, ...] = ()  # shots no one may take while it lives (Soloth's Siren)
    shares_pieces_with: tuple[str, ...] = ()  # monsters using the same physical piece (Swordmaster Ghoul)
    pieces: int = 4  # discs of this monster in the box: the Monster Pool's hard limit (the Cube has one)


QuadrantKind = Literal["specific", "mercenary", "monster_metre"]


@dataclass(frozen=True)
class QuadrantEntry:
    """One icon group in a Room card quadrant: a specific monster, mercenary icons or Monster Metre icons."""

    kind: QuadrantKind
    level: int
    count: int
    monster: str | None = None  # only for kind == "specific"


@dataclass(frozen=True, kw_only=True)
class RoomCard(Record):
    difficulty: int
    suppresses: tuple[ShotSpec, ...]
    quadrants: tuple[tuple[QuadrantEntry, ...], ...]  # index 0 = level 1 … index 3 = level 4

    @property
    def entries(self) -> tuple[QuadrantEntry, ...]:
        return tuple(entry for quadrant in self.quadrants for entry in quadrant)


@dataclass(frozen=True)
class Service:
    """Something a special room sells."""

    id: str
    name: str
    cost: int
    effect: str


@dataclass(frozen=True)
class TavernReward:
    draw: str
    reward: str


@dataclass(frozen=True, kw_only=True)
class SpecialRoomCard(Record):
    kind: Literal["healer", "inn", "merchant", "tavern", "lair", "altar"]
    rules: tuple[str, ...] = ()
    services: tuple[Service, ...] = ()
    costs: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}), hash=False)
    free_service: str | None = None
    bet_cost: int | None = None
    pieces_drawn: int | None = None
    bag_contents: str | None = None
    rewards: tuple[TavernReward, ...] = ()
    items_revealed: int | None = None


@dataclass(frozen=True)
class MonsterCount:
    monster: str
    count: int


@dataclass(frozen=True)
class HealthBand:
    """Which sequence a Lord uses at a given remaining health (lords with ``by_remaining_health``)."""

    sequence: int
    min_health: int
    max_health: int | None


@dataclass(frozen=True, kw_only=True)
class LordCard(Record):
    title: str
    starting_health: int
    minions: tuple[MonsterCount, ...]
    mercenary_monster: str
    shot_sequences: ShotAlternatives
    strength_rank: int | None = None
    sequence_selection: Literal["choice", "by_remaining_health"] = "choice"
    health_bands: tuple[HealthBand, ...] = ()
    lair_playmat: str | None = None  # playmat side id shown on the Setup card, when known


@dataclass(frozen=True)
class CardCount:
    card: str
    count: int = 1
    optional: bool = False


@dataclass(frozen=True, kw_only=True)
class HeroCard(Record):
    hero_class: str
    starting_health: int
    shot_sequences: ShotAlternatives  # the base shot sequence on the Hero Rules card
    abilities: tuple[CardCount, ...] = ()
    starting_items: tuple[CardCount, ...] = ()
    spell_caster: bool = False
    spell_cards_chosen_at_start: int = 0
    spell_cards_chosen_as_ally: int = 0
    can_use_weapons: bool | None = None  # None: not known
    can_use_magic_items: bool | None = None
    nullifies: tuple[ShotSpec, ...] = ()
    gold_per_kill_bonus: int = 0
    item_discount: int | None = None
    special_rules: tuple[str, ...] = ()
    recommended_for_first_games: bool = False
    # catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: a Castles hero's team (a Team Catacomb
    # hero has its own rules in a 3E party) and the hero type that says which Spell cards and items it uses.
    team: Literal["castle", "catacomb"] | None = None
    hero_type: Literal["cleric", "fighter", "spell_caster", "monarch"] | None = None
    attributes: tuple[str, ...] = ()  # catacombs-and-castles-2e-manual.md: Hero Attributes (in 3E too)


Frequency = Literal["once_per_game", "once_per_room", "permanent"]


@dataclass(frozen=True)
class StartingHealthRestriction:
    """Item Cards: Usage Restrictions: only heroes whose starting health is within these bounds."""

    min: int | None = None
    max: int | None = None


@dataclass(frozen=True, kw_only=True)
class ItemCard(Record):
    aliases: tuple[str, ...] = ()
    copies: int = 1
    cost: int | None = None
    frequency: Frequency | None = None
    combo: Literal["pre", "post"] | None = None
    shot_sequences: ShotAlternatives = ()  # empty: not known
    effect: str | None = None
    weapon: bool = False
    magic_item: bool = False
    familiar: bool = False
    amaranth_inn_cellar_item: bool = False
    hero: str | None = None  # the hero this item belongs to, for hero-specific items
    starting_health_restriction: StartingHealthRestriction | None = None  # None: none known


@dataclass(frozen=True, kw_only=True)
class SpellCard(Record):
    shot_sequences: ShotAlternatives = ()
    effect: str | None = None
    heal: int = 0
    heal_all: int = 0
    cure_poison: int = 0
    rush_before_casting: bool = True
    dark: bool = False  # a Dark Spell card (catacombs-and-castles-2e-manual.md: Dark Spell Cards)


@dataclass(frozen=True, kw_only=True)
class AbilityCard(Record):
    hero: str
    copies: int = 1
    shot_sequences: ShotAlternatives = ()
    effect: str | None = None
    frequency: Frequency = "once_per_room"


@dataclass(frozen=True, kw_only=True)
class PoisonCard(Record):
    value: int
    copies: int


@dataclass(frozen=True)
class PoisonDeck:
    """The Poisoned! cards: kinds of card (value and copies), and the full deck they make."""

    kinds: Mapping[str, PoisonCard]

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card's value, one per physical card, in a stable order (shuffling is the rules' job)."""
        return tuple(
            kind.value
            for kind in sorted(self.kinds.values(), key=lambda k: (k.value, k.id))
            for _ in range(kind.copies)
        )

    @property
    def verified(self) -> bool:
        return all(kind.verified for kind in self.kinds.values())

    def __len__(self) -> int:
        return sum(kind.copies for kind in self.kinds.values())


@dataclass(frozen=True, kw_only=True)
class Playmat(Record):
    """One side of a double-sided playmat (the setup rule forbids the same side in two rooms running)."""

    mat: str  # the physical mat both sides belong to
    reverse: str  # the playmat id on the other side
    zones: tuple[str, ...] = ("hero-start", "monster-start")
    obstacles: int | None = None  # Obstacle icons; None when not known
    runes: int | None = None  # Rune icons for runic shift; None when not known


SlotKind = Literal["room", "battle", "special", "lair"]


@dataclass(frozen=True)
class LayoutSlot:
    """One face-down card position of a room layout: a named room, a random battle room of a difficulty,
    a special room (named or random) or the Lair."""

    kind: SlotKind
    room: str | None = None
    difficulty: int | None = None


@dataclass(frozen=True, kw_only=True)
class RoomLayout(Record):
    kind: Literal["static", "random"]
    slots: tuple[LayoutSlot, ...]
    fan_variant: bool = False


@dataclass(frozen=True, kw_only=True)
class AntientCard(Record):
    shot_sequences: ShotAlternatives = ()  # empty: not known
    invulnerable: bool = True
    control: Literal["alternates", "summoner"] = "alternates"
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Content:
    """Everything one rule set needs, keyed by id."""

    ruleset: str
    monsters: Mapping[str, MonsterCard]
    rooms: Mapping[str, RoomCard]
    special_rooms: Mapping[str, SpecialRoomCard]
    lords: Mapping[str, LordCard]
    heroes: Mapping[str, HeroCard]
    items: Mapping[str, ItemCard]
    spells: Mapping[str, SpellCard]
    abilities: Mapping[str, AbilityCard]
    poison_deck: PoisonDeck
    playmats: Mapping[str, Playmat]
    layouts: Mapping[str, RoomLayout]
    files: tuple[str, ...] = ()  # the files it was read from, overlay files last
    antients: Mapping[str, AntientCard] = field(default_factory=lambda: MappingProxyType({}))

    def all_records(self) -> tuple[Record, ...]:
        groups: tuple[Mapping[str, Record], ...] = (
            self.monsters,
            self.rooms,
            self.special_rooms,
            self.lords,
            self.heroes,
            self.items,
            self.spells,
            self.abilities,
            self.poison_deck.kinds,
            self.playmats,
            self.layouts,
            self.antients,
        )
        return tuple(record for group in groups for record in group.values())

    def unverified(self) -> tuple[Record, ...]:
        return tuple(record for record in self.all_records() if not record.verified)
