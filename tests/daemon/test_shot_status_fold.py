"""The last shot's status is part of the log's fold: live play, a restart and a replay agree on it.

docs/mqtt.md (shot: status), docs/game-log.md (shot, attribution). Logs written before shots had readings of
their own (the candidates in the ``shot`` record itself) fold to the same statuses.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.eventlog.memory import MemoryEventLog
from service.table.session import TableSession
from tests.helpers.game_script import GameScript

DOUBT = {"direct_hits": ["dungeon-1"], "hit_characters": ["monster-orc-1"], "probability": 0.55}
OTHER = {"direct_hits": [], "hit_characters": [], "probability": 0.3}


@pytest.fixture
def table() -> Iterator[GameScript]:
    table = GameScript(eventlog=MemoryEventLog())
    assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
    assert table.declare("hero-xoric", 0)["ok"]
    yield table
    table.close()


def replayed_shot(table: GameScript) -> dict[str, Any] | None:
    return TableSession.replay(table.eventlog.records(), binder=table.daemon.bind_discs).last_shot


def old_style_shot(table: GameScript) -> int:
    """A doubtful shot as logs of before readings hold it: candidates in the shot record."""
    expected = table.state["expected_shot"]
    payload = {
        "character": expected["character"],
        "shot": expected["shot"],
        "auto": False,
        "attribution": {"flicked": "hero-1", "probability": 0.55, "reasons": ["two readings are close"]},
        "candidates": [OTHER, DOUBT],
    }
    return table.daemon.record("shot", payload, "sensor")


def test_a_confirmed_then_undone_shot_of_an_older_log_folds_to_the_same_statuses(table: GameScript) -> None:
    """catacombs-3e-rules.md: Melee Shots; docs/game-log.md: undo."""
    shot = old_style_shot(table)
    waiting = table.daemon.session.last_shot
    assert waiting is not None and waiting["status"] == "waiting" and waiting["shot_seq"] == shot
    assert waiting["reasons"] == ["two readings are close"] and waiting["flicked"] == "hero-1"
    assert replayed_shot(table) == waiting

    assert table.send("confirm_hits", candidate=1, shot=str(shot))["ok"]
    resolved = table.daemon.session.last_shot
    assert resolved is not None
    assert (resolved["status"], resolved["resolved"], resolved["chosen"]) == ("resolved", True, 1)
    assert resolved["confirmed_hits"] == ["monster-orc-1"]
    assert resolved["resolved_seq"] == table.eventlog.last_seq()
    assert replayed_shot(table) == resolved

    assert table.send("undo", reason="the orc was moved by hand")["ok"]
    undone = table.daemon.session.last_shot
    assert undone is not None and (undone["status"], undone["undone"]) == ("undone", True)
    assert replayed_shot(table) == undone


def test_a_dismissed_shot_is_set_aside_and_a_new_game_forgets_it(table: GameScript) -> None:
    old_style_shot(table)
    assert table.send("dismiss_shot", reason="the table was bumped")["ok"]
    aside = table.daemon.session.last_shot
    assert aside is not None and (aside["status"], aside["set_aside"]) == ("set_aside", True)
    assert replayed_shot(table) == aside
    assert table.send("new_game", reason="a fresh start")["ok"]
    assert table.daemon.session.last_shot is None and replayed_shot(table) is None
