"""The live table session as a tournament referee stresses it: undo of one or many steps after every kind of
record, undo while a shot waits, corrections then undo, pause, and a restart at each of those points.

The contract (docs/event-log.md, docs/game-log.md: undo; docs/mqtt.md: The command list): every change is an
appended record, ``undo`` takes back actions only (table records stay as they are), the published state is a
fold of the log, so a new daemon on the same log publishes exactly what the old one did.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest

from service.eventlog.memory import MemoryEventLog
from service.publish import topics
from service.table.shot_actions import Reading
from tests.helpers.game_script import GameScript

DOUBT = {
    "direct_hits": ["dungeon-1"],
    "hit_characters": ["monster-orc-1"],
    "off_mat_characters": [],
    "freed_characters": [],
    "probability": 0.55,
}


@pytest.fixture
def table() -> Iterator[GameScript]:
    table = GameScript(eventlog=MemoryEventLog())
    assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
    yield table
    table.close()


def frozen_log(table: GameScript) -> list[tuple[int, str, Any]]:
    return [(r.seq, r.kind, copy.deepcopy(r.payload)) for r in table.eventlog.records()]


def board(table: GameScript) -> Any:
    message = table.spectator.last(topics.topic(table.table.table, topics.BOARD))
    return None if message is None else message.payload


def same_after_restart(table: GameScript) -> None:
    """A new daemon on the same log publishes the very same state (characters, discs, pending shot, seq)."""
    before, board_before, log_before = table.state, board(table), frozen_log(table)
    again = GameScript(rooms=table.table.game.rooms or (), eventlog=table.eventlog)
    try:
        assert again.state == before
        assert board(again) == board_before
        assert frozen_log(again) == log_before  # a restart appends nothing
    finally:
        again.close()


def consistent(table: GameScript) -> None:
    """The published seq is the log's last seq; seqs run 1..n without gaps."""
    seqs = [r.seq for r in table.eventlog.records()]
    assert seqs == list(range(1, len(seqs) + 1))
    assert table.state["seq"] == table.eventlog.last_seq()


def sensor_shot(table: GameScript, *, auto: bool, candidate: dict[str, Any] = DOUBT) -> int:
    """What the daemon logs for a shot: its ``shot`` record, then (back from the shot reader) its reading,
    appended as an ``attribution`` record; the attribution itself is tested elsewhere."""
    expected = table.state["expected_shot"]
    daemon = table.daemon
    payload = {"character": expected["character"], "shot": expected["shot"], "attributing": True}
    seq = daemon.record("shot", payload, "sensor")
    daemon.shots.on_reading(Reading(seq, {"probability": candidate["probability"]}, [candidate], auto))
    return seq


def last_shot(table: GameScript) -> dict[str, Any]:
    message = table.spectator.last(topics.topic(table.table.table, topics.SHOT))
    assert message is not None, "no shot published"
    return dict(json.loads(message.payload))


def orc_health(table: GameScript) -> int:
    return int(table.character("monster-orc-1")["health"])


# -- undo after each kind of record ----------------------------------------------------------------------


def test_undo_of_an_auto_applied_shot_takes_back_its_damage_and_the_shot_is_expected_again(
    table: GameScript,
) -> None:
    """docs/game-log.md: undo ("undoes the latest action still in effect"): the resolve_shot, not the sensor
    record."""
    table.declare("hero-xoric")
    expected, full = table.state["expected_shot"], orc_health(table)
    sensor_shot(table, auto=True)
    assert orc_health(table) < full
    written = frozen_log(table)
    assert table.send("undo", reason="the orc was nudged by hand")["ok"]
    assert orc_health(table) == full
    assert table.state["expected_shot"] == expected
    assert table.state["table"]["pending_shot"] is None
    assert frozen_log(table)[: len(written)] == written  # nothing rewritten
    assert [r.kind for r in table.eventlog.records()][-4:] == ["shot", "attribution", "action", "undo"]
    consistent(table)
    same_after_restart(table)


