"""Fakes of the device side, shipped with the package so every part of the service can test without a mat.

* ``FakeConnection`` is a ``DeviceConnection``: a test feeds device messages in and reads what the
  service sent and acknowledged.
* ``ScriptedSerialPort`` stands in for ``serial.Serial`` under a ``SerialConnection`` and plays one side of
  an exact byte conversation: "when the host writes these bytes, answer with those".
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from firmware_bridge.errors import DeviceUnavailable
from firmware_bridge.link import Delivery, seq_add, seq_at_or_before
from firmware_bridge.messages import Capabilities, DeviceMessage, Hello, Message, is_sequenced


class FakeConnection:
    """In-memory ``DeviceConnection``: ``feed`` plays the device; ``sent``, ``acknowledged`` show the host."""

    def __init__(self, *, boot_id: int = 1, first_seq: int = 0) -> None:
        self.capabilities: Capabilities | None = None
        self.boot_id = boot_id
        self.sent: list[Message] = []
        self.acknowledged: list[Delivery] = []
        self.refused: list[Delivery] = []  # the deliveries the service could not keep, as it said them
        self.closed = False
        self.available = True  # set False to play a pulled cable: send() then raises DeviceUnavailable
        self._next_seq = first_seq
        self._queue: deque[Delivery] = deque()
        self._taken: list[Delivery] = []
        self._rewound_to: dict[int, int] = {}  # boot id -> the refused seq nothing from which is acked
        self._cond = threading.Condition()

    # ---------------------------------------------------------------- the device's side
    def feed(self, *messages: DeviceMessage) -> None:
        """The device sends ``messages``: they become deliveries, numbered as the real link numbers them."""
        with self._cond:
            for message in messages:
                seq = None
                if is_sequenced(message):
                    seq = self._next_seq
                    self._next_seq = seq_add(seq, 1)
                elif isinstance(message, Hello):
                    self.boot_id = message.capabilities.boot_id
                self._queue.append(Delivery(self.boot_id, seq, message))
            self._cond.notify_all()

    @property
    def unacknowledged(self) -> int:
        """Events queued or taken but not yet acknowledged (what a real device would still hold).

        Acknowledgement is cumulative, as on the real link: acking seq 7 also covers 5 and 6.
        """
        with self._cond:
            queued = sum(1 for d in self._queue if d.seq is not None)
            waiting = [d for d in self._taken if d.seq is not None and not self._covered(d.boot_id, d.seq)]
        return queued + len(waiting)

    @property
    def pending(self) -> int:
        """Messages fed but not yet taken by the service."""
        with self._cond:
            return len(self._queue)

    def _covered(self, boot_id: int, seq: int) -> bool:
        return any(
            ack.boot_id == boot_id and ack.seq is not None and seq_at_or_before(seq, ack.seq)
            for ack in self.acknowledged
        )

    # ---------------------------------------------------------------- DeviceConnection
    def messages(self) -> Iterator[DeviceMessage]:
        while (delivery := self.next_delivery()) is not None:
            yield delivery.message
            self.acknowledge(delivery)

    def deliveries(self) -> Iterator[Delivery]:
        while (delivery := self.next_delivery()) is not None:
            yield delivery

    def next_delivery(self, timeout: float | None = None) -> Delivery | None:
        """The next fed message; None once closed and drained, or after ``timeout`` seconds."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._queue or self.closed, timeout):
                return None
            if not self._queue:
                return None
            delivery = self._queue.popleft()
            if isinstance(delivery.message, Hello):
                self.capabilities = delivery.message.capabilities
            self._taken.append(delivery)
            return delivery

    def acknowledge(self, delivery: Delivery) -> None:
        if delivery.seq is None:
            return
        with self._cond:
            rewound = self._rewound_to.get(delivery.boot_id)
            if rewound is not None and not seq_at_or_before(delivery.seq, seq_add(rewound, -1)):
                return  # taken before the refusal: acking it would release the refused ones, as on the link
            self.acknowledged.append(delivery)

    def refuse(self, delivery: Delivery) -> None:
        """The service could not keep ``delivery``: it and everything taken after it are not acknowledged.

        They wait, as on a real board, until ``resend()`` plays the board's retransmission."""
        if delivery.seq is None:
            return
        with self._cond:
            self.refused.append(delivery)
            self._rewound_to[delivery.boot_id] = delivery.seq

    def resend(self) -> int:
        """The board retransmits what a refusal left unacknowledged; returns how many messages."""
        with self._cond:
            again = [
                d
                for d in self._taken
                if d.seq is not None
                and d.boot_id in self._rewound_to
                and seq_at_or_before(self._rewound_to[d.boot_id], d.seq)
                and not self._covered(d.boot_id, d.seq)
            ]
            self._taken = [d for d in self._taken if d not in again]
            self._rewound_to.clear()
            self._queue = deque(again + list(self._queue))  # never taken: they follow, in order
            self._cond.notify_all()
            return len(again)

    def send(self, msg: Message) -> None:
        if self.closed or not self.available:
            raise DeviceUnavailable(f"no session with the fake device; {type(msg).__name__} not sent")
        self.sent.append(msg)

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def __enter__(self) -> FakeConnection:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class UnexpectedBytes(AssertionError):
    """The host wrote something other than what the script expected next."""


