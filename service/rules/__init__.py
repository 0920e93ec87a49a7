"""The rules core: pure, deterministic, no I/O. See docs/rules-api.md.

rules = Catacombs3E(content)
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
from service.rules.cards import CardIndex, Content, HeroCard, LordCard, MonsterCard, QuadrantEntry, RoomCard
from service.rules.catacombs3e import Catacombs3E
from service.rules.errors import IllegalActionError
from service.rules.events import Event
from service.rules.registry import rulesets
from service.rules.ruleset import RuleSet
from service.rules.settings import Settings
from service.rules.shots import Sequence, Shot
from service.rules.state import Character, GameState, Pending

__all__ = [
    "Action",
    "CardIndex",
    "Catacombs3E",
    "Character",
    "Content",
    "DeclareAction",
    "Decide",
    "EndTurn",
    "EnterRoom",
    "Event",
    "GameState",
    "HeroCard",
    "IllegalActionError",
    "LordCard",
    "MalformedActionError",
    "MonsterCard",
    "Pending",
    "PlayCard",
    "QuadrantEntry",
    "ResolveShot",
    "RoomCard",
    "RuleSet",
    "Sequence",
    "SetCards",
    "SetGold",
    "SetHealth",
    "SetStatus",
    "Settings",
    "Shot",
    "SkipShot",
    "StartBattle",
    "UseService",
    "action_from_json",
    "action_to_json",
    "rulesets",
]
