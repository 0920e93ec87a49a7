"""The game log: replay, undo and corrections as appended records (docs/game-log.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main
from service.gamelog import LogFormatError, SetupError, parse_line, read_log, replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
SETUP = {
    "ruleset": "catacombs-3e",
    "content": "sample",
    "heroes": ["xoric", "varesh", "roosan", "elani"],
    "lord": "hmotha-the-lich-lord",
    "rooms": ["the-barracks"],
    "seed": 3,
}


def barracks_log() -> LogWriter:
    log = LogWriter()
    log.setup(SETUP)
    log.action(A.EnterRoom())
    log.action(A.StartBattle())
    log.action(A.DeclareAction("hero-xoric"))
    return log


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.jsonl")), ids=lambda p: p.name)
def test_every_example_log_replays_without_a_rejected_record(path: Path) -> None:
    result = replay(read_log(path))
    assert result.rejected == []
    assert result.applied > 0


def test_the_barracks_example_ends_in_the_resolution_phase_with_gold_paid() -> None:
    state = replay(read_log(EXAMPLES / "barracks-cleared.jsonl")).state
    assert state.phase == "resolution"
    assert state.party_gold + state.treasury == 92
    assert state.character("hero-elani").gold == 7


def test_a_correction_replaces_a_misattributed_shot_without_rewriting_the_log() -> None:
    log = barracks_log()
    wrong = log.action(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-1",)))
    assert not replay(log.records).state.character("monster-orc-1").alive
    log.correction(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-troll-1",)), replaces=wrong.seq)
    state = replay(log.records).state
    assert state.character("monster-orc-1").alive
    assert state.character("monster-troll-1").health == 1
    assert [r.kind for r in log.records][-2:] == ["action", "correction"]


def test_undo_removes_the_latest_effective_action() -> None:
    log = barracks_log()
    log.action(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-1",)))
    log.undo()
    state = replay(log.records).state
    assert state.character("monster-orc-1").alive
    assert state.expected_shot()["shot"] == "melee"  # type: ignore[index]
    log.undo()  # and the declaration before it
    assert replay(log.records).state.turn is None


def test_a_record_that_became_illegal_after_a_correction_is_reported_not_lost() -> None:
    log = barracks_log()
    declared = log.records[-1].seq
    log.action(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-1",)))
    log.correction(A.DeclareAction("hero-elani"), replaces=declared)
    result = replay(log.records)
    assert [seq for seq, _ in result.rejected] == [5]
    assert "hero-xoric has not declared an action" in result.rejected[0][1]


def test_referee_health_correction_is_appended() -> None:
    log = barracks_log()
    log.correction(A.SetHealth("hero-varesh", 5, "fire wall"))
    state = replay(log.records).state
    assert state.character("hero-varesh").health == 5


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "line 3: not JSON"),
        (
            '{"v": 2, "seq": 1, "at": "2026-11-22T10:00:00Z", "by": "r", "kind": "action", "payload": {}}',
            "version 2 is not supported",
        ),
        (
            '{"v": 1, "seq": 1, "at": "2026-11-22T10:00:00Z", "by": "r", "kind": "Dance!", "payload": {}}',
            "kind 'Dance!' must be a lower-case word",
        ),
        (
            '{"v": 1, "seq": -4, "at": "2026-11-22T10:00:00Z", "by": "r", "kind": "action", "payload": {}}',
            "seq must be a positive integer",
        ),
        (
            '{"v": 1, "seq": 1, "at": "2026-11-22T10:00:00Z", "by": "r", "kind": "action", "payload": []}',
            "payload must be a JSON object",
        ),
        ('{"v": 1, "seq": 1, "kind": "action", "payload": {}}', "record lacks field\\(s\\) at, by"),
    ],
)
def test_corrupt_lines_get_a_specific_error(line: str, message: str) -> None:
    with pytest.raises(LogFormatError, match=message):
        parse_line(line, 3)


def test_a_malformed_action_payload_is_rejected_by_name_and_the_rest_replays() -> None:
    log = barracks_log()
    log.records.append(
        parse_line(
            '{"v":1,"seq":5,"at":"2026-11-22T10:00:00Z","by":"sensor","kind":"action","payload":{"action":"fly"}}'
        )
    )
    log.records.append(
        parse_line(
            '{"v":1,"seq":6,"at":"2026-11-22T10:00:00Z","by":"sensor","kind":"action",'
            '"payload":{"action":"resolve_shot","character":"hero-xoric",'
            '"shot":"melee","direct_hits":["monster-orc-3"]}}'
        )
    )
    result = replay(log.records)
    assert result.rejected[0][0] == 5 and "unknown action 'fly'" in result.rejected[0][1]
    assert not result.state.character("monster-orc-3").alive


def test_a_bad_setup_names_the_problem() -> None:
    log = LogWriter()
    log.setup({**SETUP, "heroes": ["xoric", "varesh", "roosan", "nobody"]})
    with pytest.raises(SetupError, match="no hero card 'nobody'"):
        replay(log.records)
    with pytest.raises(LogFormatError, match="no setup record"):
        replay([])


def test_smartmat_replay_prints_the_state_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLES / "pending-decision.jsonl"), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["phase"] == "battle"
    assert view["pending"]["kind"] == "choose_alternative"
    assert [o["label"] for o in view["pending"]["options"]] == ["melee", "missile"]
    assert view["rejected"] == []


def test_smartmat_replay_reports_an_unreadable_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    first = '{"v": 1, "seq": 1, "at": "2026-11-22T10:00:00Z", "by": "r", "kind": "setup", "payload": {}}'
    bad.write_text(first + "\n{oops\n")
    assert main(["replay", str(bad)]) == 1
    assert "line 2: not JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2


def test_the_table_daemons_own_records_are_passed_over() -> None:
    """A daemon's log also holds attributed shots and disc bindings; the rules replay only their records."""
    log = barracks_log()
    log.add("shot", {"character": "hero-xoric", "shot": "melee", "candidates": []}, "sensor")
    log.add("bind", {"hero-xoric": "disc-7"}, "referee:anna")
    log.action(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-1",)))
    result = replay(log.records)
    assert result.rejected == [] and not result.state.character("monster-orc-1").alive


def test_referee_corrections_of_status_and_a_wrongly_removed_monster() -> None:
    """catacombs-3e-reference.txt: The Overseer Player ("the final arbiter of any disputes")."""
    log = barracks_log()
    log.action(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-1",)))
    log.correction(A.SetHealth("monster-orc-1", 1, "the Orc was only brushed"))
    log.correction(A.SetStatus("hero-varesh", "stunned", True, "stun missed by the sensors"))
    state = replay(log.records).state
    assert state.character("monster-orc-1").alive and state.character("hero-xoric").trophies == ()
    assert state.character("hero-varesh").status == ("stunned",)
    log.correction(A.SetStatus("hero-varesh", "asleep", True))
    assert "status must be one of" in replay(log.records).rejected[0][1]


def test_smartmat_replay_prints_the_canonical_state_that_loads_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from service.games.catacombs.flow.state import GameState

    assert main(["replay", str(EXAMPLES / "barracks-cleared.jsonl"), "--state"]) == 0
    text = capsys.readouterr().out.strip()
    assert GameState.from_json(text) == replay(read_log(EXAMPLES / "barracks-cleared.jsonl")).state
