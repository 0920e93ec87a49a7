"""The commands a referee may send to the daemon, checked before anything is published.

A request on ``cmd/request`` is ``{"txn", "actor": "referee:<name>", "command", "args"}``; the daemon
answers on ``cmd/response`` with ``{"txn", "ok", "error"?, "seq"?}``. :func:`build_request` turns what a
page posted into that request or raises :class:`CommandError` saying exactly what is wrong, so a malformed
request never reaches the broker. The catalogue is documented in ``docs/dashboard.md``.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_TOKEN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
REASON_MAX = 200


class CommandError(ValueError):
    """A command request that is not in the catalogue or has wrong arguments."""


@dataclass(frozen=True)
class CommandResult:
    """The daemon's answer, or a timeout (``ok`` False, ``error`` says so)."""

    txn: str
    ok: bool
    error: str | None = None
    seq: int | None = None
    answered: bool = True  # False when the daemon never answered (broker down, daemon stopped)

    def to_json(self) -> dict[str, Any]:
        return {
            "txn": self.txn,
            "ok": self.ok,
            "error": self.error,
            "seq": self.seq,
            "answered": self.answered,
        }


class CommandChannel(Protocol):
    """Where the referee's commands go: the MQTT referee credential, or a fake in tests."""

    def send(self, request: dict[str, Any], timeout_s: float) -> CommandResult: ...

    def close(self) -> None: ...


def _identifier(args: dict[str, Any], name: str) -> str:
    value = args.get(name)
    if not isinstance(value, str) or not _ID.match(value):
        raise CommandError(f"'{name}' must be an identifier like 'hero-xoric', got {value!r}")
    return value


def _token(args: dict[str, Any], name: str) -> str:
    value = args.get(name)
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not _TOKEN.match(value):
        raise CommandError(
            f"'{name}' must be a short id (letters, digits, '-', '_', '.', ':'), got {value!r}"
        )
    return value


def _int(args: dict[str, Any], name: str, low: int, high: int) -> int:
    value = args.get(name)
    if isinstance(value, str) and re.fullmatch(r"-?\d{1,6}", value.strip()):
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CommandError(f"'{name}' must be a whole number from {low} to {high}, got {value!r}")
    return value


def _ids(args: dict[str, Any], name: str) -> list[str]:
    value = args.get(name, [])
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) and _ID.match(v) for v in value):
        raise CommandError(f"'{name}' must be a list of piece ids, got {value!r}")
    return list(dict.fromkeys(value))  # in the order struck, each once


