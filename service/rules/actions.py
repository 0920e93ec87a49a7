"""Typed actions: everything a person or the sensors can ask the rules to do. All serialise to JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from service.rules.codec import DecodeError, decode_dataclass, encode


class MalformedActionError(ValueError):
    """An action payload that does not describe any action."""


@dataclass(frozen=True, slots=True)
class Action:
    name: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class EnterRoom(Action):
    """Flip the next Room card (from the start of the game or after a Resolution / special room)."""

    name: ClassVar[str] = "enter_room"
    # The playmat side the Overseer chooses (Setup Phase: not the same side twice in a row, except the Lair).
    playmat: str | None = None


@dataclass(frozen=True, slots=True)
class StartBattle(Action):
    """Setup is complete (pieces placed): the Battle Phase begins with the heroes' turns."""

    name: ClassVar[str] = "start_battle"


@dataclass(frozen=True, slots=True)
class DeclareAction(Action):
    """A character begins its turn with the shot sequence of its card.

    ``alternative`` picks the Or-alternative (0-based, in printed order); when omitted and the card has
    several, a ``choose_alternative`` decision is raised.
    """

    name: ClassVar[str] = "declare"
    character: str
    alternative: int | None = None


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
    flicked: str | None = None


@dataclass(frozen=True, slots=True)
class SkipShot(Action):
    """Forfeit the expected shot (every shot is optional; RULINGS.md 2: a skipped Then shot is lost)."""

    name: ClassVar[str] = "skip_shot"
    character: str


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """The character's turn is over; any shots left in its sequence are forfeited."""

    name: ClassVar[str] = "end_turn"
    character: str


@dataclass(frozen=True, slots=True)
class Decide(Action):
    """Answer the pending decision with one of its options."""

    name: ClassVar[str] = "decide"
    decision: str
    option: str


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


@dataclass(frozen=True, slots=True)
class SetHealth(Action):
    """A referee correction: set a character's health (the Overseer is the final arbiter)."""

    name: ClassVar[str] = "set_health"
    character: str
    health: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SetGold(Action):
    """A referee correction: set a hero's gold; the difference comes from or goes to the Treasury."""

    name: ClassVar[str] = "set_gold"
    character: str
    gold: int
    reason: str = ""


CORRECTABLE_STATUSES = ("stunned", "frozen", "devoured", "teleported", "reckless")


@dataclass(frozen=True, slots=True)
class SetStatus(Action):
    """A referee correction: put a status card on a character or take it off."""

    name: ClassVar[str] = "set_status"
    character: str
    status: str
    on: bool
    reason: str = ""


CARD_HOLDINGS = {"items": "item", "spells": "spell", "abilities": "ability"}
"""What a hero's board holds, by the kind of card (catacombs-3e-reference.txt: Hero Player Boards)."""


@dataclass(frozen=True, slots=True)
class SetCards(Action):
    """A referee correction: the cards of one kind (``items``, ``spells``, ``abilities``) a character holds.

    The Overseer is the final arbiter: the decks are not changed, the referee moves the physical cards.
    """

    name: ClassVar[str] = "set_cards"
    character: str
    kind: str
    cards: tuple[str, ...]
    reason: str = ""


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


@dataclass(frozen=True, slots=True)
class ChangeForm(Action):
    """Catacombs & Castles: a boss that may change form at will (Xaugorth) changes before its shots."""

    name: ClassVar[str] = "change_form"
    character: str


@dataclass(frozen=True, slots=True)
class SetPool(Action):
    """A referee correction (Catacombs & Castles): the Health Tokens in a side's Health Pool."""

    name: ClassVar[str] = "set_pool"
    side: str
    health: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SetCharge(Action):
    """A referee correction (Catacombs & Castles): the Health Tokens on one of a character's cards."""

    name: ClassVar[str] = "set_charge"
    character: str
    card: str
    tokens: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SetArmour(Action):
    """A referee correction (Catacombs & Castles): Armour Tokens as uses left (2 full, 1 half)."""

    name: ClassVar[str] = "set_armour"
    character: str
    armour: tuple[int, ...]
    reason: str = ""


@dataclass(frozen=True, slots=True)
class GainRage(Action):
    """Catacombs 1E: the marker on a hero's rage track moves up ``levels`` (never past its top), when his
    sheet's rule gives him rage (catacombs-1e-rules-italian.txt: Preparazione degli eroi)."""

    name: ClassVar[str] = "gain_rage"
    character: str
    levels: int = 1


@dataclass(frozen=True, slots=True)
class SetRage(Action):
    """A referee correction (Catacombs 1E): the level on a hero's rage track."""

    name: ClassVar[str] = "set_rage"
    character: str
    rage: int
    reason: str = ""


CORRECTIONS = (SetHealth, SetGold, SetStatus, SetCards, SetPool, SetCharge, SetArmour, SetRage)
"""The referee's corrections: allowed while a decision is pending and after the game is over."""


ACTION_TYPES: dict[str, type[Action]] = {
    cls.name: cls
    for cls in (
        EnterRoom,
        StartBattle,
        DeclareAction,
        PlayCard,
        ResolveShot,
        SkipShot,
        EndTurn,
        Decide,
        UseService,
        DrawCards,
        SetHealth,
        SetGold,
        SetCards,
        SetStatus,
        PerformCard,
        ChangeForm,
        SetPool,
        SetCharge,
        SetArmour,
        GainRage,
        SetRage,
    )
}


def action_to_json(action: Action) -> dict[str, Any]:
    body = encode(action)
    assert isinstance(body, dict)
    if isinstance(action, ResolveShot) and action.flicked is None:
        del body["flicked"]  # not known: the record reads as it did before the field existed
    return {"action": action.name, **body}


def action_from_json(raw: Any) -> Action:
    """Builds the action a JSON object describes, or raises ``MalformedActionError`` saying why."""
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
