"""The prescribed flicks and touches of the guided calibration, one spot at a time: where the referee is at,
and what the last one gave (desk.py drives them)."""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from .flicks import Flick, FlickSpot
from .touches import TouchReading, TouchSpot

Spot = TypeVar("Spot", FlickSpot, TouchSpot)


class _SpotRun(Generic[Spot]):
    """A run under way: the spots, the spot asked for now, and what the last one heard came to."""

    kind: ClassVar[str]

    def __init__(self, spots: tuple[Spot, ...]) -> None:
        self.spots: tuple[Spot, ...] = spots
        self.position = 0
        self._last: dict[str, Any] | None = None
        self.heard = 0  # judged so far, read or refused: tells a repeated refusal from the one before

    @property
    def read(self) -> int:
        raise NotImplementedError

    @property
    def last(self) -> dict[str, Any] | None:
        """What the last one heard came to: its spot, whether it was read, and why not in words."""
        return None if self._last is None else self._last | {"heard": self.heard}

    @last.setter
    def last(self, outcome: dict[str, Any]) -> None:
        self._last = outcome
        self.heard += 1

    @property
    def current(self) -> Spot | None:
        return self.spots[self.position] if self.position < len(self.spots) else None

    def view(self) -> dict[str, Any]:
        spot = self.current
        out: dict[str, Any] = {
            "kind": self.kind,
            "done": self.position,
            "total": len(self.spots),
            "read": self.read,
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


class FlickRun(_SpotRun[FlickSpot]):
    """The prescribed flicks under way, with the flicks read so far."""

    kind = "flicks"

    def __init__(self, spots: tuple[FlickSpot, ...]) -> None:
        super().__init__(spots)
        self.flicks: list[Flick] = []

    @property
    def read(self) -> int:
        return len(self.flicks)


class TouchRun(_SpotRun[TouchSpot]):
    """The prescribed touches under way, with the touches read so far."""

    kind = "touches"

    def __init__(self, spots: tuple[TouchSpot, ...]) -> None:
        super().__init__(spots)
        self.readings: list[TouchReading] = []

    @property
    def read(self) -> int:
        return len(self.readings)
