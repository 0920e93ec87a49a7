"""The enrolment routines, each a loop of scans from the mat: tap a set on, lay a group out, check a set.

Each reports what it finds through ``say`` (a Notice at a time) and stores the set after every change, so an
interrupted enrolment keeps every tag given so far.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from firmware_bridge.messages import TagSeen
from service.sensing.tags import TagRegistry
from service.table.disc_sets import markers_of, save_set

from .core import (
    ASSIGNED,
    MISSING_DISC,
    UNKNOWN_TAG,
    Enrolment,
    Notice,
    SlotSheet,
    check_set,
    group_reads,
)
from .reader import ScanReader

log = logging.getLogger(__name__)

Say = Callable[[Notice], None]


def _report(notice: Notice, say: Say) -> None:
    # Problems also go to the log, with the UID, so an organiser can find them afterwards.
    level = logging.INFO if notice.kind in (ASSIGNED, "known", "set_complete") else logging.WARNING
    log.log(level, "enrolment: %s", notice.text)
    say(notice)


def tap_set(
    reader: ScanReader,
    enrolment: Enrolment,
    set_path: Path | None,
    say: Say,
    *,
    idle_timeout_s: float = 120.0,
    on_next: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> bool:
    """Tap discs on until every piece has a tag (True) or nothing new comes for ``idle_timeout_s`` (False)."""
    grid = reader.wait_for_board().grid
    if not enrolment.started:  # what lies on the mat before the first disc is asked for is background
        for notice in enrolment.tap(reader.scan().reads, grid):
            _report(notice, say)
    last_change = clock()
    announced = None
    while enrolment.next_piece() is not None:
        piece = enrolment.next_piece()
        if on_next is not None and piece is not None and piece.piece != announced:
            announced = piece.piece
            on_next(piece.piece)
        if clock() - last_change > idle_timeout_s:
            return False
        result = reader.scan()
        notices = enrolment.tap(result.reads, grid)
        for notice in notices:
            _report(notice, say)
        if any(n.kind == ASSIGNED for n in notices):
            last_change = clock()
            if set_path is not None:
                entries = enrolment.entries()
                save_set(set_path, enrolment.set_name, entries, markers_of(enrolment.markers, entries))
    return True


def settled_scan(reader: ScanReader, *, agreeing: int = 2, attempts: int = 10) -> tuple[TagSeen, ...]:
    """Scans until ``agreeing`` in a row see the same tags (the hands are off the mat); returns the last."""
    previous: frozenset[bytes] | None = None
    run = 0
    reads: tuple[TagSeen, ...] = ()
    for _ in range(attempts):
        reads = reader.scan().reads
        uids = frozenset(group_reads(reads))
        run = run + 1 if uids == previous else 1
        previous = uids
        if run >= agreeing:
            break
    return reads


def lay_out_group(
    reader: ScanReader, enrolment: Enrolment, sheet: SlotSheet, set_path: Path | None, say: Say
) -> list[Notice]:
    """One group laid out on its slot sheet: a settled scan, each slot's tag given to its piece."""
    grid = reader.wait_for_board().grid
    reads = settled_scan(reader)
    notices = enrolment.lay_out(list(reads), grid, sheet)
    for notice in notices:
        _report(notice, say)
    if set_path is not None and any(n.kind == ASSIGNED for n in notices):
        entries = enrolment.entries()
        save_set(set_path, enrolment.set_name, entries, markers_of(enrolment.markers, entries))
    return notices


def check_laid_out(
    reader: ScanReader, registry: TagRegistry, say: Say, expected: Sequence[str] | None = None
) -> bool:
    """A settled scan of the set on the mat: True when every tag is known, none doubled, no disc missing."""
    grid = reader.wait_for_board().grid
    notices = check_set(list(settled_scan(reader)), grid, registry, expected)
    for notice in notices:
        _report(notice, say)
    return not any(n.kind in (UNKNOWN_TAG, MISSING_DISC, "duplicate_tag") for n in notices)