@dataclass
class _Exchange:
    request: bytes
    reply: bytes


class ScriptedSerialPort:
    """A pyserial-like port that follows a script of exact bytes.

    ``send(data)`` makes the device emit bytes at once; ``expect(request, reply)`` says the host must
    write exactly ``request`` next, and the device answers ``reply``. Writes that depart from the script
    are kept in ``mismatches`` (the connection's thread must not die of them); ``assert_complete()``
    fails a test on a mismatch or on an expectation never met.
    """

    def __init__(self, *, read_timeout_s: float = 0.01) -> None:
        self._lock = threading.Lock()
        self._rx = bytearray()
        self._script: deque[_Exchange] = deque()
        self._unmatched = bytearray()
        self.written = bytearray()
        self.mismatches: list[str] = []
        self.is_open = True
        self.opened = 0
        self._read_timeout_s = read_timeout_s

    # ---------------------------------------------------------------- scripting
    def send(self, data: bytes) -> ScriptedSerialPort:
        with self._lock:
            self._rx += data
        return self

    def expect(self, request: bytes, reply: bytes = b"") -> ScriptedSerialPort:
        with self._lock:
            self._script.append(_Exchange(request, reply))
        return self

    def expect_each(self, exchanges: Iterable[tuple[bytes, bytes]]) -> ScriptedSerialPort:
        for request, reply in exchanges:
            self.expect(request, reply)
        return self

    @property
    def script_done(self) -> bool:
        with self._lock:
            return not self._script and not self._unmatched

    def assert_complete(self) -> None:
        with self._lock:
            problems = list(self.mismatches)
            if self._script:
                problems.append(f"never written: {self._script[0].request.hex(' ')}")
            if self._unmatched:
                problems.append(f"written beyond the script: {bytes(self._unmatched).hex(' ')}")
        if problems:
            raise UnexpectedBytes("; ".join(problems))

    def opener(self, path: str, baudrate: int) -> ScriptedSerialPort:
        """Use as ``SerialConnection(path, open_port=port.opener)``."""
        self.is_open = True
        self.opened += 1
        return self

    # ---------------------------------------------------------------- pyserial surface
    @property
    def in_waiting(self) -> int:
        with self._lock:
            return len(self._rx)

    def read(self, size: int = 1) -> bytes:
        deadline = time.monotonic() + self._read_timeout_s
        while True:
            with self._lock:
                if self._rx:
                    data = bytes(self._rx[:size])
                    del self._rx[:size]
                    return data
            if time.monotonic() >= deadline:
                return b""
            time.sleep(0.001)

    def write(self, data: bytes) -> int:
        with self._lock:
            self.written += data
            self._unmatched += data
            while self._script:
                request = self._script[0].request
                if self._unmatched[: len(request)] == request:
                    exchange = self._script.popleft()
                    del self._unmatched[: len(request)]
                    self._rx += exchange.reply
                    continue
                if request[: len(self._unmatched)] != self._unmatched:
                    self.mismatches.append(
                        f"expected {request.hex(' ')}, host wrote {bytes(self._unmatched).hex(' ')}"
                    )
                    self._unmatched.clear()
                break
        return len(data)

    def close(self) -> None:
        self.is_open = False
