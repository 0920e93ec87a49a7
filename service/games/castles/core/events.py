"""The events only Catacombs & Castles has: Health Tokens moving between pools, cards and armour."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from service.rules.events import Event, register_event


@register_event
@dataclass(frozen=True, slots=True)
class TokensLost(Event):
    """Damage: Health Tokens leave a side's Health Pool."""

    type: ClassVar[str] = "tokens_lost"
    side: str
    character: str  # the character damaged
    by: str
    amount: int
    health: int  # the pool afterwards


@register_event
@dataclass(frozen=True, slots=True)
class TokensTransferred(Event):
    """Where captured tokens went: ``transfer`` is power, assist, health, void, capture or discard."""

    type: ClassVar[str] = "tokens_transferred"
    transfer: str
    by: str
    to: str  # a character, a side (health transfer) or "" (discarded)
    card: str
    amount: int


@register_event
@dataclass(frozen=True, slots=True)
class ArmourUsed(Event):
    type: ClassVar[str] = "armour_used"
    character: str
    uses_left: int


@register_event
@dataclass(frozen=True, slots=True)
class ArmourGained(Event):
    type: ClassVar[str] = "armour_gained"
    character: str
    uses: int


@register_event
@dataclass(frozen=True, slots=True)
class WarriorRemoved(Event):
    type: ClassVar[str] = "warrior_removed"
    character: str
    by: str


@register_event
@dataclass(frozen=True, slots=True)
class WarriorSummoned(Event):
    type: ClassVar[str] = "warrior_summoned"
    character: str
    by: str


@register_event
@dataclass(frozen=True, slots=True)
class CardPerformed(Event):
    type: ClassVar[str] = "card_performed"
    character: str
    card: str
    tokens: int


@register_event
@dataclass(frozen=True, slots=True)
class FormChanged(Event):
    type: ClassVar[str] = "form_changed"
    character: str
    form: str


@register_event
@dataclass(frozen=True, slots=True)
class TrapChanged(Event):
    type: ClassVar[str] = "trap_changed"
    character: str
    trapped: bool


@register_event
@dataclass(frozen=True, slots=True)
class ReturnedToStart(Event):
    """1E Temporal Shift: a damaged opponent goes back to its Start Zone."""

    type: ClassVar[str] = "returned_to_start"
    character: str
    by: str
