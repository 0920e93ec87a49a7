"""The prescribed flicks and touches of the guided calibration, one spot at a time: where the referee is at,
and what the last one gave (desk.py drives them)."""

from __future__ import annotations

from typing import Any

from .flicks import Flick, FlickSpot
from .touches import TouchReading, TouchSpot


class FlickRun:
    """The prescribed flicks under way: the spots, the flicks read so far, the spot asked for now."""

    def __init__(self, spots: tuple[FlickSpot, ...]) -> None:
        self.spots = spots
        self.flicks: list[Flick] = []
        self.position = 0
        self._last: dict[str, Any] | None = None
        self.heard = 0  # flicks judged so far, read or refused: tells a repeated refusal from the one before

    @property
    def last(self) -> dict[str, Any] | None:
        """What the last flick heard came to: its spot, whether it was read, and why not in words."""
        return None if self._last is None else self._last | {"heard": self.heard}

    @last.setter
    def last(self, outcome: dict[str, Any]) -> None:
        self._last = outcome
        self.heard += 1

    @property
    def current(self) -> FlickSpot | None:
        return self.spots[self.position] if self.position < len(self.spots) else None

    def view(self) -> dict[str, Any]:
        spot = self.current
        out: dict[str, Any] = {
            "kind": "flicks",
            "done": self.position,
            "total": len(self.spots),
            "read": len(self.flicks),
            "spot": None
            if spot is None
            else {
                "number": spot.number,
                "x_mm": spot.x_mm,
                "y_mm": spot.y_mm,
                "aim_x_mm": spot.aim_x_mm,
                "aim_y_mm": spot.aim_y_mm,
            },
        }
        if self.last is not None:
            out["last"] = self.last
        return out


class TouchRun:
    """The prescribed touches under way: the places, the touches read so far, the place asked for now."""

    def __init__(self, spots: tuple[TouchSpot, ...]) -> None:
        self.spots = spots
        self.readings: list[TouchReading] = []
        self.position = 0
        self._last: dict[str, Any] | None = None
        self.heard = 0

    @property
    def last(self) -> dict[str, Any] | None:
        return None if self._last is None else self._last | {"heard": self.heard}

    @last.setter
    def last(self, outcome: dict[str, Any]) -> None:
        self._last = outcome
        self.heard += 1

    @property
    def current(self) -> TouchSpot | None:
        return self.spots[self.position] if self.position < len(self.spots) else None

    def view(self) -> dict[str, Any]:
        spot = self.current
        out: dict[str, Any] = {
            "kind": "touches",
            "done": self.position,
            "total": len(self.spots),
            "read": len(self.readings),
            "spot": None
            if spot is None
            else {
                "number": spot.number,
                "x_mm": spot.x_mm,
                "y_mm": spot.y_mm,
                "aim_x_mm": spot.aim_x_mm,
                "aim_y_mm": spot.aim_y_mm,
            },
        }
        if self.last is not None:
            out["last"] = self.last
        return out
