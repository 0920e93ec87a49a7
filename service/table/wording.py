"""Game facts in words for people: names instead of ids, sides by their team, doubt that matches its numbers.

Pure: everything it needs comes in as arguments (a ``Names`` table built from the game's public view and the
table's discs). The rules keep their ids and citations for the log and the referee's detail view; what
spectators, players and the referee read goes through here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

TEAMS = {"castle": "Team Castle", "catacomb": "Team Catacomb"}
# An id as the rules write one: lower-case words joined by hyphens, with at least one hyphen ("hero-roosan",
# "monster-orc-2", "dungeon-5"); plain words ("orc", "castle") are left to the sentences they are in.
_ID = re.compile(r"(?<![\w-])([a-z0-9]+(?:-[a-z0-9]+)+)(?![\w-]|\.\w)")  # not a file name
# A decision's option id as the Castles rules write it, "power:delilah-ability": kind, then a card id.
_OPTION = re.compile(r"(?<![\w-])(power|take|place|armour|card):([a-z0-9-]+)")
# A rules name written for code, "ice_boulder", "critical_melee": people read "ice boulder".
_SNAKE = re.compile(r"(?<![\w-])([a-z]+(?:_[a-z]+)+)(?![\w-])")
# A decision numbered for the log ("d8: power transfer ..."): the number means nothing to people.
_DECISION_NUMBER = re.compile(r"(?<![\w-])d\d+:\s*")


@dataclass(frozen=True)
class Names:
    """id → the name people know: characters, their discs, rooms, cards, sides."""

    of: Mapping[str, str] = field(default_factory=dict)
    sides: frozenset[str] = frozenset()  # the ids of a Catacombs & Castles game's sides ("castle", "cy")

    def name(self, key: str) -> str:
        return self.of.get(key) or _readable(key)


def _readable(key: str) -> str:
    """An id no table names: its words, as a last resort ("monster-orc-2" → "orc 2")."""
    words = key.split("-")
    if words and words[0] in ("hero", "monster", "lord", "boss", "warrior", "ally", "room"):
        words = words[1:]
    return " ".join(words) or key


def piece_in_words(piece: str) -> str:
    """A disc's id as people read it where no game names it yet ("hero-xoric" → "Xoric", "dungeon-3" →
    "Dungeon 3")."""
    return " ".join(word.capitalize() for word in _readable(piece).split())


def names_from_view(view: Mapping[str, Any], discs: Mapping[str, str | None] | None = None) -> Names:
    """The names in a table's snapshot (``TableSession.snapshot()`` or a rule set's ``public_view()``) and,
    when given, which disc stands for which character (character id → disc id)."""
    of: dict[str, str] = {}
    for character in view.get("characters") or []:
        if not isinstance(character, Mapping) or not character.get("id"):
            continue
        name = str(character.get("name") or _readable(str(character["id"])))
        of[str(character["id"])] = name
        piece = character.get("piece")
        if piece:
            of[str(piece)] = name
        of.update(_card_names(character, name))
    for character_id, disc in (discs or {}).items():
        if disc and character_id in of:
            of[disc] = of[character_id]
    room = view.get("room")
    if isinstance(room, Mapping) and room.get("id") and room.get("name"):
        of[str(room["id"])] = str(room["name"])
    sides = set()
    for side in view.get("sides") or []:
        if isinstance(side, Mapping) and side.get("id"):
            of[str(side["id"])] = side_name(side)
            sides.add(str(side["id"]))
    return Names(of, frozenset(sides))


def _card_names(character: Mapping[str, Any], name: str) -> dict[str, str]:
    """A Castles character's cards by its name: "larra-ability" → "Larra the Huntress's Ability"."""
    cards = character.get("cards")
    named = {}
    for card in cards if isinstance(cards, Mapping) else ():
        for suffix, what in (("-team-action", "Team Action"), ("-ability", "Ability")):
            if str(card).endswith(suffix):
                named[str(card)] = f"{name}'s {what}"
    return named


