"""The Catacombs turn flow's actions (both editions): rooms, the battle, cards, services, draws and the
referee's corrections. The game-neutral ones (``service.rules.actions``) are re-exported, so the flow's
modules read every action they know as ``A.<Name>`` from here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from service.rules.actions import (
    ACTION_TYPES,
    CARD_HOLDINGS,
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
class EnterRoom(Action):
    """Flip the next Room card (from the start of the game or after a Resolution / special room)."""

    name: ClassVar[str] = "enter_room"
    # The playmat side the Overseer chooses (Setup Phase: not the same side twice in a row, except the Lair).
    playmat: str | None = None


@register_action
@dataclass(frozen=True, slots=True)
class StartBattle(Action):
    """Setup is complete (pieces placed): the Battle Phase begins with the heroes' turns."""

    name: ClassVar[str] = "start_battle"


@register_action
@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    """A hero plays a Spell, Ability or Item card as its action (or as a pre- / post-Combo item).

    ``alternative`` picks the card's Or-alternative; ``rush_first`` takes the one rush a Spell Caster may
    perform before casting (catacombs-3e-reference.txt: Playing Spell, Ability, or Item Cards).
    """

    name: ClassVar[str] = "play_card"
    character: str
    card: str
    alternative: int | None = None
    rush_first: bool = False
    kind: str | None = None  # "spell" | "ability" | "item", needed only when the hero holds both kinds


@register_action
@dataclass(frozen=True, slots=True)
class UseService(Action):
    """Buy a special room's service (docs/rules-api.md lists them by room).

    ``target`` is the hero (or ally) served; ``item`` the Item card bought at Izchak's; ``payment`` lists
    ``[hero, gold]`` pairs when the party pools its gold (by default the target pays first, then the others).
    """

    name: ClassVar[str] = "use_service"
    service: str
    target: str | None = None
    item: str | None = None
    payment: tuple[tuple[str, int], ...] = ()


@register_action
@dataclass(frozen=True, slots=True)
class DrawCards(Action):
    """The cards the table drew from one deck, in order, named by the referee (physical decks).

    ``deck`` is ``rooms``, ``monster_metre``, ``poison``, ``items``, ``tavern`` or ``allies``; ``cards`` are
    Room / Monster / Item / Hero card ids, Poison card values (``"3"``) or Tavern bag pieces (``orc``,
    ``fire-spirit``, ``centaur``, ``hero``). The next draws from that deck take them; allowed at any time,
    also while a decision is pending (a Monster Metre card drawn at random).
    """

    name: ClassVar[str] = "draw_cards"
    deck: str
    cards: tuple[str, ...]


@register_action
@dataclass(frozen=True, slots=True)
class SetHealth(Action):
    """A referee correction: set a character's health (the Overseer is the final arbiter)."""

    name: ClassVar[str] = "set_health"
    correction: ClassVar[bool] = True
    character: str
    health: int
    reason: str = ""


@register_action
@dataclass(frozen=True, slots=True)
class SetGold(Action):
    """A referee correction: set a hero's gold; the difference comes from or goes to the Treasury."""

    name: ClassVar[str] = "set_gold"
    correction: ClassVar[bool] = True
    character: str
    gold: int
    reason: str = ""


CORRECTABLE_STATUSES = ("stunned", "frozen", "devoured", "teleported", "reckless")


@register_action
@dataclass(frozen=True, slots=True)
class SetStatus(Action):
    """A referee correction: put a status card on a character or take it off."""

    name: ClassVar[str] = "set_status"
    correction: ClassVar[bool] = True
    character: str
    status: str
    on: bool
    reason: str = ""


@register_action
@dataclass(frozen=True, slots=True)
class SetCards(Action):
    """A referee correction: the cards of one kind (``items``, ``spells``, ``abilities``) a character holds.

    The Overseer is the final arbiter: the decks are not changed, the referee moves the physical cards.
    """

    name: ClassVar[str] = "set_cards"
    correction: ClassVar[bool] = True
    character: str
    kind: str
    cards: tuple[str, ...]
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
    "MalformedActionError",
    "PlayCard",
    "ResolveShot",
    "SetCards",
    "SetGold",
    "SetHealth",
    "SetStatus",
    "SkipShot",
    "StartBattle",
    "UseService",
    "action_from_json",
    "action_to_json",
    "register_action",
]
