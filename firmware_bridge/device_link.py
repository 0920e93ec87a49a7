"""The device end of the link (protocol v1; the rules in link.py and ``PROTOCOL.md``).

It numbers its events, keeps each until the host acknowledges it, sends a window of them at a time and goes
back to the first one the host asks for again. Pure, as the host end: the caller passes frames and the time
in and takes the bytes out."""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass

from firmware_bridge.link import (
    HALF_SEQ_SPACE,
    SEQ_MODULO,
    LinkTiming,
    seq_add,
    seq_at_or_before,
    seq_distance,
)
from firmware_bridge.messages import (
    Ack,
    Capabilities,
    DeviceMessage,
    Heartbeat,
    Hello,
    HelloAck,
    Resend,
    ScanRequest,
    is_sequenced,
)
from firmware_bridge.protocol import Frame, encode_frame

log = logging.getLogger(__name__)

# The device has at most this many events on the wire beyond the oldest unacknowledged one (a sliding
# window): a burst, or a host that is slow to acknowledge, waits in the buffer instead of flooding the
# port, and a go-back-N retransmission is never more than this many frames.
DEVICE_WINDOW = 64
# The device keeps at most this many unacknowledged events. Must stay well under half the sequence space
# so "before" and "after" remain unambiguous across wrap-around.
DEVICE_BUFFER_LIMIT = 4096


@dataclass
class _Unacked:
    seq: int
    wire: bytes  # encoded once; a retransmission is the same bytes
    sent_at: int | None = None  # None: not yet on the wire in this session