def _reason(args: dict[str, Any], required: bool) -> str:
    value = args.get("reason", "")
    if not isinstance(value, str) or len(value) > REASON_MAX:
        raise CommandError(f"'reason' must be text of at most {REASON_MAX} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # an escaped unpaired surrogate: JSON allows it, the game log cannot hold it
        raise CommandError("'reason' holds text that is not Unicode (an unpaired surrogate)") from None
    value = " ".join(value.split())
    if required and not value:
        raise CommandError("a correction or undo needs a 'reason' for the game log")
    return value


def _no_args(args: dict[str, Any]) -> dict[str, Any]:
    return {}


def _optional_character(args: dict[str, Any]) -> dict[str, Any]:
    # The daemon knows whose shot is expected; naming the character guards against a stale page.
    return {"character": _identifier(args, "character")} if "character" in args else {}


def _gain_rage(args: dict[str, Any]) -> dict[str, Any]:
    levels = {"levels": _int(args, "levels", 1, 9)} if "levels" in args else {}
    return {"character": _identifier(args, "character"), **levels}


def _declare(args: dict[str, Any]) -> dict[str, Any]:
    declared: dict[str, Any] = {"character": _identifier(args, "character")}
    if args.get("alternative") is not None:
        declared["alternative"] = _int(args, "alternative", 0, 9)
    if args.get("action") is not None:  # a Spell, Item or Ability card instead of the Rules card
        declared["action"] = _token(args, "action")
    return declared


def _answer(args: dict[str, Any]) -> dict[str, Any]:
    return {"decision": _token(args, "decision"), "option": _token(args, "option")}


def _confirm_hits(args: dict[str, Any]) -> dict[str, Any]:
    if "direct_hits" not in args:
        raise CommandError("'direct_hits' must list the pieces hit directly (an empty list for a miss)")
    confirmed: dict[str, Any] = {"direct_hits": _ids(args, "direct_hits")}
    if args.get("candidate") is not None:
        confirmed["candidate"] = _int(args, "candidate", 0, 99)
    if args.get("shot") is not None:
        confirmed["shot"] = _token(args, "shot")
    return confirmed


def _manual_shot(args: dict[str, Any]) -> dict[str, Any]:
    return {
        "flicked": _identifier(args, "flicked"),
        "shot": _token(args, "shot"),  # the rules' shot names: melee, giant_fireball, …
        "direct_hits": _ids(args, "direct_hits"),
        "pushed_off_mat": _ids(args, "pushed_off_mat"),
        "reason": _reason(args, required=False),
    }


_CORRECTABLE = {"health": (0, 99), "gold": (0, 999), "poison": (0, 99), "charge": (0, 20), "rage": (0, 9)}


def _correct(args: dict[str, Any]) -> dict[str, Any]:
    field = args.get("field")
    if field == "card":
        card = args.get("card")
        if not isinstance(card, str) or not _ID.match(card):
            raise CommandError(f"'card' must be a card id like 'potion-of-healing', got {card!r}")
        change = args.get("change")
        if change not in ("give", "take"):
            raise CommandError(f"'change' must be 'give' or 'take' for a card, got {change!r}")
        return {
            "target": _identifier(args, "target"),
            "field": "card",
            "card": card,
            "change": change,
            "reason": _reason(args, required=True),
        }
    if field not in _CORRECTABLE:
        raise CommandError(f"'field' must be one of {', '.join([*_CORRECTABLE, 'card'])}, got {field!r}")
    low, high = _CORRECTABLE[field]
    target = "party" if field == "gold" and args.get("target") == "party" else _identifier(args, "target")
    corrected = {
        "target": target,
        "field": field,
        "value": _int(args, "value", low, high),
        "reason": _reason(args, required=True),
    }
    if field == "charge":  # Catacombs & Castles: the Health Tokens on one of the character's cards
        corrected["card"] = _token(args, "card")
    return corrected


def _undo(args: dict[str, Any]) -> dict[str, Any]:
    count = _int(args, "count", 1, 20) if "count" in args else 1
    return {"count": count, "reason": _reason(args, required=True)}


def _bind(args: dict[str, Any]) -> dict[str, Any]:
    return {"character": _identifier(args, "character"), "piece": _identifier(args, "piece")}


def _dismiss(args: dict[str, Any]) -> dict[str, Any]:
    return {"reason": _reason(args, required=False)}


def _use_service(args: dict[str, Any]) -> dict[str, Any]:
    service: dict[str, Any] = {"service": _token(args, "service")}
    for name in ("target", "item"):
        if args.get(name) is not None:
            service[name] = _identifier(args, name)
    return service


def _draw(args: dict[str, Any]) -> dict[str, Any]:
    """The cards the table drew from one deck (physical decks): Room, Monster, Item or Hero card ids, Poison
    values, Tavern bag pieces."""
    cards = args.get("cards")
    if not isinstance(cards, list) or not cards or len(cards) > 16:
        raise CommandError(f"'cards' must list the 1 to 16 cards drawn, in order, got {cards!r}")
    return {"deck": _token(args, "deck"), "cards": [_token({"card": c}, "card") for c in cards]}


def _setup_game(args: dict[str, Any]) -> dict[str, Any]:
    if "match" in args:  # the tournament hub's offer, which the referee accepts; the table checks it in full
        offer = args["match"]
        if not isinstance(offer, dict) or not isinstance(offer.get("sides"), list):
            raise CommandError("'match' must be the hub's offer: an object with the two entrants' 'sides'")
        rest = {k: v for k, v in args.items() if k != "match"}
        return {"match": offer, **(_setup_game(rest) if rest else {})}
    if "mode" in args:  # a Catacombs & Castles 2E game; the table checks the sides' shape and the rules
        castles: dict[str, Any] = {"mode": _identifier(args, "mode"), "sides": args.get("sides")}
        for key in ("first", "game_length", "quick_start"):
            if key in args:
                castles[key] = args[key]
        return castles
    heroes = _ids(args, "heroes")
    if not 1 <= len(heroes) <= 4:
        raise CommandError(f"'heroes' must list 1 to 4 heroes, got {len(heroes)}")
    game: dict[str, Any] = {"heroes": heroes, "lord": _identifier(args, "lord")}
    if args.get("rooms"):
        game["rooms"] = _ids(args, "rooms")
    if "expansions" in args:  # this game's own (castles: the Castles cards), not the table file's
        game["expansions"] = _ids(args, "expansions")
    return game


def _swap_tag(args: dict[str, Any]) -> dict[str, Any]:
    uid = args.get("uid")
    if not isinstance(uid, str) or not re.fullmatch(r"(?:[0-9a-fA-F]{2}){4,10}", uid):
        raise CommandError(f"'uid' must be an NFC tag's UID, 4 to 10 bytes of hex, got {uid!r}")
    return {"piece": _identifier(args, "piece"), "uid": uid.lower(), "reason": _reason(args, required=True)}


def _assign_tracker(args: dict[str, Any]) -> dict[str, Any]:
    character = args.get("character")
    return {
        "tracker": _identifier(args, "tracker"),
        "character": _identifier(args, "character") if character not in (None, "") else None,
    }


def _enrol_start(args: dict[str, Any]) -> dict[str, Any]:
    start: dict[str, Any] = {"set": _identifier(args, "set")}
    if args.get("pieces"):
        start["pieces"] = _ids(args, "pieces")
    return start


def _calibrate_start(args: dict[str, Any]) -> dict[str, Any]:
    return {"rounds": _int(args, "rounds", 1, 4)} if "rounds" in args else {}


def _calibrate_finish(args: dict[str, Any]) -> dict[str, Any]:
    if args.get("mat_confirmed") is not True:
        raise CommandError("'mat_confirmed' must be true: confirm the playmat's walls, gaps and obstacles")
    return {"mat_confirmed": True}


CATALOGUE: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "enter_room": _no_args,
    "start_battle": _no_args,
    "dismiss_shot": _dismiss,
    "bind": _bind,
    "use_service": _use_service,
    "gain_rage": _gain_rage,
    "draw": _draw,
    "declare": _declare,
    "answer": _answer,
    "skip_shot": _optional_character,
    "end_turn": _optional_character,
    "confirm_hits": _confirm_hits,
    "manual_shot": _manual_shot,
    "correct": _correct,
    "undo": _undo,
    "pause": _no_args,
    "resume": _no_args,
    "rescan": _no_args,
    "new_game": _dismiss,  # an optional reason (required by the table while the game is still in play)
    # The guided calibration (docs/setup.md); the daemon answers, nothing enters the game's log.
    "calibrate_start": _calibrate_start,
    "calibrate_flicks": _no_args,
    "setup_game": _setup_game,
    "enrol_start": _enrol_start,
    "assign_tracker": _assign_tracker,
    "enrol_forget": lambda args: {"piece": _identifier(args, "piece")},
    "enrol_finish": _no_args,
    "enrol_cancel": _no_args,
    "swap_tag": _swap_tag,
    "calibrate_skip": _no_args,
    "calibrate_finish": _calibrate_finish,
    "calibrate_cancel": _no_args,
}


