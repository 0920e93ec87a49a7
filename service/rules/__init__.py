"""The game-neutral rules core: pure, deterministic, no I/O. See docs/rules-api.md.

A game's rule set (``service.games``: ``find_game(name)``) is a ``RuleSet`` over this core, with its own
actions and events registered in the core's open registries (``register_action``, ``register_event``):

rules = find_game(setup["ruleset"])(content)
state = rules.new_game_from_setup(setup)
state, events = rules.apply(state, action_from_json(record["payload"]))
"""

from service.rules.actions import (
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
from service.rules.errors import IllegalActionError
from service.rules.events import Event, register_event
from service.rules.ruleset import RuleSet
from service.rules.settings import RuleSettings

__all__ = [
    "Action",
    "Decide",
    "DeclareAction",
    "EndTurn",
    "Event",
    "IllegalActionError",
    "MalformedActionError",
    "ResolveShot",
    "RuleSet",
    "RuleSettings",
    "SkipShot",
    "action_from_json",
    "action_to_json",
    "register_action",
    "register_event",
]
