"""The host's connection to the mat's microcontroller: the only module that touches a serial port.

``SerialConnection`` opens the port by path (``/dev/serial/by-id/...`` on the table, a pty symlink in
tests), reads on its own thread, runs the ``HostLink``, and hands the rest of the service a blocking
iterator of in-order, de-duplicated device messages. A pulled cable (serial error, EIO, the path gone,
or the device silent past the timeout) closes the port and reopens it with capped exponential backoff;
the device then says HELLO again and retransmits whatever was not acknowledged.

Acknowledgement follows delivery, never reception. ``messages()`` acknowledges a message when the
consumer asks for the next one (it has finished with it); ``deliveries()`` with ``acknowledge()``
lets a daemon acknowledge only once the event is persisted.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Protocol

import serial  # type: ignore[import-untyped]

from firmware_bridge.errors import DeviceUnavailable as DeviceUnavailable  # callers catch it from here (docs)
from firmware_bridge.link import Delivery, HostLink, LinkTiming
from firmware_bridge.messages import Capabilities, DeviceMessage, Message
from firmware_bridge.protocol import DELIMITER, FrameDecoder

log = logging.getLogger(__name__)


class DeviceConnection(Protocol):
    """What the service needs from the mat (see docs/architecture.md section 1)."""

    @property
    def capabilities(self) -> Capabilities | None: ...  # from the latest HELLO

    def messages(self) -> Iterator[DeviceMessage]: ...  # acks each message when the next is asked for

    def send(self, msg: Message) -> None: ...

    def close(self) -> None: ...

    # Ack after delivery, for a consumer that acknowledges only once an event is persisted:
    def deliveries(self) -> Iterator[Delivery]: ...

    def next_delivery(self, timeout: float | None = None) -> Delivery | None: ...

    def acknowledge(self, delivery: Delivery) -> None: ...

    # A delivery the consumer could not keep (disk full): neither it nor anything after it is acknowledged.
    def refuse(self, delivery: Delivery) -> None: ...


class SerialPort(Protocol):
    """The part of ``serial.Serial`` the connection uses; ``firmware_bridge.fake`` has a scripted one."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


PortOpener = Callable[[str, int], SerialPort]

READ_TIMEOUT_S = 0.02


# What a failing port raises: pyserial's own error, the OS error under it, or our ConnectionError.
PORT_ERRORS: tuple[type[BaseException], ...] = (serial.SerialException, OSError, ConnectionError)


def open_serial_port(path: str, baudrate: int) -> SerialPort:
    try:
        # exclusive: a second daemon on the same table would split the device's frames between the two
        port: SerialPort = serial.Serial(
            path, baudrate, timeout=READ_TIMEOUT_S, write_timeout=1.0, exclusive=True
        )
        return port
    except (serial.SerialException, OSError, ValueError) as exc:
        raise ConnectionError(f"cannot open {path}: {exc}") from exc


