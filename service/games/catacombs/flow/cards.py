"""The card facts the rules need, and the minimal content interface the rules core reads them through.

``service.content`` loads the shipped card files; tests hand-make tiny content with ``CardIndex``.
Anything that offers the ``Content`` methods will do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from service.games.catacombs.flow.shots import Sequence, Shot

_SLUG = re.compile(r"[^a-z0-9]+")


def slug(name: str) -> str:
    """An identifier safe in MQTT topics: ``"Xoric the Barbarian"`` -> ``"xoric-the-barbarian"``."""
    return _SLUG.sub("-", name.lower().replace("'", "")).strip("-")


class UnknownCardError(KeyError):
    """The content has no card with that id."""


@dataclass(frozen=True, slots=True)
class HeroCard:
    id: str
    name: str
    starting_health: int
    shot_sequences: tuple[Sequence, ...]
    nullifies: tuple[Shot, ...] = ()
    reflects: tuple[Shot, ...] = ()
    spell_caster: bool = False
    extra_gold_per_kill: int = 0  # Elani the Thief: "one extra gold coin for each monster she slays"
    abilities: tuple[str, ...] = ()  # Ability card ids, one entry per copy
    can_use_weapons: bool | None = None  # None: not known from the card data (then allowed)
    item_discount: int = 0  # gold off every Item card this hero buys
    spell_choices: int = 0  # Spell cards chosen at the start (the Wizard: ten)

    @property
    def short_name(self) -> str:
        return self.name.split()[0]


@dataclass(frozen=True, slots=True)
class MonsterCard:
    id: str
    name: str
    level: int
    family: str
    health: int | None  # None for shadow monsters (a dotted blood drop)
    reward_gold: int
    shot_sequences: tuple[Sequence, ...]
    nullifies: tuple[Shot, ...] = ()
    reflects: tuple[Shot, ...] = ()
    shadow: bool = False
    ordered_by_round: bool = False  # the Gelatinous Cube performs its alternatives in turn, one per round
    pieces: int = 4  # pieces of this monster in the Monster Pool
    antient: bool = False  # an invulnerable Antient, brought in by a summon shot
    small: bool = False  # an "extra small" disc (Sewer Rats, Armoured Beetles, Pit Vipers, Vampire Bats)
    # Monster cards that use the same physical piece(s) (the Swordmaster Ghoul and the Crypt Spider).
    shares_pieces_with: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class QuadrantEntry:
    kind: str  # "specific" | "mercenary" | "monster_metre"
    count: int
    monster: str | None = None  # monster id for "specific"


@dataclass(frozen=True, slots=True)
class RoomCard:
    id: str
    name: str
    kind: str  # "battle" | "healer" | "inn" | "merchant" | "tavern" | "lair"
    difficulty: int = 0
    suppresses: tuple[Shot, ...] = ()
    quadrants: Mapping[int, tuple[QuadrantEntry, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LordCard:
    id: str
    name: str
    starting_health: int
    shot_sequences: tuple[Sequence, ...]
    mercenary_monster: str
    minions: tuple[tuple[str, int], ...] = ()
    lair_playmat: str | None = None  # the playmat side shown on the Setup card, when known


@dataclass(frozen=True, slots=True)
class ActionCard:
    """A Spell, Ability or Item card a hero may play instead of its base sequence."""

    id: str
    name: str
    kind: str  # "spell" | "ability" | "item"
    frequency: str = "once_per_game"  # "once_per_game" | "once_per_room" | "permanent"
    shot_sequences: tuple[Sequence, ...] = ()
    combo: str | None = None  # "pre" | "post" (the Ellipsis icon)
    heal: int = 0
    heal_all: int = 0
    cure_poison: int = 0
    familiar: bool = False
    familiar_health: int = 1
    weapon: bool = False
    magic: bool = False
    nullifies: tuple[Shot, ...] = ()
    reflects: tuple[Shot, ...] = ()
    cost: int | None = None
    copies: int = 1  # copies in the Item deck
    # Hero Specific Enhancements: (hero card id, enhanced sequence), extra alternatives for that hero.
    enhanced: tuple[tuple[str, Sequence], ...] = ()
    # Item Cards: Usage Restrictions: "only ... heroes with a certain amount of health at the start of the
    # game" (bounds inclusive; None: no bound).
    starting_health_min: int | None = None
    starting_health_max: int | None = None

    def sequences_for(self, hero_card: str) -> tuple[Sequence, ...]:
        return self.shot_sequences + tuple(s for hero, s in self.enhanced if hero == hero_card)


class Content(Protocol):
    """What the rules core reads from the card data."""

    def hero(self, hero_id: str) -> HeroCard: ...

    def monster(self, monster_id: str) -> MonsterCard: ...

    def room(self, room_id: str) -> RoomCard: ...

    def lord(self, lord_id: str) -> LordCard: ...

    def monsters(self) -> Iterable[MonsterCard]: ...

    def poison_deck(self) -> tuple[int, ...]:
        """The dose printed on each Poisoned! card."""
        ...

    def heroes(self) -> Iterable[HeroCard]: ...

    def rooms(self) -> Iterable[RoomCard]: ...

    def item_deck(self) -> tuple[str, ...]:
        """Every Item card id, one entry per copy, in a stable order (the rules shuffle it)."""
        ...

    def cards(self, kind: str) -> Iterable[ActionCard]:
        """Every Spell, Ability or Item card of a kind."""
        ...

    def layout(self, layout_id: str) -> tuple[str, ...]:
        """A named Room card layout as slots (see ``service.games.catacombs.flow.layout``)."""
        ...

    def card(self, kind: str, card_id: str) -> ActionCard:
        """A Spell, Ability or Item card (``kind``: "spell" | "ability" | "item"; ids are unique per kind)."""
        ...


class CardIndex:
    """Content held in memory: hand-made in tests, or filled from the loaded content files."""

    def __init__(
        self,
        heroes: Iterable[HeroCard] = (),
        monsters: Iterable[MonsterCard] = (),
        rooms: Iterable[RoomCard] = (),
        lords: Iterable[LordCard] = (),
        poison_deck: Iterable[int] = (),
        cards: Iterable[ActionCard] = (),
        layouts: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        self._layouts = dict(layouts or {})
        self._cards = {f"{c.kind}:{c.id}": c for c in cards}
        self._heroes = {h.id: h for h in heroes}
        self._monsters = {m.id: m for m in monsters}
        self._rooms = {r.id: r for r in rooms}
        self._lords = {lord.id: lord for lord in lords}
        self._poison = tuple(poison_deck)

    @staticmethod
    def _get(table: Mapping[str, object], key: str, what: str) -> object:
        try:
            return table[key]
        except KeyError:
            raise UnknownCardError(f"no {what} card {key!r} in the content") from None

    def hero(self, hero_id: str) -> HeroCard:
        card = self._get(self._heroes, hero_id, "hero")
        assert isinstance(card, HeroCard)
        return card

    def monster(self, monster_id: str) -> MonsterCard:
        card = self._get(self._monsters, monster_id, "monster")
        assert isinstance(card, MonsterCard)
        return card

    def room(self, room_id: str) -> RoomCard:
        card = self._get(self._rooms, room_id, "room")
        assert isinstance(card, RoomCard)
        return card

    def lord(self, lord_id: str) -> LordCard:
        card = self._get(self._lords, lord_id, "lord")
        assert isinstance(card, LordCard)
        return card

    def monsters(self) -> Iterable[MonsterCard]:
        return self._monsters.values()

    def heroes(self) -> Iterable[HeroCard]:
        return self._heroes.values()

    def rooms(self) -> Iterable[RoomCard]:
        return self._rooms.values()

    def lords(self) -> Iterable[LordCard]:
        return self._lords.values()

    def item_deck(self) -> tuple[str, ...]:
        return tuple(c.id for c in self._cards.values() if c.kind == "item" for _ in range(c.copies))

    def poison_deck(self) -> tuple[int, ...]:
        return self._poison

    def cards(self, kind: str | None = None) -> Iterable[ActionCard]:
        """The Spell, Item, Ability … cards of that kind (every kind: None)."""
        return [c for c in self._cards.values() if kind is None or c.kind == kind]

    def layout(self, layout_id: str) -> tuple[str, ...]:
        slots = self._get(self._layouts, layout_id, "layout")
        assert isinstance(slots, tuple)
        return slots

    def card(self, kind: str, card_id: str) -> ActionCard:
        card = self._get(self._cards, f"{kind}:{card_id}", kind)
        assert isinstance(card, ActionCard)
        return card
