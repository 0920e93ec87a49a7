"""The game-neutral rules core: pure, deterministic, no I/O. See docs/rules-api.md.

A game's rule set (``service.games``: ``find_game(name)``) is a ``RuleSet`` over this core:

rules = find_game("catacombs-3e")(content)
state = rules.new_game(heroes, lord, rooms, seed)
state, events = rules.apply(state, EnterRoom())
"""

from service.rules.actions import (
    Action,
    Decide,
    DeclareAction,
    EndTurn,
    EnterRoom,
    MalformedActionError,
    PlayCard,
    ResolveShot,
    SetCards,
    SetGold,
    SetHealth,
    SetStatus,
    SkipShot,
    StartBattle,
    UseService,
    action_from_json,
    action_to_json,
)
from service.rules.errors import IllegalActionError
from service.rules.events import Event
from service.rules.ruleset import RuleSet
from service.rules.settings import Settings

__all__ = [
    "Action",
    "DeclareAction",
    "Decide",
    "EndTurn",
    "EnterRoom",
    "Event",
    "IllegalActionError",
    "MalformedActionError",
    "PlayCard",
    "ResolveShot",
    "RuleSet",
    "SetCards",
    "SetGold",
    "SetHealth",
    "SetStatus",
    "Settings",
    "SkipShot",
    "StartBattle",
    "UseService",
    "action_from_json",
    "action_to_json",
]
