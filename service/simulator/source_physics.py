"""A ``SensorSource`` backed by the ground-truth world: the emulated firmware streams what the sensors see.

A flick is computed at once (the world runs to rest), then its impacts are released as the device clock
reaches them, exactly as a microcontroller would report them. A requested scan reads the tags where the pieces
are when the scan starts and reports at the end of the scan (``cells x scan_time_per_cell``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from firmware_bridge.emulator.source import SensorMessage
from firmware_bridge.messages import Capabilities, Impact, ReaderGrid, ScanDone, SensorPosition, TagSeen

from .sensors import SensorModel
from .world import Contact, ShotRecord, World


class PhysicsSensorSource:
    def __init__(
        self,
        world: World,
        sensors: SensorModel,
        *,
        scan_period_us: int | None = None,
        button_ids: tuple[int, ...] = (1, 2),
        firmware_version: str = "simulated-mat-1",
    ) -> None:
        self.world = world
        self.sensors = sensors
        self._scan_period_us = scan_period_us
        self._button_ids = button_ids
        self._firmware_version = firmware_version
        self._lock = threading.Lock()
        self._pending: list[tuple[int, SensorMessage]] = []  # (due device time, message), kept sorted
        self._now_us = 0
        self._next_scan_id = 1
        self._scan_requested = False
        self._scan_busy_until_us = -1
        self._next_periodic_us: int | None = None
        self._rest_at_us = 0
        self.shots: list[ShotRecord] = []  # ground truth, for the simulation's own checks; never on the wire

    def capabilities(self) -> Capabilities:
        cols, rows = self.sensors.cols, self.sensors.rows
        return Capabilities(
            firmware_version=self._firmware_version,
            boot_id=0,
            grid=ReaderGrid(
                cols=cols, rows=rows, pitch_mm=self.sensors.config.nfc.pitch_mm, origin_mm=self.sensors.origin
            ),
            sensors=tuple(SensorPosition(i, x, y) for i, x, y in self.sensors.piezos),
            mat_width_mm=self.world.mat.width_mm,
            mat_height_mm=self.world.mat.height_mm,
            button_ids=self._button_ids,
            piezo_threshold=self.sensors.config.piezo.detection_threshold,
        )

    def request_scan(self) -> None:
        with self._lock:
            self._scan_requested = True

    def flick(self, piece_id: str, angle_rad: float, speed_mm_s: float) -> ShotRecord:
        """Flick a piece now (device time of the last poll); its impacts come out of later polls."""
        with self._lock:
            start_us = self._now_us
            record = self.world.flick(piece_id, angle_rad, speed_mm_s)
            for impact in self.sensors.impacts(record.contacts, start_us, record.duration_s):
                self._queue(impact.t_us, Impact(impact.sensor_id, max(0, impact.t_us), impact.amplitude))
            self.shots.append(record)
            self._rest_at_us = start_us + round(record.duration_s * 1e6)
            return record

    def tap(self, x_mm: float, y_mm: float, impulse: float = 5000.0) -> None:
        """A firm tap on the mat at (x, y) now (guided calibration); its impacts come out of later polls."""
        with self._lock:
            contact = Contact(0.0, x_mm, y_mm, "finger", "mat", "tap", impulse, 0.0)
            for impact in self.sensors.impacts([contact], self._now_us, 0.01):
                self._queue(impact.t_us, Impact(impact.sensor_id, max(0, impact.t_us), impact.amplitude))

    @contextmanager
    def hands(self) -> Iterator[World]:
        """The world, to put discs down or lift them between scans (no scan reads it meanwhile)."""
        with self._lock:
            yield self.world

    @property
    def rest_at_us(self) -> int:
        """Device time when the last flick's pieces came to rest (a scan should start after it)."""
        return self._rest_at_us

    def poll(self, now_us: int) -> list[SensorMessage]:
        with self._lock:
            self._now_us = max(self._now_us, now_us)
            if self._scan_period_us is not None:
                if self._next_periodic_us is None:
                    self._next_periodic_us = now_us
                if now_us >= self._next_periodic_us:
                    self._scan_requested = True
                    self._next_periodic_us = now_us + self._scan_period_us
            if self._scan_requested and now_us >= self._scan_busy_until_us:
                self._scan_requested = False
                self._start_scan(now_us)
            due = [m for t, m in self._pending if t <= now_us]
            self._pending = [(t, m) for t, m in self._pending if t > now_us]
            return due

    def _queue(self, due_us: int, message: SensorMessage) -> None:
        self._pending.append((due_us, message))
        self._pending.sort(key=lambda item: item[0])

    def _start_scan(self, now_us: int) -> None:
        scan_id = self._next_scan_id
        self._next_scan_id = (self._next_scan_id + 1) & 0xFFFF_FFFF
        done_us = now_us + self.sensors.scan_duration_us
        self._scan_busy_until_us = done_us
        for read in self.sensors.scan(self.world.positions()):
            self._queue(
                done_us, TagSeen(scan_id=scan_id, col=read.col, row=read.row, uid=read.uid, rssi=read.rssi)
            )
        self._queue(
            done_us, ScanDone(scan_id=scan_id, t_us=done_us, cells_read=self.sensors.cols * self.sensors.rows)
        )
