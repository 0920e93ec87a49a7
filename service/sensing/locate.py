"""Where each tagged piece rests, from one scan of the NFC reader grid.

A tag is seen by the few antennas around it; the nearest read strongest. The estimate is the centroid of
those antennas weighted by signal above a floor, squared so the nearest dominate. The reported sigma is the
calibrated per-axis noise, wider when only one or two antennas saw the tag (docs/sensor-model.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from firmware_bridge.messages import ReaderGrid
from service.mat.geometry import NfcConfig
from service.mat.trace import SeenPiece

from .tags import TagRegistry


@dataclass(frozen=True)
class NfcCalibration:
    rssi_floor_dbm: float = -55.5  # just under the weakest read at the edge of an antenna's range
    position_sigma_mm: float = 3.0  # per-axis noise with three or more antennas


class TagReading(Protocol):
    """What locating needs of one read: the device's ``TagSeen``, or the simulated mat's own record of one."""

    @property
    def col(self) -> int: ...
    @property
    def row(self) -> int: ...
    @property
    def uid(self) -> bytes: ...
    @property
    def rssi(self) -> int: ...


def locate(
    reads: Iterable[TagReading], grid: ReaderGrid, registry: TagRegistry, calibration: NfcCalibration
) -> dict[str, SeenPiece]:
    sums: dict[str, list[float]] = {}
    for read in reads:
        entry = registry.lookup(read.uid)
        if entry is None:
            continue
        x, y = grid.cell_centre_mm(read.col, read.row)
        weight = max(read.rssi - calibration.rssi_floor_dbm, 1.0) ** 2
        acc = sums.setdefault(entry.piece, [0.0, 0.0, 0.0, 0.0])
        acc[0] += weight * x
        acc[1] += weight * y
        acc[2] += weight
        acc[3] += 1
    pitch = grid.pitch_mm
    low_x, low_y = grid.cell_centre_mm(0, 0)
    high_x, high_y = grid.cell_centre_mm(grid.cols - 1, grid.rows - 1)
    located = {}
    for piece, (sx, sy, sw, cells) in sums.items():
        base = calibration.position_sigma_mm
        sigma = base if cells >= 3 else (2 * base if cells == 2 else pitch / 2)
        x, y = sx / sw, sy / sw
        if not (low_x + pitch / 2 < x < high_x - pitch / 2 and low_y + pitch / 2 < y < high_y - pitch / 2):
            sigma = max(sigma, pitch)  # past the outermost antennas the centroid is pinned to the last row
        located[piece] = SeenPiece(piece, round(x, 2), round(y, 2), sigma)
    return located


def calibration_for(nfc: NfcConfig) -> NfcCalibration:
    """The calibration that matches a sensor configuration of ``content/hardware/`` (docs/sensor-model.md)."""
    floor = nfc.rssi_at_zero - nfc.rssi_per_mm * nfc.read_range_mm - 1.5
    return NfcCalibration(rssi_floor_dbm=floor, position_sigma_mm=nfc.position_sigma_mm)
