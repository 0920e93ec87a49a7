"""Catacombs & Castles' own actions (both editions): charged cards, a boss's change of form and the
referee's corrections of tokens and armour. The game-neutral ones (``service.rules.actions``) are
re-exported, so the Castles modules read every action they know as ``A.<Name>`` from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from service.rules.actions import (
    ACTION_TYPES,
    Action,
    Decide,
    DeclareAction,
    EndTurn,
    MalformedActionError,
    ResolveShot,
    SkipShot,
    action_from_json,
    action_to_json,
    register_action,
)


@register_action
@dataclass(frozen=True, slots=True)
class PerformCard(Action):
    """Catacombs & Castles: perform a fully charged Ability, Team Action or Boss Action card instead of the
    character's shot sequence; its Health Tokens are discarded.

    ``card`` is ``"ability"``, ``"team_action"`` or a Boss Action card's id. ``helper`` is the friendly hero
    who performs the shots after a Horn of Heroes icon; ``order`` the heroes of a Team Action in the order the
    performing player chose (default: the performer, then the others as listed in the setup). ``placements``
    (1E Reinforcements) pairs each warrior the Overseer brings on with the quadrant (1-4) it enters.
    """

    name: ClassVar[str] = "perform_card"
    character: str
    card: str
    alternative: int | None = None
    helper: str | None = None
    order: tuple[str, ...] = ()
    placements: tuple[tuple[str, int], ...] = ()


@register_action
@dataclass(frozen=True, slots=True)
class ChangeForm(Action):
    """Catacombs & Castles: a boss that may change form at will (Xaugorth) changes before its shots."""

    name: ClassVar[str] = "change_form"
    character: str


@register_action
@dataclass(frozen=True, slots=True)
class SetPool(Action):
    """A referee correction (Catacombs & Castles): the Health Tokens in a side's Health Pool."""

    name: ClassVar[str] = "set_pool"
    correction: ClassVar[bool] = True
    side: str
    health: int
    reason: str = ""


@register_action
@dataclass(frozen=True, slots=True)
class SetCharge(Action):
    """A referee correction (Catacombs & Castles): the Health Tokens on one of a character's cards."""

    name: ClassVar[str] = "set_charge"
    correction: ClassVar[bool] = True
    character: str
    card: str
    tokens: int
    reason: str = ""


@register_action
@dataclass(frozen=True, slots=True)
class SetArmour(Action):
    """A referee correction (Catacombs & Castles): Armour Tokens as uses left (2 full, 1 half)."""

    name: ClassVar[str] = "set_armour"
    correction: ClassVar[bool] = True
    character: str
    armour: tuple[int, ...]
    reason: str = ""


__all__ = [
    "ACTION_TYPES",
    "Action",
    "ChangeForm",
    "Decide",
    "DeclareAction",
    "EndTurn",
    "MalformedActionError",
    "PerformCard",
    "ResolveShot",
    "SetArmour",
    "SetCharge",
    "SetPool",
    "SkipShot",
    "action_from_json",
    "action_to_json",
    "register_action",
]