# The arguments each command's form may send (docs/mqtt.md); any other is refused, never dropped, so a
# misspelt "cuont" cannot turn "undo 3" into "undo 1".
ARGUMENTS: dict[str, frozenset[str]] = {
    name: frozenset(keys)
    for name, keys in {
        "enter_room": (),
        "start_battle": (),
        "dismiss_shot": ("reason",),
        "bind": ("character", "piece"),
        "use_service": ("service", "target", "item"),
        "gain_rage": ("character", "levels"),
        "draw": ("deck", "cards"),
        "declare": ("character", "alternative", "action"),
        "answer": ("decision", "option"),
        "skip_shot": ("character",),
        "end_turn": ("character",),
        "confirm_hits": ("direct_hits", "candidate", "shot"),
        "manual_shot": ("flicked", "shot", "direct_hits", "pushed_off_mat", "reason"),
        "correct": ("target", "field", "value", "card", "change", "reason"),
        "undo": ("count", "reason"),
        "pause": (),
        "resume": (),
        "rescan": (),
        "new_game": ("reason",),
        "calibrate_start": ("rounds",),
        "calibrate_flicks": (),
        "setup_game": (
            "heroes",
            "lord",
            "rooms",
            "expansions",
            "mode",
            "sides",
            "first",
            "game_length",
            "quick_start",
            "match",
        ),  # fmt: skip
        "enrol_start": ("set", "pieces"),
        "assign_tracker": ("tracker", "character"),
        "enrol_forget": ("piece",),
        "enrol_finish": (),
        "enrol_cancel": (),
        "swap_tag": ("piece", "uid", "reason"),
        "calibrate_skip": (),
        "calibrate_finish": ("mat_confirmed",),
        "calibrate_cancel": (),
    }.items()
}


def build_request(referee: str, body: Any) -> dict[str, Any]:
    """The ``cmd/request`` payload for what a page posted, or :class:`CommandError`."""
    if not isinstance(body, dict):
        raise CommandError('the request body must be a JSON object {"command": …, "args": {…}}')
    command = body.get("command")
    if not isinstance(command, str) or command not in CATALOGUE:
        raise CommandError(f"unknown command {command!r}; known: {', '.join(sorted(CATALOGUE))}")
    args = body.get("args", {})
    if not isinstance(args, dict):
        raise CommandError("'args' must be a JSON object")
    unknown = sorted(set(args) - ARGUMENTS[command])
    if unknown:
        takes = ", ".join(sorted(ARGUMENTS[command])) or "no arguments"
        raise CommandError(f"{command} does not take {', '.join(map(repr, unknown))} (it takes {takes})")
    if not _ID.match(referee):
        raise CommandError(f"referee name {referee!r} is not an identifier")
    return {
        "txn": uuid.uuid4().hex,
        "actor": f"referee:{referee}",
        "command": command,
        "args": CATALOGUE[command](args),
    }