def test_undo_of_a_confirmed_doubtful_shot_does_not_bring_the_question_back(table: GameScript) -> None:
    table.declare("hero-xoric")
    full = orc_health(table)
    shot = sensor_shot(table, auto=False)
    assert table.state["table"]["pending_shot"]["seq"] == shot
    assert table.state["actions"] == []
    same_after_restart(table)
    assert table.send("confirm_hits", candidate=0, shot=str(shot))["ok"]
    assert orc_health(table) < full
    assert table.send("undo", reason="wrong orc")["ok"]
    assert orc_health(table) == full
    assert table.state["table"]["pending_shot"] is None
    assert table.state["expected_shot"]["character"] == "hero-xoric"
    assert not table.send("confirm_hits", candidate=0, shot=str(shot))["ok"]
    consistent(table)
    same_after_restart(table)


def test_undo_after_a_dismissed_shot_takes_back_the_declaration_not_the_dismissal(table: GameScript) -> None:
    table.declare("hero-xoric")
    sensor_shot(table, auto=False)
    assert table.send("dismiss_shot", reason="table bumped")["ok"]
    assert table.state["table"]["pending_shot"] is None
    same_after_restart(table)
    assert table.send("undo", reason="other hero")["ok"]
    assert table.state["turn"]["character"] is None
    assert table.state["table"]["pending_shot"] is None
    assert not table.send("dismiss_shot")["ok"]
    consistent(table)
    same_after_restart(table)


def test_undo_while_a_shot_waits_sets_the_shot_aside_with_the_action(table: GameScript) -> None:
    table.declare("hero-xoric")
    shot = sensor_shot(table, auto=False)
    assert table.send("undo", reason="Elani goes first")["ok"]
    assert table.state["turn"]["character"] is None
    assert table.state["table"]["pending_shot"] is None
    assert not table.send("confirm_hits", candidate=0, shot=str(shot))["ok"]
    assert table.state["actions"], "the heroes may declare again"
    assert table.declare("hero-elani")["ok"]
    consistent(table)
    same_after_restart(table)


def test_a_correction_is_undone_like_an_action_and_the_one_before_it_stays(table: GameScript) -> None:
    """docs/game-log.md: correction ("a correction applied at this point of the game")."""
    assert table.send("correct", target="hero-xoric", field="health", value=3, reason="tracker slipped")["ok"]
    assert table.send("correct", target="hero-xoric", field="gold", value=4, reason="paid twice")["ok"]
    full_gold_before = table.character("hero-xoric")["gold"]
    assert full_gold_before == 4
    assert table.send("undo", reason="gold was right")["ok"]
    assert table.character("hero-xoric")["health"] == 3
    assert table.character("hero-xoric")["gold"] != 4
    same_after_restart(table)
    assert table.send("undo", reason="health was right too")["ok"]
    assert table.character("hero-xoric")["health"] != 3
    assert [r.kind for r in table.eventlog.records()][-4:] == ["correction", "correction", "undo", "undo"]
    consistent(table)
    same_after_restart(table)


def test_undo_while_paused_undoes_the_action_and_the_game_stays_paused(table: GameScript) -> None:
    table.declare("hero-varesh")
    assert table.send("pause", reason="spilled drink")["ok"]
    assert table.send("undo", reason="wrong hero")["ok"]
    assert table.state["paused"] is True and table.state["table"]["paused"] is True
    assert table.state["turn"]["character"] is None
    assert table.state["actions"] == []  # nothing may be declared while paused
    same_after_restart(table)
    assert table.send("resume")["ok"]
    assert table.state["actions"]
    consistent(table)
    same_after_restart(table)


def test_undo_leaves_the_referees_disc_choice_alone(table: GameScript) -> None:
    table.declare("hero-xoric")
    assert table.send("bind", character="monster-orc-1", piece="dungeon-9")["ok"]
    assert table.send("undo", reason="x")["ok"]
    assert table.character("monster-orc-1")["piece"] == "dungeon-9"
    discs = [c["piece"] for c in table.state["characters"] if c["piece"]]
    assert len(discs) == len(set(discs))  # one disc per character still
    consistent(table)
    same_after_restart(table)


