"""A tiny scripted Catacombs room for dashboard tests: the shapes of docs/state.md, not the real rules."""

from __future__ import annotations

import copy
from typing import Any

MAT = {
    "width_mm": 900,
    "height_mm": 600,
    "zones": [
        {
            "id": "hero-start",
            "label": "Heroes",
            "kind": "hero-start",
            "polygon": [[0, 0], [900, 0], [900, 180], [0, 180]],
        },
        {
            "id": "overseer-start",
            "label": "Overseer",
            "kind": "overseer-start",
            "polygon": [[0, 440], [900, 440], [900, 600], [0, 600]],
        },
    ],
    "obstacles": [{"piece": "pillar-1", "x_mm": 450, "y_mm": 300, "radius_mm": 28}],
}


def character(cid: str, name: str, side: str, health: int, kind: str = "hero") -> dict[str, Any]:
    return {
        "id": cid,
        "name": name,
        "side": side,
        "kind": kind,
        "health": health,
        "max_health": health,
        "alive": True,
        "status": [],
        "poison_total": 0,
        "gold": 0,
        "items": [],
        "flipped": False,
    }


def opening_state() -> dict[str, Any]:
    return {
        "ruleset": "catacombs-3e",
        "phase": "battle",
        "room": {"index": 0, "id": "the-barracks", "name": "The Barracks", "kind": "battle"},
        "round": 1,
        "turn": {"side": "heroes", "character": None, "declared": None},
        "expected_shot": None,
        "characters": [
            character("hero-xoric", "Xoric the Barbarian", "heroes", 7),
            character("hero-elyra", "Elyra the Elf", "heroes", 6),
            character("troll", "Troll", "overseer", 3, "monster"),
            character("zombie-1", "Zombie", "overseer", 1, "monster"),
        ],
        "gold": {"party": 3, "treasury": 39},
        "pending": None,
        "paused": False,
        "outcome": None,
    }


# Each hero's Rules card: Xoric's offers melee or rush ("Or"), Elyra's a single missile.
RULES_CARDS = {
    "hero-xoric": [{"shot": "melee"}, {"shot": "rush", "connector": "or"}],
    "hero-elyra": [{"shot": "missile"}],
}


def opening_board() -> dict[str, Any]:
    return {
        "mat": MAT,
        "pieces": [
            {
                "piece": "hero-xoric",
                "character": "hero-xoric",
                "side": "heroes",
                "kind": "hero",
                "x_mm": 300,
                "y_mm": 100,
                "radius_mm": 20,
            },
            {
                "piece": "hero-elyra",
                "character": "hero-elyra",
                "side": "heroes",
                "kind": "hero",
                "x_mm": 600,
                "y_mm": 90,
                "radius_mm": 20,
            },
            {
                "piece": "troll",
                "character": "troll",
                "side": "overseer",
                "kind": "monster",
                "x_mm": 330,
                "y_mm": 480,
                "radius_mm": 24,
            },
            {
                "piece": "zombie-1",
                "character": "zombie-1",
                "side": "overseer",
                "kind": "monster",
                "x_mm": 620,
                "y_mm": 500,
                "radius_mm": 16,
            },
        ],
    }


def doubtful_shot() -> dict[str, Any]:
    return {
        "declaration": {"flicked": "hero-xoric", "shot": "melee", "shooter": "hero-xoric"},
        "auto_apply": False,
        "candidates": [
            {
                "direct_hits": ["troll"],
                "pushed": [],
                "left_mat": [],
                "probability": 0.55,
                "path": [[0.0, 300, 100], [0.2, 320, 300], [0.4, 330, 450]],
            },
            {
                "direct_hits": ["troll", "zombie-1"],
                "pushed": [],
                "left_mat": [],
                "probability": 0.4,
                "path": [[0.0, 300, 100], [0.25, 420, 340], [0.5, 600, 480]],
            },
        ],
    }


def with_health(state: dict[str, Any], cid: str, health: int) -> dict[str, Any]:
    new = copy.deepcopy(state)
    for c in new["characters"]:
        if c["id"] == cid:
            c["health"] = health
            c["alive"] = health > 0
    return new
