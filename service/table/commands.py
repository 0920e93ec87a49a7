"""What a referee's command means for the log: ``cmd/request`` arguments → the records to append.

Pure: reads the table session, writes nothing. The daemon checks each record against the session, appends it,
applies it, and answers the command (docs/mqtt.md lists every command and its arguments).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from service.rules.actions import CARD_HOLDINGS
from service.sensing.tags import TagRegistry
from service.table.session import TableSession

# Rules actions a command passes through unchanged (their fields are the rules' own, docs/rules-api.md).
PASS_THROUGH = ("enter_room", "start_battle", "use_service", "play_card", "gain_rage")
NEEDS_TURN = ("skip_shot", "end_turn")
# rage: the Catacombs 1E Barbarian's rage track (the other rule sets refuse set_rage, naming their rules).
CORRECTABLE = {"health": ("set_health", "health"), "gold": ("set_gold", "gold"), "rage": ("set_rage", "rage")}

Record = tuple[str, dict[str, Any]]


class CommandRefused(ValueError):
    """A command that cannot be carried out; the message goes back on ``cmd/response``."""


_SHOT_ARGS = ("direct_hits", "pushed_off_mat", "knocked_off", "target", "teleported", "swapped", "reason")

# Every argument each command takes (docs/mqtt.md). Anything else is refused: a misspelt "cuont" must not
# quietly turn "undo 3" into "undo 1". ``shot`` on confirm_hits names the shot the page showed (its
# ``shot_seq``); ``flicked`` on manual_shot comes with the console's form and goes into the action (the rules
# check the disc and book the hits to whoever it performs for).
ARGUMENTS: Mapping[str, frozenset[str]] = {
    name: frozenset(keys)
    for name, keys in {
        "declare": ("character", "alternative", "action", "placements"),
        "answer": ("decision", "option"),
        "confirm_hits": ("candidate", "shot", *_SHOT_ARGS),
        "manual_shot": ("character", "shot", "flicked", *_SHOT_ARGS),
        "dismiss_shot": ("reason",),
        "correct": ("target", "field", "value", "card", "change", "reason"),
        "undo": ("count", "reason", "seq"),
        "pause": ("reason",),
        "resume": ("reason",),
        "bind": ("character", "piece"),
        "swap_tag": ("piece", "uid", "reason"),
        "new_game": ("reason",),
        "skip_shot": ("character",),
        "end_turn": ("character",),
        "enter_room": ("playmat",),
        "start_battle": (),
        "draw": ("deck", "cards"),
        "use_service": ("service", "target", "item", "payment"),
        "play_card": ("character", "card", "alternative", "rush_first", "kind"),
        "gain_rage": ("character", "levels"),
    }.items()
}


def records_for(
    name: str, args: Mapping[str, Any], session: TableSession, registry: TagRegistry
) -> list[Record]:
    handler = _HANDLERS.get(name)
    if handler is None:
        raise CommandRefused(f"unknown command {name!r}")
    unknown = sorted(set(args) - ARGUMENTS[name])
    if unknown:
        takes = ", ".join(sorted(ARGUMENTS[name])) or "no arguments"
        raise CommandRefused(f"{name} does not take {', '.join(map(repr, unknown))} (it takes {takes})")
    return handler(dict(args), session, registry)


def _reason(args: Mapping[str, Any]) -> str:
    """The free text a command records in the game log: text or nothing, never an object turned to text."""
    value = args.get("reason")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise CommandRefused(f"reason must be text, got {value!r}")
    return value


def _id_list(args: Mapping[str, Any], key: str) -> list[str]:
    value = args.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CommandRefused(f"{key} must be a list of character or disc ids")
    return value


def _character_of(session: TableSession, name: str) -> dict[str, str]:
    """Ids a page may send (a character id, or the id of the disc standing for it) → character ids."""
    return {piece: character for character, piece in session.discs.items()} | {
        c.id: c.id for c in (session.state.characters if session.state else ())
    }


def _characters(
    session: TableSession, args: Mapping[str, Any], key: str, registry: TagRegistry | None = None
) -> list[str]:
    """Character ids for the ids given; discs that stand for no character (a ranged piece, an obstacle) take
    no damage and are left out; anything else unknown is refused."""
    value = _id_list(args, key)
    known = _character_of(session, key)
    discs = {entry.piece for entry in registry.pieces} if registry else set()
    unknown = [v for v in value if v not in known and v not in discs]
    if unknown:
        raise CommandRefused(f"{key}: {unknown} are neither characters of this game nor discs of this table")
    return list(dict.fromkeys(known[v] for v in value if v in known))


def _resolve(
    session: TableSession, character: str, shot: str, args: Mapping[str, Any], registry: TagRegistry
) -> dict[str, Any]:
    action = {
        "action": "resolve_shot",
        "character": character,
        "shot": shot,
        "direct_hits": _characters(session, args, "direct_hits", registry),
        "pushed_off_mat": _characters(session, args, "pushed_off_mat", registry),
        "knocked_off": _characters(session, args, "knocked_off", registry),
    }
    if args.get("target") is not None:
        if not isinstance(args["target"], str):
            raise CommandRefused(f"target must be one character or disc id, got {args['target']!r}")
        action["target"] = _characters(session, {"target": [args["target"]]}, "target")[0]
    if args.get("teleported") is not None:  # a teleport shot that sends another character away
        if not isinstance(args["teleported"], str):
            raise CommandRefused(f"teleported must be one character or disc id, got {args['teleported']!r}")
        action["teleported"] = _characters(session, {"teleported": [args["teleported"]]}, "teleported")[0]
    if args.get("swapped"):  # the two friendly pieces an open portal switches
        action["swapped"] = _characters(session, args, "swapped", registry)
    if args.get("flicked") is not None:
        # The disc that was flicked (a character or its disc): the rules check it may be flicked for this
        # shot and book the hits to whoever it performs for. A ranged piece stands for nobody: left out.
        if not isinstance(args["flicked"], str):
            raise CommandRefused(f"flicked must be one character or disc id, got {args['flicked']!r}")
        named = _characters(session, {"flicked": [args["flicked"]]}, "flicked", registry)
        if named:
            action["flicked"] = named[0]
    return action


def _declare(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    if args.get("action") and session.rules is not None and session.rules.name.startswith("catacombs-and-"):
        return [("action", _castles_card(args))]
    if args.get("action"):  # a Spell, Item or Ability card instead of the Rules card
        card = {"action": "play_card", "character": args.get("character"), "card": args["action"]}
        if args.get("alternative") is not None:
            card["alternative"] = args["alternative"]
        return [("action", card)]
    return [
        (
            "action",
            {"action": "declare", **{k: v for k, v in args.items() if k in ("character", "alternative")}},
        )
    ]


def _castles_card(args: Mapping[str, Any]) -> dict[str, Any]:
    """Catacombs & Castles: ``declare {character, action}`` performs a charged card instead of the shot
    sequence. ``action`` is an entry id of the snapshot's ``actions`` (``<character>:<card>:<alternative>``),
    or a card (``ability``, ``team_action``, a Boss Action card's id) with ``alternative``; ``change_form``
    changes a boss's form (catacombs-and-castles-2e-manual.md: Castle and Catacomb Bosses)."""
    character, action = args.get("character"), args.get("action")
    if not isinstance(action, str):
        raise CommandRefused(f"action must name a card or an entry of the actions list, got {action!r}")
    if action == "change_form":
        return {"action": "change_form", "character": character}
    card, alternative = action, args.get("alternative")
    if ":" in action:
        parts = action.rsplit(":", 2)
        if len(parts) != 3 or parts[0] != character or not parts[2].isdigit():
            raise CommandRefused(f"action {action!r} is not an entry of {character}'s actions")
        card, alternative = parts[1], int(parts[2])
    body = {"action": "perform_card", "character": character, "card": card}
    if alternative is not None:
        body["alternative"] = alternative
    if args.get("placements") is not None:  # 1E Reinforcements: [[warrior, quadrant], ...]
        body["placements"] = args["placements"]
    return body


def _turn_action(name: str) -> Any:
    def handler(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
        character = args.get("character")
        if character is None:
            turn = session.state.turn if session.state else None
            if turn is None:
                raise CommandRefused(f"{name}: no character is taking a turn")
            character = turn.character
        return [("action", {"action": name, "character": character})]

    return handler


def _pass_through(name: str) -> Any:
    def handler(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
        # ARGUMENTS keeps "action" out: it would turn enter_room into set_health and slip a correction past
        # its reason and its "correction" record.
        return [("action", {"action": name, **args})]

    return handler


def _answer(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    return [("action", {"action": "decide", "decision": args.get("decision"), "option": args.get("option")})]


def _confirm_hits(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    pending = session.pending_shot
    if pending is None:
        raise CommandRefused("no shot is waiting for confirmation")
    if pending.get("attributing"):
        raise CommandRefused(
            "the mat is still reading this shot: wait for its readings, or enter the hits with manual_shot"
        )
    shown = args.get("shot")
    if shown is not None and str(shown) != str(pending["seq"]):
        # The page showed another shot (set aside, or a second referee settled it meanwhile): its candidate
        # index and hits must not be applied to the shot waiting now.
        raise CommandRefused(
            f"the confirmation is for shot {shown}, but the shot waiting is {pending['seq']}: look again"
        )
    if "direct_hits" in args:
        _id_list(args, "direct_hits")  # compared with the candidates' before it is checked against the game
    index = args.get("candidate")
    candidates = pending.get("candidates", [])
    chosen_as_shown = index is not None and (
        "direct_hits" not in args
        or (
            isinstance(index, int)
            and 0 <= index < len(candidates)
            and sorted(args["direct_hits"]) == sorted(candidates[index].get("direct_hits", []))
        )
    )
    if chosen_as_shown:  # the referee picked one reading as the console showed it
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(candidates):
            raise CommandRefused(f"candidate must be 0..{len(candidates) - 1}, got {index!r}")
        chosen = candidates[index]
        args = {
            "direct_hits": chosen.get("hit_characters", []),
            "pushed_off_mat": chosen.get("off_mat_characters", []),
            "knocked_off": chosen.get("freed_characters", []),
        }
    if pending.get("flicked") is not None:
        args = {**args, "flicked": pending["flicked"]}  # the disc the mat saw flicked for this shot
    return [("action", _resolve(session, pending["character"], pending["shot"], args, registry))]


def _manual_shot(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    expected = session.state.expected_shot() if session.state else None
    if expected is None:
        raise CommandRefused("no shot is expected now")
    character = args.get("character") or expected["character"]
    return [("action", _resolve(session, character, args.get("shot") or expected["shot"], args, registry))]


def _dismiss(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    return [("dismiss", {"reason": _reason(args)})]


def _correct(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    reason = " ".join(_reason(args).split())
    if not reason:
        raise CommandRefused("a correction needs a reason for the game log")
    field = args.get("field")
    if session.rules is not None and session.rules.name.startswith("catacombs-and-"):
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
    characters = _characters(session, {"target": [target]}, "target") if isinstance(target, str) else []
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
    state = session.state
    assert state is not None
    sides = {s.id for s in getattr(state, "sides", ())}  # a Castles state: GameState does not declare them
    if field == "armour":
        if not isinstance(value, list) or not all(v in (1, 2) and not isinstance(v, bool) for v in value):
            raise CommandRefused(f"armour needs a list of uses per token (2 full, 1 half), got {value!r}")
    elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CommandRefused(f"correct needs a whole number value, got {value!r}")
    if field == "health" and target in sides:
        action = {"action": "set_pool", "side": target, "health": value}
    else:
        found = _characters(session, {"target": [target]}, "target") if isinstance(target, str) else []
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


def _correct_card(args: dict[str, Any], session: TableSession, reason: str) -> list[Record]:
    """Give a card to a hero or take one away: the whole holding of that kind, as ``set_cards``."""
    target, card, change = args.get("target"), args.get("card"), args.get("change")
    if change not in ("give", "take"):
        raise CommandRefused(f"a card correction needs change 'give' or 'take', got {change!r}")
    characters = _characters(session, {"target": [target]}, "target") if isinstance(target, str) else []
    if not characters or session.rules is None or session.state is None:
        raise CommandRefused("correct needs a target character")
    character = session.state.character(characters[0])
    holding = None
    for kind, card_kind in CARD_HOLDINGS.items():
        try:
            session.rules.content.card(card_kind, str(card))
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


def _undo(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    count = args.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 20:
        raise CommandRefused(f"undo count must be 1..20, got {count!r}")
    undoable = session.undoable()
    if count > undoable:
        # Refused whole: undoing some and then answering "refused" would change the game unannounced.
        raise CommandRefused(f"only {undoable} action(s) can be undone, not {count}")
    if "seq" in args:
        # The move the referee was shown: taken back only while it is still the last one in effect, so a shot
        # applied between the look and the tap is never taken back in its place.
        seq = args["seq"]
        if not isinstance(seq, int) or isinstance(seq, bool) or count != 1:
            raise CommandRefused("undo seq must be the record number of one action, with count 1")
        shown = session.undo_next()
        if shown is None or shown["seq"] != seq:
            now = f"the last move is now {shown['what']}" if shown else "nothing is left to undo"
            raise CommandRefused(f"that move is no longer the last one ({now}): look again, then undo")
        return [("undo", {"reason": _reason(args), "seq": seq})]
    return [("undo", {"reason": _reason(args)})] * count


def _pause(kind: str) -> Any:
    def handler(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
        if (kind == "pause") == session.paused:
            raise CommandRefused(f"the game is already {'paused' if session.paused else 'running'}")
        return [(kind, {"reason": _reason(args)})]

    return handler


def _new_game(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    """Close this game; the daemon follows the record with the table's setup for the next one."""
    return [("new_game", {"reason": _reason(args)})]


def _bind(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    character, piece = str(args.get("character", "")), str(args.get("piece", ""))
    try:
        registry.entry(piece)
    except KeyError:
        raise CommandRefused(f"disc {piece!r} is not registered at this table") from None
    if session.state is None or session.state.find(character) is None:
        raise CommandRefused(f"no character {character!r} in this game")
    return [("bind", {"character": character, "piece": piece})]


def _swap_tag(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    """A disc swapped mid-game for one with another tag: refused, naming the UID, if the tag is taken."""
    piece, uid = str(args.get("piece", "")), str(args.get("uid", "")).lower()
    if not re.fullmatch(r"(?:[0-9a-f]{2}){4,10}", uid):
        raise CommandRefused(f"tag {uid!r} is not an NFC UID (4 to 10 bytes of hex)")
    try:
        old = registry.entry(piece).uid.hex()
    except KeyError:
        raise CommandRefused(f"disc {piece!r} is not registered at this table") from None
    owner = registry.find(bytes.fromhex(uid))
    if owner is not None:
        same = owner.piece == piece
        raise CommandRefused(f"tag {uid} is {'already' if same else 'registered for'} {owner.piece}")
    if session.state is None:
        raise CommandRefused("no game at this table yet")
    return [("swap_tag", {"piece": piece, "old_uid": old, "new_uid": uid, "reason": _reason(args)})]


def _draw(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    """The card(s) the table drew from one deck; the rules check them against what can still be in it."""
    cards = args.get("cards")
    if not isinstance(cards, list) or not cards or not all(isinstance(c, str | int) for c in cards):
        raise CommandRefused(f"draw: 'cards' must list the cards drawn, in order, got {cards!r}")
    return [("action", {"action": "draw_cards", "deck": args.get("deck"), "cards": [str(c) for c in cards]})]


Handler = Callable[[dict[str, Any], TableSession, TagRegistry], list[Record]]

_HANDLERS: Mapping[str, Handler] = {
    "draw": _draw,
    "declare": _declare,
    "answer": _answer,
    "confirm_hits": _confirm_hits,
    "manual_shot": _manual_shot,
    "dismiss_shot": _dismiss,
    "correct": _correct,
    "undo": _undo,
    "pause": _pause("pause"),
    "resume": _pause("resume"),
    "bind": _bind,
    "swap_tag": _swap_tag,
    "new_game": _new_game,
    **{name: _turn_action(name) for name in NEEDS_TURN},
    **{name: _pass_through(name) for name in PASS_THROUGH},
}
