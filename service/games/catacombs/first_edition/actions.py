"""Catacombs 1E's own actions: the rage track (catacombs-1e-rules-italian.txt: Preparazione degli eroi).
The flow's actions (``service.games.catacombs.flow.actions``, with the game-neutral ones) are re-exported, so
the first edition's modules read every action they know as ``A.<Name>`` from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from service.games.catacombs.flow.actions import (
    ACTION_TYPES,
    CARD_HOLDINGS,
    CORRECTABLE_STATUSES,
    Action,
    Decide,
    DeclareAction,
    DrawCards,
    EndTurn,
    EnterRoom,
    MalformedActionError,
    PlayCard,
    ResolveShot,
    SetCards,
    SetGold,
    SetHealth,
    SetStatus,
    SkipShot,
    StartBattle,
    UseService,
    action_from_json,
    action_to_json,
    register_action,
)


@register_action
@dataclass(frozen=True, slots=True)
class GainRage(Action):
    """Catacombs 1E: the marker on a hero's rage track moves up ``levels`` (never past its top), when his
    sheet's rule gives him rage (catacombs-1e-rules-italian.txt: Preparazione degli eroi)."""

    name: ClassVar[str] = "gain_rage"
    character: str
    levels: int = 1


@register_action
@dataclass(frozen=True, slots=True)
class SetRage(Action):
    """A referee correction (Catacombs 1E): the level on a hero's rage track."""

    name: ClassVar[str] = "set_rage"
    correction: ClassVar[bool] = True
    character: str
    rage: int
    reason: str = ""


__all__ = [
    "ACTION_TYPES",
    "Action",
    "CARD_HOLDINGS",
    "CORRECTABLE_STATUSES",
    "Decide",
    "DeclareAction",
    "DrawCards",
    "EndTurn",
    "EnterRoom",
    "GainRage",
    "MalformedActionError",
    "PlayCard",
    "ResolveShot",
    "SetCards",
    "SetGold",
    "SetHealth",
    "SetRage",
    "SetStatus",
    "SkipShot",
    "StartBattle",
    "UseService",
    "action_from_json",
    "action_to_json",
    "register_action",
]
