"""The position suite (tests/data/positions/): perft-style files, each a position with the actions that must
be legal and illegal there, a play, and the expected outcome. Each file names the rule it exercises."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.gamelog.replay import new_game_from_setup
from service.rules import actions as A
from service.rules.errors import IllegalActionError

SUITE = sorted((Path(__file__).resolve().parents[2] / "data" / "positions").glob("*.json"))


def look_up(view: dict[str, Any], path: str) -> Any:
    """``characters.hero-xoric.gold`` in the published view (characters by id)."""
    value: Any = view
    for key in path.split("."):
        if isinstance(value, list):
            value = next(item for item in value if item.get("id") == key)
        else:
            value = value[key]
    return value


def test_the_suite_is_there() -> None:
    assert len(SUITE) >= 4


@pytest.mark.parametrize("path", SUITE, ids=lambda p: p.stem)
def test_a_position_of_the_suite(path: Path) -> None:
    """Each file cites its rule (``rule``: ``<rulebook file>: <section heading>``)."""
    case = json.loads(path.read_text())
    assert case["rule"].split(":")[0].endswith(".txt")
    rules, state = new_game_from_setup(case["setup"])
    for key, value in case["before"].items():
        assert look_up(state.public_view(), key) == value, key
    for raw in case["legal"]:
        rules.check(state, A.action_from_json(raw))
    for refused in case["illegal"]:
        with pytest.raises(IllegalActionError) as err:
            rules.check(state, A.action_from_json(refused["action"]))
        assert refused["error"] in str(err.value)
    for raw in case["play"]:
        state, _ = rules.apply(state, A.action_from_json(raw))
    for key, value in case["expect"].items():
        assert look_up(state.public_view(), key) == value, key
