"""The game-neutral actions: the base, the open registry the codec finds them in, and the flicking turn.

Every game's actions subclass ``Action`` and register with ``@register_action``, in the game's own package
(``service.games``), so a game log's ``{"action": <name>, ...}`` decodes to its class wherever the game lives.
The core itself holds only what every flicking game shares: answering a pending decision, and the turn of
one character (declare its shot sequence, resolve or skip each shot, end the turn). A referee's correction
sets ``correction = True``: it is allowed while a decision is pending and after the game is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from service.rules.codec import OMIT_WHEN_DEFAULT, DecodeError, decode_dataclass, encode


class MalformedActionError(ValueError):
    """An action payload that does not describe any action."""


@dataclass(frozen=True, slots=True)
class Action:
    name: ClassVar[str] = ""
    correction: ClassVar[bool] = False  # a referee's correction (allowed while pending and after the end)


ACTION_TYPES: dict[str, type[Action]] = {}
"""Every registered action class by its ``name``: the registry ``action_from_json`` decodes through."""

ActionT = TypeVar("ActionT", bound=type[Action])


def register_action(cls: ActionT) -> ActionT:
    """Class decorator: ``cls`` decodes from a game log under ``cls.name`` (no two classes share one)."""
    if not cls.name:
        raise ValueError(f"{cls.__qualname__} has no action name")
    known = ACTION_TYPES.get(cls.name)
    if known is not None and known is not cls:
        raise ValueError(
            f"action name {cls.name!r} is taken by {known.__module__}.{known.__qualname__}, "
            f"not free for {cls.__module__}.{cls.__qualname__}"
        )
    ACTION_TYPES[cls.name] = cls
    return cls


@register_action
@dataclass(frozen=True, slots=True)
class DeclareAction(Action):
    """A character begins its turn with the shot sequence of its card.

    ``alternative`` picks the Or-alternative (0-based, in printed order); when omitted and the card has
    several, a ``choose_alternative`` decision is raised.
    """

    name: ClassVar[str] = "declare"
    character: str
    alternative: int | None = None


@register_action
@dataclass(frozen=True, slots=True)
class ResolveShot(Action):
    """The attribution of one flick: which pieces the flicked piece touched directly, etc.

    ``direct_hits`` are in the order they were struck. ``pushed_off_mat`` are pieces that left the mat
    (shadow monsters die only so). ``knocked_off`` are frozen characters whose ice piece was knocked off.
    ``target`` is the declared target of a target shot. ``fire_wall_contacts`` are characters that touched
    a fire wall in any way during the shot. ``teleported`` is the character a teleport shot sends to the
    Teleported! card (the performer when omitted); ``swapped`` the two friendly pieces an open portal
    switches. ``flicked`` is the character whose disc the mat saw flicked (a teammate's in a Team Action, a
    grabbed enemy's, the frightened character's); omitted when not known (older logs, a ranged or shield
    piece), the rules take the expected shot's piece. The rules refuse a disc the shot may not flick and
    book the hits to the character the flicked disc performs for.
    """

    name: ClassVar[str] = "resolve_shot"
    character: str
    shot: str
    direct_hits: tuple[str, ...] = ()
    pushed_off_mat: tuple[str, ...] = ()
    knocked_off: tuple[str, ...] = ()
    target: str | None = None
    fire_wall_contacts: tuple[str, ...] = ()
    teleported: str | None = None
    swapped: tuple[str, ...] = ()
    # not known: the record reads as it did before the field existed
    flicked: str | None = field(default=None, metadata={OMIT_WHEN_DEFAULT: True})


@register_action
@dataclass(frozen=True, slots=True)
class SkipShot(Action):
    """Forfeit the expected shot (every shot is optional; RULINGS.md 2: a skipped Then shot is lost)."""

    name: ClassVar[str] = "skip_shot"
    character: str


@register_action
@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """The character's turn is over; any shots left in its sequence are forfeited."""

    name: ClassVar[str] = "end_turn"
    character: str


@register_action
@dataclass(frozen=True, slots=True)
class Decide(Action):
    """Answer the pending decision with one of its options."""

    name: ClassVar[str] = "decide"
    decision: str
    option: str


CARD_HOLDINGS = {"items": "item", "spells": "spell", "abilities": "ability"}
"""What a hero's board holds, by the kind of card: the kinds a ``set_cards`` correction names. Kept in the
core while ``service/table/commands.py`` imports it from here."""


def action_to_json(action: Action) -> dict[str, Any]:
    body = encode(action)
    assert isinstance(body, dict)
    return {"action": action.name, **body}


def action_from_json(raw: Any) -> Action:
    """Builds the action a JSON object describes, or raises ``MalformedActionError`` saying why.

    The action's class is found in ``ACTION_TYPES``: the games register theirs when ``service.games`` is
    imported (the registry of games imports every game's package)."""
    if not isinstance(raw, dict):
        raise MalformedActionError(f"an action must be a JSON object, got {type(raw).__name__}")
    name = raw.get("action")
    cls = ACTION_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise MalformedActionError(f"unknown action {name!r}; known: {sorted(ACTION_TYPES)}")
    fields = {k: v for k, v in raw.items() if k != "action"}
    try:
        return decode_dataclass(cls, fields, name or "action")
    except DecodeError as exc:
        raise MalformedActionError(str(exc)) from exc
