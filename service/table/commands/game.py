"""What a referee's command means for the log: ``cmd/request`` arguments → the records to append.

Pure: reads the table session, writes nothing. The command and its arguments have been checked against the
catalogue (catalogue.py) before they get here; the checks left are those against the game. The daemon checks
each record against the session, appends it, applies it, and answers the command.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from service.sensing.tags import TagRegistry
from service.table.commands.catalogue import CATALOGUE, CommandRefused, Record
from service.table.commands.corrections import correct
from service.table.commands.targets import characters_named, id_list, reason_of
from service.table.games import plays_sides
from service.table.session import TableSession

# Rules actions a command passes through unchanged (their fields are the rules' own, docs/rules-api.md).
PASS_THROUGH = ("enter_room", "start_battle", "use_service", "play_card", "gain_rage")
NEEDS_TURN = ("skip_shot", "end_turn")


def records_for(
    name: str, args: Mapping[str, Any], session: TableSession, registry: TagRegistry
) -> list[Record]:
    """The records a game command makes (one the catalogue hands to the game, its arguments checked)."""
    handler = _HANDLERS.get(name)
    if handler is None or CATALOGUE[name].handled_by != "game":
        raise CommandRefused(f"{name} is not a command of the game")
    return handler(dict(args), session, registry)


def _resolve(
    session: TableSession, character: str, shot: str, args: Mapping[str, Any], registry: TagRegistry
) -> dict[str, Any]:
    action = {
        "action": "resolve_shot",
        "character": character,
        "shot": shot,
        "direct_hits": characters_named(session, args, "direct_hits", registry),
        "pushed_off_mat": characters_named(session, args, "pushed_off_mat", registry),
        "knocked_off": characters_named(session, args, "knocked_off", registry),
    }
    if args.get("target") is not None:
        if not isinstance(args["target"], str):
            raise CommandRefused(f"target must be one character or disc id, got {args['target']!r}")
        action["target"] = characters_named(session, {"target": [args["target"]]}, "target")[0]
    if args.get("teleported") is not None:  # a teleport shot that sends another character away
        if not isinstance(args["teleported"], str):
            raise CommandRefused(f"teleported must be one character or disc id, got {args['teleported']!r}")
        action["teleported"] = characters_named(session, {"teleported": [args["teleported"]]}, "teleported")[
            0
        ]
    if args.get("swapped"):  # the two friendly pieces an open portal switches
        action["swapped"] = characters_named(session, args, "swapped", registry)
    if args.get("flicked") is not None:
        # The disc that was flicked (a character or its disc): the rules check it may be flicked for this
        # shot and book the hits to whoever it performs for. A ranged piece stands for nobody: left out.
        if not isinstance(args["flicked"], str):
            raise CommandRefused(f"flicked must be one character or disc id, got {args['flicked']!r}")
        named = characters_named(session, {"flicked": [args["flicked"]]}, "flicked", registry)
        if named:
            action["flicked"] = named[0]
    return action


def _declare(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    if args.get("action") and session.rules is not None and plays_sides(session.rules.name):
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
            state = session.character_state()
            turn = state.turn if state else None
            if turn is None:
                raise CommandRefused(f"{name}: no character is taking a turn")
            character = turn.character
        return [("action", {"action": name, "character": character})]

    return handler


def _pass_through(name: str) -> Any:
    def handler(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
        # The catalogue keeps "action" out: it would turn enter_room into set_health and slip a correction
        # past its reason and its "correction" record.
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
        id_list(args, "direct_hits")  # compared with the candidates' before it is checked against the game
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
    return [("dismiss", {"reason": reason_of(args)})]


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
        return [("undo", {"reason": reason_of(args), "seq": seq})]
    return [("undo", {"reason": reason_of(args)})] * count


def _pause(kind: str) -> Any:
    def handler(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
        if (kind == "pause") == session.paused:
            raise CommandRefused(f"the game is already {'paused' if session.paused else 'running'}")
        return [(kind, {"reason": reason_of(args)})]

    return handler


def _new_game(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    """Close this game; the daemon follows the record with the table's setup for the next one."""
    return [("new_game", {"reason": reason_of(args)})]


def _bind(args: dict[str, Any], session: TableSession, registry: TagRegistry) -> list[Record]:
    character, piece = str(args.get("character", "")), str(args.get("piece", ""))
    try:
        registry.entry(piece)
    except KeyError:
        raise CommandRefused(f"disc {piece!r} is not registered at this table") from None
    state = session.character_state()
    if state is None or state.find(character) is None:
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
    return [("swap_tag", {"piece": piece, "old_uid": old, "new_uid": uid, "reason": reason_of(args)})]


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
    "correct": correct,
    "undo": _undo,
    "pause": _pause("pause"),
    "resume": _pause("resume"),
    "bind": _bind,
    "swap_tag": _swap_tag,
    "new_game": _new_game,
    **{name: _turn_action(name) for name in NEEDS_TURN},
    **{name: _pass_through(name) for name in PASS_THROUGH},
}


def handled_commands() -> frozenset[str]:
    """The commands this module turns into records (the catalogue's ``handled_by="game"`` ones)."""
    return frozenset(_HANDLERS)
