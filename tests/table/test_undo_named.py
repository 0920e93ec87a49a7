"""Undo names the move it takes back and takes back exactly that one (docs/mqtt.md: undo's ``seq``;
docs/game-log.md: undo, "undoes the latest action still in effect", or the record its ``seq`` names).

A referee looked at "Undo Xoric the Barbarian's melee", and meanwhile another move came in: the tap must not
take back that other move in its place."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.eventlog.memory import MemoryEventLog
from tests.daemon.test_audit_session import DOUBT, orc_health, sensor_shot
from tests.helpers.game_script import GameScript


@pytest.fixture
def table() -> Iterator[GameScript]:
    table = GameScript(eventlog=MemoryEventLog())
    assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
    yield table
    table.close()


def test_the_snapshot_names_the_move_one_undo_takes_back(table: GameScript) -> None:
    table.declare("hero-xoric")
    assert table.state["table"]["undo_next"]["what"] == "Xoric the Barbarian's declared action"
    shot = sensor_shot(table, auto=False, candidate=DOUBT)
    assert table.send("confirm_hits", candidate=0, shot=str(shot))["ok"]
    undo_next = table.state["table"]["undo_next"]
    kinds = {r.seq: (r.kind, r.payload.get("action")) for r in table.eventlog.records()}
    assert kinds[undo_next["seq"]] == ("action", "resolve_shot")
    assert undo_next["what"] == f"Xoric the Barbarian's {table.eventlog.records()[-1].payload['shot']}"


def test_undo_of_the_named_move_takes_back_that_one_and_refuses_once_another_came_in(
    table: GameScript,
) -> None:
    table.declare("hero-xoric")
    full = orc_health(table)
    shot = sensor_shot(table, auto=False, candidate=DOUBT)
    assert table.send("confirm_hits", candidate=0, shot=str(shot))["ok"]
    hurt = orc_health(table)
    assert hurt < full
    shown = table.state["table"]["undo_next"]
    # Another move comes in between the look and the tap: a health correction.
    correction: dict[str, Any] = {"target": "monster-orc-1", "field": "health", "value": 1}
    correction["reason"] = "tracker misread"
    assert table.send("correct", **correction)["ok"]
    records = len(table.eventlog.records())
    refused = table.send("undo", seq=shown["seq"], reason="wrong orc")
    assert not refused["ok"] and "no longer the last one" in refused["error"]
    assert "a health correction" in refused["error"]
    assert len(table.eventlog.records()) == records and orc_health(table) == 1  # nothing taken back
    # The move the console names now is the correction; undoing it by its seq takes back exactly it.
    now = table.state["table"]["undo_next"]
    assert now["what"] == "a health correction"
    assert table.send("undo", seq=now["seq"], reason="misread the tracker myself")["ok"]
    assert orc_health(table) == hurt
    assert table.eventlog.records()[-1].payload["seq"] == now["seq"]
    assert table.state["table"]["undo_next"]["seq"] == shown["seq"]


def test_an_undo_seq_goes_with_one_move_only(table: GameScript) -> None:
    table.declare("hero-xoric")
    table.send("correct", target="monster-orc-1", field="health", value=1, reason="tracker misread")
    seq = table.state["table"]["undo_next"]["seq"]
    answer = table.send("undo", seq=seq, count=2, reason="two")
    assert not answer["ok"] and "count 1" in answer["error"]
