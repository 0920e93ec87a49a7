"""A flick, from the mat's observation to its reading: recorded at once, read off the game thread.

Runs on the game thread. An observed shot the game expects becomes a ``shot`` record with its trace (durable
from then on) and goes to the shot reader (shot_reader.py); its reading comes back through the daemon's inbox
and is recorded as an ``attribution`` record, with the ``resolve_shot`` action when the table is sure and the
action legal (service/table/shot_actions.py decides). Movement the game does not expect is logged, not
recorded: people move discs between shots.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from service.daemon.clock import Clock
from service.daemon.options import DaemonOptions
from service.daemon.shot_reader import ShotJob, ShotReader
from service.mat.geometry import PieceClass
from service.mat.trace import MatGeometry, ShotTrace, TraceFormatError, trace_from_json, trace_to_json
from service.rules import IllegalActionError
from service.sensing.segmenter import ShotObserved
from service.sensing.shot_trace import (
    ShotContext,
    Unreadable,
    build_trace,
    flicked_piece_moved,
    unknown_classes,
)
from service.table.config import TableConfig
from service.table.session import SessionError, TableSession
from service.table.shot_actions import Reading, ReadingContext, settle

log = logging.getLogger(__name__)

CAMERA_POLL_S = 0.05  # how often a shot waiting for its camera frames looks again

Record = Callable[[str, dict[str, Any], str], int]  # (kind, payload, by) → the record's seq, applied


class Pieces:
    """What the table knows of a disc or a character beyond the rules: its size, its side."""

    def __init__(self, table: TableConfig, session: TableSession, classes: Mapping[str, PieceClass]) -> None:
        self.table, self.session, self.classes = table, session, classes

    def radius(self, piece: str) -> float:
        cls = self.classes.get(self.table.registry.entry(piece).piece_class)
        return cls.radius_mm if cls else 15.0

    def side_of(self, character_id: str) -> str:
        state = self.session.character_state()
        found = state.find(character_id) if state else None
        return found.side if found else "neutral"


@dataclass(frozen=True)
class _CameraWait:
    """A shot read from the mat, waiting a bounded while for the camera's frames of it."""

    shot: ShotObserved
    expected: dict[str, Any]
    context: ShotContext
    trace: ShotTrace
    host_end_s: float  # when the shot ended, on the daemon's clock
    deadline_s: float


