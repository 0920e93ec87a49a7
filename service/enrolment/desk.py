"""Enrolment from the referee's set-up page: the daemon owns the mat's serial link, so it runs the routine.

``enrol_start {set, pieces?}`` begins tapping discs on (core.Enrolment, "tap"): while it runs the daemon
asks the mat for a scan every ``SCAN_EVERY_S`` and hands each scan's reads here, alongside the segmenter.
Every tag given is written to ``<sets dir>/<set>.yaml`` at once (sets.py), so nothing is lost;
``enrol_forget {piece}`` takes a wrongly tapped disc back; ``enrol_finish`` ends it; ``enrol_cancel`` ends it
too, keeping what was written. The set file is what a table file names with ``tag_set`` (docs/setup.md).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_bridge.messages import Capabilities, ScanDone, TagSeen
from service.sensing.tags import TagRegistry
from service.table.commands.catalogue import arguments_of
from service.table.disc_sets import markers_in_file, markers_of, save_set

from .core import ASSIGNED, Enrolment, EnrolmentError, Notice, SetPiece, set_pieces

log = logging.getLogger(__name__)

SCAN_EVERY_S = 0.4
NOTICES_SHOWN = 12
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,40}$")

COMMANDS = arguments_of("enrolment")  # declared in the table's command catalogue


class EnrolmentRefused(ValueError):
    """An enrolment command that cannot be carried out now; says why."""


class EnrolmentDesk:
    def __init__(self, registry: TagRegistry, sets_dir: Path | None) -> None:
        self.template = set_pieces(registry.pieces)  # the table's own discs are the set to enrol
        self.sets_dir = sets_dir
        self.capabilities: Capabilities | None = None
        self.enrolment: Enrolment | None = None
        self.path: Path | None = None
        self.notices: list[Notice] = []
        self.finished: dict[str, Any] | None = None
        self._partial: dict[int, list[TagSeen]] = {}
        self._last_scan_asked = 0.0

    @property
    def active(self) -> bool:
        return self.enrolment is not None

    def wants_scan(self, now_s: float) -> bool:
        if self.enrolment is None or now_s - self._last_scan_asked < SCAN_EVERY_S:
            return False
        self._last_scan_asked = now_s
        return True

    def on_message(self, message: Any) -> bool:
        """A reading from the mat; True when a scan was taken (the page's view changed)."""
        if self.enrolment is None or self.capabilities is None:
            return False
        if isinstance(message, TagSeen):
            self._partial.setdefault(message.scan_id, []).append(message)
            return False
        if not isinstance(message, ScanDone):
            return False
        reads = self._partial.pop(message.scan_id, [])
        new = self.enrolment.tap(reads, self.capabilities.grid)
        for notice in new:
            log.log(
                logging.INFO if notice.kind == ASSIGNED else logging.WARNING, "enrolment: %s", notice.text
            )
        self.notices = (self.notices + new)[-NOTICES_SHOWN:]
        if any(n.kind == ASSIGNED for n in new):
            self._save()
        return True

    def command(self, name: str, args: Mapping[str, Any]) -> None:
        unknown = sorted(set(args) - COMMANDS[name])
        if unknown:
            raise EnrolmentRefused(f"{name} does not take {', '.join(map(repr, unknown))}")
        if name == "enrol_start":
            self._start(args.get("set"), args.get("pieces"))
            return
        if self.enrolment is None:
            raise EnrolmentRefused("no enrolment is under way: start one first")
        if name == "enrol_forget":
            try:
                self.enrolment.forget(str(args.get("piece", "")))
            except EnrolmentError as exc:
                raise EnrolmentRefused(str(exc)) from None
            self._save()
            return
        enrolled, total = len(self.enrolment.entries()), len(self.enrolment.pieces)
        self.finished = {
            "set": self.enrolment.set_name,
            "file": str(self.path),
            "enrolled": enrolled,
            "total": total,
            "text": f"set {self.enrolment.set_name}: {enrolled} of {total} discs enrolled and saved",
        }
        self.enrolment, self._partial = None, {}

    def _start(self, name: Any, pieces: Any) -> None:
        if self.sets_dir is None:
            raise EnrolmentRefused("this table has no folder for disc sets (smartmat run --data-dir)")
        if self.capabilities is None:
            raise EnrolmentRefused("the mat is not connected: plug it in first")
        if not isinstance(name, str) or not _NAME.match(name):
            raise EnrolmentRefused(
                f"set: expected a name like 'box-1' (lower-case letters, digits, '-'), got {name!r}"
            )
        chosen: list[SetPiece] = self.template
        if pieces is not None:
            if not isinstance(pieces, list) or not pieces or not all(isinstance(p, str) for p in pieces):
                raise EnrolmentRefused(f"pieces: expected a list of the table's disc ids, got {pieces!r}")
            by_id = {p.piece: p for p in self.template}
            missing = [p for p in pieces if p not in by_id]
            if missing:
                raise EnrolmentRefused(f"pieces: {', '.join(missing)} not among this table's discs")
            chosen = [by_id[p] for p in pieces]
        self.path = self.sets_dir / f"{name}.yaml"
        # The tags are enrolled afresh; the markers on the discs' tops stay what the set file says.
        self.enrolment = Enrolment(name, chosen, markers=markers_in_file(self.path))
        self.notices, self.finished, self._partial = [], None, {}
        log.info("enrolment of set %s started: %d discs to tap, into %s", name, len(chosen), self.path)

    def _save(self) -> None:
        assert self.enrolment is not None and self.path is not None
        try:
            entries = self.enrolment.entries()
            save_set(self.path, self.enrolment.set_name, entries, markers_of(self.enrolment.markers, entries))
        except (OSError, ValueError) as exc:
            log.error("could not write the disc set %s: %s", self.path, exc)
            self.notices = (self.notices + [Notice("not_saved", f"could not write {self.path}: {exc}")])[
                -NOTICES_SHOWN:
            ]

    def view(self) -> dict[str, Any]:
        out: dict[str, Any] = {"active": self.enrolment is not None}
        if self.enrolment is not None:
            following = self.enrolment.next_piece()
            out.update(
                set=self.enrolment.set_name,
                file=str(self.path),
                next_piece=following.piece if following else None,
                enrolled=[{"piece": e.piece, "uid": e.uid.hex()} for e in self.enrolment.entries()],
                total=len(self.enrolment.pieces),
                notices=[n.to_json() for n in self.notices],
            )
        if self.finished is not None:
            out["finished"] = self.finished
        return out
