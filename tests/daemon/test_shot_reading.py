"""Shots are read off the game thread: a slow attribution never holds up the referee or the mat.

The board's scans and impacts of one flick go in through the fake serial connection; the attribution is a
stand-in that waits until the test lets it finish, so the test decides when the reading comes back. The
contract (docs/architecture.md, "A shot, step by step"; docs/game-log.md: shot, attribution): the ``shot``
record is appended at once and the shot shows as attributing; commands are answered meanwhile; the reading
is appended as an ``attribution`` record and applied only to the shot still waiting for it; a replay of the
log reaches the very same state.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from service.attribution.infer import Attribution, AttributionConfig, Candidate
from service.daemon.daemon import DaemonOptions
from service.eventlog.memory import MemoryEventLog
from service.mat.trace import ShotTrace
from service.table.session import TableSession
from tests.helpers.game_script import GameScript


class HeldAttribution:
    """An attribution that waits for the test: the orc is hit, sure enough for the table to apply it."""

    def __init__(self, hit: str, probability: float = 0.97) -> None:
        self.hit, self.probability = hit, probability
        self.started = threading.Event()
        self.release = threading.Event()
        self.thread: str | None = None

    def __call__(self, trace: ShotTrace, config: AttributionConfig) -> Attribution:
        self.thread = threading.current_thread().name
        self.started.set()
        assert self.release.wait(10), "the test never let the attribution finish"
        hit = Candidate(frozenset({self.hit}), frozenset(), frozenset(), self.probability, ())
        sure = self.probability >= 0.9
        return Attribution(trace.declaration.flicked, [hit], sure, 0.9, 100, 0.5)


@pytest.fixture
def held() -> HeldAttribution:
    return HeldAttribution(hit="")  # the orc's disc is named once the game has handed out its discs


@pytest.fixture
def table(held: HeldAttribution) -> Iterator[GameScript]:
    table = GameScript(eventlog=MemoryEventLog(), options=DaemonOptions(attribute=held))
    assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
    assert table.declare("hero-xoric", 0)["ok"]
    held.hit = table.disc_of("monster-orc-1")
    yield table
    held.release.set()
    table.close()


def flick(table: GameScript) -> None:
    """Xoric's disc flicked into the orc's: two rest scans, an impact, two rest scans."""
    xoric, orc = table.disc_of("hero-xoric"), table.disc_of("monster-orc-1")
    table.flick(before={xoric: (3, 3), orc: (8, 3)}, after={xoric: (7, 3), orc: (10, 3)})


def until(table: GameScript, condition: Callable[[], bool], what: str) -> None:
    table.until(condition, what)


def shots(table: GameScript) -> list[dict[str, Any]]:
    return table.shots()


def kinds(table: GameScript) -> list[str]:
    return [r.kind for r in table.eventlog.records()]


def replayed(table: GameScript) -> dict[str, Any]:
    return TableSession.replay(table.eventlog.records(), binder=table.daemon.bind_discs).snapshot()


def test_a_slow_attribution_runs_off_the_game_thread_and_commands_are_answered_meanwhile(
    table: GameScript, held: HeldAttribution
) -> None:
    """catacombs-3e-rules.md: Melee Shots (a direct hit wounds the monster); docs/architecture.md."""
    full = table.character("monster-orc-1")["health"]
    flick(table)
    assert held.started.wait(5), "the shot was never handed to the attribution"
    assert held.thread == "shot reader" and held.thread != threading.current_thread().name
    # The shot is logged and shown as attributing while the mat reads it.
    assert kinds(table)[-1] == "shot"
    shot_seq = table.eventlog.last_seq()
    attributing = table.state["table"]["attributing"]
    assert attributing == {"seq": shot_seq, "character": "hero-xoric", "shot": "melee"}
    assert table.state["table"]["pending_shot"] is None and table.state["actions"] == []
    assert shots(table)[-1]["status"] == "attributing" and shots(table)[-1]["shot_seq"] == shot_seq
    assert table.daemon.reading_shots()

    # A referee command is answered while the attribution is still blocked.
    answer = table.send("pause", reason="a spectator leaned on the table")
    assert answer["ok"] and answer["seq"] == shot_seq + 1
    assert held.started.is_set() and not held.release.is_set()
    assert table.send("resume")["ok"]
    # Confirming a reading that does not exist yet is refused, in words.
    early = table.send("confirm_hits", candidate=0, shot=str(shot_seq))
    assert not early["ok"] and "still reading" in early["error"]

    held.release.set()
    until(table, lambda: not table.daemon.reading_shots(), "the reading to land")
    assert kinds(table)[-2:] == ["attribution", "action"]  # the sure reading, then its resolve_shot
    reading = table.eventlog.records()[-2]
    assert reading.payload["shot"] == shot_seq and reading.payload["auto"] is True
    assert table.character("monster-orc-1")["health"] < full
    assert table.state["table"]["attributing"] is None
    last = shots(table)[-1]
    assert last["status"] == "resolved" and last["resolved_seq"] == table.eventlog.last_seq()
    assert replayed(table) == table.daemon.session.snapshot()


def test_an_undo_while_the_mat_reads_sets_the_shot_aside_and_its_late_reading_is_kept_not_applied(
    table: GameScript, held: HeldAttribution
) -> None:
    """docs/game-log.md: undo; attribution (a reading for a shot no longer waiting is kept, not applied)."""
    full = table.character("monster-orc-1")["health"]
    flick(table)
    assert held.started.wait(5)
    shot_seq = table.eventlog.last_seq()
    assert table.send("undo", reason="Xoric was not the one to act")["ok"]  # takes back the declaration
    assert table.state["table"]["attributing"] is None and table.state["turn"]["character"] is None
    assert shots(table)[-1]["status"] == "set_aside"
    before = table.state

    held.release.set()
    until(table, lambda: not table.daemon.reading_shots(), "the late reading to land")
    assert kinds(table)[-1] == "attribution"  # kept for the record, with no resolve_shot after it
    assert table.eventlog.records()[-1].payload["shot"] == shot_seq
    assert table.eventlog.records()[-1].payload["auto"] is False
    assert table.character("monster-orc-1")["health"] == full
    after = table.state
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in before.items() if k != "seq"}
    assert shots(table)[-1]["status"] == "set_aside"
    assert replayed(table) == table.daemon.session.snapshot()


def test_a_shot_the_referee_enters_by_hand_while_the_mat_reads_it_keeps_the_referee_s_hits(
    table: GameScript, held: HeldAttribution
) -> None:
    """docs/mqtt.md: manual_shot; the referee's entry stands over a reading that comes later."""
    flick(table)
    assert held.started.wait(5)
    assert table.send("manual_shot", direct_hits=[])["ok"]  # the referee saw a miss
    resolved = table.eventlog.last_seq()
    assert shots(table)[-1]["resolved"] is True and shots(table)[-1]["resolved_seq"] == resolved
    held.release.set()
    until(table, lambda: not table.daemon.reading_shots(), "the late reading to land")
    assert kinds(table)[-2:] == ["action", "attribution"]
    assert table.character("monster-orc-1")["health"] == table.character("monster-orc-1")["max_health"]
    assert replayed(table) == table.daemon.session.snapshot()


def test_a_restart_mid_reading_reads_the_logged_shot_again(table: GameScript, held: HeldAttribution) -> None:
    """The shot's trace is durable before its attribution starts: a daemon that stops meanwhile loses
    nothing, and the next one reads the shot again from the log."""
    flick(table)
    assert held.started.wait(5)
    shot_seq = table.eventlog.last_seq()
    again_held = HeldAttribution(hit=held.hit)
    again_held.release.set()  # the new daemon's attribution answers at once
    again = GameScript(eventlog=table.eventlog, options=DaemonOptions(attribute=again_held))
    try:
        assert again_held.started.wait(5)
        until(again, lambda: not again.daemon.reading_shots(), "the shot to be read again")
        assert [r.kind for r in again.eventlog.records()][-2:] == ["attribution", "action"]
        assert again.eventlog.records()[-2].payload["shot"] == shot_seq
        assert again.state["table"]["attributing"] is None
    finally:
        again.close()
