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
from service.games import definitions
from service.guided import desk as calibration_desk
from service.publish import topics
from service.table.commands import (
    CATALOGUE,
    CommandRefused,
    arguments_of,
    check_command,
    command_names,
    from_form,
)
from service.table.commands.game import handled_commands
from service.table.commands.reference import markdown, section_of
from service.table.commands.wizard import WIZARD_COMMANDS
from tests.helpers.game_script import GameScript
from web_dashboard.table.commands import CommandError, build_request

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
    "calibrate_touches": {},
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
    assert handled_commands() == {name for name, spec in CATALOGUE.items() if spec.handled_by == "game"}


def test_the_set_up_wizard_answers_exactly_the_commands_the_catalogue_hands_it() -> None:
    assert set(WIZARD_COMMANDS) == set(command_names("wizard"))
    # setup_game's arguments split by game (each game's wizard_arguments) are, together, the catalogue's.
    by_game = {"match"}.union(*(game.wizard_arguments for game in definitions()))
    assert by_game == set(CATALOGUE["setup_game"].takes)


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
    txn = f"as-{actor}-{command}".replace(":", "-")
    body = {"txn": txn, "actor": actor, "command": command, "args": args}
    table.referee.publish(
        topics.topic(table.table.table, topics.CMD_REQUEST), json.dumps(body).encode(), qos=1, retain=False
    )
    table.settle()
    answers: list[dict[str, Any]] = [json.loads(m.payload) for m in table.referee.received]
    (answer,) = [a for a in answers if a.get("txn") == txn]
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


@pytest.mark.parametrize("actor", ["spectator:tv", "player:hero-xoric"])
def test_a_spectator_or_a_player_cannot_send_a_referee_command(table: GameScript, actor: str) -> None:
    # Only an authenticated referee changes game state from outside (docs/mqtt.md, "Roles and ACLs").
    seq = table.eventlog.last_seq()
    for name in ("pause", "undo", "correct", "new_game"):
        answer = _send_as(table, actor, name, FITTING[name])
        assert answer["ok"] is False
        assert answer["error"].startswith(f"{name} is sent by ") and repr(actor) in answer["error"]
    assert table.eventlog.last_seq() == seq
    assert table.state["table"]["paused"] is False


def test_only_the_referee_account_may_publish_a_command_and_the_catalogue_names_no_spectator() -> None:
    acl = (Path(__file__).resolve().parents[2] / "deploy" / "mosquitto" / "acl").read_text(encoding="utf-8")
    writers, user = set(), None
    for line in acl.splitlines():
        if line.startswith("user "):
            user = line.split()[1]
        elif line.split()[:3] == ["topic", "write", "smartmat/+/cmd/request"]:
            writers.add(user)
    assert writers == {"referee"}
    for spec in CATALOGUE.values():
        assert "referee" in spec.senders and not spec.senders & {"spectator", "dashboard", "player"}


# -- the pages send what the catalogue declares ----------------------------------------------------------

STATIC = Path(__file__).resolve().parents[2] / "web_dashboard" / "table" / "static"
TEMPLATES = Path(__file__).resolve().parents[2] / "web_dashboard" / "table" / "templates"
_SEND = re.compile(r"\bsend\(\s*\"([a-z_]+)\"\s*(?:,\s*\{([^{}]*)\})?")
_NEXT_STEP = re.compile(r"\{\s*command:\s*\"([a-z_]+)\"")
# One call that sends either of two commands (the console's pause / resume toggle).
_SEND_EITHER = re.compile(
    r"\bsend\([^,()]*(?:\([^()]*\))?[^,()]*\?\s*\"([a-z_]+)\"\s*:\s*\"([a-z_]+)\"\s*,\s*\{([^{}]*)\}"
)


def _top_level_keys(literal: str) -> set[str]:
    """The keys of a JS object literal's body (``a: x, b`` → {a, b}), its values' commas skipped."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(literal):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(literal[start:i])
            start = i + 1
    parts.append(literal[start:])
    return {part.split(":", 1)[0].strip() for part in parts if part.strip()}


def _sent_by_pages() -> list[tuple[str, str, set[str]]]:
    sent = []
    for script in sorted(STATIC.glob("*.js")):
        text = script.read_text(encoding="utf-8")
        sent += [(script.name, m[1], _top_level_keys(m[2] or "")) for m in _SEND.finditer(text)]
        sent += [(script.name, m[1], set()) for m in _NEXT_STEP.finditer(text)]
        for m in _SEND_EITHER.finditer(text):
            sent += [(script.name, name, _top_level_keys(m[3])) for name in (m[1], m[2])]
    return sent


def test_the_pages_send_only_commands_and_arguments_the_catalogue_declares() -> None:
    sent = _sent_by_pages()
    assert len(sent) > 25  # the console, the phone's page and the set-up pages all found
    for script, name, keys in sent:
        assert name in CATALOGUE, f"{script} sends {name}, which the catalogue does not declare"
        assert keys <= set(CATALOGUE[name].takes), (
            f"{script} sends {name} with {keys - set(CATALOGUE[name].takes)}"
        )
    # The bind form is posted whole (console.js: formArgs): every field it names is one of bind's arguments.
    console = TEMPLATES.joinpath("console.html").read_text(encoding="utf-8")
    form = console.split('<form id="bind-form"', 1)[1].split("</form>", 1)[0]
    assert set(re.findall(r'name="([a-z_]+)"', form)) == set(CATALOGUE["bind"].takes)


def test_the_pages_check_finds_an_argument_the_catalogue_does_not_take() -> None:
    assert _top_level_keys(" flicked: form.flicked.value, shot: f(a, b), direct_hits: [x, y], cards ") == {
        "flicked",
        "shot",
        "direct_hits",
        "cards",
    }
    ((name, body),) = _SEND.findall('R.send("pause", { why: "spill" }, b)')
    assert name == "pause" and not _top_level_keys(body) <= set(CATALOGUE[name].takes)
    toggle = 'R.send(t.getAttribute("aria-pressed") === "true" ? "resume" : "pause", { why: "spill" }, t)'
    ((first, second, body),) = _SEND_EITHER.findall(toggle)
    assert (first, second, _top_level_keys(body)) == ("resume", "pause", {"why"})
