"""A referee's correction: a value set by hand, with its reason, as a ``correction`` record.

Catacombs: health, gold, rage (the 1E Barbarian's track) and cards held; Catacombs & Castles: a side's Health
Pool, the tokens on a card, the Armour Tokens. Each becomes the rules' own ``set_*`` action, checked by the
rules like any other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from service.rules.actions import CARD_HOLDINGS
from service.sensing.tags import TagRegistry
from service.table.commands.catalogue import CommandRefused, Record
from service.table.commands.targets import characters_named, reason_of
from service.table.games import plays_sides
from service.table.session import TableSession

# rage: the Catacombs 1E Barbarian's rage track (the other rule sets refuse set_rage, naming their rules).
CORRECTABLE = {"health": ("set_health", "health"), "gold": ("set_gold", "gold"), "rage": ("set_rage", "rage")}


def correct(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    reason = " ".join(reason_of(args).split())
    if not reason:
        raise CommandRefused("a correction needs a reason for the game log")
    field = args.get("field")
    if session.rules is not None and plays_sides(session.rules.name):
        return _correct_castles(args, session, reason)
    if field == "card":
        return _correct_card(args, session, reason)
    if not isinstance(field, str) or field not in CORRECTABLE:
        raise CommandRefused(
            f"correct: field {field!r} cannot be set by hand here; correctable: "
            f"{', '.join(CORRECTABLE)}, card (poison: undo the action that drew it)"
        )
    action, key = CORRECTABLE[field]
    target = args.get("target")
    if target == "party":
        raise CommandRefused("correct gold for one hero at a time (target a hero, not the party)")
    characters = characters_named(session, {"target": [target]}, "target") if isinstance(target, str) else []
    if not characters:
        raise CommandRefused("correct needs a target character")
    value = args.get("value")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CommandRefused(f"correct needs a whole number value, got {value!r}")
    return [
        (
            "correction",
            {
                "action": {"action": action, "character": characters[0], key: value, "reason": reason},
                "reason": reason,
            },
        )
    ]


def _correct_castles(args: Mapping[str, Any], session: TableSession, reason: str) -> list[Record]:
    """Catacombs & Castles corrections: ``health`` of a hero or boss (or of a side, by its id) is its side's
    Health Pool (``set_pool``); ``charge`` the tokens on one of a character's cards (``card``: its id or
    ``ability`` / ``team_action``; ``set_charge``); ``armour`` its Armour Tokens (``value``: uses left per
    token, 2 full, 1 half; ``set_armour``)."""
    field, target, value = args.get("field"), args.get("target"), args.get("value")
    state = session.character_state()
    if state is None:
        raise CommandRefused("correct needs a game played with characters")
    sides = {s.id for s in getattr(state, "sides", ())}  # a Castles state: GameState does not declare them
    if field == "armour":
        if not isinstance(value, list) or not all(v in (1, 2) and not isinstance(v, bool) for v in value):
            raise CommandRefused(f"armour needs a list of uses per token (2 full, 1 half), got {value!r}")
    elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CommandRefused(f"correct needs a whole number value, got {value!r}")
    if field == "health" and target in sides:
        action = {"action": "set_pool", "side": target, "health": value}
    else:
        found = characters_named(session, {"target": [target]}, "target") if isinstance(target, str) else []
        if not found:
            raise CommandRefused(f"correct needs a target character or side ({', '.join(sorted(sides))})")
        character = state.character(found[0])
        if field == "health":
            if character.kind == "warrior":
                raise CommandRefused("a warrior has a single health point: undo the shot that removed it")
            action = {"action": "set_pool", "side": character.side, "health": value}
        elif field == "charge":
            action = {
                "action": "set_charge",
                "character": character.id,
                "card": args.get("card"),
                "tokens": value,
            }
        elif field == "armour":
            action = {"action": "set_armour", "character": character.id, "armour": value}
        else:
            raise CommandRefused(
                f"correct: field {field!r} is not one of a Catacombs & Castles game's: health (the side's "
                "Health Pool), charge (with card), armour"
            )
    return [("correction", {"action": {**action, "reason": reason}, "reason": reason})]


@runtime_checkable
class CardCatalogue(Protocol):
    """A game's cards as its rules read them, looked up by kind and id (``LookupError``: no such card)."""

    def card(self, kind: str, card_id: str) -> object: ...


def _correct_card(args: dict[str, Any], session: TableSession, reason: str) -> list[Record]:
    """Give a card to a hero or take one away: the whole holding of that kind, as ``set_cards``."""
    target, card, change = args.get("target"), args.get("card"), args.get("change")
    if change not in ("give", "take"):
        raise CommandRefused(f"a card correction needs change 'give' or 'take', got {change!r}")
    characters = characters_named(session, {"target": [target]}, "target") if isinstance(target, str) else []
    state = session.character_state()
    if not characters or session.rules is None or state is None:
        raise CommandRefused("correct needs a target character")
    character = state.character(characters[0])
    content = session.rules.content
    if not isinstance(content, CardCatalogue):
        raise CommandRefused("this game's cards are not held by its characters: no card to give or take")
    holding = None
    for kind, card_kind in CARD_HOLDINGS.items():
        try:
            content.card(card_kind, str(card))
        except LookupError:
            continue
        holding = kind
        break
    if holding is None:
        raise CommandRefused(f"there is no Item, Spell or Ability card {card!r}")
    cards = list(getattr(character, holding))
    if change == "give":
        cards.append(str(card))
    elif str(card) in cards:
        cards.remove(str(card))
    else:
        raise CommandRefused(f"{character.name} holds no {card!r} to take")
    action = {
        "action": "set_cards",
        "character": character.id,
        "kind": holding,
        "cards": cards,
        "reason": reason,
    }
    return [("correction", {"action": action, "reason": reason})]
