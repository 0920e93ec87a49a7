"""Scans of the reader grid, taken over the mat's wire protocol (the real board or the simulated one).

Enrolment runs before the table's daemon starts (the serial port has one owner): it opens the same
``DeviceConnection`` the daemon uses, asks for a full scan (SCAN_REQUEST) and gathers each scan's TAG_SEEN
messages up to its SCAN_DONE.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from firmware_bridge.messages import Capabilities, Hello, ScanDone, ScanRequest, TagSeen
from firmware_bridge.transport import DeviceUnavailable


class MatNotAnswering(TimeoutError):
    """The board said nothing in time (no HELLO, or no scan after a request)."""


@dataclass(frozen=True)
class ScanResult:
    scan_id: int
    reads: tuple[TagSeen, ...]
    cells_read: int


class ScanReader:
    """Full scans from a connection with ``next_delivery`` and ``acknowledge`` (serial or fake)."""

    def __init__(self, connection: Any, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.connection = connection
        self._clock = clock
        self._partial: dict[int, list[TagSeen]] = {}
        self._older: set[int] = set()
        self.capabilities: Capabilities | None = connection.capabilities

    def wait_for_board(self, timeout_s: float = 10.0) -> Capabilities:
        """The board's capabilities, once it has said HELLO."""
        deadline = self._clock() + timeout_s
        while self.capabilities is None:
            left = deadline - self._clock()
            if left <= 0:
                raise MatNotAnswering(f"the mat said no HELLO within {timeout_s:.0f} s: is it plugged in?")
            self._take(min(left, 0.2))
            self.capabilities = self.capabilities or self.connection.capabilities
        return self.capabilities

    def scan(self, timeout_s: float = 5.0) -> ScanResult:
        """Ask for a fresh full scan and return the first one begun after asking."""
        self.wait_for_board(timeout_s)
        deadline = self._clock() + timeout_s
        self._request()
        asked_at = self._clock()
        while True:
            left = deadline - self._clock()
            if left <= 0:
                raise MatNotAnswering(f"the mat sent no scan within {timeout_s:.0f} s of being asked")
            done = self._take(min(left, 0.2))
            if done is not None and done[0].scan_id not in self._older:
                scan_done, reads = done
                return ScanResult(scan_done.scan_id, tuple(reads), scan_done.cells_read)
            if self._clock() - asked_at > 1.0:  # a request can be lost with a pulled cable: ask again
                self._request()
                asked_at = self._clock()

    def _request(self) -> None:
        # Scans already under way when asking may have read the mat before the disc was put down.
        self._older = set(self._partial)
        try:
            self.connection.send(ScanRequest())
        except DeviceUnavailable:
            pass  # no session just now; asked again shortly

    def _take(self, timeout_s: float) -> tuple[ScanDone, list[TagSeen]] | None:
        delivery = self.connection.next_delivery(timeout=timeout_s)
        if delivery is None:
            return None
        message = delivery.message
        self.connection.acknowledge(delivery)
        if isinstance(message, Hello):
            self.capabilities = message.capabilities
            self._partial.clear()  # a new boot: its scan ids start again
        elif isinstance(message, TagSeen):
            self._partial.setdefault(message.scan_id, []).append(message)
        elif isinstance(message, ScanDone):
            return message, self._partial.pop(message.scan_id, [])
        return None
