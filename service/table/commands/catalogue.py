"""Every command a table takes, declared once: its name, its arguments' JSON Schema, who may send it, what it
does to the game, and one line in words for people.

The daemon checks each command against this before carrying it out (service/daemon/commands.py), the
dashboard checks what a page posts against it before publishing anything (web_dashboard/commands.py), the
set-up desks take their argument lists from it, and docs/mqtt.md's command table is generated from it
(``smartmat docs commands``; tests/table/test_command_catalogue.py fails when any of them disagrees).

The schemas describe a command as it travels on ``cmd/request``; a page's form fields (text for numbers, a
comma-separated list for ids) are turned into that shape first, guided by the same schemas
(:func:`from_form`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

Record = tuple[str, dict[str, Any]]
HandledBy = Literal["game", "wizard", "enrolment", "calibration", "mat"]


class CommandRefused(ValueError):
    """A command that cannot be carried out; the message goes back on ``cmd/response`` in words."""


# == the shapes arguments take ===========================================================================
# ``x-expect`` is how a refusal names what was expected, in words.

_ID = {
    "type": "string",
    "pattern": "^[a-z0-9][a-z0-9-]{0,63}$",
    "x-expect": "an id: small letters, digits and dashes",
}
_TOKEN = {
    "type": "string",
    "pattern": "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$",
    "x-expect": "a short id (letters, digits, '-', '_', '.', ':')",
}
_IDS = {"type": "array", "items": _ID, "maxItems": 64, "x-expect": "a list of piece ids"}
_REASON = {"type": "string", "maxLength": 200, "x-expect": "text of at most 200 characters"}
_REASON_GIVEN = {
    **_REASON,
    "pattern": r"\S",
    "x-expect": "a reason for the game log (text of at most 200 characters)",
}


def _whole(low: int, high: int) -> dict[str, Any]:
    return {
        "type": "integer",
        "minimum": low,
        "maximum": high,
        "x-expect": f"a whole number from {low} to {high}",
    }


def _args(properties: Mapping[str, Any], *, required: tuple[str, ...] = (), **more: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
        **more,
    }


@dataclass(frozen=True)
class CommandSpec:
    name: str
    summary: str  # what it does, in words for people
    arguments: dict[str, Any]  # JSON Schema of ``args``
    handled_by: HandledBy  # the game's records, the set-up wizard, a set-up desk, or the mat itself
    changes_game: bool  # whether it appends records to the game's event log
    senders: frozenset[str] = frozenset({"referee"})  # the actor roles that may send it ("referee:anna")
    needs: str = ""  # what a request that fits no alternative lacks, in words (schemas with anyOf)

    @property
    def takes(self) -> tuple[str, ...]:
        return tuple(self.arguments["properties"])


_SHOT_HITS = {
    "direct_hits": {**_IDS, "x-expect": "a list of the pieces hit directly (empty for a miss)"},
    "pushed_off_mat": _IDS,
    "knocked_off": _IDS,
    "target": _ID,
    "teleported": _ID,
    "swapped": {**_IDS, "maxItems": 2},
    "reason": _REASON,
}
_SHOT_SEQ = {
    "type": ["string", "integer"],
    "pattern": "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$",
    "x-expect": "the shot's id",
}
_BUTTON = frozenset({"referee", "button"})


def _FIELD_IS(field: str) -> dict[str, Any]:  # noqa: N802 (reads as a schema constant)
    return {"properties": {"field": {"const": field}}, "required": ["field"]}


_SPECS = (
    # -- the turn --
    CommandSpec(
        "enter_room",
        "Flip the next Room card (Catacombs & Castles: onto the named playmat).",
        _args({"playmat": _ID}),
        "game",
        True,
    ),
    CommandSpec("start_battle", "The pieces are down: the battle begins.", _args({}), "game", True),
    CommandSpec(
        "declare",
        "A character declares its action: the Rules card's shot, an Or-alternative, or a card it plays.",
        _args(
            {
                "character": _ID,
                "alternative": _whole(0, 9),
                "action": _TOKEN,
                "placements": {
                    "type": "array",
                    "items": {"type": "array", "minItems": 2, "maxItems": 2},
                    "maxItems": 8,
                    "x-expect": "a list of [warrior, quadrant] pairs",
                },
            },
            required=("character",),
        ),
        "game",
        True,
    ),
    CommandSpec(
        "play_card",
        "A character plays a Spell, Item or Ability card.",
        _args(
            {
                "character": _ID,
                "card": _TOKEN,
                "alternative": _whole(0, 9),
                "rush_first": {"type": "boolean", "x-expect": "true or false"},
                "kind": _TOKEN,
            },
            required=("character", "card"),
        ),
        "game",
        True,
    ),
    CommandSpec(
        "use_service",
        "A hero uses a special room's service (Merchant, Healer, …).",
        _args(
            {"service": _TOKEN, "target": _ID, "item": _TOKEN, "payment": _TOKEN},
            required=("service",),
        ),
        "game",
        True,
    ),
    CommandSpec(
        "gain_rage",
        "Catacombs 1E: the Barbarian's rage marker moves up.",
        _args({"character": _ID, "levels": _whole(1, 9)}, required=("character",)),
        "game",
        True,
    ),
    CommandSpec(
        "draw",
        "The cards the table drew from one deck, in order (physical decks).",
        _args(
            {
                "deck": _TOKEN,
                "cards": {
                    "type": "array",
                    "items": {"type": ["string", "integer"], "pattern": _TOKEN["pattern"]},
                    "minItems": 1,
                    "maxItems": 16,
                    "x-expect": "the 1 to 16 cards drawn, in order",
                },
            },
            required=("deck", "cards"),
        ),
        "game",
        True,
    ),
    CommandSpec(
        "answer",
        "Answer a decision the rules ask for.",
        _args(
            {"decision": _TOKEN, "option": _TOKEN},
            required=("decision", "option"),
        ),
        "game",
        True,
    ),
    CommandSpec("skip_shot", "The acting character skips its shot.", _args({"character": _ID}), "game", True),
    CommandSpec("end_turn", "The acting character ends its turn.", _args({"character": _ID}), "game", True),
    # -- shots --
    CommandSpec(
        "confirm_hits",
        "Settle the shot the mat is holding: pick one of its readings, or enter the hits.",
        _args(
            {"candidate": _whole(0, 99), "shot": _SHOT_SEQ, **_SHOT_HITS},
            anyOf=[{"required": ["candidate"]}, {"required": ["direct_hits"]}],
        ),
        "game",
        True,
        senders=_BUTTON,
        needs="a reading to pick ('candidate') or the hits ('direct_hits')",
    ),
    CommandSpec(
        "manual_shot",
        "Enter a shot by hand: the disc flicked and the pieces it hit.",
        _args({"character": _ID, "shot": _TOKEN, "flicked": _ID, **_SHOT_HITS}),
        "game",
        True,
    ),
    CommandSpec(
        "dismiss_shot",
        "Set the held shot aside: it is flicked again.",
        _args({"reason": _REASON}),
        "game",
        True,
    ),
    # -- the referee's hand on the game --
    CommandSpec(
        "correct",
        "Correct a value by hand (health, gold, rage, a card; Castles: a Health Pool, charge, armour).",
        _args(
            {
                "target": _ID,
                "field": {
                    "enum": ["health", "gold", "rage", "card", "charge", "armour"],
                    "x-expect": "one of health, gold, rage, card, charge, armour (poison is not set by hand: "
                    "undo the action that drew it)",
                },
                "value": {
                    "type": ["integer", "array"],
                    "minimum": 0,
                    "maximum": 999,
                    "items": {"type": "integer", "minimum": 1, "maximum": 2},
                    "maxItems": 8,
                    "x-expect": "a whole number from 0 to 999 (armour: uses per token, 2 full, 1 half)",
                },
                "card": _TOKEN,
                "change": {"enum": ["give", "take"], "x-expect": "'give' or 'take'"},
                "reason": _REASON_GIVEN,
            },
            required=("target", "field", "reason"),
            allOf=[
                {"if": _FIELD_IS("card"), "then": {"required": ["card", "change"]}},
                {"if": _FIELD_IS("charge"), "then": {"required": ["card", "value"]}},
                {"if": {"not": _FIELD_IS("card")}, "then": {"required": ["value"]}},
            ],
        ),
        "game",
        True,
    ),
    CommandSpec(
        "undo",
        "Take back the last action(s), with the reason for the game log; with seq, exactly the action of "
        "that record (table.undo_next's), refused when another has become the last one since.",
        _args({"count": _whole(1, 20), "reason": _REASON, "seq": _whole(1, 2**53)}),
        "game",
        True,
        senders=_BUTTON,
    ),
    CommandSpec("pause", "Pause the game: shots are ignored.", _args({"reason": _REASON}), "game", True),
    CommandSpec("resume", "Resume the game.", _args({"reason": _REASON}), "game", True),
    CommandSpec(
        "bind",
        "This disc now stands for this character.",
        _args({"character": _ID, "piece": _ID}, required=("character", "piece")),
        "game",
        True,
    ),
    CommandSpec(
        "swap_tag",
        "A disc swapped mid-game for one with another NFC tag.",
        _args(
            {
                "piece": _ID,
                "uid": {
                    "type": "string",
                    "pattern": "^(?:[0-9a-fA-F]{2}){4,10}$",
                    "x-expect": "an NFC tag's UID, 4 to 10 bytes of hex",
                },
                "reason": _REASON,
            },
            required=("piece", "uid"),
        ),
        "game",
        True,
    ),
    CommandSpec(
        "new_game",
        "Close this game and set up the next from the table file.",
        _args({"reason": _REASON}),
        "game",
        True,
        senders=frozenset({"referee", "daemon"}),
    ),
    # -- set-up --
    CommandSpec(
        "setup_game",
        "Start the set-up wizard's game, or the tournament match the referee accepts.",
        _args(
            {
                "heroes": {**_IDS, "minItems": 1, "maxItems": 4, "x-expect": "a list of 1 to 4 heroes"},
                "lord": _ID,
                "rooms": _IDS,
                "expansions": _IDS,
                "mode": _ID,
                "sides": {"type": "array", "x-expect": "the two sides"},
                "first": {"type": ["string", "null"], "x-expect": "the id of the side that starts"},
                "game_length": {"type": ["string", "integer", "null"], "x-expect": "the game's length"},
                "quick_start": {"type": "boolean", "x-expect": "true or false"},
                "board_side": {"enum": ["castle", "catacomb"], "x-expect": "'castle' or 'catacomb'"},
                "armour_tokens": {"type": "boolean", "x-expect": "true or false"},
                "match": {
                    "type": "object",
                    "required": ["sides"],
                    "properties": {"sides": {"type": "array"}},
                    "x-expect": "the hub's offer: an object with the two entrants' 'sides'",
                },
            },
            anyOf=[{"required": ["match"]}, {"required": ["mode"]}, {"required": ["heroes", "lord"]}],
        ),
        "wizard",
        True,
        needs="a tournament 'match', a Catacombs & Castles 'mode', or the 'heroes' and 'lord'",
    ),
    CommandSpec(
        "assign_tracker",
        "This LED tracker now stands beside this character (or nobody).",
        _args(
            {"tracker": _ID, "character": {"type": ["string", "null"], "pattern": _ID["pattern"]}},
            required=("tracker",),
        ),
        "wizard",
        True,
    ),
    CommandSpec(
        "enrol_start",
        "Start enrolling a set of discs: tap each on the mat.",
        _args({"set": _ID, "pieces": _IDS}, required=("set",)),
        "enrolment",
        False,
    ),
    CommandSpec(
        "enrol_forget",
        "Forget the tag enrolled for one disc.",
        _args({"piece": _ID}, required=("piece",)),
        "enrolment",
        False,
    ),
    CommandSpec("enrol_finish", "Save the enrolled set.", _args({}), "enrolment", False),
    CommandSpec("enrol_cancel", "Stop enrolling; nothing is saved.", _args({}), "enrolment", False),
    CommandSpec(
        "calibrate_start",
        "Start the mat's guided calibration: the taps.",
        _args({"rounds": _whole(1, 4)}),
        "calibration",
        False,
    ),
    CommandSpec("calibrate_flicks", "Go on to the prescribed flicks.", _args({}), "calibration", False),
    CommandSpec(
        "calibrate_touches",
        "Go on to the prescribed touches: how loud a disc-on-disc touch is on this mat.",
        _args({}),
        "calibration",
        False,
    ),
    CommandSpec("calibrate_skip", "Skip this step of the calibration.", _args({}), "calibration", False),
    CommandSpec(
        "calibrate_finish",
        "Save the calibration, the playmat confirmed.",
        _args(
            {
                "mat_confirmed": {
                    "const": True,
                    "x-expect": "true, once the playmat's walls, gaps and obstacles are checked",
                }
            },
            required=("mat_confirmed",),
        ),
        "calibration",
        False,
    ),
    CommandSpec(
        "calibrate_cancel", "Stop the calibration; nothing is saved.", _args({}), "calibration", False
    ),
    CommandSpec(
        "rescan", "Ask the mat to read every disc's position again.", _args({}), "mat", False, senders=_BUTTON
    ),
)

CATALOGUE: Mapping[str, CommandSpec] = {spec.name: spec for spec in _SPECS}
_VALIDATORS = {name: Draft202012Validator(spec.arguments) for name, spec in CATALOGUE.items()}


def command_names(handled_by: HandledBy | None = None) -> tuple[str, ...]:
    return tuple(name for name, spec in CATALOGUE.items() if handled_by in (None, spec.handled_by))


def arguments_of(handled_by: HandledBy) -> Mapping[str, frozenset[str]]:
    """Each command of one handler with the arguments it takes (the set-up desks check against these)."""
    return {name: frozenset(CATALOGUE[name].takes) for name in command_names(handled_by)}


def check_command(name: Any, args: Any, actor: str | None = None) -> CommandSpec:
    """The command's declaration, when ``args`` fit it and ``actor`` may send it; else
    :class:`CommandRefused` naming the command and the key, in words."""
    spec = CATALOGUE.get(name) if isinstance(name, str) else None
    if spec is None:
        raise CommandRefused(f"unknown command {name!r}; known: {', '.join(CATALOGUE)}")
    if actor is not None:
        role = actor.split(":", 1)[0]
        if role not in spec.senders:
            who = " or ".join(sorted(spec.senders))
            raise CommandRefused(f"{name} is sent by the {who}, not by {actor!r}")
    if not isinstance(args, dict):
        raise CommandRefused(f"{name}: 'args' must be a JSON object")
    errors = sorted(_VALIDATORS[name].iter_errors(args), key=lambda e: (len(e.path), list(e.path)))
    if errors:
        raise CommandRefused(_in_words(spec, errors[0], args))
    return spec


def _in_words(spec: CommandSpec, error: ValidationError, args: Mapping[str, Any]) -> str:
    """One refusal in words, naming the key: never the validator's own wording."""
    name, properties = spec.name, spec.arguments["properties"]
    if error.validator == "additionalProperties":
        unknown = sorted(set(args) - set(properties))
        takes = ", ".join(sorted(properties)) or "no arguments"
        return f"{name} does not take {', '.join(map(repr, unknown))} (it takes {takes})"
    if error.validator == "required" and not error.path:
        wanted: list[str] = list(error.validator_value) if isinstance(error.validator_value, list) else []
        missing = [key for key in wanted if key not in args]
        key = missing[0] if missing else "?"
        return f"{name} needs '{key}': {properties.get(key, {}).get('x-expect', 'a value')}"
    if error.validator == "anyOf" and not error.path:
        return f"{name} needs {spec.needs}"
    key = str(error.path[0]) if error.path else "?"
    expect = properties.get(key, {}).get("x-expect", "another value")
    return f"{name}: '{key}' must be {expect}, got {args.get(key)!r}"


def from_form(name: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """What a page's form posted → the command's ``args`` as the schema wants them: a number typed as text
    becomes the number (a number where an id is wanted, its text), a comma-separated list of ids the list, a
    reason's runs of white space one space. Anything else is left for :func:`check_command` to judge."""
    spec = CATALOGUE.get(name)
    if spec is None:
        return dict(fields)
    args: dict[str, Any] = {}
    for key, value in fields.items():
        schema = spec.arguments["properties"].get(key, {})
        kinds = schema.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        id_list = kinds == ["array"] and schema.get("items", {}).get("type") == "string"
        if (
            isinstance(value, str)
            and "integer" in kinds
            and "string" not in kinds
            and re.fullmatch(r"\s*-?\d{1,6}\s*", value)
        ):
            value = int(value)
        elif isinstance(value, int) and not isinstance(value, bool) and kinds == ["string"]:
            value = str(value)  # an option or a card given by its number
        elif isinstance(value, str) and id_list:
            value = list(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))
        elif isinstance(value, list) and id_list:
            value = list(dict.fromkeys(value))  # in the order struck, each once
        elif isinstance(value, str) and key == "reason":
            value = " ".join(value.split())
        args[key] = value
    return args
