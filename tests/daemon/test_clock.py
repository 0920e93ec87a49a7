"""The daemon's time comes from one injected clock: tests pass time without waiting, in the right order.

``FakeClock.advance`` runs each job that falls due on the way at its own moment; the daemon's timers
(the segmenter's quiet timeout, the game loop's watchdog, the demo table's next game) read that clock and
nothing else, which a static check of the daemon package keeps true.
"""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from firmware_bridge.messages import Impact, ScanRequest
from service.daemon.clock import Clock, FakeClock, SystemClock
from service.daemon.health import GAME_LOOP_STALL_S
from service.sensing.segmenter import SegmenterSettings
from tests.helpers.game_script import GameScript

DAEMON_PACKAGE = Path(__file__).resolve().parents[2] / "service" / "daemon"


def test_advance_runs_each_due_job_at_its_own_moment_in_time_order() -> None:
    clock = FakeClock(start=100.0)
    ran: list[tuple[str, float]] = []
    clock.every(0.5, lambda: ran.append(("tick", clock.monotonic())), "tick")
    clock.after(1.2, lambda: ran.append(("once", clock.monotonic())), "once")
    assert clock.advance(0.4) == 0 and ran == []
    assert clock.advance(1.0) == 3
    assert ran == [("tick", 100.5), ("tick", 101.0), ("once", 101.2)]
    assert clock.monotonic() == pytest.approx(101.4)


def test_a_job_registered_while_time_passes_runs_in_the_same_advance_when_due() -> None:
    clock = FakeClock(start=0.0)
    ran: list[float] = []

    def later() -> None:
        clock.after(0.5, lambda: ran.append(clock.monotonic()))

    clock.after(1.0, later)
    clock.advance(2.0)
    assert ran == [1.5]


def test_a_cancelled_timer_never_runs_again() -> None:
    clock = FakeClock(start=0.0)
    ran: list[float] = []
    timer = clock.every(1.0, lambda: ran.append(clock.monotonic()))
    clock.advance(2.0)
    timer.cancel()
    clock.advance(5.0)
    assert ran == [1.0, 2.0] and clock.next_due() is None


def test_the_fake_clock_never_goes_back_and_a_period_must_pass() -> None:
    clock = FakeClock()
    with pytest.raises(ValueError, match="does not go back"):
        clock.advance(-1.0)
    with pytest.raises(ValueError, match="above zero"):
        clock.every(0.0, lambda: None)


def test_the_fake_wall_clock_moves_with_the_monotonic_one() -> None:
    clock = FakeClock(start=10.0, wall_start=1_800_000_000.0)
    clock.advance(2.5)
    assert clock.wall() == pytest.approx(1_800_000_002.5)


class HandSetClock(Clock):
    """A clock whose time the test sets, to see what ``run_due`` does when the loop comes round late."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def wall(self) -> float:
        return self.now


def test_a_late_loop_runs_a_periodic_job_once_not_once_per_missed_period() -> None:
    clock = HandSetClock()
    ran: list[float] = []
    clock.every(0.05, lambda: ran.append(clock.now))
    clock.now = 10.0  # the loop was held up for ten seconds
    assert clock.run_due() == 1 and ran == [10.0]
    assert clock.next_due() == pytest.approx(10.05)  # and goes on at its period from now


def test_the_system_clock_reads_the_monotonic_and_the_wall_time() -> None:
    clock = SystemClock()
    assert abs(clock.wall() - time.time()) < 5.0
    assert clock.monotonic() <= time.monotonic()


def test_the_segmenter_asks_for_a_scan_once_the_mat_has_been_quiet_on_the_daemons_clock() -> None:
    """docs/architecture.md step 3: a shot ends when no impact has come for ``quiet_s``."""
    table = GameScript()
    try:
        quiet_s = SegmenterSettings().quiet_s
        table.connection.feed(Impact(0, 5_000_000, 500))
        deadline = time.monotonic() + 5  # real time: the device reader's thread hands the impact on
        while table.connection.unacknowledged and time.monotonic() < deadline:
            table.daemon.step(0.05)
        assert not table.connection.unacknowledged
        asked = len([m for m in table.connection.sent if isinstance(m, ScanRequest)])
        table.advance(quiet_s / 2)
        assert len([m for m in table.connection.sent if isinstance(m, ScanRequest)]) == asked
        table.advance(quiet_s / 2 + 0.1)
        assert len([m for m in table.connection.sent if isinstance(m, ScanRequest)]) == asked + 1
    finally:
        table.close()


def test_the_game_loop_counts_as_stuck_only_after_it_has_not_gone_round_for_the_stall_time() -> None:
    table = GameScript()
    try:
        assert table.daemon.health().game_loop
        table.clock.advance(GAME_LOOP_STALL_S - 1.0)
        assert table.daemon.health().game_loop
        table.clock.advance(1.0)  # time passed, and the loop was never stepped
        assert not table.daemon.health().game_loop and not table.daemon.health().ok
        table.daemon.step(0)
        assert table.daemon.health().game_loop
    finally:
        table.close()


def _time_calls(path: Path) -> list[str]:
    """Each ``time.monotonic``/``time.time``/``time.sleep`` (or ``from time import …``) in a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "time":
            found.append(f"{path.name}:{node.lineno}: time.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            found.append(f"{path.name}:{node.lineno}: from time import …")
    return found


def test_no_module_of_the_daemon_reads_the_time_but_its_clock() -> None:
    modules = sorted(DAEMON_PACKAGE.glob("*.py"))
    assert len(modules) > 5
    offenders = [call for path in modules if path.name != "clock.py" for call in _time_calls(path)]
    assert offenders == []
    assert _time_calls(DAEMON_PACKAGE / "clock.py")  # the check does see a read of the time


def test_the_daemons_loop_module_stays_under_300_lines() -> None:
    lines = len((DAEMON_PACKAGE / "daemon.py").read_text(encoding="utf-8").splitlines())
    assert lines < 300, f"service/daemon/daemon.py has {lines} lines: move a job into a module beside it"
