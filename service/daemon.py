"""The daemon: the one place that wires the mat, the rules, the event log and MQTT together.

One thread owns the game. Device messages, referee commands, button presses and a 20 Hz tick all arrive on
one queue and are handled in order, so nothing races. Every input that changes the game is checked, appended
to the event log (durable when ``append`` returns), applied, and only then acknowledged or answered; the
board's messages are kept in the log's device journal before they are acknowledged, even those of a flick
still in motion (docs/event-log.md).
"""

from __future__ import annotations

import dataclasses
import json
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
from service.attribution.infer import Attribution, AttributionConfig, attribute
from service.attribution.learning import CalibrationKeeper
from service.bindings import SizeOf, resolve_bindings
from service.enrolment.desk import COMMANDS as ENROLMENT_COMMANDS
from service.enrolment.desk import EnrolmentDesk, EnrolmentRefused
from service.eventlog.base import EventLog
from service.eventlog.record import EventLogError
from service.gamelog.context import game_context
from service.gamelog.replay import SetupError, new_game_from_setup
from service.guided.desk import COMMANDS as CALIBRATION_COMMANDS
from service.guided.desk import CalibrationRefused, GuidedCalibrationDesk
from service.mat.geometry import PieceClass, is_ranged_class, load_mat, piece_classes_for
from service.mat.trace import (
    Declaration,
    MatGeometry,
    PieceSpec,
    Scan,
    SeenPiece,
    ShotTrace,
    trace_to_json,
)
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
from service.sensing.tags import TableConfigError
from service.setup_game import SetupRefused, setup_payload
from service.table_commands import CommandRefused, records_for
from service.table_config import TableConfig
from service.table_games import table_game
from service.table_session import SessionError, TableSession
from service.trackers.config import TrackerConfig, load_trackers

log = logging.getLogger(__name__)

DEVICE_BATCH = 64  # the board's send window: at most this many messages wait for one journal write
RANGED_REACH_MM = 25.0  # 3E reference, Ranged Piece Placement: within 2.5 cm of the character
MAT_BUTTONS = {1: "shot_done", 2: "rescan"}  # button ids on the microcontroller (PROTOCOL.md)
GAME_LOOP_STALL_S = 20.0  # the game thread idles at tick_s; a shot's attribution takes a few seconds at most


