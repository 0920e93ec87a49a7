"""Domain events: what happened, as typed records with a human sentence in ``text``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from service.rules.codec import encode


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"
    text: str

    def to_json(self) -> dict[str, Any]:
        body = encode(self)
        assert isinstance(body, dict)
        return {"type": self.type, **body}


@dataclass(frozen=True, slots=True)
class RoomEntered(Event):
    type: ClassVar[str] = "room_entered"
    room: str
    kind: str


@dataclass(frozen=True, slots=True)
class MonsterPlaced(Event):
    type: ClassVar[str] = "monster_placed"
    character: str
    card: str


@dataclass(frozen=True, slots=True)
class HeroReturned(Event):
    type: ClassVar[str] = "hero_returned"
    character: str
    health: int


@dataclass(frozen=True, slots=True)
class BattleStarted(Event):
    type: ClassVar[str] = "battle_started"


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round: int


@dataclass(frozen=True, slots=True)
class SideToAct(Event):
    type: ClassVar[str] = "side_to_act"
    side: str


@dataclass(frozen=True, slots=True)
class ActionDeclared(Event):
    type: ClassVar[str] = "action_declared"
    character: str
    declared: str


@dataclass(frozen=True, slots=True)
class ShotResolved(Event):
    type: ClassVar[str] = "shot_resolved"
    character: str
    shot: str


@dataclass(frozen=True, slots=True)
class ShotSkipped(Event):
    type: ClassVar[str] = "shot_skipped"
    character: str
    shot: str


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    type: ClassVar[str] = "damaged"
    character: str
    by: str
    amount: int
    health: int


@dataclass(frozen=True, slots=True)
class HitIgnored(Event):
    """A direct hit that does nothing: friendly fire, chain, frozen target, nullified..."""

    type: ClassVar[str] = "hit_ignored"
    character: str
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class Reflected(Event):
    type: ClassVar[str] = "reflected"
    character: str
    to: str


@dataclass(frozen=True, slots=True)
class MonsterFlipped(Event):
    type: ClassVar[str] = "monster_flipped"
    character: str
    flipped: bool


@dataclass(frozen=True, slots=True)
class Destroyed(Event):
    type: ClassVar[str] = "destroyed"
    character: str
    by: str | None


@dataclass(frozen=True, slots=True)
class HeroDied(Event):
    type: ClassVar[str] = "hero_died"
    character: str
    cause: str


@dataclass(frozen=True, slots=True)
class Healed(Event):
    type: ClassVar[str] = "healed"
    character: str
    amount: int
    health: int


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    type: ClassVar[str] = "status_changed"
    character: str
    status: str
    on: bool


@dataclass(frozen=True, slots=True)
class PoisonDrawn(Event):
    type: ClassVar[str] = "poison_drawn"
    character: str
    values: tuple[int, ...]
    total: int


@dataclass(frozen=True, slots=True)
class GoldChanged(Event):
    type: ClassVar[str] = "gold_changed"
    character: str
    amount: int
    gold: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    type: ClassVar[str] = "turn_ended"
    character: str


@dataclass(frozen=True, slots=True)
class DecisionRequired(Event):
    type: ClassVar[str] = "decision_required"
    decision: str
    kind: str


@dataclass(frozen=True, slots=True)
class DecisionMade(Event):
    type: ClassVar[str] = "decision_made"
    decision: str
    option: str


@dataclass(frozen=True, slots=True)
class RoomCleared(Event):
    type: ClassVar[str] = "room_cleared"
    room: str


@dataclass(frozen=True, slots=True)
class Corrected(Event):
    type: ClassVar[str] = "corrected"
    character: str
    reason: str


@dataclass(frozen=True, slots=True)
class RageChanged(Event):
    """Catacombs 1E: the marker on a hero's rage track moved (``change`` levels, now at ``rage``)."""

    type: ClassVar[str] = "rage_changed"
    character: str
    rage: int
    change: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    type: ClassVar[str] = "game_over"
    winner: str


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    type: ClassVar[str] = "card_played"
    character: str
    card: str


@dataclass(frozen=True, slots=True)
class ItemGained(Event):
    type: ClassVar[str] = "item_gained"
    character: str
    items: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TavernDraw(Event):
    type: ClassVar[str] = "tavern_draw"
    character: str
    drawn: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AllyRecruited(Event):
    type: ClassVar[str] = "ally_recruited"
    character: str
    hero: str


@dataclass(frozen=True, slots=True)
class MonsterCardDiscarded(Event):
    """A Monster card that cannot be placed because its piece is in use (a shared piece) is set aside."""

    type: ClassVar[str] = "monster_card_discarded"
    card: str
    blocked_by: str  # the character whose piece it needs


@dataclass(frozen=True, slots=True)
class CardTaken(Event):
    """A Spell or Ability card chosen for a character (an ally's Ability cards)."""

    type: ClassVar[str] = "card_taken"
    character: str
    card: str


@dataclass(frozen=True, slots=True)
class ShieldMoved(Event):
    """A shield piece placed beside its owner after a sequence with a shield shot, or removed from the mat."""

    type: ClassVar[str] = "shield_moved"
    owner: str  # "" when every shield piece is removed at once (the end of the Battle Phase)
    on_mat: bool


@dataclass(frozen=True, slots=True)
class DiscsReturned(Event):
    """Destroyed monsters' discs leave a hero's board for the Monster Pool (Resolution Phase, Hero Death)."""

    type: ClassVar[str] = "discs_returned"
    character: str
    discs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """A card drawn from a deck: the one the table named, or the engine's seeded draw (digital decks)."""

    type: ClassVar[str] = "card_drawn"
    deck: str
    card: str
    named: bool  # the referee named the card the table drew


@dataclass(frozen=True, slots=True)
class PortalOpened(Event):
    """An open portal switches the positions of two friendly pieces on the playmat."""

    type: ClassVar[str] = "portal_opened"
    character: str
    swapped: tuple[str, ...]
