"""Bad input on ``cmd/request``: whatever arrives, the daemon answers with the reason when it can, logs it,
and the game and its event log stay exactly as they were (docs/mqtt.md: Commands)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.eventlog.base import read_jsonl
from service.eventlog.memory import MemoryEventLog
from service.eventlog.sqlite_log import SqliteEventLog
from service.publish import topics
from tests.helpers.game_script import GameScript

REQUEST = b'{"txn": "t-1", "actor": "referee:anna", "command": "pause", "args": {}}'


@pytest.fixture
def table() -> Iterator[GameScript]:
    table = GameScript()
    assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
    yield table
    table.close()


def send_raw(table: GameScript, payload: bytes, *, retain: bool = False) -> list[dict[str, Any]]:
    """Publish exactly these bytes on cmd/request; every answer the referee got for them."""
    table.referee.received.clear()
    table.referee.publish(topics.topic(table.table.table, topics.CMD_REQUEST), payload, qos=1, retain=retain)
    table.settle()
    return [json.loads(m.payload) for m in table.referee.received]


def command(txn: str = "t-1", **fields: Any) -> bytes:
    body = {"txn": txn, "actor": "referee:anna", "command": "pause", "args": {}} | fields
    return json.dumps(body).encode()


def unchanged(table: GameScript, before: tuple[int, dict[str, Any]]) -> bool:
    return (table.eventlog.last_seq(), table.state) == before


def snapshot_of(table: GameScript) -> tuple[int, dict[str, Any]]:
    return table.eventlog.last_seq(), table.state


# -- the envelope (docs/mqtt.md: "What happens to requests that are not right") -------------------------


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"pause", id="not JSON"),
        pytest.param(b"\xc3\x28", id="not UTF-8"),
        pytest.param(b'["pause"]', id="an array"),
        pytest.param(b'"pause"', id="a string"),
        pytest.param(b'{"actor": "referee:anna", "command": "pause", "args": {}}', id="no txn"),
        pytest.param(command(txn=7), id="txn a number"),  # type: ignore[arg-type]
        pytest.param(command(txn=None), id="txn null"),  # type: ignore[arg-type]
        pytest.param(command(txn=""), id="txn empty"),
        pytest.param(command(txn="x" * 129), id="txn of 129 characters"),
        pytest.param(command(txn=["t-1"]), id="txn a list"),  # type: ignore[arg-type]
        pytest.param(command(args={"reason": "x" * 70_000}), id="over 64 KiB"),
        pytest.param(
            b'{"txn": "\\ud800", "actor": "referee:anna", "command": "pause", "args": {}}',
            id="txn unpaired surrogate",
        ),
        pytest.param(
            b'{"txn": "t-1", "txn": "t-2", "actor": "referee:anna", "command": "pause", "args": {}}',
            id="txn given twice",
        ),
        pytest.param(
            b'{"txn": "t-1", "actor": "referee:anna", "command": "pause", "args": {"n": NaN}}', id="NaN"
        ),
        pytest.param(
            b'{"txn": "t-1", "actor": "referee:anna", "command": "pause", "args": {"n": Infinity}}',
            id="Infinity",
        ),
        pytest.param(b'{"txn": "t-1", "args": ' + b"[" * 5000 + b"]" * 5000 + b"}", id="nested 5000 deep"),
    ],
)
def test_a_request_without_a_usable_txn_is_logged_and_changes_nothing(
    table: GameScript, caplog: pytest.LogCaptureFixture, payload: bytes
) -> None:
    before = snapshot_of(table)
    with caplog.at_level(logging.ERROR):
        answers = send_raw(table, payload)
    assert answers == []  # there is no txn to answer
    assert "refused a malformed command" in caplog.text
    assert unchanged(table, before)
    assert send_raw(table, command(txn="after"))[0]["ok"], "the command channel still works"


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        (b'{"txn": "t-1", "actor": "referee:anna", "command": "pause"}', "request lacks args"),
        (command(extra=1), "request has unknown field(s) extra"),
        (command(actor="referee: anna"), "actor 'referee: anna' must look like 'referee:anna'"),
        (command(actor=None), "actor None must look like 'referee:anna'"),
        (command(command=["pause"]), "command ['pause'] is not a command's name"),
        (command(args=[]), "args must be a JSON object, not list"),
        (command(args="reason=spill"), "args must be a JSON object, not str"),
        (
            b'{"txn": "t-1", "actor": "referee:anna", "command": "pause", "args": {"reason": "\\udc00"}}',
            "request holds text that is not Unicode",
        ),
        (
            b'{"txn": "t-1", "actor": "referee:\\ud83d", "command": "pause", "args": {}}',
            "request holds text that is not Unicode",
        ),
    ],
)
def test_a_bad_envelope_with_a_txn_is_answered_with_the_reason_and_changes_nothing(
    table: GameScript, caplog: pytest.LogCaptureFixture, payload: bytes, error: str
) -> None:
    before = snapshot_of(table)
    with caplog.at_level(logging.ERROR):
        (answer,) = send_raw(table, payload)
    assert answer["txn"] == "t-1" and answer["ok"] is False
    assert error in answer["error"]
    assert "refused a malformed command" in caplog.text
    assert unchanged(table, before)


def test_an_unknown_command_is_refused_by_the_catalogue_naming_those_it_knows(table: GameScript) -> None:
    before = snapshot_of(table)
    (answer,) = send_raw(table, command(command="teleport"))
    assert answer["ok"] is False
    assert answer["error"].startswith("unknown command 'teleport'; known: enter_room, start_battle, declare")
    assert unchanged(table, before)


def test_a_retained_command_is_ignored_unanswered_and_logged(
    table: GameScript, caplog: pytest.LogCaptureFixture
) -> None:
    before = snapshot_of(table)
    table.daemon_mqtt.lose_connection()
    with caplog.at_level(logging.WARNING):
        # Left on the broker by a careless client while the daemon was away (a live retained publish reaches
        # a subscriber without its retain flag under MQTT 3.1.1, and is a live command like any other) ...
        answers = send_raw(table, command(txn="old"), retain=True)
        table.daemon_mqtt.reconnect()  # ... and replayed, flagged retained, when the daemon subscribes again
        table.settle()
    assert answers == [] and table.referee.received == []
    assert "retained" in caplog.text
    assert unchanged(table, before)
    assert table.state["table"]["paused"] is False


def test_a_refused_request_sent_again_is_answered_again_and_still_changes_nothing(table: GameScript) -> None:
    payload = command(command="undo", args={"count": "2"})
    before = snapshot_of(table)
    first = send_raw(table, payload)
    again = send_raw(table, payload)  # a QoS 1 redelivery
    assert (
        first
        == again
        == [
            {"txn": "t-1", "ok": False, "error": "undo: 'count' must be a whole number from 1 to 20, got '2'"}
        ]
    )
    assert unchanged(table, before)


# -- the arguments (docs/mqtt.md: The command list) ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args", "error"),
    [
        # The command names the action: an "action" argument must not turn it into another one.
        (
            "enter_room",
            {"action": "set_health", "character": "hero-xoric", "health": 99},
            "enter_room does not take 'action', 'character', 'health' (it takes playmat)",
        ),
        (
            "start_battle",
            {"action": "end_turn", "character": "hero-xoric"},
            "start_battle does not take 'action', 'character' (it takes no arguments)",
        ),
        (
            "correct",
            {"target": "hero-xoric", "field": ["health"], "value": 3, "reason": "x"},
            "'field' must be one of",
        ),
        (
            "correct",
            {"target": "hero-xoric", "field": {"a": 1}, "value": 3, "reason": "x"},
            "'field' must be one of health, gold",
        ),
        (
            "correct",
            {"target": "hero-xoric", "field": "health", "value": 3, "reason": ["x"]},
            "'reason' must be",
        ),
        ("correct", {"target": "hero-xoric", "field": "health", "value": "3", "reason": "x"}, "whole number"),
        ("correct", {"target": ["hero-xoric"], "field": "health", "value": 3, "reason": "x"}, "target"),
        (
            "pause",
            {"reason": {"why": "spill"}},
            "'reason' must be text of at most 200 characters, got {'why': 'spill'}",
        ),
        ("dismiss_shot", {"reason": 5}, "'reason' must be text"),
        ("undo", {"count": True}, "'count' must be a whole number from 1 to 20, got True"),
        ("undo", {"count": 1, "reason": 7}, "'reason' must be text"),
        ("declare", {"character": ["hero-xoric"]}, "'character' must be an id"),
        (
            "declare",
            {"character": "hero-xoric", "alternative": "0"},
            "'alternative' must be a whole number",
        ),
        (
            "declare",
            {"character": "hero-xoric", "action": {"card": "x"}},
            "'action' must be a short id",
        ),
        ("answer", {"decision": 1, "option": None}, "'decision' must be a short id"),
        ("end_turn", {"character": 3}, "'character' must be an id"),
        ("use_service", {"service": None}, "'service' must be a short id"),
        ("play_card", {"character": "hero-xoric", "card": "fireball", "rush_first": "yes"}, "rush_first"),
        ("enter_room", {"teleport": True}, "enter_room does not take 'teleport' (it takes playmat)"),
        # A misspelt argument is refused, not dropped: "undo 3" must never become "undo 1".
        (
            "undo",
            {"cuont": 3, "reason": "wrong hit"},
            "undo does not take 'cuont' (it takes count, reason, seq)",
        ),
        ("bind", {"character": "monster-orc-1", "piece": None}, "'piece' must be an id"),
        ("confirm_hits", {"candidate": 0}, "no shot is waiting"),
    ],
)
def test_wrong_arguments_are_answered_with_a_specific_error_and_change_nothing(
    table: GameScript, name: str, args: dict[str, Any], error: str
) -> None:
    health = table.character("hero-xoric")["health"]
    before = snapshot_of(table)
    answer = table.send(name, **args)
    assert answer["ok"] is False, answer
    assert error in answer["error"]
    assert unchanged(table, before)
    assert table.character("hero-xoric")["health"] == health


def test_a_shot_argument_of_the_wrong_shape_is_refused_by_name(table: GameScript) -> None:
    table.declare("hero-xoric")
    before = snapshot_of(table)
    for args, error in [
        ({"direct_hits": "monster-orc-1"}, "'direct_hits' must be a list of the pieces hit directly"),
        ({"direct_hits": [1, 2]}, "'direct_hits' must be a list"),
        ({"direct_hits": [], "pushed_off_mat": {"a": 1}}, "'pushed_off_mat' must be a list of piece ids"),
        ({"direct_hits": ["nobody-here"]}, "['nobody-here'] are neither characters of this game nor discs"),
        ({"direct_hits": [], "target": ["monster-orc-1"]}, "'target' must be an id"),
        ({"direct_hits": [], "shot": {"kind": "melee"}}, "'shot' must be a short id"),
        ({"direct_hits": [], "character": 5}, "'character' must be an id"),
    ]:
        answer = table.send("manual_shot", **args)
        assert answer["ok"] is False and error in answer["error"], (args, answer)
    assert unchanged(table, before)


@pytest.fixture
def doubtful(tmp_path: Path) -> Iterator[GameScript]:
    """A table whose mat saw Xoric's melee but could not tell who was hit: the shot waits for the referee."""
    eventlog = MemoryEventLog()
    first = GameScript(eventlog=eventlog)
    first.send("enter_room")
    first.send("start_battle")
    first.declare("hero-xoric")
    first.close()
    candidate = {
        "direct_hits": ["dungeon-1"],
        "hit_characters": ["monster-orc-1"],
        "off_mat_characters": [],
        "freed_characters": [],
        "probability": 0.55,
    }
    eventlog.append(
        "shot",
        {"character": "hero-xoric", "shot": "melee", "auto": False, "candidates": [candidate]},
        "sensor",
    )
    table = GameScript(eventlog=eventlog)
    assert table.state["table"]["pending_shot"] is not None
    yield table
    table.close()


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ({"candidate": 0, "direct_hits": 5}, "'direct_hits' must be a list of the pieces hit directly"),
        ({"candidate": 0, "direct_hits": None}, "'direct_hits' must be a list"),
        ({"candidate": 0, "direct_hits": ["monster-orc-1", 2]}, "'direct_hits' must be a list"),
        ({"candidate": "0"}, "'candidate' must be a whole number from 0 to 99, got '0'"),
        ({"candidate": True}, "'candidate' must be a whole number from 0 to 99, got True"),
        ({"candidate": 1}, "candidate must be 0..0, got 1"),
        ({"candidate": -1}, "'candidate' must be a whole number from 0 to 99, got -1"),
        (
            {"direct_hits": ["monster-orc-1"], "knocked_off": "all"},
            "'knocked_off' must be a list of piece ids",
        ),
    ],
)
def test_confirming_a_doubtful_shot_with_wrong_arguments_is_answered_and_the_shot_still_waits(
    doubtful: GameScript, args: dict[str, Any], error: str
) -> None:
    before = snapshot_of(doubtful)
    answer = doubtful.send("confirm_hits", **args)
    assert answer["ok"] is False and error in answer["error"], answer
    assert unchanged(doubtful, before)
    assert doubtful.state["table"]["pending_shot"] is not None
    assert doubtful.send("confirm_hits", candidate=0)["ok"], "the right answer is still taken"


