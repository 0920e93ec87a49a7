"""The Catacombs turn flow's events (both editions): rooms, monsters, damage, health, statuses, gold, cards
and draws. The game-neutral ones (``service.rules.events``) are re-exported, so the flow's modules read
every event they know as ``E.<Name>`` from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from service.rules.events import (
    EVENT_TYPES,
    ActionDeclared,
    Corrected,
    DecisionMade,
    DecisionRequired,
    Event,
    GameOver,
    HitIgnored,
    PortalOpened,
    RoundStarted,
    ShieldMoved,
    ShotResolved,
    ShotSkipped,
    SideToAct,
    TurnEnded,
    register_event,
)


@register_event
@dataclass(frozen=True, slots=True)
class RoomEntered(Event):
    type: ClassVar[str] = "room_entered"
    room: str
    kind: str


@register_event
@dataclass(frozen=True, slots=True)
class MonsterPlaced(Event):
    type: ClassVar[str] = "monster_placed"
    character: str
    card: str


@register_event
@dataclass(frozen=True, slots=True)
class HeroReturned(Event):
    type: ClassVar[str] = "hero_returned"
    character: str
    health: int


@register_event
@dataclass(frozen=True, slots=True)
class BattleStarted(Event):
    type: ClassVar[str] = "battle_started"


@register_event
@dataclass(frozen=True, slots=True)
class Damaged(Event):
    type: ClassVar[str] = "damaged"
    character: str
    by: str
    amount: int
    health: int


@register_event
@dataclass(frozen=True, slots=True)
class Reflected(Event):
    type: ClassVar[str] = "reflected"
    character: str
    to: str


@register_event
@dataclass(frozen=True, slots=True)
class MonsterFlipped(Event):
    type: ClassVar[str] = "monster_flipped"
    character: str
    flipped: bool


@register_event
@dataclass(frozen=True, slots=True)
class Destroyed(Event):
    type: ClassVar[str] = "destroyed"
    character: str
    by: str | None


@register_event
@dataclass(frozen=True, slots=True)
class HeroDied(Event):
    type: ClassVar[str] = "hero_died"
    character: str
    cause: str


@register_event
@dataclass(frozen=True, slots=True)
class Healed(Event):
    type: ClassVar[str] = "healed"
    character: str
    amount: int
    health: int


@register_event
@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    type: ClassVar[str] = "status_changed"
    character: str
    status: str
    on: bool


@register_event
@dataclass(frozen=True, slots=True)
class PoisonDrawn(Event):
    type: ClassVar[str] = "poison_drawn"
    character: str
    values: tuple[int, ...]
    total: int


@register_event
@dataclass(frozen=True, slots=True)
class GoldChanged(Event):
    type: ClassVar[str] = "gold_changed"
    character: str
    amount: int
    gold: int


@register_event
@dataclass(frozen=True, slots=True)
class RoomCleared(Event):
    type: ClassVar[str] = "room_cleared"
    room: str


@register_event
@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    type: ClassVar[str] = "card_played"
    character: str
    card: str


@register_event
@dataclass(frozen=True, slots=True)
class ItemGained(Event):
    type: ClassVar[str] = "item_gained"
    character: str
    items: tuple[str, ...]


@register_event
@dataclass(frozen=True, slots=True)
class TavernDraw(Event):
    type: ClassVar[str] = "tavern_draw"
    character: str
    drawn: tuple[str, ...]


@register_event
@dataclass(frozen=True, slots=True)
class AllyRecruited(Event):
    type: ClassVar[str] = "ally_recruited"
    character: str
    hero: str


@register_event
@dataclass(frozen=True, slots=True)
class MonsterCardDiscarded(Event):
    """A Monster card that cannot be placed because its piece is in use (a shared piece) is set aside."""

    type: ClassVar[str] = "monster_card_discarded"
    card: str
    blocked_by: str  # the character whose piece it needs


@register_event
@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """A Spell or Ability card chosen for a character (an ally's Ability cards)."""

    type: ClassVar[str] = "card_taken"
    character: str
    card: str


@register_event
@dataclass(frozen=True, slots=True)
class DiscsReturned(Event):
    """Destroyed monsters' discs leave a hero's board for the Monster Pool (Resolution Phase, Hero Death)."""

    type: ClassVar[str] = "discs_returned"
    character: str
    discs: tuple[str, ...]


@register_event
@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """A card drawn from a deck: the one the table named, or the engine's seeded draw (digital decks)."""

    type: ClassVar[str] = "card_drawn"
    deck: str
    card: str
    named: bool  # the referee named the card the table drew


__all__ = [
    "ActionDeclared",
    "AllyRecruited",
    "BattleStarted",
    "CardDrawn",
    "CardPlayed",
    "CardTaken",
    "Corrected",
    "Damaged",
    "DecisionMade",
    "DecisionRequired",
    "Destroyed",
    "DiscsReturned",
    "EVENT_TYPES",
    "Event",
    "GameOver",
    "GoldChanged",
    "Healed",
    "HeroDied",
    "HeroReturned",
    "HitIgnored",
    "ItemGained",
    "MonsterCardDiscarded",
    "MonsterFlipped",
    "MonsterPlaced",
    "PoisonDrawn",
    "PortalOpened",
    "Reflected",
    "RoomCleared",
    "RoomEntered",
    "RoundStarted",
    "ShieldMoved",
    "ShotResolved",
    "ShotSkipped",
    "SideToAct",
    "StatusChanged",
    "TavernDraw",
    "TurnEnded",
    "register_event",
]