def test_undoing_the_room_change_removes_its_monsters_and_their_discs(table: GameScript) -> None:
    heroes = {c["id"]: c["piece"] for c in table.state["characters"] if c["kind"] == "hero"}
    monsters = {c["id"]: c["piece"] for c in table.state["characters"] if c["kind"] == "monster"}
    assert monsters
    assert table.send("undo", count=2, reason="wrong room card")["ok"]
    now = {c["id"]: c["piece"] for c in table.state["characters"]}
    assert now == heroes
    same_after_restart(table)
    assert table.send("enter_room")["ok"]
    again = {c["id"]: c["piece"] for c in table.state["characters"] if c["kind"] == "monster"}
    assert again == monsters  # the same seed, the same draw, the same free discs
    consistent(table)
    same_after_restart(table)


# -- undo of many steps, then play on -------------------------------------------------------------------


def test_undo_many_steps_across_table_records_then_new_actions(table: GameScript) -> None:
    start = table.state
    table.declare("hero-xoric")
    sensor_shot(table, auto=True)
    assert table.send("pause")["ok"] and table.send("resume")["ok"]
    table.send("bind", character="hero-xoric", piece="hero-xoric")
    assert table.send("correct", target="hero-elani", field="health", value=2, reason="knocked over")["ok"]
    assert table.end_turn()["ok"]
    # actions in effect: enter_room, start_battle, declare, resolve_shot, set_health, end_turn
    assert table.state["table"]["can_undo"]
    assert not table.send("undo", count=7, reason="too far")["ok"]
    assert table.send("undo", count=4, reason="back to the start of the battle")["ok"]
    state = table.state
    for key in ("phase", "round", "turn", "expected_shot", "gold", "pending", "actions", "characters"):
        assert state[key] == start[key], key
    assert state["seq"] == table.eventlog.last_seq() > start["seq"]
    same_after_restart(table)
    assert table.declare("hero-roosan")["ok"]  # a new line of play
    assert table.state["turn"]["character"] == "hero-roosan"
    assert table.send("undo", count=2, reason="back to the room")["ok"]
    assert table.state["table"]["can_undo"] is True and table.state["phase"] != "battle"
    assert table.send("undo", reason="all")["ok"]
    assert table.state["table"]["can_undo"] is False
    assert not table.send("undo")["ok"]
    consistent(table)
    same_after_restart(table)


# -- pause ------------------------------------------------------------------------------------------------


def test_a_shot_seen_while_paused_is_ignored_and_play_resumes_where_it_was(table: GameScript) -> None:
    from service.sensing.segmenter import ShotObserved

    table.declare("hero-xoric")
    assert table.send("pause", reason="dispute")["ok"]
    before_log, before = frozen_log(table), table.state
    table.daemon.shots.on_shot(ShotObserved(pre=None, impacts=(), post=None))  # type: ignore[arg-type]
    assert frozen_log(table) == before_log and table.state == before
    same_after_restart(table)
    assert table.send("resume")["ok"]
    assert table.state["expected_shot"] == before["expected_shot"]
    consistent(table)


def test_a_shot_waiting_when_paused_still_waits_after_resume_and_a_restart(table: GameScript) -> None:
    table.declare("hero-xoric")
    shot = sensor_shot(table, auto=False)
    assert table.send("pause")["ok"]
    same_after_restart(table)
    assert table.send("resume")["ok"]
    assert table.state["table"]["pending_shot"]["seq"] == shot
    same_after_restart(table)
    assert table.send("confirm_hits", candidate=0, shot=str(shot))["ok"]
    consistent(table)
    same_after_restart(table)


# -- restarts at awkward points ---------------------------------------------------------------------------


def test_a_restart_between_an_auto_shot_and_its_resolution_leaves_the_shot_to_the_referee(
    table: GameScript,
) -> None:
    """The shot record is durable before its resolve_shot is: a power cut between the two must not leave an
    invisible waiting shot that blocks every later flick."""
    table.declare("hero-xoric")
    expected = table.state["expected_shot"]
    table.close()
    seq = table.eventlog.append(
        "shot",
        {"character": expected["character"], "shot": expected["shot"], "auto": True, "candidates": [DOUBT]},
        "sensor",
    )
    again = GameScript(eventlog=table.eventlog)
    try:
        pending = again.state["table"]["pending_shot"]
        assert pending is not None and pending["seq"] == seq
        assert again.state["seq"] == seq
        assert again.send("confirm_hits", candidate=0, shot=str(seq))["ok"]
        assert again.state["table"]["pending_shot"] is None
        consistent(again)
        same_after_restart(again)
    finally:
        again.close()


