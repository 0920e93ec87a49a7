"""Snapshots shaped like ``state.public_view()`` (docs/architecture.md §3) for publisher tests."""

from __future__ import annotations

from typing import Any


def character(cid: str, name: str, side: str, kind: str, health: int, max_health: int) -> dict[str, Any]:
    return {
        "id": cid,
        "name": name,
        "side": side,
        "kind": kind,
        "health": health,
        "max_health": max_health,
        "alive": health > 0,
        "status": [],
        "poison_total": 0,
        "gold": 0,
        "items": [],
        "flipped": False,
    }


def barracks(xoric_health: int = 7, goblin: bool = True, goblin_health: int = 2) -> dict[str, Any]:
    characters = [
        character("hero-xoric", "Xoric the Barbarian", "heroes", "hero", xoric_health, 7),
        character("hero-elf", "Elf Scout", "heroes", "hero", 6, 6),
        character("troll", "Troll", "overseer", "monster", 3, 3),
    ]
    if goblin:
        characters.append(character("goblin-1", "Goblin", "overseer", "monster", goblin_health, 2))
    return {
        "ruleset": "catacombs-3e",
        "phase": "battle",
        "room": {"index": 0, "id": "the-barracks", "name": "The Barracks", "kind": "battle"},
        "round": 1,
        "turn": {"side": "heroes", "character": "hero-xoric"},
        "expected_shot": {"character": "hero-xoric", "piece": "hero-xoric", "shot": "melee", "index": 0},
        "characters": characters,
        "gold": {"party": 3, "treasury": 39},
        "pending": None,
        "outcome": None,
    }


MELEE_EVENT = {"type": "damage", "text": "Xoric's melee hits the Goblin (1 damage)", "target": "goblin-1"}