class SerialConnection:
    """A reconnecting connection to the device at ``path``; a context manager."""

    def __init__(
        self,
        path: str,
        baudrate: int = 115200,
        *,
        timing: LinkTiming | None = None,
        resume: tuple[int, int] | None = None,
        open_port: PortOpener = open_serial_port,
        backoff_initial_s: float = 0.05,
        backoff_cap_s: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = path
        self.baudrate = baudrate
        self._timing = timing or LinkTiming()
        self._link = HostLink(self._timing, resume=resume)
        self._decoder = FrameDecoder()
        self._open_port = open_port
        self._backoff_initial_s = backoff_initial_s
        self._backoff_cap_s = backoff_cap_s
        self._clock = clock
        self._lock = threading.Condition()
        self._port: SerialPort | None = None
        self._stop = threading.Event()
        self.connects = 0  # how many times the port was opened (a reconnect makes it 2, 3, ...)
        self._thread = threading.Thread(target=self._run, name=f"serial {path}", daemon=True)
        self._thread.start()

    # ---------------------------------------------------------------- consumer side
    def messages(self) -> Iterator[DeviceMessage]:
        """Device messages in order, each once; a message is acknowledged when the next one is asked for."""
        while (delivery := self.next_delivery()) is not None:
            yield delivery.message
            self.acknowledge(delivery)

    def deliveries(self) -> Iterator[Delivery]:
        """Like ``messages()`` but nothing is acknowledged until ``acknowledge(delivery)`` is called."""
        while (delivery := self.next_delivery()) is not None:
            yield delivery

    def next_delivery(self, timeout: float | None = None) -> Delivery | None:
        """Block for the next delivery; None once closed or after ``timeout`` seconds."""
        deadline = None if timeout is None else self._clock() + timeout
        with self._lock:
            while True:
                delivery = self._link.take()
                if delivery is not None:
                    return delivery
                if self._stop.is_set():
                    return None
                remaining = None if deadline is None else deadline - self._clock()
                if remaining is not None and remaining <= 0:
                    return None
                self._lock.wait(0.1 if remaining is None else min(remaining, 0.1))

    def acknowledge(self, delivery: Delivery) -> None:
        """Tell the device ``delivery`` (and all before it) is safe; it will not be sent again."""
        with self._lock:
            self._link.acknowledge(delivery)
            self._flush_locked()

    def refuse(self, delivery: Delivery) -> None:
        """``delivery`` could not be kept: it and everything after it come again once the device resends.

        Deliveries taken after it are stale: acknowledging them does nothing, and they come again in order.
        """
        with self._lock:
            self._link.refuse(delivery, self._now_us())
            self._flush_locked()

    def send(self, msg: Message) -> None:
        """Send a host message (e.g. ``ScanRequest()``); raises ``DeviceUnavailable`` with no session."""
        with self._lock:
            if self._port is None or not self._link.is_up:
                name = type(msg).__name__
                raise DeviceUnavailable(f"no session with the device at {self.path}; {name} not sent")
            self._write_locked(self._link.frame_for(msg))

    @property
    def capabilities(self) -> Capabilities | None:
        """What the device said in its latest HELLO (None before the first)."""
        with self._lock:
            return self._link.capabilities

    @property
    def is_up(self) -> bool:
        with self._lock:
            return self._port is not None and self._link.is_up

    def wait_until_up(self, timeout: float) -> bool:
        deadline = self._clock() + timeout
        while self._clock() < deadline:
            if self.is_up:
                return True
            time.sleep(0.01)
        return self.is_up

    @property
    def link_stats(self) -> dict[str, int]:
        with self._lock:
            return dict(vars(self._link.stats)) | {
                f"frame_errors.{name}": n for name, n in self._decoder.error_counts.items()
            }

    def close(self) -> None:
        """Stop the reader thread and close the port; ``messages()`` then ends."""
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=5)
        with self._lock:
            self._close_port_locked()

    def __enter__(self) -> SerialConnection:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ---------------------------------------------------------------- reader thread
    def _now_us(self) -> int:
        return int(self._clock() * 1_000_000)

    def _run(self) -> None:
        backoff = self._backoff_initial_s
        while not self._stop.is_set():
            try:
                port = self._open_port(self.path, self.baudrate)
            except PORT_ERRORS as exc:
                log.warning("device at %s unavailable (%s); retrying in %.2f s", self.path, exc, backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, self._backoff_cap_s)
                continue
            self.connects += 1
            log.info("opened %s", self.path)
            try:
                if self._serve(port):
                    backoff = self._backoff_initial_s
            except PORT_ERRORS as exc:
                log.warning("lost the device at %s: %s", self.path, exc)
            except Exception:
                log.exception("unexpected failure reading %s; reopening", self.path)
            finally:
                with self._lock:
                    self._close_port_locked()
            if not self._stop.is_set():
                log.info("reopening %s in %.2f s", self.path, backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, self._backoff_cap_s)

    def _serve(self, port: SerialPort) -> bool:
        """Read until the port fails, the device falls silent or we stop. True if a session opened."""
        with self._lock:
            self._port = port
            self._decoder.reset()
            self._link.connection_opened(self._now_us())
            # A lone delimiter ends whatever half frame the device saw before, so our first frame is clean.
            self._write_locked(DELIMITER)
        had_session = False
        while not self._stop.is_set():
            data = port.read(max(1, port.in_waiting))
            now = self._now_us()
            with self._lock:
                for frame in self._decoder.feed(data) if data else ():
                    self._link.receive(frame, now)
                self._link.poll(now)
                if self._link.pending_deliveries:
                    self._lock.notify_all()
                self._flush_locked()
                had_session = had_session or self._link.is_up
                silent_us = self._link.silent_for_us(now)
            if silent_us > self._timing.silence_timeout_us:
                log.warning("device at %s silent for %.1f s; reconnecting", self.path, silent_us / 1e6)
                break
        return had_session

    # ---------------------------------------------------------------- with the lock held
    def _flush_locked(self) -> None:
        data = self._link.outgoing()
        if data and self._port is not None:
            self._write_locked(data)

    def _write_locked(self, data: bytes) -> None:
        if self._port is None:
            return
        try:
            self._port.write(data)
        except PORT_ERRORS as exc:
            # The reader thread sees the same fault on its next read and reconnects; what was not
            # written is covered by the link (acks are repeated, events retransmitted).
            log.warning("write to %s failed: %s", self.path, exc)

    def _close_port_locked(self) -> None:
        if self._port is not None:
            try:
                self._port.close()
            except PORT_ERRORS as exc:
                log.debug("closing %s: %s", self.path, exc)
            self._port = None
