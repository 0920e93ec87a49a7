"""An emulated mat microcontroller speaking protocol v1 over a pseudo-terminal.

The host opens the emulator exactly as it opens the real board: by a path. The emulator creates a pty in
raw mode and a symlink to its slave end (named like a ``/dev/serial/by-id`` entry) which stays the same
across a pulled cable: ``pull_cable()`` closes the pty and removes the link, ``plug_cable()`` makes a new
pty and points the same link at it. ``reboot()`` starts a new boot: a fresh ``boot_id``, sequence numbers
from zero, and an empty retransmit buffer, as a real reset loses its RAM.

Readings come from a ``SensorSource``; tests can also ``inject`` events directly.
"""

from __future__ import annotations

import dataclasses
import errno
import logging
import os
import random
import select
import tempfile
import threading
import time
import tty
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.device_link import DeviceLink
from firmware_bridge.emulator.source import SensorSource
from firmware_bridge.link import LinkTiming
from firmware_bridge.messages import DeviceMessage
from firmware_bridge.protocol import FrameDecoder

log = logging.getLogger(__name__)

DEFAULT_PORT_NAME = "usb-Elzra_SmartMat_emulated-if00"
# The board's transmit buffer. Frames wait here while the host is not reading; when it is full, new
# frames are dropped whole (never cut in half) and the link's retransmission recovers them.
TX_BUFFER_BYTES = 8192


@dataclass(frozen=True)
class SentEvent:
    """Ground truth for tests: an event the device recorded, under the boot and seq it was given."""

    boot_id: int
    seq: int
    message: DeviceMessage


