"""Whether the parts the table depends on work now: what systemd's watchdog is fed from (service/app).

The game loop counts as alive while it went round within ``GAME_LOOP_STALL_S`` seconds of the daemon's clock;
the loop idles at its tick and never waits for a shot's attribution, so a longer silence means it is wedged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.daemon.clock import Clock

GAME_LOOP_STALL_S = 20.0  # the game thread idles at tick_s and never waits for a shot's attribution


@dataclass(frozen=True)
class Health:
    """Whether each part the table depends on works now (systemd's watchdog is fed only while all do)."""

    # The mat is read: a session is open (its HELLO answered, its heartbeats arriving) and its messages kept.
    serial_link: bool
    mqtt: bool  # connected to the broker
    game_loop: bool  # the game thread went round its loop within the last GAME_LOOP_STALL_S seconds
    journal: bool = True  # the board's messages are kept (False while the device journal refuses writes)
    # The overhead camera, in words ("camera: frames arriving", "camera: silent for 12 s"); None: no camera.
    # Never part of ``ok``: a camera that stops leaves shots to the other sensors, it never stops the table.
    camera: str | None = None

    @property
    def ok(self) -> bool:
        return self.serial_link and self.mqtt and self.game_loop and self.journal


def serial_link_up(connection: Any) -> bool:
    """A connection that cannot tell whether it is up (a test double) counts as up."""
    return bool(getattr(connection, "is_up", True))


class LoopWatch:
    """The game thread's heartbeat: ``beat()`` each time round the loop, ``alive()`` from any thread."""

    def __init__(self, clock: Clock, stall_s: float = GAME_LOOP_STALL_S) -> None:
        self.clock = clock
        self.stall_s = stall_s
        self._last_beat = clock.monotonic()

    def beat(self) -> None:
        self._last_beat = self.clock.monotonic()

    def alive(self) -> bool:
        return self.clock.monotonic() - self._last_beat < self.stall_s


def table_health(
    mat_read: bool, journal_kept: bool, mqtt_connected: bool, loop: LoopWatch, camera: str | None = None
) -> Health:
    return Health(
        serial_link=mat_read, mqtt=mqtt_connected, game_loop=loop.alive(), journal=journal_kept, camera=camera
    )