# -- what the pages are told about the shot -------------------------------------------------------------


@pytest.mark.parametrize("how", ["dismiss_shot", "undo"])
def test_a_waiting_shot_set_aside_is_no_longer_offered_for_confirmation(table: GameScript, how: str) -> None:
    """docs/mqtt.md: dismiss_shot ("the waiting shot is set aside"). The console offers a shot's
    candidates until the ``shot`` message says it is settled; the table refuses a confirmation once it is
    set aside."""
    table.declare("hero-xoric")
    shot = sensor_shot(table, auto=False)
    assert last_shot(table)["resolved"] is False
    assert table.send(how, reason="table bumped")["ok"]
    assert table.state["table"]["pending_shot"] is None
    published = last_shot(table)
    assert published["shot_seq"] == shot and published.get("set_aside") is True
    assert not published.get("resolved")
    assert not table.send("confirm_hits", candidate=0, shot=str(shot))["ok"]


def test_a_confirmed_shot_then_undone_is_published_as_undone(table: GameScript) -> None:
    table.declare("hero-xoric")
    shot = sensor_shot(table, auto=False)
    assert table.send("confirm_hits", candidate=0, shot=str(shot))["ok"]
    assert last_shot(table)["resolved"] is True and last_shot(table)["chosen"] == 0
    assert table.send("undo", reason="wrong orc")["ok"]
    assert last_shot(table)["undone"] is True
    assert not last_shot(table).get("set_aside")


def test_an_auto_shot_undone_is_published_as_undone(table: GameScript) -> None:
    table.declare("hero-xoric")
    sensor_shot(table, auto=True)
    assert table.send("undo", reason="nudged")["ok"]
    assert last_shot(table)["undone"] is True


# -- decisions and discs --------------------------------------------------------------------------------


def heroes_done(table: GameScript) -> None:
    for hero in ("hero-varesh", "hero-roosan", "hero-elani", "hero-xoric"):
        assert table.declare(hero)["ok"] and table.end_turn()["ok"]


def test_undo_of_a_decision_answer_asks_the_question_again(table: GameScript) -> None:
    """docs/game-log.md: action ("answered decisions are all actions"), so undo takes back the answer."""
    heroes_done(table)
    assert table.declare("monster-orc-1")["ok"]
    question = table.state["pending"]
    assert question["kind"] == "choose_alternative"
    same_after_restart(table)
    assert table.send("answer", decision=question["id"], option="1")["ok"]
    assert table.state["pending"] is None
    assert table.state["expected_shot"]["shot"] == "missile"
    assert table.send("undo", reason="the orc swings instead")["ok"]
    assert table.state["pending"] == question
    assert table.state["expected_shot"] is None
    same_after_restart(table)
    assert table.send("answer", decision=question["id"], option="0")["ok"]
    assert table.state["expected_shot"]["shot"] == "melee"
    consistent(table)
    same_after_restart(table)


def test_binding_a_disc_in_use_moves_the_other_character_to_a_free_disc(table: GameScript) -> None:
    """docs/mqtt.md: bind ("that disc now stands for that character"): never two characters on one disc."""
    troll_disc = table.character("monster-troll-1")["piece"]
    orc_disc = table.character("monster-orc-1")["piece"]
    assert table.send("bind", character="monster-orc-1", piece=troll_disc)["ok"] is not None
    pieces = [c["piece"] for c in table.state["characters"] if c["piece"]]
    assert len(pieces) == len(set(pieces))
    assert table.character("monster-troll-1")["piece"] != table.character("monster-orc-1")["piece"]
    assert orc_disc  # the orc had a disc before
    consistent(table)
    same_after_restart(table)
