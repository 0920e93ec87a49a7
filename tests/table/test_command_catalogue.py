"""Each command is declared once, in the table's command catalogue: the daemon, the dashboard, the set-up
desks and docs/mqtt.md agree with it, or one of these tests fails (issue 29, "each command declared once")."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.enrolment import desk as enrolment_desk
from service.guided import desk as calibration_desk
from service.publish import topics
from service.table.commands import CATALOGUE, CommandRefused, arguments_of, check_command, from_form
from service.table.commands.game import _HANDLERS
from service.table.commands.reference import markdown, section_of
from tests.helpers.game_script import GameScript
from web_dashboard.commands import CommandError, build_request

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mqtt.md"

# One request that fits each command's declaration (whether the game then takes it is the game's business).
FITTING: dict[str, dict[str, Any]] = {
    "enter_room": {},
    "start_battle": {},
    "declare": {"character": "hero-xoric"},
    "play_card": {"character": "hero-xoric", "card": "fireball"},
    "use_service": {"service": "healer", "payment": "gold"},
    "gain_rage": {"character": "hero-barbarian", "levels": 2},
    "draw": {"deck": "room", "cards": ["the-barracks", 3]},
    "answer": {"decision": "d1", "option": "0"},
    "skip_shot": {},
    "end_turn": {"character": "hero-xoric"},
    "confirm_hits": {"candidate": 0, "shot": 14},
    "manual_shot": {"flicked": "hero-xoric", "direct_hits": ["orc-1"]},
    "dismiss_shot": {"reason": "flicked twice"},
    "correct": {"target": "hero-xoric", "field": "health", "value": 3, "reason": "tracker misread"},
    "undo": {"count": 2, "reason": "wrong piece"},
    "pause": {"reason": "spill"},
    "resume": {},
    "bind": {"character": "hero-xoric", "piece": "dungeon-3"},
    "swap_tag": {"piece": "dungeon-3", "uid": "04a1b2c3"},
    "new_game": {"reason": "next round"},
    "setup_game": {"heroes": ["hero-xoric"], "lord": "hmotha-the-lich-lord"},
    "assign_tracker": {"tracker": "led-1", "character": None},
    "enrol_start": {"set": "box-1"},
    "enrol_forget": {"piece": "dungeon-3"},
    "enrol_finish": {},
    "enrol_cancel": {},
    "calibrate_start": {"rounds": 2},
    "calibrate_flicks": {},
    "calibrate_skip": {},
    "calibrate_finish": {"mat_confirmed": True},
    "calibrate_cancel": {},
    "rescan": {},
}


def test_every_command_has_a_fitting_example_here() -> None:
    assert set(FITTING) == set(CATALOGUE)


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_the_catalogue_and_the_dashboard_take_and_refuse_the_same(name: str) -> None:
    args = FITTING[name]
    assert check_command(name, args, "referee:anna").name == name
    assert build_request("anna", {"command": name, "args": args})["args"] == from_form(name, args)
    wrong = {**args, "colour": "red"}
    with pytest.raises(CommandRefused) as by_catalogue:
        check_command(name, wrong, "referee:anna")
    with pytest.raises(CommandError) as by_dashboard:
        build_request("anna", {"command": name, "args": wrong})
    assert str(by_dashboard.value) == str(by_catalogue.value)
    assert f"{name} does not take 'colour'" in str(by_catalogue.value)


def test_a_wrong_value_is_refused_naming_its_key() -> None:
    for name, args, key in [
        ("undo", {"count": 0}, "count"),
        ("correct", {"target": "Hero X", "field": "health", "value": 1, "reason": "x"}, "target"),
        ("correct", {"target": "troll", "field": "charge", "value": 1, "reason": "x"}, "card"),
        ("confirm_hits", {"direct_hits": "troll"}, "direct_hits"),
        ("declare", {}, "character"),
        ("swap_tag", {"piece": "dungeon-3", "uid": "zz"}, "uid"),
    ]:
        with pytest.raises(CommandRefused, match=f"^{name}.*'{key}'"):
            check_command(name, args, "referee:anna")


def test_the_game_handles_exactly_the_commands_the_catalogue_hands_it() -> None:
    assert set(_HANDLERS) == {name for name, spec in CATALOGUE.items() if spec.handled_by == "game"}


def test_the_set_up_desks_take_the_arguments_the_catalogue_declares() -> None:
    assert enrolment_desk.COMMANDS == arguments_of("enrolment")
    assert calibration_desk.COMMANDS == arguments_of("calibration")
    assert set(enrolment_desk.COMMANDS) == {"enrol_start", "enrol_forget", "enrol_finish", "enrol_cancel"}


def test_docs_mqtt_lists_the_catalogue_as_it_is() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert section_of(text) == markdown(), "run: smartmat commands --write docs/mqtt.md"
    # The hand-written command list above it names every command of the catalogue, and no other.
    listed = text.split("### The command list", 1)[1].split("### Arguments, as the catalogue", 1)[0]
    named = {
        name
        for row in listed.splitlines()
        if row.startswith("| `") and not row.startswith("| `command`")
        for name in re.findall(r"`([a-z_]+)`", row.split("|")[1])
    }
    assert named == set(CATALOGUE)


# -- the daemon checks against it ------------------------------------------------------------------------


@pytest.fixture
def table() -> Iterator[GameScript]:
    table = GameScript()
    yield table
    table.close()


def _send_as(table: GameScript, actor: str, command: str, args: dict[str, Any]) -> dict[str, Any]:
    body = {"txn": "as-" + actor, "actor": actor, "command": command, "args": args}
    table.referee.received.clear()
    table.referee.publish(
        topics.topic(table.table.table, topics.CMD_REQUEST), json.dumps(body).encode(), qos=1, retain=False
    )
    table.settle()
    (answer,) = [json.loads(m.payload) for m in table.referee.received]
    return answer


def test_the_daemon_refuses_a_sender_the_catalogue_does_not_name(table: GameScript) -> None:
    seq = table.eventlog.last_seq()
    answer = _send_as(table, "player:hero-xoric", "enter_room", {})
    assert answer["ok"] is False
    assert answer["error"] == "enter_room is sent by the referee, not by 'player:hero-xoric'"
    assert table.eventlog.last_seq() == seq
    assert _send_as(table, "referee:anna", "enter_room", {})["ok"]


def test_the_daemon_refuses_what_the_catalogue_refuses_before_the_game_sees_it(table: GameScript) -> None:
    seq = table.eventlog.last_seq()
    answer = table.send("pause", reason={"why": "spill"})
    assert answer["ok"] is False and answer["error"].startswith("pause: 'reason' must be text")
    assert table.send("teleport")["error"].startswith("unknown command 'teleport'; known: enter_room")
    assert table.eventlog.last_seq() == seq
    assert table.state["table"]["paused"] is False
