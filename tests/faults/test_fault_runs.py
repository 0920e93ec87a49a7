"""A whole table under faults: the daemon killed at random moments, inside an event-log append and during a
shot's attribution; the broker restarted and cut off; the board rebooted with events in flight; the log's
disk full. Each run then checks that nothing acknowledged or answered was lost and that what phones and
trackers hold is the replay of the log (tests/faults/harness.py). Fixed seeds; ``benchmarks/fault_suite.py``
runs many random ones.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.faults.harness import FaultRun, RunResult

pytestmark = [pytest.mark.broker, pytest.mark.slow]


def run(tmp_path: Path, seed: int, faults: list[str]) -> RunResult:
    result = FaultRun(tmp_path / f"run-{seed}", seed, faults).run(play_s=2.0)
    assert result.problems == [], (result.problems, result.notes)
    # The run really played: a game was logged, the board's events were acknowledged, commands answered,
    # and the published states were compared with the replay.
    assert result.records >= 3 and result.acks > 0 and result.answers > 0
    assert result.states_checked >= 3
    assert result.journal_checked > 0  # every acknowledged board message was found in the device journal
    return result


@pytest.mark.timeout(120)
def test_sigkill_at_random_moments_and_inside_appends(tmp_path: Path) -> None:
    result = run(tmp_path, 11, ["kill", "kill_append", "kill_append"])
    assert result.faults["kill"] == 1
    inside = sum(n for kind, n in result.faults.items() if kind.startswith("kill_append:"))
    assert inside == 2, result.notes  # both kills landed inside an append, not from outside


@pytest.mark.timeout(120)
def test_sigkill_while_a_shot_is_attributed(tmp_path: Path) -> None:
    result = run(tmp_path, 12, ["kill_attribution"])
    assert result.faults["kill_attribution:mid-shot"] == 1, result.notes


@pytest.mark.timeout(120)
def test_broker_restart_and_partition_mid_game(tmp_path: Path) -> None:
    result = run(tmp_path, 13, ["broker_restart", "partition"])
    assert result.faults["broker_restart"] == result.faults["partition"] == 1
    # Nothing was killed and the disk never filled: every impact the daemon acknowledged is in a shot record.
    assert result.impacts_in_flight_at_kill == result.impacts_refused_by_full_disk == 0


@pytest.mark.timeout(120)
@pytest.mark.skipif(os.geteuid() != 0, reason="a full disk is a small tmpfs, which only root may mount")
def test_board_reboot_with_events_in_flight_and_a_full_disk(tmp_path: Path) -> None:
    result = run(tmp_path, 14, ["mcu_reboot", "disk_full"])
    assert len(result.boots) == 2, "the daemon took events from the rebooted board too"
    assert "disk_full skipped" not in " ".join(result.notes)
    assert result.faults["disk_full"] == 1
    # The full disk refused the board's messages too, and the table read the mat again once it had room.
    assert result.faults["disk_full:journal_refused"] == 1, result.notes
    assert len(result.recoveries_s) == 1
    assert result.journal_checked > 0
