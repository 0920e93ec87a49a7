"""Referee commands: checked before publishing, sent as {txn, actor, command, args}, then answered."""

from __future__ import annotations

import pytest

from tests.dashboard.conftest import Referee
from web_dashboard.table.commands import CommandResult
from web_dashboard.table.fake_feed import FakeCommandChannel


def test_a_short_turn_from_the_referee_console(referee: Referee, commands: FakeCommandChannel) -> None:
    referee.command("declare", character="hero-xoric")
    referee.command("declare", character="hero-elyra", alternative=1)
    referee.command("declare", character="hero-elyra", action="fireball-spell")
    referee.command("answer", decision="d17", option="0")
    referee.command("confirm_hits", shot="14", candidate=1, direct_hits=["troll", "zombie-1"])
    referee.command("confirm_hits", direct_hits=[])
    referee.command("correct", target="troll", field="health", value="2", reason="tracker misread")
    referee.command("correct", target="party", field="gold", value=5, reason="forgot the chest")
    referee.command(
        "correct",
        target="hero-xoric",
        field="card",
        card="potion-of-healing",
        change="give",
        reason="bought at the merchant",
    )
    referee.command(
        "manual_shot",
        flicked="hero-elyra",
        shot="missile",
        direct_hits="zombie-1, troll, zombie-1",
        reason="sensor failed",
    )
    referee.command("undo", reason="wrong piece flicked")
    referee.command("skip_shot", character="hero-elyra")
    referee.command("end_turn")
    assert [(c["command"], c["args"]) for c in commands.sent] == [
        ("declare", {"character": "hero-xoric"}),
        ("declare", {"character": "hero-elyra", "alternative": 1}),
        ("declare", {"character": "hero-elyra", "action": "fireball-spell"}),
        ("answer", {"decision": "d17", "option": "0"}),
        ("confirm_hits", {"direct_hits": ["troll", "zombie-1"], "candidate": 1, "shot": "14"}),
        ("confirm_hits", {"direct_hits": []}),
        ("correct", {"target": "troll", "field": "health", "value": 2, "reason": "tracker misread"}),
        ("correct", {"target": "party", "field": "gold", "value": 5, "reason": "forgot the chest"}),
        (
            "correct",
            {
                "target": "hero-xoric",
                "field": "card",
                "card": "potion-of-healing",
                "change": "give",
                "reason": "bought at the merchant",
            },
        ),
        (
            "manual_shot",
            {
                "flicked": "hero-elyra",
                "shot": "missile",
                "direct_hits": ["zombie-1", "troll"],
                "reason": "sensor failed",
            },
        ),
        ("undo", {"reason": "wrong piece flicked"}),
        ("skip_shot", {"character": "hero-elyra"}),
        ("end_turn", {}),
    ]
    assert len({c["txn"] for c in commands.sent}) == len(commands.sent)
    assert {c["actor"] for c in commands.sent} == {"referee:anna"}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"command": "delete_everything"}, "unknown command 'delete_everything'"),
        ({"command": "declare", "args": {"character": "Hero X"}}, "'character' must be"),
        (
            {"command": "declare", "args": {"character": "hero-x", "alternative": "first"}},
            "'alternative' must",
        ),
        (
            {
                "command": "correct",
                "args": {"target": "troll", "field": "health", "value": -3, "reason": "x"},
            },
            "'value' must be a whole number from 0 to 99",
        ),
        (
            {"command": "correct", "args": {"target": "troll", "field": "health", "value": 2}},
            "needs 'reason'",
        ),
        (
            {"command": "correct", "args": {"target": "troll", "field": "colour", "value": 2, "reason": "x"}},
            "'field' must be one of",
        ),
        (
            {"command": "manual_shot", "args": {"flicked": "hero-xoric", "shot": "Kick!"}},
            "'shot' must be a short id",
        ),
        ({"command": "confirm_hits", "args": {}}, "needs a reading to pick ('candidate') or the hits"),
        ({"command": "confirm_hits", "args": {"direct_hits": "troll, Zombie"}}, "'direct_hits' must be"),
        ({"command": "undo", "args": {"count": 500, "reason": "x"}}, "'count' must be a whole number"),
        ({"command": "pause", "args": [1]}, "'args' must be a JSON object"),
        (["pause"], "must be a JSON object"),
    ],
)
def test_malformed_commands_are_refused_with_a_clear_message(
    referee: Referee, commands: FakeCommandChannel, body: object, message: str
) -> None:
    response = referee.client.post("/api/command", json=body, headers={"X-CSRF-Token": referee.csrf()})
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert commands.sent == []


def test_a_body_that_is_not_json_is_refused(referee: Referee, commands: FakeCommandChannel) -> None:
    response = referee.client.post(
        "/api/command", data="command=pause", headers={"X-CSRF-Token": referee.csrf()}
    )
    assert response.status_code == 400
    assert "JSON body" in response.get_json()["error"]
    assert commands.sent == []


def test_the_daemons_refusal_reaches_the_page(referee: Referee, commands: FakeCommandChannel) -> None:
    commands.responder = lambda request: CommandResult(
        request["txn"], False, "rules-card: Xoric already declared an action this turn (3E reference: Battle)"
    )
    response = referee.command("declare", character="hero-xoric")
    assert response.status_code == 409
    assert "already declared" in response.get_json()["error"]


def test_a_daemon_that_never_answers_is_reported(referee: Referee, commands: FakeCommandChannel) -> None:
    commands.responder = lambda request: CommandResult(request["txn"], False, "no answer", answered=False)
    assert referee.command("pause").status_code == 503
