"""The mat's side of the daemon: its messages journalled, then handled and acknowledged; its HELLO; its scans.

Runs on the game thread. The board's messages waiting together are kept in the log's device journal in one
durable write, then handled and acknowledged one by one (an acknowledged message is never only in memory,
even while its flick is still being segmented). What the segmenter makes of them (a board at rest, a shot, a
button) goes back to the daemon through :class:`MatEvents`; the set-up desks (enrolment, guided calibration)
hear the scans and taps they need. Time comes from the daemon's clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware_bridge.messages import Capabilities, Hello, Impact, ScanDone, ScanRequest, TagSeen
from firmware_bridge.transport import DeviceUnavailable
from service.daemon.clock import Clock
from service.daemon.health import serial_link_up
from service.enrolment.desk import EnrolmentDesk
from service.eventlog.base import EventLog
from service.eventlog.device_journal import journal_entry
from service.eventlog.record import EventLogError
from service.guided.desk import GuidedCalibrationDesk
from service.mat.trace import Scan
from service.sensing.segmenter import (
    BoardUpdated,
    ButtonPressed,
    MotionStarted,
    ScanWanted,
    ShotObserved,
    ShotSegmenter,
)
from service.table.config import TableConfig

log = logging.getLogger(__name__)

MAT_BUTTONS = {1: "shot_done", 2: "rescan"}  # button ids on the microcontroller (PROTOCOL.md)


@dataclass(frozen=True)
class MatEvents:
    """What the mat's messages lead to, handled by the daemon."""

    shot: Callable[[ShotObserved], None]  # a flick, cut from rest to rest
    button: Callable[[str], None]  # a button on the board: "shot_done" or "rescan"
    state_changed: Callable[[], None]  # a set-up desk's view changed
    board_changed: Callable[[], None]  # the board at rest, or the mat's size and link
    board_updated: Callable[[], None]  # a new scan at rest (it may show a tag no disc carries)


class MatLink:
    def __init__(
        self,
        connection: Any,  # firmware_bridge.transport.DeviceConnection with deliveries()/acknowledge()
        eventlog: EventLog,
        table: TableConfig,
        clock: Clock,
        calibration_desk: GuidedCalibrationDesk,
        enrolment_desk: EnrolmentDesk,
        events: MatEvents,
    ) -> None:
        self.connection = connection
        self.eventlog = eventlog
        self.table = table
        self.clock = clock
        self.calibration_desk = calibration_desk
        self.enrolment_desk = enrolment_desk
        self.events = events
        self.segmenter: ShotSegmenter | None = None
        self.capabilities: Capabilities | None = None
        self.last_board: Scan | None = None
        # The board message the journal last could not keep, as (boot_id, seq), until a write succeeds again
        # (health says the mat is not read meanwhile). None: every message was kept.
        self.refused: tuple[int, int] | None = None
        # The refused message until the link hands it on again: the messages queued here before it are stale
        # (the link rewound, and each comes again after it).
        self._awaiting: tuple[int, int] | None = None

    @property
    def read(self) -> bool:
        """The mat is read: its link is up and its messages are kept (not while the journal refuses them)."""
        return serial_link_up(self.connection) and self.refused is None

    def on_batch(self, batch: list[Any]) -> None:
        batch = [d for d in batch if not self._stale(d)]
        entries = [journal_entry(d) for d in batch if not isinstance(d.message, Hello)]
        try:
            if entries:
                self.eventlog.journal_device(entries)
        except EventLogError as exc:
            # Not kept, so neither it nor anything after it is acknowledged: the link rewinds to the first
            # and takes them again when the board resends them (PROTOCOL.md: a refused event is taken again).
            first = next(d for d in batch if not isinstance(d.message, Hello))
            if self.refused is None:
                log.error(
                    "could not keep %d message(s) from the mat, not acknowledged: %s", len(entries), exc
                )
            self.refused = self._awaiting = (first.boot_id, first.seq)
            self.connection.refuse(first)
            batch = [d for d in batch if isinstance(d.message, Hello)]
        else:
            if entries and self.refused is not None:
                log.warning("the mat's messages are kept again (from seq %d)", entries[0]["seq"])
                self.refused = None
        for delivery in batch:
            try:
                self._on_delivery(delivery)
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

    def _on_delivery(self, delivery: Any) -> None:
        message = delivery.message
        if isinstance(message, Hello):
            self._on_hello(message.capabilities)
        elif isinstance(message, Impact) and self.calibration_desk.taking_taps:
            self.calibration_desk.on_impact(message, self.clock.monotonic())  # a tap on a marked point
        elif self.segmenter is not None:
            if isinstance(message, TagSeen | ScanDone) and self.enrolment_desk.on_message(message):
                self.events.state_changed()  # a scan while discs are being enrolled
            self.on_sensing(self.segmenter.on_message(message, self.clock.monotonic()))
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
        self.request_scan()
        # The board names the mat's size and whether it is connected: pages must not show a mat that is
        # there as missing until the next record happens to republish it (after every restart).
        self.events.board_changed()

    def on_sensing(self, events: list[Any]) -> None:
        for event in events:
            if isinstance(event, ScanWanted):
                self.request_scan()
            elif isinstance(event, BoardUpdated):
                self.last_board = event.scan
                self.events.board_updated()
            elif isinstance(event, MotionStarted):
                log.debug("motion on the mat at device time %d", event.t_us)
            elif isinstance(event, ShotObserved) and self.calibration_desk.flicking is not None:
                # A prescribed flick of the guided calibration: the routine's, not the game's.
                self.calibration_desk.on_shot(event.pre, event.impacts, event.post)
                self.events.state_changed()
            elif isinstance(event, ShotObserved):
                self.events.shot(event)
            elif isinstance(event, ButtonPressed):
                action = MAT_BUTTONS.get(event.button_id)
                if action:
                    self.events.button(action)

    def end_shot_now(self) -> None:
        """The "shot done" button with no shot waiting: the flick in motion ends at the next scan."""
        if self.segmenter is not None:
            self.on_sensing(self.segmenter.end_shot_now(self.clock.monotonic()))

    def tick(self) -> bool:
        """The periodic job: the segmenter's quiet and motion timeouts, the desks' scans; True when the
        guided calibration took a tap (its view changed)."""
        now = self.clock.monotonic()
        if self.segmenter is not None:
            self.on_sensing(self.segmenter.tick(now))
        if self.enrolment_desk.wants_scan(now) or self.calibration_desk.wants_scan(now):
            self.request_scan()
        return self.calibration_desk.tick(now)

    def request_scan(self) -> None:
        try:
            self.connection.send(ScanRequest())
        except DeviceUnavailable as exc:
            log.warning("could not ask the mat for a scan: %s", exc)