def side_name(side: Mapping[str, Any]) -> str:
    """A Catacombs & Castles side as people call it: its player's name when it has one, else its team."""
    player = side.get("player") or side.get("entrant")
    team = TEAMS.get(str(side.get("team")), str(side.get("team") or side.get("id") or "a side"))
    return f"{player} ({team})" if player else team


def in_words(text: str, names: Names) -> str:
    """A sentence of the rules or the mat with every id it names replaced by that piece's name."""
    text = _DECISION_NUMBER.sub("", text)
    text = _OPTION.sub(lambda m: _option_words(m.group(1), m.group(2), names), text)
    for (
        side
    ) in names.sides:  # "catacomb has 1 left", "cy to act", "castle wins": a side by its team or player
        text = re.sub(
            rf"(?<![\w-]){re.escape(side)}(?='s\b| has \d+ left| to act\b| wins\b)", names.name(side), text
        )
    text = _SNAKE.sub(lambda m: m.group(1).replace("_", " "), text)
    return _ID.sub(
        lambda m: names.name(m.group(1)) if _is_known_or_id(m.group(1), names) else m.group(1), text
    )


def _is_known_or_id(token: str, names: Names) -> bool:
    if token in names.of:
        return True
    # An unknown hyphenated token is an id only when it looks like one (a kind prefix or a trailing number);
    # "free-for-all" or "well-placed" stay as written.
    return bool(re.match(r"^(hero|monster|lord|boss|warrior|ally|room)-|.*-\d+$", token))


def _option_words(kind: str, card: str, names: Names) -> str:
    card_name = names.name(card)
    return {
        "power": f"a power transfer onto {card_name}",
        "take": f"take {card_name}",
        "place": f"place {card_name}",
        "armour": f"armour on {card_name}",
    }.get(kind, card_name)


def side_result_headline(winner: str, sides: Iterable[Mapping[str, Any]]) -> str:
    """ "Team Catacomb wins.": the winning side by its player or team, as a sentence."""
    side = next((s for s in sides if s.get("id") == winner), {"id": winner, "team": winner})
    return f"{side_name(side)} wins"


def _hits(candidate: Mapping[str, Any], names: Names) -> str:
    hits = [names.name(str(h)) for h in candidate.get("hit_characters") or candidate.get("direct_hits") or []]
    return "no hit" if not hits else "a hit on " + " and ".join(hits)


def doubt(pending: Mapping[str, Any], names: Names, threshold: float | None = None) -> str:
    """Why the referee is asked about a shot, in words that match the readings' numbers.

    A close second reading is named with its share; a reading below the bar is given as that; a likely
    reading held back for another reason says it is likely and gives the reason, never "not sure"."""
    if pending.get("unreadable"):
        why = in_words(str(pending["unreadable"]), names)
        return f"The mat could not read that shot ({why}): the referee enters it."
    candidates = [c for c in pending.get("candidates") or [] if isinstance(c, Mapping)]
    if not candidates:
        return "The mat has no reading of that shot: the referee enters what happened."
    first = candidates[0]
    share = round(100 * float(first.get("probability", 0.0)))
    second = candidates[1] if len(candidates) > 1 else None
    second_share = round(100 * float(second.get("probability", 0.0))) if second else 0
    if second is not None and second_share >= 15:
        return (
            f"Two readings are close: {_hits(first, names)} ({share} %) or {_hits(second, names)} "
            f"({second_share} %). The referee picks."
        )
    bar = round(100 * threshold) if threshold is not None else None
    if bar is not None and share < bar:
        return (
            f"The likeliest reading, {_hits(first, names)}, is {share} % likely; the mat acts alone from "
            f"{bar} %. The referee confirms."
        )
    reasons = [in_words(str(r), names) for r in pending.get("reasons") or []]
    why = f": {reasons[0]}" if reasons else ""
    return f"The mat reads {_hits(first, names)} ({share} %), and asks the referee{why}."
