"""A demo table loops: once a game is over its result stays on every page for a while, then a new game begins.

Pure timing over the daemon's clock; the daemon asks ``due`` on its periodic tick and starts the game itself.
"""

from __future__ import annotations


class NextGameTimer:
    """Counts how long the game on the table has been over; ``after_s`` None: the referee starts the next."""

    def __init__(self) -> None:
        self._over_since: float | None = None  # when the game on the table was first seen over

    def due(self, over: bool, after_s: float | None, now: float) -> bool:
        """Whether the next game should start now; the count starts again once it says so."""
        if after_s is None or not over:
            self._over_since = None
            return False
        if self._over_since is None:
            self._over_since = now  # first seen over: the result goes on show now
            return False
        if now - self._over_since >= after_s:
            self._over_since = None
            return True
        return False
