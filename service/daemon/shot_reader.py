"""Reads shots off the game thread: one worker thread runs each shot's attribution, in the order given.

A shot's attribution takes seconds; the game thread must go on answering the referee and acknowledging the
board meanwhile. The daemon appends the shot's ``shot`` record first (its trace is durable from then on),
hands the shot here, and gets the :class:`~service.table.shot_actions.Reading` back through ``deliver``
(its inbox), where it is appended as an ``attribution`` record like any other input. Nothing here touches the
game.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass

from service.attribution.infer import AttributionConfig
from service.mat.trace import ShotTrace
from service.table.shot_actions import Attribute, Reading, ReadingContext, read_shot

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ShotJob:
    shot_seq: int
    trace: ShotTrace
    config: AttributionConfig
    context: ReadingContext


class ShotReader:
    def __init__(self, attribute: Attribute, deliver: Callable[[Reading], None]) -> None:
        self._attribute = attribute
        self._deliver = deliver
        self._jobs: queue.Queue[ShotJob | None] = queue.Queue()
        self._busy = 0  # jobs handed in whose reading is not delivered yet
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._busy > 0

    def submit(self, job: ShotJob) -> None:
        with self._lock:
            self._busy += 1
            if self._thread is None:
                # A daemon thread: an attribution never holds up the process's exit (the shot's record is
                # on disk; a restart reads it again).
                self._thread = threading.Thread(target=self._run, name="shot reader", daemon=True)
                self._thread.start()
        self._jobs.put(job)

    def stop(self) -> None:
        self._jobs.put(None)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                reading = read_shot(job.shot_seq, job.trace, job.config, job.context, self._attribute)
            except Exception as exc:  # a fault of ours must not lose the shot: the referee enters it
                log.exception("attributing shot %d failed", job.shot_seq)
                reading = Reading(job.shot_seq, {}, [], False, error=f"{type(exc).__name__}: {exc}")
            try:
                self._deliver(reading)
            finally:
                with self._lock:
                    self._busy -= 1
