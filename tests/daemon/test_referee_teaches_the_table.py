"""A live table learns from its referee (docs/calibration.md, "What the referee's answers teach"): a shot the
table held and the referee confirmed through the console becomes a labelled shot in the table's calibration
file, and the next shot is read with that calibration."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from service.attribution.calibration import built_in_calibration, load_calibration, save_calibration
from service.attribution.learning import CalibrationKeeper
from service.attribution.reliability import RefereeRecord
from service.daemon.daemon import DaemonOptions
from service.eventlog.memory import MemoryEventLog
from service.table.shot_actions import answered_discs
from tests.daemon.test_shot_reading import flick
from tests.helpers.game_script import GameScript

pytestmark = pytest.mark.timeout(120)


def rush(table: GameScript) -> None:
    """Xoric's disc flicked across the open mat: rest scans, an impact, rest scans."""
    xoric = table.disc_of("hero-xoric")
    table.flick(before={xoric: (7, 3)}, after={xoric: (12, 6)})


def _reading(table: GameScript, after: int) -> dict[str, Any]:
    table.until(lambda: not table.daemon.reading_shots(), "the reading to land")
    readings = [r for r in table.eventlog.records() if r.kind == "attribution" and r.seq > after]
    assert readings, "no reading of the shot"
    return dict(readings[-1].payload)


def test_a_held_shot_confirmed_through_the_console_teaches_the_table(tmp_path: Path) -> None:
    path = tmp_path / "t1.calibration.json"
    keeper = CalibrationKeeper(path, "t1")
    table = GameScript(eventlog=MemoryEventLog(), options=DaemonOptions(calibration=keeper))
    try:
        assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
        assert table.declare("hero-xoric", 0)["ok"]
        flick(table)
        first = _reading(table, 0)
        assert first["auto"] is False  # a new table's calibration has not settled: the referee is asked
        before = load_calibration(path)
        assert before.shots == 1 and before.referee.labelled == 0  # the shot's own evidence, no answer yet
        answer = table.send("confirm_hits", candidate=0, shot=str(first["shot"]))
        assert answer["ok"], answer
        after = load_calibration(path)
        assert after.referee.labelled == 1 and after.referee.agreed == 1  # the answer is a labelled shot
        assert after.shots == 1 and after.digest != before.digest
        # The calibrate page shows what the answers taught.
        status = table.state["calibration"]["status"]
        assert status["labelled_shots"] == 1 and status["labelled_agreed"] == 1
        # The next shot is read with the calibration the answer changed.
        assert table.daemon.session.state.expected_shot()["shot"] == "rush"  # Xoric's turn goes on
        seq = table.eventlog.last_seq()
        rush(table)
        second = _reading(table, seq)
        assert second["attribution"]["calibration"] == after.digest
    finally:
        table.close()


def test_the_referee_s_answer_in_the_attribution_s_terms() -> None:
    """Picking a reading gives its pieces (obstacles too); hits entered by hand give the reading with those
    characters, or else the characters' discs; set aside or not an answer: nothing."""
    pending = {
        "candidates": [
            {"direct_hits": ["disc-7", "box-1"], "hit_characters": ["monster-orc-1"]},
            {"direct_hits": ["disc-8"], "hit_characters": ["monster-orc-2"]},
        ]
    }
    discs = {"monster-orc-1": "disc-7", "monster-orc-2": "disc-8", "hero-xoric": "disc-1"}
    assert answered_discs(pending, {"candidate": 1}, discs) == {"disc-8"}
    assert answered_discs(pending, {"direct_hits": ["monster-orc-1"]}, discs) == {"disc-7", "box-1"}
    assert answered_discs(pending, {"direct_hits": ["disc-7", "disc-8"]}, discs) == {"disc-7", "disc-8"}
    assert answered_discs(pending, {"direct_hits": []}, discs) == frozenset()
    assert answered_discs(pending, {"candidate": 5}, discs) is None


def test_an_applied_shot_undone_and_entered_again_by_hand_is_an_answer_against_its_reading(
    tmp_path: Path,
) -> None:
    """A table whose record let a doubtful shot through (reliability.py) applies it; the referee undoes it and
    enters the shot by hand as a miss. That is a wrong reading found: the record counts it, and the gate that
    let the shot through stops doing so (docs/calibration.md, "How the record relaxes a gate")."""
    path = tmp_path / "t1.calibration.json"
    bands = ("p 0.00-0.50", "p 0.50-0.80", "p 0.80-0.90", "p 0.90-0.95", "p 0.95-1.00")
    record = RefereeRecord(counts=tuple(sorted([("unsure", 150, 0), *((b, 150, 0) for b in bands)])))
    save_calibration(replace(built_in_calibration(), referee=record), path)
    keeper = CalibrationKeeper(path, "t1")
    table = GameScript(eventlog=MemoryEventLog(), options=DaemonOptions(calibration=keeper))
    try:
        assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
        assert table.declare("hero-xoric", 0)["ok"]
        flick(table)
        reading = _reading(table, 0)
        assert reading["auto"] is True, reading["attribution"]["reasons"]  # let through by the record
        assert table.eventlog.records()[-1].payload["action"] == "resolve_shot"
        assert table.send("undo", reason="the disc stopped short of the orc")["ok"]
        assert table.send("manual_shot", direct_hits=[])["ok"]
        learnt = load_calibration(path).referee
        assert learnt.labelled == 1 and learnt.agreed == 0
        assert learnt.counted("unsure") == (150, 1) and not learnt.releases("unsure")
    finally:
        table.close()


def test_a_table_told_to_ignore_its_referee_s_answers_learns_only_from_the_shots(tmp_path: Path) -> None:
    """`smartmat run --ignore-referee-answers` (the comparison of benchmarks/demo_learning.py): the shot's own
    evidence is learnt, the referee's answer is not."""
    path = tmp_path / "t1.calibration.json"
    keeper = CalibrationKeeper(path, "t1", learn_answers=False)
    table = GameScript(eventlog=MemoryEventLog(), options=DaemonOptions(calibration=keeper))
    try:
        assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
        assert table.declare("hero-xoric", 0)["ok"]
        flick(table)
        first = _reading(table, 0)
        assert first["auto"] is False
        before = load_calibration(path)
        assert before.shots == 1
        assert table.send("confirm_hits", candidate=0, shot=str(first["shot"]))["ok"]
        after = load_calibration(path)
        assert after.referee.labelled == 0 and after.digest == before.digest
    finally:
        table.close()
