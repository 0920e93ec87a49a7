"""Time, as the daemon reads it: one object passed in, so a test can pass time without waiting.

Every timer, timeout and periodic job of the daemon reads this clock and nothing else (a static test says
so). The daemon registers its periodic jobs here (``every``) and its loop calls ``run_due()`` once per step;
:class:`SystemClock` is the real one (``time.monotonic`` and ``time.time``), :class:`FakeClock` the one tests
use: it stands still until ``advance(seconds)``, which runs every job that became due on the way, each at its
own moment and in time order (as MPF's test loop passes time without waiting while keeping events in the
order they would have happened).
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

Job = Callable[[], None]


class Timer:
    """A registered job; ``cancel()`` stops it (a periodic one included) before its next run."""

    def __init__(self, job: Job, period: float | None, name: str) -> None:
        self.job, self.period, self.name = job, period, name
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass(order=True)
class _Entry:
    due: float
    order: int  # jobs due at the same moment run in the order they were registered
    timer: Timer = field(compare=False)


class Clock:
    """The monotonic and wall time, and the jobs due at given moments of the monotonic one."""

    def __init__(self) -> None:
        self._queue: list[_Entry] = []
        self._order = itertools.count()
        self._lock = threading.Lock()  # jobs are registered from any thread, run on one

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back; for durations and timeouts."""
        raise NotImplementedError

    def wall(self) -> float:
        """Seconds since the epoch; for what people read (times on pages, file names)."""
        raise NotImplementedError

    # -- jobs ----------------------------------------------------------------------------------------
    def at(self, due: float, job: Job, name: str = "") -> Timer:
        """Run ``job`` once, at the first ``run_due()`` at or after the monotonic moment ``due``."""
        return self._push(due, None, job, name)

    def after(self, delay_s: float, job: Job, name: str = "") -> Timer:
        return self.at(self.monotonic() + delay_s, job, name)

    def every(self, period_s: float, job: Job, name: str = "") -> Timer:
        """Run ``job`` every ``period_s`` seconds, the first time one period from now."""
        if period_s <= 0:
            raise ValueError(f"a periodic job needs a period above zero, not {period_s}")
        return self._push(self.monotonic() + period_s, period_s, job, name)

    def next_due(self) -> float | None:
        """When the next job is due (None: no job is registered)."""
        with self._lock:
            self._drop_cancelled()
            return self._queue[0].due if self._queue else None

    def run_due(self) -> int:
        """Run every job due by now, in time order; returns how many ran."""
        return self._run_until(self.monotonic())

    # -- internals -----------------------------------------------------------------------------------
    def _push(self, due: float, period: float | None, job: Job, name: str) -> Timer:
        timer = Timer(job, period, name or getattr(job, "__name__", "job"))
        with self._lock:
            heapq.heappush(self._queue, _Entry(due, next(self._order), timer))
        return timer

    def _drop_cancelled(self) -> None:
        while self._queue and self._queue[0].timer.cancelled:
            heapq.heappop(self._queue)

    def _pop_due(self, until: float) -> _Entry | None:
        with self._lock:
            self._drop_cancelled()
            if not self._queue or self._queue[0].due > until:
                return None
            entry = heapq.heappop(self._queue)
            period = entry.timer.period
            if period is not None:
                # The next run counts from this one's due time, so a late loop does not drift the cadence;
                # a loop far behind runs the job once, not once per missed period.
                following = entry.due + period
                if following <= until:
                    following = until + period
                heapq.heappush(self._queue, _Entry(following, next(self._order), entry.timer))
            return entry

    def _run_until(self, until: float) -> int:
        ran = 0
        while (entry := self._pop_due(until)) is not None:
            entry.timer.job()
            ran += 1
        return ran


class SystemClock(Clock):
    """The real clock: ``time.monotonic()`` and ``time.time()``."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()


class FakeClock(Clock):
    """A clock that stands still until told to move: ``advance(seconds)`` runs what became due meanwhile.

    Each due job runs with the clock set to its own due moment, so a job that reads the time sees the time it
    was meant to run at, and jobs that fall due during one ``advance`` run in the order of their moments.
    They run on the thread that calls ``advance``: a daemon stepped from the test's own thread (as
    tests/helpers/game_script.py does) sees everything in order; a daemon on a thread of its own keeps the
    :class:`SystemClock`."""

    def __init__(self, start: float = 1000.0, wall_start: float = 1_767_225_600.0) -> None:  # 2026-01-01 UTC
        super().__init__()
        self._now = start
        self._wall_offset = wall_start - start

    def monotonic(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._now + self._wall_offset

    def advance(self, seconds: float) -> int:
        """Move the clock ``seconds`` forward, running every job due on the way; returns how many ran."""
        if seconds < 0:
            raise ValueError(f"a clock does not go back ({seconds} s)")
        target = self._now + seconds
        ran = 0
        while True:
            due = self.next_due()
            if due is None or due > target:
                break
            self._now = max(self._now, due)
            ran += self._run_until(self._now)
        self._now = target
        return ran