class DeviceLink:
    """Device end: numbers events, keeps them until acked, retransmits, says HELLO, beats the heart."""

    def __init__(
        self,
        capabilities: Capabilities,
        *,
        timing: LinkTiming | None = None,
        first_seq: int = 0,
        buffer_limit: int = DEVICE_BUFFER_LIMIT,
        window: int = DEVICE_WINDOW,
    ) -> None:
        self.capabilities = capabilities
        self._window = max(1, min(window, buffer_limit))
        self.boot_id = capabilities.boot_id
        self.timing = timing or LinkTiming()
        self._next_seq = first_seq % SEQ_MODULO
        self._unacked: deque[_Unacked] = deque()
        self._buffer_limit = min(buffer_limit, HALF_SEQ_SPACE - 1)
        self._outgoing: list[bytes] = []
        self._helloed = False
        self._connected = False
        self._last_hello_us: int | None = None
        self._last_heartbeat_us: int | None = None
        self._last_heard_us: int | None = None
        self.dropped_for_space = 0
        self.retransmissions = 0

    # ---------------------------------------------------------------- state
    @property
    def in_session(self) -> bool:
        return self._helloed

    @property
    def next_seq(self) -> int:
        return self._next_seq

    @property
    def unacked_count(self) -> int:
        return len(self._unacked)

    # ---------------------------------------------------------------- inputs
    def connect(self, now_us: int) -> None:
        """The cable is in (or the port was reopened): open a session with HELLO."""
        self._connected = True
        self._restart_session(now_us)

    def disconnect(self) -> None:
        """The cable is out: keep recording events, send nothing."""
        self._connected = False
        self._helloed = False
        self._outgoing.clear()
        self._forget_transmissions()

    def send(self, message: DeviceMessage, now_us: int) -> int:
        """Record a sensor event, transmit it if a session is open; returns its seq."""
        if not is_sequenced(message):
            raise ValueError(f"{type(message).__name__} is not a sequenced event; the link sends it itself")
        # Encode first: a reading that cannot be framed is refused here instead of jamming the buffer.
        wire = encode_frame(message, seq=self._next_seq, boot_id=self.boot_id)
        if len(self._unacked) >= self._buffer_limit:
            dropped = self._unacked.popleft()
            self.dropped_for_space += 1
            log.error("retransmit buffer full: dropped unacknowledged seq %d", dropped.seq)
        entry = _Unacked(self._next_seq, wire)
        self._next_seq = seq_add(self._next_seq, 1)
        self._unacked.append(entry)
        if self._helloed:
            self._send_newly_in_window(now_us)  # the new event, or later ones if a drop slid the window
        return entry.seq

    def receive(self, frame: Frame, now_us: int) -> list[ScanRequest]:
        """Handle a host frame; returns the requests the application must act on."""
        if frame.boot_id != self.boot_id:
            log.debug("ignored host frame for boot 0x%08x (this is 0x%08x)", frame.boot_id, self.boot_id)
            return []
        self._last_heard_us = now_us
        message = frame.message
        if isinstance(message, HelloAck):
            if not self._helloed:
                self._helloed = True
                self._last_heartbeat_us = now_us
                self._retransmit_from(self._unacked[0].seq if self._unacked else self._next_seq, now_us)
        elif not self._helloed:
            return []  # until HELLO_ACK the host has no session with us: its acks are stale
        elif isinstance(message, Ack):
            self._on_ack(message.seq)
            self._send_newly_in_window(now_us)
        elif isinstance(message, Resend):
            oldest = self._unacked[0].seq if self._unacked else self._next_seq
            if self.dropped_for_space and not seq_at_or_before(oldest, message.from_seq):
                # The host wants events this device dropped for space: none can come. A new HELLO tells
                # it where the stream resumes, so it stops waiting for them.
                log.error("host asks for seq %d, dropped for space; resuming at %d", message.from_seq, oldest)
                self._restart_session(now_us)
            else:
                self._retransmit_from(message.from_seq, now_us)
        elif isinstance(message, ScanRequest):
            return [message]
        return []

    def poll(self, now_us: int) -> None:
        """Run the timers: HELLO retries, heartbeats, ack timeouts, host silence."""
        if not self._connected:
            return
        if not self._helloed:
            if self._last_hello_us is None or now_us - self._last_hello_us >= self.timing.hello_retry_us:
                self._say_hello(now_us)
            return
        if self._last_heard_us is not None and now_us - self._last_heard_us > self.timing.silence_timeout_us:
            log.warning("host silent for %.1f s: opening a new session", (now_us - self._last_heard_us) / 1e6)
            self._restart_session(now_us)
            return
        oldest = self._unacked[0] if self._unacked else None
        if oldest is not None and oldest.sent_at is not None:
            if now_us - oldest.sent_at >= self.timing.ack_timeout_us:
                self._retransmit_from(oldest.seq, now_us)
        heartbeat_due = self._last_heartbeat_us is None or (
            now_us - self._last_heartbeat_us >= self.timing.heartbeat_period_us
        )
        if heartbeat_due:
            self._last_heartbeat_us = now_us
            # Header seq: one past the last event put on the wire, so the host can spot a lost tail.
            unsent = next((e.seq for e in self._unacked if e.sent_at is None), self._next_seq)
            self._outgoing.append(encode_frame(Heartbeat(now_us), seq=unsent, boot_id=self.boot_id))

    def outgoing(self) -> bytes:
        data = b"".join(self._outgoing)
        self._outgoing.clear()
        return data

    # ---------------------------------------------------------------- internals
    def _restart_session(self, now_us: int) -> None:
        self._helloed = False
        self._forget_transmissions()
        self._last_heard_us = now_us
        self._say_hello(now_us)

    def _say_hello(self, now_us: int) -> None:
        self._last_hello_us = now_us
        start = self._unacked[0].seq if self._unacked else self._next_seq
        self._outgoing.append(encode_frame(Hello(self.capabilities), seq=start, boot_id=self.boot_id))

    def _on_ack(self, seq: int) -> None:
        while self._unacked and seq_at_or_before(self._unacked[0].seq, seq):
            self._unacked.popleft()

    def _forget_transmissions(self) -> None:
        for entry in self._unacked:
            entry.sent_at = None

    def _in_window(self, entry: _Unacked) -> bool:
        return seq_distance(self._unacked[0].seq, entry.seq) < self._window

    def _send_newly_in_window(self, now_us: int) -> None:
        for entry in self._unacked:
            if not self._in_window(entry):
                break
            if entry.sent_at is None:
                self._transmit(entry, now_us)

    def _retransmit_from(self, from_seq: int, now_us: int) -> None:
        for entry in self._unacked:
            if not self._in_window(entry):
                break
            if seq_at_or_before(from_seq, entry.seq):
                if entry.sent_at is not None:
                    self.retransmissions += 1
                self._transmit(entry, now_us)

    def _transmit(self, entry: _Unacked, now_us: int) -> None:
        entry.sent_at = now_us
        self._outgoing.append(entry.wire)
