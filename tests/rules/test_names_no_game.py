"""The rules core names no game: every game's actions, events, settings and rulebooks live in its own package
(docs/architecture.md, "The house"; "Adding a game": a new game touches only its package, the registry
and content/). The core's registries are open, so the games' classes decode through them."""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

import service.rules
from service.games import GAMES
from service.rules.actions import ACTION_TYPES, Action, action_from_json, action_to_json, register_action
from service.rules.events import EVENT_TYPES, Event, register_event

CORE = Path(service.rules.__file__).parent
GAMES_DIR = CORE.parent / "games"


def game_words() -> set[str]:
    """Each game's id (``catacombs-3e``) and the name of each game's package (``catacombs``), singular."""
    words = {game.name for game in GAMES}
    for package in GAMES_DIR.iterdir():
        if (package / "__init__.py").exists():
            words.add(package.name.rstrip("s"))
    return words


def naming(text: str, words: set[str]) -> list[str]:
    return sorted({w for w in words if re.search(re.escape(w), text, re.IGNORECASE)})


def test_the_scan_sees_a_game_named() -> None:
    words = game_words()
    assert {"catacombs-3e", "catacombs-and-castles-1e", "catacomb", "castle"} <= words
    assert naming('"""Catacombs 1E: the rage track."""', words) == ["catacomb"]
    assert naming("find_game('catacombs-and-castles-2e')", words) == [
        "castle",
        "catacomb",
        "catacombs-and-castles-2e",
    ]


@pytest.mark.parametrize("module", sorted(CORE.glob("*.py")), ids=lambda p: p.name)
def test_no_module_of_the_core_names_a_game(module: Path) -> None:
    assert naming(module.read_text(encoding="utf-8"), game_words()) == []


def test_every_game_action_and_event_is_registered_outside_the_core() -> None:
    """The games' own classes are found through the core's registries, and none of them lives in it."""
    own_actions = {cls for cls in ACTION_TYPES.values() if not cls.__module__.startswith("service.rules")}
    own_events = {cls for cls in EVENT_TYPES.values() if not cls.__module__.startswith("service.rules")}
    assert {"perform_card", "gain_rage", "use_service", "set_pool", "set_rage"} <= {
        c.name for c in own_actions
    }
    assert {"rage_changed", "room_entered", "tokens_lost"} <= {c.type for c in own_events}
    for cls in own_actions | own_events:
        assert cls.__module__.startswith("service.games."), cls


def test_every_action_and_event_class_of_the_games_is_registered() -> None:
    """No game's action or event class escapes the registries (a clash of names would be refused)."""
    unregistered = []
    for found in pkgutil.walk_packages([str(GAMES_DIR)], "service.games."):
        module = importlib.import_module(found.name)
        for cls in vars(module).values():
            if not isinstance(cls, type) or cls.__module__ != module.__name__:
                continue
            if issubclass(cls, Action) and ACTION_TYPES.get(cls.name) is not cls:
                unregistered.append(f"{module.__name__}.{cls.__name__}")
            if issubclass(cls, Event) and EVENT_TYPES.get(cls.type) is not cls:
                unregistered.append(f"{module.__name__}.{cls.__name__}")
    assert unregistered == []


def test_a_game_action_round_trips_through_the_registry() -> None:
    """catacombs-1e-rules-italian.txt: Preparazione degli eroi (the rage track): a 1E action decodes by
    its name through the core's registry."""
    raw = {"action": "set_rage", "character": "hero-a", "rage": 2, "reason": "misread"}
    action = action_from_json(raw)
    assert type(action).__module__ == "service.games.catacombs.first_edition.actions"
    assert action.correction
    assert action_to_json(action) == raw


def test_two_classes_may_not_share_an_action_name_or_an_event_type() -> None:
    @dataclass(frozen=True, slots=True)
    class Clash(Action):
        name: ClassVar[str] = "decide"

    with pytest.raises(ValueError, match="'decide' is taken by service.rules.actions.Decide"):
        register_action(Clash)

    @dataclass(frozen=True, slots=True)
    class EventClash(Event):
        type: ClassVar[str] = "game_over"

    with pytest.raises(ValueError, match="'game_over' is taken"):
        register_event(EventClash)
    assert ACTION_TYPES["decide"].__name__ == "Decide"
