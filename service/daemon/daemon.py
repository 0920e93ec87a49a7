"""The daemon: the one place that wires the mat, the rules, the event log and MQTT together.

It holds the loop only: it reads inputs, appends records, applies them and publishes (docs/architecture.md
maps who owns each step). One thread owns the game. Device messages, referee commands, button presses and shot
readings all arrive on one queue and are handled in order, so nothing races; after each input the loop runs
the jobs its clock says are due (the periodic tick: the segmenter's timeouts, the set-up desks' scans, the
mat's link on the pages, the demo table's next game). Every input that changes the game is checked, appended
to the event log (durable when ``append`` returns), applied, and only then acknowledged or answered.

Each job lives in a module of its own beside this one: the mat's messages and the device journal
(mat_link.py), a shot from its observation to its reading (shots.py, shot_reader.py), what is published and
when (publishing.py), health for systemd's watchdog (health.py), the demo table's next game (next_game.py).
Time comes only from the injected clock (clock.py): tests pass a ``FakeClock`` and advance it.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Mapping
from typing import Any

from service.daemon.clock import Clock, SystemClock, Timer
from service.daemon.commands import CommandRunner
from service.daemon.health import GAME_LOOP_STALL_S, Health, LoopWatch, table_health
from service.daemon.mat_link import MAT_BUTTONS, MatEvents, MatLink
from service.daemon.next_game import NextGameTimer
from service.daemon.options import DaemonOptions
from service.daemon.publishing import TableView
from service.daemon.shot_reader import ShotReader
from service.daemon.shots import Pieces, Shots
from service.enrolment.desk import EnrolmentDesk
from service.eventlog.base import EventLog
from service.guided.desk import GuidedCalibrationDesk
from service.mat.geometry import load_mat
from service.mat.trace import MatGeometry
from service.publish.commands import Command, CommandResult
from service.publish.publisher import TablePublisher
from service.sensing.segmenter import ShotObserved
from service.sensing.shot_trace import mat_geometry
from service.table.bindings import SizeOf, resolve_bindings
from service.table.commands.wizard import table_file_setup, table_trackers
from service.table.config import TableConfig
from service.table.games import piece_classes
from service.table.session import TableSession
from service.table.shot_actions import Reading

log = logging.getLogger(__name__)

DEVICE_BATCH = 64  # the board's send window: at most this many messages wait for one journal write
__all__ = ["GAME_LOOP_STALL_S", "MAT_BUTTONS", "Daemon", "DaemonOptions", "Health"]  # old import paths


class Daemon:
    def __init__(
        self,
        table: TableConfig,
        connection: Any,  # firmware_bridge.transport.DeviceConnection with deliveries()/acknowledge()
        eventlog: EventLog,
        publisher: TablePublisher,
        size_of: SizeOf,
        options: DaemonOptions | None = None,
        clock: Clock | None = None,  # time for every timer and timeout here; tests pass a FakeClock
    ) -> None:
        self.table, self.connection, self.eventlog, self.publisher = table, connection, eventlog, publisher
        self.options = options or DaemonOptions()
        self.clock = clock or SystemClock()
        self.size_of = size_of
        self.mat = load_mat()
        self.inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._held: tuple[str, Any] | None = None  # an input taken while gathering the mat's messages
        self.session = TableSession.replay(eventlog.records(), binder=self.bind_discs)
        self._apply_tag_swaps()  # discs swapped mid-game before a restart carry their new tags again
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
        self.pieces = Pieces(table, self.session, piece_classes(table.ruleset))
        self.calibration_desk.radius_of = self.pieces.radius  # the struck disc's size, for prescribed flicks
        # Looked up when called: a wrapped shots.on_shot (the fault runs, the latency benchmark) is called.
        events = MatEvents(
            shot=lambda shot: self._on_shot(shot),
            button=lambda action: self._on_button(action),
            state_changed=lambda: self._publish_state(),
            board_changed=lambda: self.view.board(),
            board_updated=lambda: self.view.board_updated(),
        )
        desks = (self.calibration_desk, self.enrolment_desk)
        self.link = MatLink(connection, eventlog, table, self.clock, *desks, events)
        self.view = TableView(publisher, table, self.session, self.mat, self.link, self.pieces, self.trackers)
        self.view.camera = self.options.camera
        # Shots are read off the game thread; each reading comes back on the inbox (shot_reader.py).
        self.reader = ShotReader(self.options.attribute, lambda reading: self.inbox.put(("reading", reading)))
        shot_io = (self.reader, self.record, self._geometry)
        self.shots = Shots(table, self.session, self.pieces, *shot_io, self.options, self.clock)
        self.commands = CommandRunner(
            table,
            self.session,
            publisher,
            self.link,
            self.trackers,
            self.record,
            self._start_game_from_config,
            self._publish_state,
            self.options.calibration,
        )
        self.loop_watch = LoopWatch(self.clock)
        self.next_game = NextGameTimer()
        self._stop = threading.Event()
        self._ticking: Timer | None = None
        self._threads: list[threading.Thread] = []
        replayed = (table.table, eventlog.last_seq(), self.session.seq)
        log.info("table %s: %d log record(s) replayed, now at seq %d", *replayed)

    # == lifecycle ====================================================================================
    def start(self) -> None:
        self.publisher.start()
        if self.session.state is None:
            self._start_game_from_config()
        self.view.all()
        self.shots.read_again()
        self._ticking = self.clock.every(self.options.tick_s, self._tick, "the daemon's tick")
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
        if self._ticking is not None:
            self._ticking.cancel()
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

    def health(self) -> Health:
        """Callable from any thread (service/app feeds systemd's watchdog from it)."""
        camera = self.options.camera.health(self.clock.monotonic())[1] if self.options.camera else None
        return table_health(
            self.link.read, self.link.refused is None, self.publisher.connected, self.loop_watch, camera
        )

    # == the game thread ==============================================================================
    def step(self, timeout_s: float) -> None:
        """Handle one input (or none within ``timeout_s``), then run the clock's jobs that are due.

        The board's messages waiting in the inbox are taken together, for one durable journal write."""
        kind, item = self._next_input(timeout_s)
        try:
            if kind == "device":
                self.link.on_batch(self._device_batch(item))
            elif kind == "command":
                self._on_command(item)
            elif kind == "button":
                self._on_button(item)
            elif kind == "reading":
                self._on_reading(item)
        except Exception:  # one bad input must never stop the table
            log.exception("handling %s input failed", kind)
        self.clock.run_due()
        if self.view.link_changed():
            self._publish_state()  # the mat's link came or went, or its messages are refused or kept again
        self.loop_watch.beat()

    def _next_input(self, timeout_s: float) -> tuple[str, Any]:
        if self._held is not None:
            held, self._held = self._held, None
            return held
        try:
            return self.inbox.get(timeout=timeout_s)
        except queue.Empty:
            return "", None

    def _device_batch(self, first: Any) -> list[Any]:
        batch = [first]
        while len(batch) < DEVICE_BATCH:
            try:
                following = self.inbox.get_nowait()
            except queue.Empty:
                break
            if following[0] != "device":
                self._held = following  # handled next step, in order
                break
            batch.append(following[1])
        return batch

    def _tick(self) -> None:
        """The periodic job: the mat's timeouts and scans, the calibration's taps, the demo's next game."""
        if self.link.tick():
            self._publish_state()  # a tap of the guided calibration was taken
        state = self.session.state
        over = state is not None and state.outcome is not None
        if self.next_game.due(over, self.options.next_game_after_s, self.clock.monotonic()):
            try:
                self.commands.carry_out(
                    "new_game", {"reason": "the demo table starts its next game"}, "daemon:demo"
                )
            except Exception:  # the table stays on the result; the referee can still start a game
                log.exception("the demo table could not start its next game")

    def has_input(self) -> bool:
        """Whether an input is waiting to be handled (tests step the daemon until none is)."""
        return self._held is not None or not self.inbox.empty()

    def reading_shots(self) -> bool:
        """Whether a shot's attribution is under way, or its reading not yet handled."""
        return self.reader.busy or self.has_input()

    # == the mat and its shots (mat_link.py, shots.py) ================================================
    capabilities = property(lambda self: self.link.capabilities)
    last_board = property(lambda self: self.link.last_board)

    def _on_shot(self, shot: ShotObserved) -> None:
        self.shots.on_shot(shot)

    def _on_reading(self, reading: Reading) -> None:
        self.shots.on_reading(reading)

    def _geometry(self) -> MatGeometry | None:
        return self.mat_geometry() if self.link.capabilities is not None else None

    def mat_geometry(self) -> MatGeometry:
        """The mat as attribution models it: the board's size and piezos, the table's walls, obstacles."""
        capabilities = self.link.capabilities
        assert capabilities is not None, "the board has not said HELLO yet"
        return mat_geometry(capabilities, self.mat.wall_gap_mm, self.table.obstacles, self.table.walls)

    # == commands (commands.py) =====================================================================
    def _on_command(self, command: Command) -> None:
        self.commands.on_command(command)

    def _on_button(self, action: str) -> None:
        self.commands.on_button(action)

    # == the log ======================================================================================
    def record(self, kind: str, payload: dict[str, Any], by: str) -> int:
        """Append one record to the log and fold it: how anything writes the table's log. Returns its seq."""
        seq = self.eventlog.append(kind, payload, by)  # durable from here on
        record = self.eventlog.records(after_seq=seq - 1)[0]
        events = self.session.apply(record)
        if kind == "swap_tag":
            self._apply_tag_swaps()
        self.view.after_record(events, seq)
        return seq

    def _start_game_from_config(self) -> int:
        payload = table_file_setup(self.table, self.session.games)
        self.session.check("setup", payload)
        return self.record("setup", payload, "daemon")

    def _apply_tag_swaps(self) -> None:
        """The table's registry follows the log's swap_tag records (the segmenter reads the same registry)."""
        for piece, uid in self.session.tag_swaps.items():
            try:
                if self.table.registry.entry(piece).uid.hex() != uid:
                    self.table.registry.reassign(piece, bytes.fromhex(uid))
                    log.warning("disc %s now carries tag %s (a swap_tag record)", piece, uid)
            except (KeyError, ValueError) as exc:
                log.error("cannot give disc %s tag %s: %s", piece, uid, exc)

    def bind_discs(self, state: Any, chosen: Mapping[str, str], before: Mapping[str, str]) -> dict[str, str]:
        """Which disc each character stands on at this table (a replay binds as the live table does)."""
        return resolve_bindings(state, self.table.registry, chosen, before, self.size_of)

    def _publish_state(self) -> None:
        self.view.state()
