"""Domain events: what happened, as typed records with a human sentence in ``text``.

Every game's events subclass ``Event`` and register with ``@register_event`` in the game's own package, so
no two kinds of event share a ``type``. The core holds the ones every flicking game shares: the round and
the side to act, a character's turn and its shots, hits that do nothing, shield pieces and portals,
decisions, corrections and the end of the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from service.rules.codec import encode


@dataclass(frozen=True, slots=True)
class Event:
    type: ClassVar[str] = "event"
    text: str

    def to_json(self) -> dict[str, Any]:
        body = encode(self)
        assert isinstance(body, dict)
        return {"type": self.type, **body}


EVENT_TYPES: dict[str, type[Event]] = {}
"""Every registered event class by its ``type``."""

EventT = TypeVar("EventT", bound=type[Event])


def register_event(cls: EventT) -> EventT:
    """Class decorator: records ``cls`` under ``cls.type`` (no two classes share one)."""
    known = EVENT_TYPES.get(cls.type)
    if known is not None and known is not cls:
        raise ValueError(
            f"event type {cls.type!r} is taken by {known.__module__}.{known.__qualname__}, "
            f"not free for {cls.__module__}.{cls.__qualname__}"
        )
    EVENT_TYPES[cls.type] = cls
    return cls


@register_event
@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    type: ClassVar[str] = "round_started"
    round: int


@register_event
@dataclass(frozen=True, slots=True)
class SideToAct(Event):
    type: ClassVar[str] = "side_to_act"
    side: str


@register_event
@dataclass(frozen=True, slots=True)
class ActionDeclared(Event):
    type: ClassVar[str] = "action_declared"
    character: str
    declared: str


@register_event
@dataclass(frozen=True, slots=True)
class ShotResolved(Event):
    type: ClassVar[str] = "shot_resolved"
    character: str
    shot: str


@register_event
@dataclass(frozen=True, slots=True)
class ShotSkipped(Event):
    type: ClassVar[str] = "shot_skipped"
    character: str
    shot: str


@register_event
@dataclass(frozen=True, slots=True)
class HitIgnored(Event):
    """A direct hit that does nothing: friendly fire, chain, frozen target, nullified..."""

    type: ClassVar[str] = "hit_ignored"
    character: str
    by: str
    reason: str


@register_event
@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    type: ClassVar[str] = "turn_ended"
    character: str


@register_event
@dataclass(frozen=True, slots=True)
class DecisionRequired(Event):
    type: ClassVar[str] = "decision_required"
    decision: str
    kind: str


@register_event
@dataclass(frozen=True, slots=True)
class DecisionMade(Event):
    type: ClassVar[str] = "decision_made"
    decision: str
    option: str


@register_event
@dataclass(frozen=True, slots=True)
class Corrected(Event):
    type: ClassVar[str] = "corrected"
    character: str
    reason: str


@register_event
@dataclass(frozen=True, slots=True)
class GameOver(Event):
    type: ClassVar[str] = "game_over"
    winner: str


@register_event
@dataclass(frozen=True, slots=True)
class ShieldMoved(Event):
    """A shield piece placed beside its owner after a sequence with a shield shot, or removed from the mat."""

    type: ClassVar[str] = "shield_moved"
    owner: str  # "" when every shield piece is removed at once (the end of the Battle Phase)
    on_mat: bool


@register_event
@dataclass(frozen=True, slots=True)
class PortalOpened(Event):
    """An open portal switches the positions of two friendly pieces on the playmat."""

    type: ClassVar[str] = "portal_opened"
    character: str
    swapped: tuple[str, ...]
