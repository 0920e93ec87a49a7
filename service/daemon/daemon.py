"""The daemon: the one place that wires the mat, the rules, the event log and MQTT together.

It holds the loop only: it reads inputs, appends records, applies them and publishes (docs/architecture.md
maps who owns each step). One thread owns the game. Device messages, referee commands, button presses, shot
readings and a 20 Hz tick all arrive on one queue and are handled in order, so nothing races. Every input that
changes the game is checked, appended to the event log (durable when ``append`` returns), applied, and only
then acknowledged or answered; the board's messages are kept in the log's device journal before they are
acknowledged, even those of a flick still in motion (docs/event-log.md).

A shot's attribution takes seconds, so it runs on the shot reader's thread (daemon/shot_reader.py): the
``shot`` record (with its trace) is appended at once, the shot shows as ``attributing``, and its reading comes
back through the queue to be appended as an ``attribution`` record like any other input. Commands and
acknowledgements meanwhile go on as usual.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_bridge.messages import Capabilities, Hello, Impact, ScanDone, ScanRequest, TagSeen
from firmware_bridge.transport import DeviceUnavailable
from service.attribution.infer import AttributionConfig, attribute
from service.attribution.learning import CalibrationKeeper
from service.daemon.shot_reader import ShotJob, ShotReader
from service.enrolment.desk import COMMANDS as ENROLMENT_COMMANDS
from service.enrolment.desk import EnrolmentDesk, EnrolmentRefused
from service.eventlog.base import EventLog
from service.eventlog.device_journal import journal_entry
from service.eventlog.record import EventLogError
from service.gamelog.replay import SetupError
from service.guided.desk import COMMANDS as CALIBRATION_COMMANDS
from service.guided.desk import CalibrationRefused, GuidedCalibrationDesk
from service.mat.geometry import PieceClass, load_mat, piece_classes_for
from service.mat.trace import MatGeometry, Scan, ShotTrace, TraceFormatError, trace_from_json, trace_to_json
from service.publish.commands import Command, CommandResult
from service.publish.publisher import TablePublisher
from service.rules import IllegalActionError
from service.sensing.segmenter import (
    BoardUpdated,
    ButtonPressed,
    MotionStarted,
    ScanWanted,
    ShotObserved,
    ShotSegmenter,
)
from service.sensing.shot_trace import (
    ShotContext,
    Unreadable,
    build_trace,
    flicked_piece_moved,
    mat_geometry,
    unknown_classes,
)
from service.table.bindings import SizeOf, resolve_bindings
from service.table.board_view import board_payload, obstacles_for_pages
from service.table.commands import CommandRefused, records_for
from service.table.config import TableConfig
from service.table.session import UNDONE, SessionError, TableSession
from service.table.shot_actions import Attribute, Reading, ReadingContext, answered_discs, settle
from service.table.wizard_commands import (
    assign_tracker,
    setup_game,
    table_file_setup,
    table_trackers,
    tracker_view,
)

log = logging.getLogger(__name__)

DEVICE_BATCH = 64  # the board's send window: at most this many messages wait for one journal write
MAT_BUTTONS = {1: "shot_done", 2: "rescan"}  # button ids on the microcontroller (PROTOCOL.md)
GAME_LOOP_STALL_S = 20.0  # the game thread idles at tick_s and never waits for a shot's attribution


@dataclass(frozen=True)
class Health:
    """Whether each part the table depends on works now (systemd's watchdog is fed only while all do)."""

    # The mat is read: a session is open (its HELLO answered, its heartbeats arriving) and its messages kept.
    serial_link: bool
    mqtt: bool  # connected to the broker
    game_loop: bool  # the game thread went round its loop within the last GAME_LOOP_STALL_S seconds
    journal: bool = True  # the board's messages are kept (False while the device journal refuses writes)

    @property
    def ok(self) -> bool:
        return self.serial_link and self.mqtt and self.game_loop and self.journal


@dataclass
class DaemonOptions:
    attribution: AttributionConfig = field(default_factory=AttributionConfig)
    tick_s: float = 0.05
    dump_traces: Callable[[dict[str, Any]], None] | None = None  # called with every live shot's trace JSON
    # The table's self-calibration (service/attribution/learning.py); None: the built-in constants.
    calibration: CalibrationKeeper | None = None
    # A demo table that runs all day: once a game is over and this many seconds have passed with its result
    # on show, the daemon starts the next game itself. None: the referee starts it (the new_game command).
    next_game_after_s: float | None = None
    # Where discs enrolled from the set-up page are written (<set>.yaml); None: enrolment there is refused.
    sets_dir: Path | None = None
    # How a shot is attributed (service.attribution.infer.attribute); tests pass a slow or failing one.
    attribute: Attribute = attribute


class Daemon:
    def __init__(
        self,
        table: TableConfig,
        connection: Any,  # firmware_bridge.transport.DeviceConnection with deliveries()/acknowledge()
        eventlog: EventLog,
        publisher: TablePublisher,
        size_of: SizeOf,
        options: DaemonOptions | None = None,
    ) -> None:
        self.table = table
        self.connection = connection
        self.eventlog = eventlog
        self.publisher = publisher
        self.options = options or DaemonOptions()
        self.size_of = size_of
        self.piece_classes: dict[str, PieceClass] = piece_classes_for(table.ruleset)
        self.mat = load_mat()
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._held: tuple[str, Any] | None = None  # an input taken while gathering the mat's messages
        # The board message the journal last could not keep, as (boot_id, seq), until a write succeeds again
        # (health says the mat is not read meanwhile). None: every message was kept.
        self._refused: tuple[int, int] | None = None
        # The refused message until the link hands it on again: the messages queued here before it are stale
        # (the link rewound, and each comes again after it).
        self._awaiting: tuple[int, int] | None = None
        self.session = TableSession.replay(eventlog.records(), binder=self._bind)
        self._apply_tag_swaps()  # discs swapped mid-game before a restart carry their new tags again
        self._unknown_published: frozenset[bytes] = frozenset()
        self._link_published: bool | None = None
        # Enrolling discs from the set-up page (docs/setup.md): scans go to it as well as to the segmenter.
        self.enrolment_desk = EnrolmentDesk(table.registry, self.options.sets_dir)
        self.trackers = table_trackers(table)
        # The guided calibration (docs/setup.md): while it runs, the mat's impacts are taps, not shots.
        self.calibration_desk = GuidedCalibrationDesk(
            table,
            self.options.calibration,
            self.mat.wall_gap_mm,
            self.options.attribution.evidence.amplitude_falloff_mm,
        )
        self.calibration_desk.radius_of = self._radius  # the struck disc's size, for the prescribed flicks
        self.segmenter: ShotSegmenter | None = None
        self.capabilities: Capabilities | None = None
        self.last_board: Scan | None = None
        # Shots are read off the game thread; each reading comes back on the inbox (shot_reader.py).
        self.reader = ShotReader(self.options.attribute, lambda reading: self.inbox.put(("reading", reading)))
        self._shot_published = self.session.last_shot
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.shots_seen = 0
        self._last_step = time.monotonic()
        self._over_since: float | None = None  # when the game on the table was first seen over
        log.info(
            "table %s: %d log record(s) replayed, now at seq %d",
            table.table,
            eventlog.last_seq(),
            self.session.seq,
        )

    # == lifecycle ====================================================================================
    def start(self) -> None:
        self.publisher.start()
        if self.session.state is None:
            self._start_game_from_config()
        self._publish_all()
        self._read_again()
        reader = threading.Thread(target=self._read_device, name="device reader", daemon=True)
        reader.start()
        self._threads.append(reader)

    def run_forever(self) -> None:
        while not self._stop.is_set():
            self.step(self.options.tick_s)

    def run_in_thread(self) -> threading.Thread:
        thread = threading.Thread(target=self.run_forever, name="daemon", daemon=True)
        thread.start()
        self._threads.append(thread)
        return thread

    def stop(self) -> None:
        self._stop.set()
        self.reader.stop()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=5)
        self.publisher.stop()

    # == inputs (any thread) ==========================================================================
    def on_command(self, command: Command) -> CommandResult | None:
        """The publisher's command handler: queue it for the game thread, answer from there."""
        self.inbox.put(("command", command))
        return None

    def on_button(self, action: str) -> None:
        self.inbox.put(("button", action))

    def _read_device(self) -> None:
        while not self._stop.is_set():
            delivery = self.connection.next_delivery(timeout=0.2)
            if delivery is not None:
                self.inbox.put(("device", delivery))

    # == the game thread ==============================================================================
    def step(self, timeout_s: float) -> None:
        """Handle one input (or none within ``timeout_s``), then let time pass for the segmenter.

        The board's messages waiting in the inbox are taken together: kept in the log's device journal in one
        durable write, then handled and acknowledged one by one (an acknowledged message is never only in
        memory, even while its flick is still being segmented)."""
        if self._held is not None:
            (kind, item), self._held = self._held, None
        else:
            try:
                kind, item = self.inbox.get(timeout=timeout_s)
            except queue.Empty:
                kind, item = "", None
        try:
            if kind == "device":
                batch = [item]
                while len(batch) < DEVICE_BATCH:
                    try:
                        following = self.inbox.get_nowait()
                    except queue.Empty:
                        break
                    if following[0] != "device":
                        self._held = following  # handled next step, in order
                        break
                    batch.append(following[1])
                self._on_device_batch(batch)
            elif kind == "command":
                self._on_command(item)
            elif kind == "button":
                self._on_button(item)
            elif kind == "reading":
                self._on_reading(item)
        except Exception:  # one bad input must never stop the table
            log.exception("handling %s input failed", kind)
        if self.segmenter is not None:
            self._on_sensing(self.segmenter.tick(time.monotonic()))
        if self.enrolment_desk.wants_scan(time.monotonic()) or self.calibration_desk.wants_scan(
            time.monotonic()
        ):
            self._request_scan()
        if self.calibration_desk.tick(time.monotonic()) or self._serial_link_up() != self._link_published:
            self._publish_state()  # a tap was taken, or the mat's link came or went (the set-up health check)
        self._start_next_game_when_due()
        self._last_step = time.monotonic()

    def _start_next_game_when_due(self) -> None:
        """A demo table loops: the result stays on every page for a while, then a new game begins."""
        after = self.options.next_game_after_s
        state = self.session.state
        if after is None or state is None or state.outcome is None:
            self._over_since = None
            return
        now = time.monotonic()
        if self._over_since is None:
            self._over_since = now
        elif now - self._over_since >= after:
            self._over_since = None
            try:
                self._carry_out("new_game", {"reason": "the demo table starts its next game"}, "daemon:demo")
            except Exception:  # the table stays on the result; the referee can still start a game
                log.exception("the demo table could not start its next game")

    def has_input(self) -> bool:
        """Whether an input is waiting to be handled (tests step the daemon until none is)."""
        return self._held is not None or not self.inbox.empty()

    def reading_shots(self) -> bool:
        """Whether a shot's attribution is under way, or its reading not yet handled."""
        return self.reader.busy or self.has_input()

    def _serial_link_up(self) -> bool:
        """The mat is read: its link is up and its messages are kept (not while the journal refuses them)."""
        return bool(getattr(self.connection, "is_up", True)) and self._refused is None

    def health(self) -> Health:
        """Callable from any thread. A connection that cannot tell whether it is up (a test double) counts
        as up."""
        return Health(
            serial_link=self._serial_link_up(),
            mqtt=self.publisher.connected,
            game_loop=time.monotonic() - self._last_step < GAME_LOOP_STALL_S,
            journal=self._refused is None,
        )

    def _on_device_batch(self, batch: list[Any]) -> None:
        batch = [d for d in batch if not self._stale(d)]
        entries = [journal_entry(d) for d in batch if not isinstance(d.message, Hello)]
        try:
            if entries:
                self.eventlog.journal_device(entries)
        except EventLogError as exc:
            # Not kept, so neither it nor anything after it is acknowledged: the link rewinds to the first
            # and takes them again when the board resends them (PROTOCOL.md: a refused event is taken again).
            first = next(d for d in batch if not isinstance(d.message, Hello))
            if self._refused is None:
                log.error(
                    "could not keep %d message(s) from the mat, not acknowledged: %s", len(entries), exc
                )
            self._refused = self._awaiting = (first.boot_id, first.seq)
            self.connection.refuse(first)
            batch = [d for d in batch if isinstance(d.message, Hello)]
        else:
            if entries and self._refused is not None:
                log.warning("the mat's messages are kept again (from seq %d)", entries[0]["seq"])
                self._refused = None
        for delivery in batch:
            try:
                self._on_device(delivery)
            except Exception:  # one bad message must never stop the table
                log.exception("handling a message from the mat failed")

    def _stale(self, delivery: Any) -> bool:
        """Taken after a refused message before the link rewound: it comes again, in order, after that one."""
        if self._awaiting is None:
            return False
        boot_id, seq = self._awaiting
        if delivery.boot_id != boot_id:
            if isinstance(delivery.message, Hello):
                self._awaiting = None  # a new boot: the old one's unacknowledged messages are gone
            return False
        if delivery.seq == seq:
            self._awaiting = None
            return False
        return delivery.seq is not None

    def _on_device(self, delivery: Any) -> None:
        message = delivery.message
        if isinstance(message, Hello):
            self._on_hello(message.capabilities)
        elif isinstance(message, Impact) and self.calibration_desk.taking_taps:
            self.calibration_desk.on_impact(message, time.monotonic())  # a tap on a marked point
        elif self.segmenter is not None:
            if isinstance(message, TagSeen | ScanDone) and self.enrolment_desk.on_message(message):
                self._publish_state()  # a scan while discs are being enrolled
            self._on_sensing(self.segmenter.on_message(message, time.monotonic()))
        # Acknowledged only now: whatever this message caused is already in the event log.
        self.connection.acknowledge(delivery)

    def _on_hello(self, capabilities: Capabilities) -> None:
        previous = self.capabilities
        first = previous is None
        # A new boot restarts the board's clock and scan ids: a flick still in motion, or a half-read scan,
        # of the old boot can never be closed by the new boot's readings (PROTOCOL.md: boot_id).
        rebooted = previous is not None and previous.boot_id != capabilities.boot_id
        self.capabilities = capabilities
        self.calibration_desk.capabilities = capabilities
        self.enrolment_desk.capabilities = capabilities
        if first or rebooted or self.segmenter is None or self.segmenter.grid != capabilities.grid:
            self.segmenter = ShotSegmenter(capabilities.grid, self.table.registry, self.table.calibration)
        log.info(
            "mat %s (firmware %s, boot %08x): %dx%d readers at %.0f mm, %d piezo sensors",
            "connected" if first else "reconnected",
            capabilities.firmware_version,
            capabilities.boot_id,
            capabilities.grid.cols,
            capabilities.grid.rows,
            capabilities.grid.pitch_mm,
            len(capabilities.sensors),
        )
        self._request_scan()
        # The board names the mat's size and whether it is connected: pages must not show a mat that is
        # there as missing until the next record happens to republish it (after every restart).
        self._publish_board()

    def _on_sensing(self, events: list[Any]) -> None:
        for event in events:
            if isinstance(event, ScanWanted):
                self._request_scan()
            elif isinstance(event, BoardUpdated):
                self.last_board = event.scan
                self._publish_board()
                if self.table.registry.unknown_uids != self._unknown_published:
                    self._publish_state()  # a tag no disc carries appeared: the referee may swap it in
            elif isinstance(event, MotionStarted):
                log.debug("motion on the mat at device time %d", event.t_us)
            elif isinstance(event, ShotObserved) and self.calibration_desk.flicking is not None:
                # A prescribed flick of the guided calibration: the routine's, not the game's.
                self.calibration_desk.on_shot(event.pre, event.impacts, event.post)
                self._publish_state()
            elif isinstance(event, ShotObserved):
                self._on_shot(event)
            elif isinstance(event, ButtonPressed):
                action = MAT_BUTTONS.get(event.button_id)
                if action:
                    self._on_button(action)

    def _request_scan(self) -> None:
        try:
            self.connection.send(ScanRequest())
        except DeviceUnavailable as exc:
            log.warning("could not ask the mat for a scan: %s", exc)

    # == shots ========================================================================================
    def _on_shot(self, shot: ShotObserved) -> None:
        self.shots_seen += 1
        expected = self.session.expected_shot()
        pending = self.session.pending_shot
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
        if self.capabilities is None:
            return
        context = self._shot_context(expected)
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
            self._record("shot", unreadable, "sensor")
            return
        if self.options.dump_traces:
            self.options.dump_traces(trace_to_json(trace))
        # The sensor record is kept before it is read: it is what a referee replays after a dispute, and what
        # a restart reads again if the daemon stops mid-attribution.
        flicked = trace.declaration.flicked
        payload = {**about, "attributing": True, "flicked": flicked, "trace": trace_to_json(trace)}
        # Whose disc it was (a teammate's in a Team Action, a grabbed enemy's), for the referee's shot line.
        flicker = next((c for c, disc in context.discs.items() if disc == flicked), None)
        if flicker is not None:
            payload["flicked_character"] = flicker
        self._read(self._record("shot", payload, "sensor"), trace)

    def _read(self, shot_seq: int, trace: ShotTrace) -> None:
        """Hand a recorded shot to the shot reader, with the game as it stands now."""
        keeper = self.options.calibration
        config = keeper.config(self.options.attribution) if keeper else self.options.attribution
        state = self.session.state
        frozen = frozenset(c.id for c in state.characters if c.has("frozen")) if state else frozenset()
        self.reader.submit(ShotJob(shot_seq, trace, config, ReadingContext(dict(self.bindings), frozen)))

    def _read_again(self) -> None:
        """A shot the log shows still attributing (the daemon stopped mid-reading) is read again."""
        pending = self.session.pending_shot
        if pending is None or not pending.get("attributing"):
            return
        try:
            trace = trace_from_json(pending.get("trace"), f"shot {pending['seq']}")
        except TraceFormatError as exc:
            self._on_reading(Reading(pending["seq"], {}, [], False, error=str(exc)))
            return
        log.info("shot %d was still being read when the table stopped: reading it again", pending["seq"])
        self._read(pending["seq"], trace)

    def _on_reading(self, reading: Reading) -> None:
        """A shot's reading, back from the shot reader: appended as an ``attribution`` record (applied only
        to the shot still waiting for it: the fold decides), then its action when the table is sure."""
        keeper = self.options.calibration
        if keeper is not None and reading.result is not None and reading.trace is not None:
            keeper.learn(reading.trace, reading.result, self.options.attribution, reading.shot_seq)
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
        self._record("attribution", payload, "sensor")
        if action is not None:
            self._record("action", action, "sensor")

    def _refusal(self, action: dict[str, Any]) -> str | None:
        try:
            self.session.check("action", action)
        except (IllegalActionError, SessionError) as exc:
            log.warning("the likeliest reading of the shot is not legal (%s): asking the referee", exc)
            return str(getattr(exc, "reason", exc))
        return None

    def _shot_context(self, expected: Mapping[str, Any]) -> ShotContext:
        state = self.session.state
        shadows = set()
        for character in self.bindings:
            found = state.find(character) if state else None
            if found is not None and getattr(found, "shadow", False):  # Castles has no Shadow Realm
                shadows.add(character)
        return ShotContext(
            registry=self.table.registry,
            classes=self.piece_classes,
            discs=dict(self.bindings),
            sides={character: self._side_of(character) for character in self.bindings},
            mat=self.mat_geometry(),
            shadows=frozenset(shadows),
            meta={"table": self.table.table, "seq": self.session.seq, "character": expected["character"]},
        )

    def mat_geometry(self) -> MatGeometry:
        """The mat as attribution models it: the board's size and piezos, the table's walls, obstacles."""
        assert self.capabilities is not None
        return mat_geometry(self.capabilities, self.mat.wall_gap_mm, self.table.obstacles, self.table.walls)

    def _radius(self, piece: str) -> float:
        cls = self.piece_classes.get(self.table.registry.entry(piece).piece_class)
        return cls.radius_mm if cls else 15.0

    def _side_of(self, character_id: str) -> str:
        state = self.session.state
        found = state.find(character_id) if state else None
        return found.side if found else "neutral"

    # == commands =====================================================================================
    def _on_command(self, command: Command) -> None:
        try:
            seq = self._carry_out(command.command, dict(command.args), command.actor)
        except (CommandRefused, SessionError, SetupError, IllegalActionError) as exc:
            log.info("command %s from %s refused: %s", command.command, command.actor, exc)
            self.publisher.respond(command.txn, CommandResult.refused(str(exc)))
        except Exception as exc:  # a fault of ours: still answer, or the referee's page waits for nothing
            log.exception("command %s from %s failed (txn %s)", command.command, command.actor, command.txn)
            why = f"the table could not carry out {command.command}: {type(exc).__name__}: {exc}"
            self.publisher.respond(command.txn, CommandResult.refused(why))
        else:
            self.publisher.respond(command.txn, CommandResult.accepted(seq))

    def _on_button(self, action: str) -> None:
        try:
            if action == "shot_done":
                if self.session.pending_shot is not None:
                    self._carry_out("confirm_hits", {"candidate": 0}, "button:confirm")
                elif self.segmenter is not None:
                    self._on_sensing(self.segmenter.end_shot_now(time.monotonic()))
            else:
                self._carry_out(action, {"reason": "button on the mat"}, f"button:{action}")
        except (CommandRefused, SessionError, IllegalActionError) as exc:
            log.info("button %s: %s", action, exc)

    def _carry_out(self, name: str, args: dict[str, Any], actor: str) -> int | None:
        if name == "rescan":
            self._request_scan()
            return None
        if name in ENROLMENT_COMMANDS:  # not the game's either: the set file is the record
            try:
                self.enrolment_desk.command(name, args)
            except EnrolmentRefused as exc:
                raise CommandRefused(str(exc)) from None
            self._publish_state()
            return None
        if name in CALIBRATION_COMMANDS:  # not the game's: nothing goes into the event log
            try:
                self.calibration_desk.command(name, args)
            except CalibrationRefused as exc:
                raise CommandRefused(str(exc)) from None
            self._publish_state()
            return None
        if name == "setup_game":
            records = setup_game(args, self.table, self.session)
        elif name == "assign_tracker":
            records = assign_tracker(args, self.trackers, self.session)
        else:
            records = records_for(name, args, self.session, self.table.registry)
        answered = self._answered_shot(name, args)
        seq = None
        for kind, payload in records:
            seq = self._checked(kind, payload, actor)  # each checked against the state the one before left
        if answered is not None and self.options.calibration is not None:
            # The referee's answer to a shot the mat read is a labelled shot for the table's calibration.
            shot_seq, view = answered
            given = {"direct_hits": [], **args} if name == "manual_shot" else args  # none named: no hits
            if self.options.calibration.learn_answer(shot_seq, answered_discs(view, given, self.bindings)):
                self._publish_state()  # the calibrate page shows the labelled shots
        if name == "new_game":
            seq = self._start_game_from_config()
        return seq

    def _answered_shot(self, name: str, args: Mapping[str, Any]) -> tuple[int, dict[str, Any]] | None:
        """The shot a referee's command answers, with its readings: a held shot confirmed (a reading picked
        or the hits entered), or an applied shot the referee undid and now enters by hand. A shot set aside
        or undone and not entered again answers nothing."""
        if name == "confirm_hits" and self.session.pending_shot is not None:
            return self.session.pending_shot["seq"], self.session.pending_shot
        last = self.session.last_shot
        if (
            name == "manual_shot"
            and last is not None
            and last.get("status") == UNDONE
            and last.get("auto_apply")
            and args.get("character") in (None, last.get("character"))
        ):
            return last["shot_seq"], last
        return None

    def _checked(self, kind: str, payload: dict[str, Any], actor: str) -> int:
        self.session.check(kind, payload)
        return self._record(kind, payload, actor)

    # == the log ======================================================================================
    def _record(self, kind: str, payload: dict[str, Any], by: str) -> int:
        seq = self.eventlog.append(kind, payload, by)  # durable from here on
        record = self.eventlog.records(after_seq=seq - 1)[0]
        events = self.session.apply(record)
        if kind == "swap_tag":
            self._apply_tag_swaps()
        self._publish_events(events, seq)
        self._publish_state()
        self._publish_board()
        self._publish_shot(seq)
        return seq

    def _start_game_from_config(self) -> int:
        payload = table_file_setup(self.table, self.session.games)
        self.session.check("setup", payload)
        return self._record("setup", payload, "daemon")

    def _apply_tag_swaps(self) -> None:
        """The table's registry follows the log's swap_tag records (the segmenter reads the same registry)."""
        for piece, uid in self.session.tag_swaps.items():
            try:
                if self.table.registry.entry(piece).uid.hex() != uid:
                    self.table.registry.reassign(piece, bytes.fromhex(uid))
                    log.warning("disc %s now carries tag %s (a swap_tag record)", piece, uid)
            except (KeyError, ValueError) as exc:
                log.error("cannot give disc %s tag %s: %s", piece, uid, exc)

    def _bind(self, state: Any, chosen: Mapping[str, str], previous: Mapping[str, str]) -> dict[str, str]:
        return resolve_bindings(state, self.table.registry, chosen, previous, self.size_of)

    @property
    def bindings(self) -> dict[str, str]:
        return self.session.discs

    # == publishing ===================================================================================
    def _publish_all(self) -> None:
        self._publish_state()
        self._publish_board()

    def _publish_state(self) -> None:
        snapshot = self.session.snapshot()
        snapshot["calibration"] = self.calibration_desk.view()
        snapshot["enrolment"] = self.enrolment_desk.view()
        # Tags seen on the mat that no disc carries: what the referee picks from when a disc was swapped.
        self._unknown_published = self.table.registry.unknown_uids
        self._link_published = self._serial_link_up()
        snapshot["health"] = {
            "serial_link": self._link_published,
            "mqtt": self.publisher.connected,
            "journal": self._refused is None,
        }
        tracker_view(self.trackers, self.session, snapshot)
        snapshot["unknown_tags"] = sorted(uid.hex() for uid in self._unknown_published)
        self.publisher.publish_state(snapshot, self.session.seq)

    def _publish_events(self, events: list[dict[str, Any]], seq: int) -> None:
        for event in events:
            self.publisher.publish_event(event, seq)

    def _publish_shot(self, seq: int) -> None:
        """The last shot's status follows the log's fold (TableSession.last_shot): sent when it changes."""
        shot = self.session.last_shot
        if shot is not None and shot != self._shot_published:
            self.publisher.publish_shot(shot, seq)
        self._shot_published = shot

    def _publish_board(self) -> None:
        board = board_payload(
            self.last_board,
            self.table.registry,
            self.bindings,
            self._side_of,
            self._radius,
            self.capabilities,
            (self.mat.width_mm, self.mat.height_mm),
            obstacles_for_pages(self.table.obstacles, self.mat.obstacles),
        )
        self.publisher.publish_board(board, self.session.seq)