@dataclass(frozen=True)
class Health:
    """Whether each part the table depends on works now (systemd's watchdog is fed only while all do)."""

    serial_link: bool  # a session with the mat is open: its HELLO answered, its heartbeats arriving
    mqtt: bool  # connected to the broker
    game_loop: bool  # the game thread went round its loop within the last GAME_LOOP_STALL_S seconds

    @property
    def ok(self) -> bool:
        return self.serial_link and self.mqtt and self.game_loop


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
        self.session = TableSession.replay(eventlog.records(), binder=self._bind)
        self._apply_tag_swaps()  # discs swapped mid-game before a restart carry their new tags again
        self._unknown_published: frozenset[bytes] = frozenset()
        self._link_published: bool | None = None
        # Enrolling discs from the set-up page (docs/setup.md): scans go to it as well as to the segmenter.
        self.enrolment_desk = EnrolmentDesk(table.registry, self.options.sets_dir)
        self.trackers = _table_trackers(table)
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
        self.last_shot: dict[str, Any] | None = None
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

    def _serial_link_up(self) -> bool:
        return bool(getattr(self.connection, "is_up", True))

    def health(self) -> Health:
        """Callable from any thread. A connection that cannot tell whether it is up (a test double) counts
        as up."""
        return Health(
            serial_link=bool(getattr(self.connection, "is_up", True)),
            mqtt=self.publisher.connected,
            game_loop=time.monotonic() - self._last_step < GAME_LOOP_STALL_S,
        )

    def _on_device_batch(self, batch: list[Any]) -> None:
        entries = [_journal_entry(d) for d in batch if not isinstance(d.message, Hello)]
        try:
            self.eventlog.journal_device(entries)
        except EventLogError as exc:
            # Not kept, so not acknowledged either: the board sends them again (PROTOCOL.md: RESEND).
            log.error("could not keep %d message(s) from the mat, not acknowledged: %s", len(entries), exc)
            batch = [d for d in batch if isinstance(d.message, Hello)]
        for delivery in batch:
            try:
                self._on_device(delivery)
            except Exception:  # one bad message must never stop the table
                log.exception("handling a message from the mat failed")

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
        first = self.capabilities is None
        # A new boot restarts the board's clock and scan ids: a flick still in motion, or a half-read scan,
        # of the old boot can never be closed by the new boot's readings (PROTOCOL.md: boot_id).
        rebooted = not first and self.capabilities.boot_id != capabilities.boot_id
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
        if expected is None or self.session.paused or self.session.pending_shot is not None:
            why = (
                "the game is paused"
                if self.session.paused
                else "a shot is waiting for the referee"
                if self.session.pending_shot
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
        if not shot.impacts and not self._flicked_piece_moved(shot, expected):
            # Hands on the mat (a disc put back on the edge, a monster picked up), not the expected flick.
            log.info(
                "pieces moved silently, but not %s's disc: taken as a rearrangement", expected["character"]
            )
            return
        trace = self._trace(shot, expected)
        if trace is None:
            return
        if self.options.dump_traces:
            self.options.dump_traces(trace_to_json(trace))
        keeper = self.options.calibration
        config = keeper.config(self.options.attribution) if keeper else self.options.attribution
        result = attribute(trace, config)
        if keeper is not None:
            keeper.learn(trace, result, config)
        log.info(
            "shot by %s (%s): %d candidate(s), top %.3f in %.2f s%s",
            expected["character"],
            expected["shot"],
            len(result.candidates),
            result.top.probability if result.candidates else 0.0,
            result.elapsed_s,
            " (auto)" if result.auto_apply else " (to the referee)",
        )
        candidates = [self._candidate_json(c, trace.pre) for c in result.candidates[:5]]
        self.last_shot = {
            "character": expected["character"],
            "shot": expected["shot"],
            "declaration": {
                "flicked": result.flicked,
                "shot": expected["shot"],
                "character": expected["character"],
            },
            **result.to_json(),
            "candidates": candidates,
            "resolved": False,
        }
        auto = False
        if result.auto_apply and candidates:
            action = self._resolve_action(expected, candidates[0])
            try:
                self.session.check("action", action)
                auto = True
            except (IllegalActionError, SessionError) as exc:
                log.warning("the likeliest reading of the shot is not legal (%s): asking the referee", exc)
                # The referee is told why a sure reading came to them (the rules' words, without a citation).
                why = f"the likeliest reading is not allowed by the rules: {getattr(exc, 'reason', exc)}"
                self.last_shot["reasons"] = [*self.last_shot.get("reasons", []), why]
        # The sensor record is kept either way: it is what a referee replays after a dispute.
        shot_seq = self._record(
            "shot",
            {
                "character": expected["character"],
                "shot": expected["shot"],
                "auto": auto,
                "attribution": _summary(result),
                "candidates": candidates,
                "trace": trace_to_json(trace),
            },
            "sensor",
        )
        # Pages name the shot they show by this seq when they confirm it (docs/mqtt.md: shot).
        self.last_shot["shot_seq"] = shot_seq
        self.publisher.publish_shot(self.last_shot, shot_seq)
        if auto:
            resolved_seq = self._record("action", action, "sensor")
            if self.last_shot is not None:
                self.last_shot["resolved_seq"] = resolved_seq

    def _trace(self, shot: ShotObserved, expected: Mapping[str, Any]) -> ShotTrace | None:
        if self.capabilities is None:
            return None
        by_character = self.bindings
        piece_side = {piece: self._side_of(character) for character, piece in by_character.items()}
        shooter_piece = by_character.get(expected["character"])
        flicked = self._flicked_piece(shot.pre, expected, shooter_piece)
        if flicked is None:
            log.warning(
                "shot by %s: cannot tell which disc was flicked; asking the referee", expected["character"]
            )
            self._record(
                "shot",
                {
                    "character": expected["character"],
                    "shot": expected["shot"],
                    "auto": False,
                    "unreadable": "the mat did not see the flicked disc before the shot",
                    "candidates": [],
                },
                "sensor",
            )
            return None
        seen = {p.piece for p in shot.pre.pieces} | {p.piece for p in shot.post.pieces}
        specs = []
        for piece in sorted(seen):
            entry = self.table.registry.entry(piece)
            cls = self.piece_classes.get(entry.piece_class)
            if cls is None:
                log.error(
                    "disc %s has class %s, which content/…/pieces.yaml does not define",
                    piece,
                    entry.piece_class,
                )
                continue
            character = next((c for c, p in by_character.items() if p == piece), None)
            shadow = False
            if character and self.session.state:
                found = self.session.state.find(character)
                shadow = bool(found and getattr(found, "shadow", False))  # Castles has no Shadow Realm
            specs.append(
                PieceSpec(
                    piece,
                    cls.radius_mm,
                    cls.mass_g,
                    entry.piece_class,
                    piece_side.get(piece, "neutral"),
                    shadow,
                )
            )
        mat = self.mat_geometry()
        shooter = expected["character"] if expected.get("ranged") else None
        return ShotTrace(
            mat=mat,
            pieces=tuple(specs),
            pre=shot.pre,
            declaration=Declaration(flicked, expected["shot"], shooter),
            impacts=shot.impacts,
            post=shot.post,
            meta={"table": self.table.table, "seq": self.session.seq, "character": expected["character"]},
        )

    def mat_geometry(self) -> MatGeometry:
        """The mat as attribution models it: the board's size and piezos, the table's walls, obstacles."""
        caps = self.capabilities
        assert caps is not None
        return MatGeometry(
            width_mm=caps.mat_width_mm,
            height_mm=caps.mat_height_mm,
            wall_gap_mm=self.mat.wall_gap_mm,
            sensors=tuple((s.id, s.x_mm, s.y_mm) for s in caps.sensors),
            obstacles=self.table.obstacles,
            walls=self.table.walls,
        )

    def _flicked_piece_moved(self, shot: ShotObserved, expected: Mapping[str, Any]) -> bool:
        piece = self._flicked_piece(shot.pre, expected, self.bindings.get(expected["character"]))
        before, after = shot.pre.by_piece().get(piece or ""), shot.post.by_piece().get(piece or "")
        if before is None or after is None:
            return after is None and before is not None  # it left the mat
        return ((before.x_mm - after.x_mm) ** 2 + (before.y_mm - after.y_mm) ** 2) ** 0.5 > 10.0

    def _flicked_piece(self, pre: Scan, expected: Mapping[str, Any], shooter_piece: str | None) -> str | None:
        if expected.get("shield"):
            return self._shield_piece(pre, expected)
        if not expected.get("ranged"):
            piece = self.bindings.get(expected["piece"])
            return piece if piece and pre.by_piece().get(piece) else None
        # A ranged shot flicks a ranged piece placed within 2.5 cm of the shooter: the nearest one to it.
        where = pre.by_piece()
        if shooter_piece is None or shooter_piece not in where:
            return None
        sx, sy = where[shooter_piece].x_mm, where[shooter_piece].y_mm
        shooter_radius = self._radius(shooter_piece)
        best: tuple[float, str] | None = None
        for piece in where.values():
            entry = self.table.registry.entry(piece.piece)
            if not is_ranged_class(entry.piece_class):
                continue
            gap = (
                ((piece.x_mm - sx) ** 2 + (piece.y_mm - sy) ** 2) ** 0.5
                - shooter_radius
                - self._radius(piece.piece)
            )
            reach = (
                RANGED_REACH_MM + 3 * piece.sigma_mm + 10.0
            )  # placement is measured by eye, positions by NFC
            if gap <= reach and (best is None or gap < best[0]):
                best = (gap, piece.piece)
        return best[1] if best else None

    def _shield_piece(self, pre: Scan, expected: Mapping[str, Any]) -> str | None:
        """Catacombs & Castles Shield Shots: the team's shield piece is flicked from where it lies (or from
        beside the character): the shield disc of the shooter's team seen on the mat, else any shield."""
        shields = [
            self.table.registry.entry(p.piece)
            for p in pre.pieces
            if self.table.registry.entry(p.piece).piece_class == "castles-shield"
        ]
        shields.sort(key=lambda entry: entry.family != expected.get("team"))
        return shields[0].piece if shields else None

    def _radius(self, piece: str) -> float:
        cls = self.piece_classes.get(self.table.registry.entry(piece).piece_class)
        return cls.radius_mm if cls else 15.0

    def _side_of(self, character_id: str) -> str:
        state = self.session.state
        found = state.find(character_id) if state else None
        return found.side if found else "neutral"

    def _candidate_json(self, candidate: Any, pre: Scan) -> dict[str, Any]:
        """A candidate in characters' terms (what the rules need) as well as discs' (what the board shows)."""
        of_piece = {piece: character for character, piece in self.bindings.items()}
        body = candidate.to_json()
        body["hit_characters"] = [of_piece[p] for p in sorted(candidate.direct_hits) if p in of_piece]
        body["off_mat_characters"] = [of_piece[p] for p in sorted(candidate.left_mat) if p in of_piece]
        # An ice piece knocked off frees the character it covered (3E reference: Ice Shot): the frozen
        # character whose disc lay under that piece before the shot.
        state = self.session.state
        frozen = {c.id for c in state.characters if c.has("frozen")} if state else set()
        where = pre.by_piece()
        freed = []
        for cover in sorted(candidate.covers_knocked_off):
            if cover not in where:
                continue
            under = _nearest(
                where[cover], [where[p] for c, p in self.bindings.items() if c in frozen and p in where]
            )
            if under is not None:
                freed.append(of_piece[under.piece])
        body["freed_characters"] = freed
        return body

    def _resolve_action(self, expected: Mapping[str, Any], candidate: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "action": "resolve_shot",
            "character": expected["character"],
            "shot": expected["shot"],
            "direct_hits": list(candidate.get("hit_characters", [])),
            "pushed_off_mat": list(candidate.get("off_mat_characters", [])),
            "knocked_off": list(candidate.get("freed_characters", [])),
        }

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
        if name == "setup_game":
            return self._setup_game(args, actor)
        if name == "assign_tracker":
            return self._assign_tracker(args, actor)
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
        seq = None
        for kind, payload in records_for(name, args, self.session, self.table.registry):
            seq = self._checked(kind, payload, actor)  # each checked against the state the one before left
        if name == "new_game":
            self.last_shot = None
            seq = self._start_game_from_config()
        return seq

    def _checked(self, kind: str, payload: dict[str, Any], actor: str) -> int:
        self.session.check(kind, payload)
        return self._record(kind, payload, actor)

    # == the log ======================================================================================
    def _record(self, kind: str, payload: dict[str, Any], by: str) -> int:
        seq = self.eventlog.append(kind, payload, by)  # durable from here on
        record = self.eventlog.records(after_seq=seq - 1)[0]
        pending = self.session.pending_shot
        waiting = pending is not None and not pending.get("auto")  # a doubtful shot, with the referee
        events = self.session.apply(record)
        if kind == "swap_tag":
            self._apply_tag_swaps()
        if waiting and self.session.pending_shot is None and self.last_shot is not None and kind == "action":
            # The referee settled the doubtful shot: pages showing it learn it is done, and what was chosen.
            hits = sorted(payload.get("direct_hits", []))
            chosen = next(
                (
                    i
                    for i, c in enumerate(self.last_shot["candidates"])
                    if sorted(c.get("hit_characters", [])) == hits
                ),
                None,
            )
            self.last_shot = {
                **self.last_shot,
                "resolved": True,
                "chosen": chosen,
                "confirmed_hits": hits,
                "resolved_seq": seq,
            }
            self.publisher.publish_shot(self.last_shot, seq)
        elif waiting and self.session.pending_shot is None and self.last_shot is not None:
            # The doubtful shot was set aside unresolved (dismissed, or its turn undone): pages must stop
            # offering it for confirmation, which the table would now refuse.
            self.last_shot = {**self.last_shot, "set_aside": True}
            self.publisher.publish_shot(self.last_shot, seq)
        elif (
            kind == "undo"
            and self.last_shot is not None
            and any(e.get("undone_seq") == self.last_shot.get("resolved_seq") for e in events)
        ):
            # Whatever the last shot did may just have been taken back: pages stop presenting it as settled.
            self.last_shot = {**self.last_shot, "undone": True}
            self.publisher.publish_shot(self.last_shot, seq)
        self._publish_events(events, seq)
        self._publish_state()
        self._publish_board()
        return seq

    def _start_game_from_config(self) -> int:
        # The table file's game, as its rule set sets one up (service/table_games.py); each game of the log
        # draws its own dice: the table's seed, then the next, and so on.
        payload = table_game(self.table.ruleset).setup_payload(self.table, self.session.games)
        payload["context"] = game_context(payload)  # what the game is played with (docs/game-log.md)
        self.session.check("setup", payload)
        return self._record("setup", payload, "daemon")

    def _setup_game(self, args: dict[str, Any], actor: str) -> int:
        """The set-up wizard's game (Catacombs 3E, or a Castles 2E mode): checked by the rules first, then the
        old game closed, the new begun."""
        try:
            payload = setup_payload(args, self.table, self.session.games)
        except SetupRefused as exc:
            raise CommandRefused(str(exc)) from None
        payload["context"] = game_context(payload)  # what the game is played with (docs/game-log.md)
        new_game_from_setup(dict(payload))  # a SetupError names what is wrong before anything is logged
        if self.session.state is not None:
            self._checked("new_game", {"reason": "the set-up wizard starts a new game"}, actor)
            self.last_shot = None
        return self._checked("setup", payload, actor)

    def _assign_tracker(self, args: dict[str, Any], actor: str) -> int:
        """The set-up wizard puts an LED tracker beside a character's board (or switches it off: null)."""
        unknown = sorted(set(args) - {"tracker", "character"})
        if unknown:
            raise CommandRefused(f"assign_tracker does not take {', '.join(map(repr, unknown))}")
        tracker, character = args.get("tracker"), args.get("character")
        if tracker not in {t.id for t in self.trackers}:
            known = ", ".join(t.id for t in self.trackers) or "none in the table file"
            raise CommandRefused(f"no tracker {tracker!r} at this table (trackers: {known})")
        if character is not None and (
            self.session.state is None or self.session.state.find(str(character)) is None
        ):
            raise CommandRefused(f"no character {character!r} in this game")
        return self._checked("assign_tracker", {"tracker": tracker, "character": character}, actor)

    def tracker_assignments(self) -> dict[str, str | None]:
        """Tracker id -> the character it stands beside: the table file's, then the referee's choices."""
        chosen = {t.id: t.character for t in self.trackers}
        chosen.update({k: v for k, v in self.session.tracker_assignments.items() if k in chosen})
        return chosen

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
        snapshot["health"] = {"serial_link": self._link_published, "mqtt": self.publisher.connected}
        beside = self.tracker_assignments()
        snapshot["trackers"] = [
            {"id": t.id, "kind": t.kind, "character": beside[t.id], "topic": t.topic} for t in self.trackers
        ]
        for character in snapshot.get("characters", []) if self.trackers else ():
            # The WLED bridge follows this: each tracker shows the character that lists it.
            character["trackers"] = sorted(t for t, c in beside.items() if c == character["id"])
        snapshot["unknown_tags"] = sorted(uid.hex() for uid in self._unknown_published)
        self.publisher.publish_state(snapshot, self.session.seq)

    def _publish_events(self, events: list[dict[str, Any]], seq: int) -> None:
        for event in events:
            self.publisher.publish_event(event, seq)

    def _obstacles_for_pages(self) -> list[dict[str, Any]]:
        """The playmat's obstacles as pages draw them: the table file's fixed scenery (a Castles playmat's
        cylinders, cubes and slabs, each as the circle round it) when it names some, else the 3E icons."""
        if not self.table.obstacles:
            return [{"id": o.id, "x_mm": o.x_mm, "y_mm": o.y_mm} for o in self.mat.obstacles]
        drawn = []
        for n, o in enumerate(self.table.obstacles, start=1):
            reach = o.radius_mm or max(
                (((px - o.x_mm) ** 2 + (py - o.y_mm) ** 2) ** 0.5 for px, py in o.points), default=20.0
            )
            drawn.append({"id": f"fixed-{n}", "x_mm": o.x_mm, "y_mm": o.y_mm, "radius_mm": round(reach, 1)})
        return drawn

    def _publish_board(self) -> None:
        of_piece = {piece: character for character, piece in self.bindings.items()}
        pieces = []
        for seen in self.last_board.pieces if self.last_board else ():
            entry = self.table.registry.entry(seen.piece)
            character = of_piece.get(seen.piece)
            pieces.append(
                {
                    "piece": seen.piece,
                    "class": entry.piece_class,
                    "character": character,
                    "side": self._side_of(character) if character else "neutral",
                    "x_mm": seen.x_mm,
                    "y_mm": seen.y_mm,
                    "sigma_mm": seen.sigma_mm,
                    "radius_mm": self._radius(seen.piece),
                }
            )
        caps = self.capabilities
        board = {
            "mat": {
                "width_mm": caps.mat_width_mm if caps else self.mat.width_mm,
                "height_mm": caps.mat_height_mm if caps else self.mat.height_mm,
                "obstacles": self._obstacles_for_pages(),
            },
            "pieces": pieces,
            "connected": caps is not None,
        }
        self.publisher.publish_board(board, self.session.seq)


def _table_trackers(table: TableConfig) -> tuple[TrackerConfig, ...]:
    """The table file's LED trackers, for the set-up wizard; a broken list is logged, never fatal here."""
    try:
        return load_trackers(table.path)
    except TableConfigError as exc:
        log.error("the table's trackers cannot be read: %s", exc)
        return ()


def _nearest(piece: SeenPiece, others: list[SeenPiece]) -> SeenPiece | None:
    return min(others, key=lambda o: (o.x_mm - piece.x_mm) ** 2 + (o.y_mm - piece.y_mm) ** 2, default=None)


def _summary(result: Attribution) -> dict[str, Any]:
    return {
        "flicked": result.flicked,
        "probability": round(result.top.probability, 4) if result.candidates else 0.0,
        "rollouts": result.rollouts,
        "elapsed_s": round(result.elapsed_s, 3),
        "runner_up": round(result.candidates[1].probability, 4) if len(result.candidates) > 1 else 0.0,
        "calibration": result.calibration,
        "reasons": list(result.reasons),
    }


def _journal_entry(delivery: Any) -> dict[str, Any]:
    """A board message as the device journal keeps it: who sent it (boot, seq) and its fields."""
    message = delivery.message
    fields = dataclasses.asdict(message) if dataclasses.is_dataclass(message) else {"repr": repr(message)}
    return {
        "boot_id": delivery.boot_id,
        "seq": delivery.seq,
        "type": type(message).__name__,
        "message": json.loads(json.dumps(fields, default=_plain)),
    }


def _plain(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return value.hex()
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    return repr(value)