class _Pty:
    """One pseudo-terminal: the master end is the device's UART, the slave end is what the host opens."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.slave_name = os.ttyname(self.slave)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass


class EmulatedMat:
    """The emulated board. Use as a context manager, or ``start()`` / ``stop()``."""

    def __init__(
        self,
        source: SensorSource,
        *,
        port_dir: str | Path | None = None,
        port_name: str = DEFAULT_PORT_NAME,
        timing: LinkTiming | None = None,
        boot_id: int | None = None,
        first_seq: int = 0,
        tick_s: float = 0.002,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._source = source
        self._own_dir = port_dir is None
        if port_dir is None:
            port_dir = tempfile.mkdtemp(prefix="smartmat-serial-")
        self._dir = Path(port_dir)
        self.path = self._dir / port_name
        self._timing = timing or LinkTiming()
        self._rng = rng or random.Random()
        self._tick_s = tick_s
        self._clock = clock
        self._epoch = clock()
        self._lock = threading.RLock()
        self._decoder = FrameDecoder()
        self._link = self._new_link(boot_id if boot_id is not None else self._random_boot_id(), first_seq)
        self._pty: _Pty | None = None
        self._injected: deque[DeviceMessage] = deque()
        self._tx = bytearray()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.sent: list[SentEvent] = []
        self.scan_requests = 0
        self.bytes_dropped = 0

    # ---------------------------------------------------------------- life cycle
    def start(self) -> EmulatedMat:
        with self._lock:
            self._plug_locked()
        self._thread = threading.Thread(target=self._run, name=f"emulated mat {self.path.name}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        with self._lock:
            self._unplug_locked()
        if self._own_dir:
            try:
                self._dir.rmdir()
            except OSError:
                pass

    def __enter__(self) -> EmulatedMat:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # ---------------------------------------------------------------- what a test can do to the board
    def inject(self, *messages: DeviceMessage) -> None:
        """Record these sensor events as if the sensors had produced them now."""
        with self._lock:
            self._injected.extend(messages)

    def pull_cable(self) -> None:
        """The USB cable comes out: the port vanishes; the board keeps sensing and buffering."""
        with self._lock:
            self._unplug_locked()
        log.info("cable pulled from %s", self.path)

    def plug_cable(self) -> None:
        """The cable goes back in: a new pty behind the same path, and a new HELLO."""
        with self._lock:
            self._plug_locked()
        log.info("cable plugged into %s", self.path)

    def reboot(self, *, reenumerate: bool = False) -> int:
        """Reset the board: new boot_id, seq from zero, unacknowledged events lost; returns the boot_id.

        ``reenumerate``: the reset also drops the USB device (boards with native USB do), so the port
        vanishes and reappears at the same path, as after a pulled cable.
        """
        with self._lock:
            old = self._link.boot_id
            new = self._random_boot_id(avoid=old)
            cable_in = self._pty is not None
            if reenumerate:
                self._unplug_locked()
            self._link = self._new_link(new, 0)
            self._decoder.reset()
            self._injected.clear()
            self._tx.clear()
            if reenumerate and cable_in:
                self._plug_locked()
            elif self._pty is not None:
                self._link.connect(self._now_us())
        log.info("board rebooted: boot 0x%08x -> 0x%08x", old, new)
        return new

    @property
    def boot_id(self) -> int:
        with self._lock:
            return self._link.boot_id

    @property
    def next_seq(self) -> int:
        """The seq the board gives the next message it senses."""
        with self._lock:
            return self._link.next_seq

    @property
    def unacked_count(self) -> int:
        with self._lock:
            return self._link.unacked_count

    @property
    def in_session(self) -> bool:
        with self._lock:
            return self._link.in_session

    @property
    def cable_in(self) -> bool:
        with self._lock:
            return self._pty is not None

    def wait_for(self, condition: Callable[[], bool], timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.005)
        return condition()

    # ---------------------------------------------------------------- the firmware main loop
    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._step()
            except Exception:
                log.exception("emulated firmware step failed")
                self._stop.wait(0.05)

    def _step(self) -> None:
        with self._lock:
            fd = self._pty.master if self._pty else None
        data = b""
        if fd is None:
            self._stop.wait(self._tick_s)
        else:
            try:
                readable, _, _ = select.select([fd], [], [], self._tick_s)
                if readable:
                    data = os.read(fd, 4096)
            except (OSError, ValueError) as exc:
                # The pty was closed under us by pull_cable(); the next step sees no cable.
                log.debug("pty read: %s", exc)
        with self._lock:
            now = self._now_us()
            for frame in self._decoder.feed(data) if data else ():
                for _request in self._link.receive(frame, now):
                    self.scan_requests += 1
                    self._source.request_scan()
            readings: list[DeviceMessage] = list(self._source.poll(now))
            while self._injected:
                readings.append(self._injected.popleft())
            for message in readings:
                try:
                    seq = self._link.send(message, now)
                except ValueError as exc:
                    log.error("sensor source produced a reading the wire cannot carry, dropped: %s", exc)
                    continue
                self.sent.append(SentEvent(self._link.boot_id, seq, message))
            self._link.poll(now)
            self._write_locked(self._link.outgoing())

    @property
    def epoch_s(self) -> float:
        """The moment its clock read 0, on the clock it was given (time.monotonic by default)."""
        return self._epoch

    # ---------------------------------------------------------------- internals (lock held)
    def _now_us(self) -> int:
        return int((self._clock() - self._epoch) * 1_000_000)

    def _random_boot_id(self, avoid: int | None = None) -> int:
        while True:
            boot_id = self._rng.getrandbits(32)
            if boot_id not in (0, avoid):
                return boot_id

    def _new_link(self, boot_id: int, first_seq: int) -> DeviceLink:
        capabilities = dataclasses.replace(self._source.capabilities(), boot_id=boot_id)
        return DeviceLink(capabilities, timing=self._timing, first_seq=first_seq)

    def _plug_locked(self) -> None:
        if self._pty is not None:
            return
        self._pty = _Pty()
        self._dir.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(self.path.name + ".new")
        if temporary.is_symlink():
            temporary.unlink()
        os.symlink(self._pty.slave_name, temporary)
        os.replace(temporary, self.path)  # atomic: the path never names a half-made port
        self._decoder.reset()
        self._tx.clear()
        self._link.connect(self._now_us())

    def _unplug_locked(self) -> None:
        self._link.disconnect()
        self._tx.clear()
        if self._pty is None:
            return
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        self._pty.close()
        self._pty = None

    def _write_locked(self, data: bytes) -> None:
        if self._pty is None:
            self.bytes_dropped += len(data)
            return
        if len(self._tx) + len(data) > TX_BUFFER_BYTES:
            self.bytes_dropped += len(data)
        else:
            self._tx += data
        while self._tx:
            try:
                written = os.write(self._pty.master, self._tx[:4096])
            except BlockingIOError:
                return  # the host is not reading right now; try again next step
            except OSError as exc:
                if exc.errno not in (errno.EIO, errno.EBADF):
                    raise
                return
            del self._tx[:written]