def test_a_confirmation_for_another_shot_than_the_one_waiting_is_refused(doubtful: GameScript) -> None:
    """A page still showing a shot that was set aside (or settled by another referee) names it by its
    ``shot_seq``; its candidate must not be applied to the shot waiting now."""
    waiting = doubtful.state["table"]["pending_shot"]["seq"]
    before = snapshot_of(doubtful)
    answer = doubtful.send("confirm_hits", candidate=0, shot=str(waiting - 1))
    assert answer["ok"] is False
    assert answer["error"] == (
        f"the confirmation is for shot {waiting - 1}, but the shot waiting is {waiting}: look again"
    )
    assert unchanged(doubtful, before)
    assert doubtful.send("confirm_hits", candidate=0, shot=str(waiting))["ok"]
    assert doubtful.state["table"]["pending_shot"] is None


def test_undoing_more_actions_than_are_in_effect_undoes_none(table: GameScript) -> None:
    table.declare("hero-elani")
    in_effect = 3  # enter_room, start_battle, declare
    before = snapshot_of(table)
    answer = table.send("undo", count=in_effect + 1, reason="too many")
    assert answer == {
        "txn": answer["txn"],
        "ok": False,
        "error": f"only {in_effect} action(s) can be undone, not {in_effect + 1}",
    }
    assert unchanged(table, before)
    assert table.state["turn"]["character"] == "hero-elani"