class Shots:
    def __init__(
        self,
        table: TableConfig,
        session: TableSession,
        pieces: Pieces,
        reader: ShotReader,
        record: Record,
        geometry: Callable[[], MatGeometry | None],  # None until the board said HELLO
        options: DaemonOptions,
        clock: Clock,
    ) -> None:
        self.table, self.session, self.pieces, self.clock = table, session, pieces, clock
        self.reader, self.record, self.geometry = reader, record, geometry
        self.attribution, self.calibration = options.attribution, options.calibration
        self.dump_traces = options.dump_traces
        self.camera, self.camera_wait_s = options.camera, options.camera_wait_s
        self.waiting_for_camera: _CameraWait | None = None
        self.seen = 0

    def on_shot(self, shot: ShotObserved) -> None:
        self.seen += 1
        expected = self.session.expected_shot()
        pending = self.session.pending_shot
        if self.waiting_for_camera is not None:
            log.info(
                "movement on the mat ignored: the mat is still reading the last shot (its camera frames)"
            )
            return
        if expected is None or self.session.paused or pending is not None:
            why = (
                "the game is paused"
                if self.session.paused
                else "the mat is still reading the last shot"
                if pending and pending.get("attributing")
                else "a shot is waiting for the referee"
                if pending
                else "no shot was expected"
            )
            # Not a game event (nothing is logged, so nothing is published): people move discs between shots.
            log.info("movement on the mat ignored: %s", why)
            return
        if expected.get("placed"):
            # A special shot places the piece by hand (Move To Rune, Open Portal): there is no flick to read;
            # the referee enters it (manual_shot) or the player skips it.
            log.info("%s is placed by hand, not flicked: movement taken as the placement", expected["shot"])
            return
        mat = self.geometry()
        if mat is None:
            return
        context = self._context(expected, mat)
        if not shot.impacts and not flicked_piece_moved(shot, expected, context):
            # Hands on the mat (a disc put back on the edge, a monster picked up), not the expected flick.
            log.info(
                "pieces moved silently, but not %s's disc: taken as a rearrangement", expected["character"]
            )
            return
        for piece, piece_class in unknown_classes(shot, context):
            log.error("disc %s has class %s, which content/…/pieces.yaml does not define", piece, piece_class)
        trace = build_trace(shot, expected, context)
        about = {"character": expected["character"], "shot": expected["shot"]}
        if isinstance(trace, Unreadable):
            log.warning("shot by %s: %s; asking the referee", expected["character"], trace.why)
            unreadable = {**about, "auto": False, "unreadable": trace.why, "candidates": []}
            self.record("shot", unreadable, "sensor")
            return
        if self.camera is not None:
            # The camera's frames of the shot may still be on their way (a camera process lags them by its
            # processing): wait for them a bounded while, on the daemon's clock; play goes on meanwhile.
            now = self.clock.monotonic()
            wait = _CameraWait(shot, expected, context, trace, now, now + self.camera_wait_s)
            self.waiting_for_camera = wait
            self._camera_or_not(wait)
            return
        self._record_shot(expected, context, trace, None)

    def _camera_or_not(self, wait: _CameraWait) -> None:
        assert self.camera is not None
        now = self.clock.monotonic()
        if not self.camera.caught_up(wait.host_end_s) and now < wait.deadline_s:
            self.clock.after(CAMERA_POLL_S, lambda: self._camera_or_not(wait), "camera frames of a shot")
            return
        self.waiting_for_camera = None
        if self.session.expected_shot() != wait.expected or self.session.pending_shot is not None:
            log.info("the shot waited for its camera frames and the game moved on meanwhile: not recorded")
            return
        flicked = wait.trace.declaration.flicked
        record, camera_said = self.camera.block_for(wait.shot, flicked, wait.host_end_s)
        trace = replace(wait.trace, camera=record) if record is not None else wait.trace
        log.info("shot by %s: %s", wait.expected["character"], camera_said)
        self._record_shot(wait.expected, wait.context, trace, camera_said)

    def _record_shot(
        self, expected: dict[str, Any], context: ShotContext, trace: ShotTrace, camera_said: str | None
    ) -> None:
        about = {"character": expected["character"], "shot": expected["shot"]}
        if self.dump_traces:
            self.dump_traces(trace_to_json(trace))
        # The sensor record is kept before it is read: it is what a referee replays after a dispute, and what
        # a restart reads again if the daemon stops mid-attribution.
        flicked = trace.declaration.flicked
        payload = {**about, "attributing": True, "flicked": flicked, "trace": trace_to_json(trace)}
        if camera_said is not None:
            payload["camera"] = camera_said  # what the camera gave this shot, in words for the referee
        # Whose disc it was (a teammate's in a Team Action, a grabbed enemy's), for the referee's shot line.
        flicker = next((c for c, disc in context.discs.items() if disc == flicked), None)
        if flicker is not None:
            payload["flicked_character"] = flicker
        self._read(self.record("shot", payload, "sensor"), trace)

    def _read(self, shot_seq: int, trace: ShotTrace) -> None:
        """Hand a recorded shot to the shot reader, with the game as it stands now."""
        keeper = self.calibration
        config = keeper.config(self.attribution) if keeper else self.attribution
        state = self.session.character_state()
        frozen = frozenset(c.id for c in state.characters if c.has("frozen")) if state else frozenset()
        self.reader.submit(ShotJob(shot_seq, trace, config, ReadingContext(dict(self.session.discs), frozen)))

    def read_again(self) -> None:
        """A shot the log shows still attributing (the daemon stopped mid-reading) is read again."""
        pending = self.session.pending_shot
        if pending is None or not pending.get("attributing"):
            return
        try:
            trace = trace_from_json(pending.get("trace"), f"shot {pending['seq']}")
        except TraceFormatError as exc:
            self.on_reading(Reading(pending["seq"], {}, [], False, error=str(exc)))
            return
        log.info("shot %d was still being read when the table stopped: reading it again", pending["seq"])
        self._read(pending["seq"], trace)

    def on_reading(self, reading: Reading) -> None:
        """A shot's reading, back from the shot reader: appended as an ``attribution`` record (applied only
        to the shot still waiting for it: the fold decides), then its action when the table is sure."""
        keeper = self.calibration
        if keeper is not None and reading.result is not None and reading.trace is not None:
            keeper.learn(reading.trace, reading.result, self.attribution, reading.shot_seq)
        pending = self.session.pending_shot
        fresh = pending is not None and pending.get("attributing") and pending["seq"] == reading.shot_seq
        payload, action = settle(reading, pending if fresh else None, self._refusal)
        log.info(
            "shot %d: %d reading(s), top %.3f in %.2f s%s",
            reading.shot_seq,
            len(reading.candidates),
            reading.summary.get("probability", 0.0),
            reading.summary.get("elapsed_s", 0.0),
            " (auto)" if action else " (to the referee)" if fresh else " (too late: the shot was settled)",
        )
        self.record("attribution", payload, "sensor")
        if action is not None:
            self.record("action", action, "sensor")

    def _refusal(self, action: dict[str, Any]) -> str | None:
        try:
            self.session.check("action", action)
        except (IllegalActionError, SessionError) as exc:
            log.warning("the likeliest reading of the shot is not legal (%s): asking the referee", exc)
            return str(getattr(exc, "reason", exc))
        return None

    def _context(self, expected: Mapping[str, Any], mat: MatGeometry) -> ShotContext:
        state = self.session.character_state()
        discs = self.session.discs
        shadows = set()
        for character in discs:
            found = state.find(character) if state else None
            if found is not None and getattr(found, "shadow", False):  # Castles has no Shadow Realm
                shadows.add(character)
        return ShotContext(
            registry=self.table.registry,
            classes=self.pieces.classes,
            discs=dict(discs),
            sides={character: self.pieces.side_of(character) for character in discs},
            mat=mat,
            shadows=frozenset(shadows),
            meta={"table": self.table.table, "seq": self.session.seq, "character": expected["character"]},
        )
