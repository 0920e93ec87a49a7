"""Where the emulated firmware gets its sensor readings from.

The emulator knows the wire protocol and nothing about physics; a ``SensorSource`` knows the mat and
nothing about the wire. ``StaticSensorSource`` is the simplest one: a fixed set of tags, scanned on
request or on a fixed period, and no impacts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from firmware_bridge.messages import (
    Capabilities,
    ReaderGrid,
    ScanDone,
    SensorEvent,
    SensorPosition,
    TagSeen,
)

# What a source may emit: the device's sequenced sensor events.
SensorMessage = SensorEvent


@runtime_checkable
class SensorSource(Protocol):
    def capabilities(self) -> Capabilities:
        """The mat this source describes (boot_id is replaced by the emulator's own)."""
        ...

    def poll(self, now_us: int) -> list[SensorMessage]:
        """Every reading that became due up to ``now_us`` (device clock), oldest first."""
        ...

    def request_scan(self) -> None:
        """The host asked for a fresh full scan; it should come out of a following ``poll``."""
        ...


@dataclass(frozen=True)
class PlacedTag:
    col: int
    row: int
    uid: bytes
    rssi: int = -45


def default_capabilities(boot_id: int = 0) -> Capabilities:
    """A Catacombs-sized mat: 900 x 600 mm, 18 x 12 readers 50 mm apart, four corner piezos, two buttons."""
    return Capabilities(
        firmware_version="emulated-1.0.0",
        boot_id=boot_id,
        grid=ReaderGrid(cols=18, rows=12, pitch_mm=50.0, origin_mm=(25.0, 25.0)),
        sensors=(
            SensorPosition(0, 20.0, 20.0),
            SensorPosition(1, 880.0, 20.0),
            SensorPosition(2, 20.0, 580.0),
            SensorPosition(3, 880.0, 580.0),
        ),
        mat_width_mm=900.0,
        mat_height_mm=600.0,
        button_ids=(1, 2),
    )


class StaticSensorSource:
    """Fixed tags that never move. Scans when asked and, if ``scan_period_us`` is set, on that period."""

    def __init__(
        self,
        tags: Sequence[PlacedTag] = (),
        *,
        capabilities: Capabilities | None = None,
        scan_period_us: int | None = None,
        scan_duration_us: int = 20_000,
    ) -> None:
        self._tags = tuple(tags)
        self._capabilities = capabilities or default_capabilities()
        self._scan_period_us = scan_period_us
        self._scan_duration_us = scan_duration_us
        self._scan_requested = False
        self._next_scan_id = 1
        self._next_periodic_us: int | None = None

    def capabilities(self) -> Capabilities:
        return self._capabilities

    def request_scan(self) -> None:
        self._scan_requested = True

    def poll(self, now_us: int) -> list[SensorMessage]:
        due = self._scan_requested
        if self._scan_period_us is not None:
            if self._next_periodic_us is None:
                self._next_periodic_us = now_us
            if now_us >= self._next_periodic_us:
                due = True
                self._next_periodic_us = now_us + self._scan_period_us
        if not due:
            return []
        self._scan_requested = False
        return self._scan(now_us)

    def _scan(self, now_us: int) -> list[SensorMessage]:
        scan_id = self._next_scan_id
        self._next_scan_id = (self._next_scan_id + 1) & 0xFFFF_FFFF
        grid = self._capabilities.grid
        readings: list[SensorMessage] = [
            TagSeen(scan_id=scan_id, col=tag.col, row=tag.row, uid=tag.uid, rssi=tag.rssi)
            for tag in self._tags
        ]
        readings.append(
            ScanDone(scan_id=scan_id, t_us=now_us + self._scan_duration_us, cells_read=grid.cols * grid.rows)
        )
        return readings
