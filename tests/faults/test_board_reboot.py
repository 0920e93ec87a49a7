"""The board reboots in the middle of a flick: a new boot_id, its clock and scan numbers start again.

A real board counts ``t_us`` and ``scan_id`` from its boot (firmware_bridge/PROTOCOL.md), so after a reboot
its readings are "earlier" than the impact the old boot reported and its scan ids repeat the old boot's.
The daemon must not wait for the old flick to come to rest in the new boot's clock: it sees the board again
from the new boot's first scan.
"""

from __future__ import annotations

import json
import time

import pytest

from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.messages import Hello, Impact, ScanDone, TagSeen
from service.publish import topics
from tests.helpers.game_script import GameScript


def scan(scan_id: int, t_us: int, uid: bytes, col: int, row: int) -> list[object]:
    return [TagSeen(scan_id, col, row, uid, -30), ScanDone(scan_id, t_us, 18 * 12)]


def board_positions(table: GameScript) -> dict[str, tuple[float, float]]:
    message = table.spectator.last(topics.topic(table.table.table, topics.BOARD))
    if message is None or not message.payload:
        return {}
    return {p["piece"]: (p["x_mm"], p["y_mm"]) for p in json.loads(message.payload)["pieces"]}


def run_until(table: GameScript, condition, timeout_s: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        table.daemon.step(0.05)
        if condition():
            return True
    return condition()


@pytest.mark.timeout(60)
def test_after_a_reboot_mid_flick_the_new_boots_scans_are_seen() -> None:
    table = GameScript()
    try:
        disc = table.table.registry.pieces[0]
        grid = default_capabilities().grid

        def at(col: int, row: int) -> tuple[float, float]:
            return (grid.origin_mm[0] + col * grid.pitch_mm, grid.origin_mm[1] + row * grid.pitch_mm)

        # Old boot, an hour after power-up: the disc at rest, then a flick is heard.
        table.connection.feed(*scan(4100, 3_600_000_000, disc.uid, 3, 3))
        assert run_until(table, lambda: board_positions(table).get(disc.piece) == at(3, 3))
        table.connection.feed(Impact(0, 3_600_100_000, 700))
        # The board reboots before the flick's pieces came to rest; the new boot scans the disc elsewhere.
        table.connection.feed(Hello(default_capabilities(boot_id=8)))
        table.connection.feed(*scan(1, 900_000, disc.uid, 9, 6), *scan(2, 1_300_000, disc.uid, 9, 6))
        assert run_until(table, lambda: board_positions(table).get(disc.piece) == at(9, 6)), (
            "the board shown never left the old boot's flick"
        )
    finally:
        table.close()
