"""The guided calibration as the daemon runs it: the referee works through the marked points, tapping each.

While it runs, the mat's impacts are the routine's (a tap is not a shot). A tap is complete when the mat has
been quiet for ``QUIET_S``; it is given to the point being asked for, and the next point is asked for.
The referee may skip a point (an obstacle stands on it), or finish after the first round. Time is passed
in, so the state machine is tested without waiting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.messages import Impact

from .taps import Tap, TapPoint, tap_from_impacts

QUIET_S = 0.15  # a tap's ring-down is over within milliseconds; a person's next tap is a second away
ROUNDS = 2


@dataclass
class GuidedRoutine:
    points: tuple[TapPoint, ...]
    rounds: int = ROUNDS
    taps: list[Tap] = field(default_factory=list)
    position: int = 0  # index into the sequence of points over all rounds
    _pending: list[Impact] = field(default_factory=list)
    _last_impact_s: float = 0.0
    last_tap: Tap | None = None

    @property
    def total(self) -> int:
        return len(self.points) * self.rounds

    @property
    def done(self) -> bool:
        return self.position >= self.total

    @property
    def current(self) -> TapPoint | None:
        return None if self.done else self.points[self.position % len(self.points)]

    def on_impact(self, impact: Impact, now_s: float) -> None:
        if not self.done:
            self._pending.append(impact)
            self._last_impact_s = now_s

    def tick(self, now_s: float) -> bool:
        """Close the tap under way once the mat is quiet; True when a tap was taken."""
        if not self._pending or now_s - self._last_impact_s < QUIET_S or self.current is None:
            return False
        tap = tap_from_impacts(self.current, self._pending)
        self._pending = []
        self.taps.append(tap)
        self.last_tap = tap
        self.position += 1
        return True

    def skip(self) -> None:
        if not self.done:
            self._pending = []
            self.position += 1

    def view(self) -> dict[str, Any]:
        """The routine's progress, for the console."""
        point = self.current
        out: dict[str, Any] = {
            "active": True,
            "taps_done": self.position,
            "taps_total": self.total,
            "round": min(self.position // len(self.points) + 1, self.rounds),
            "rounds": self.rounds,
            "point": None
            if point is None
            else {"number": point.number, "x_mm": point.x_mm, "y_mm": point.y_mm},
            "points": [{"number": p.number, "x_mm": p.x_mm, "y_mm": p.y_mm} for p in self.points],
        }
        if self.last_tap is not None:
            out["last_tap"] = {"point": self.last_tap.point.number, "sensors": self.last_tap.sensors}
        return out