def test_a_fault_inside_the_daemon_is_still_answered_and_logs_nothing(
    table: GameScript, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any) -> Any:
        raise KeyError("candidates")

    monkeypatch.setattr("service.daemon.commands.records_for", broken)
    before = snapshot_of(table)
    with caplog.at_level(logging.ERROR):
        answer = table.send("pause")
    assert answer["ok"] is False
    assert answer["error"] == "the table could not carry out pause: KeyError: 'candidates'"
    assert "command pause from referee:anna failed" in caplog.text
    assert unchanged(table, before)


def test_odd_but_valid_text_is_kept_exactly_through_the_log_and_its_export(tmp_path: Path) -> None:
    eventlog = SqliteEventLog(tmp_path / "table.db")
    table = GameScript(eventlog=eventlog)  # type: ignore[arg-type]
    try:
        reason = "spilt \u0000 drink \u202e\U0001f409 ŉ\u00a0\ufeff"
        answer = table.send("pause", reason=reason)
        assert answer["ok"], answer
        assert table.eventlog.records()[-1].payload == {"reason": reason}
        table.eventlog.export_jsonl(tmp_path / "game.jsonl")  # type: ignore[attr-defined]
        assert read_jsonl(tmp_path / "game.jsonl")[-1].payload == {"reason": reason}
    finally:
        table.close()
        eventlog.close()
