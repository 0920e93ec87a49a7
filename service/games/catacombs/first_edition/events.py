"""Catacombs 1E's own events: the rage track. The flow's events (with the game-neutral ones) are
re-exported, so the first edition's modules read every event they know as ``E.<Name>`` from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from service.games.catacombs.flow.events import (
    EVENT_TYPES,
    ActionDeclared,
    AllyRecruited,
    BattleStarted,
    CardDrawn,
    CardPlayed,
    CardTaken,
    Corrected,
    Damaged,
    DecisionMade,
    DecisionRequired,
    Destroyed,
    DiscsReturned,
    Event,
    GameOver,
    GoldChanged,
    Healed,
    HeroDied,
    HeroReturned,
    HitIgnored,
    ItemGained,
    MonsterCardDiscarded,
    MonsterFlipped,
    MonsterPlaced,
    PoisonDrawn,
    PortalOpened,
    Reflected,
    RoomCleared,
    RoomEntered,
    RoundStarted,
    ShieldMoved,
    ShotResolved,
    ShotSkipped,
    SideToAct,
    StatusChanged,
    TavernDraw,
    TurnEnded,
    register_event,
)


@register_event
@dataclass(frozen=True, slots=True)
class RageChanged(Event):
    """Catacombs 1E: the marker on a hero's rage track moved (``change`` levels, now at ``rage``)."""

    type: ClassVar[str] = "rage_changed"
    character: str
    rage: int
    change: int


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
    "RageChanged",
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
