"""A live table learns from its referee (docs/calibration.md, "What the referee's answers teach"): a shot the
table held and the referee confirmed through the console becomes a labelled shot in the table's calibration
file, and the next shot is read with that calibration."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from service.attribution.calibration import load_calibration
from service.attribution.learning import CalibrationKeeper
from service.daemon.daemon import DaemonOptions
from service.eventlog.memory import MemoryEventLog
from service.table.shot_actions import answered_discs
from tests.daemon.table_harness import FakeTable
from tests.daemon.test_shot_reading import Mat, disc_of, flick, until

pytestmark = pytest.mark.timeout(120)


def rush(table: FakeTable) -> None:
    """Xoric's disc flicked across the open mat: rest scans, an impact, rest scans."""
    mat, xoric = Mat(table), disc_of(table, "hero-xoric")
    for _ in range(2):
        mat.scan({xoric: (7, 3)})
    mat.impact()
    for _ in range(2):
        mat.scan({xoric: (12, 6)})


def _reading(table: FakeTable, after: int) -> dict[str, Any]:
    until(table, lambda: not table.daemon.reading_shots(), "the reading to land")
    readings = [r for r in table.eventlog.records() if r.kind == "attribution" and r.seq > after]
    assert readings, "no reading of the shot"
    return dict(readings[-1].payload)


def test_a_held_shot_confirmed_through_the_console_teaches_the_table(tmp_path: Path) -> None:
    path = tmp_path / "t1.calibration.json"
    keeper = CalibrationKeeper(path, "t1")
    table = FakeTable(eventlog=MemoryEventLog(), options=DaemonOptions(calibration=keeper))
    try:
        assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
        assert table.send("declare", character="hero-xoric", alternative=0)["ok"]
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
