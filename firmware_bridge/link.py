"""The link layer of protocol v1 as two pure state machines, one per end.

No I/O and no clock of their own: the caller passes frames in, passes the time in (microseconds of a
monotonic clock), and takes the bytes to write out with ``outgoing()``. The same machines run in the
real host service, in the emulated firmware and in the tests, which drive time by hand.

The rules (``PROTOCOL.md`` has the full text):

* The device numbers its sensor events (TAG_SEEN, SCAN_DONE, IMPACT, BUTTON) with a 16-bit ``seq`` that
  wraps, and keeps each one until the host acknowledges it. Every frame carries the device's ``boot_id``.
* A session opens with HELLO (repeated until HELLO_ACK). HELLO's header ``seq`` is the first seq the
  host should expect: the oldest unacknowledged event, or the next seq if none is waiting.
* The host delivers events in order, exactly once per ``(boot_id, seq)``, asks ``RESEND(from)`` when it
  sees a gap, and sends a cumulative ``ACK(seq)`` only once the consumer has taken and acknowledged the
  event: *ack after delivery*. Until then the device keeps retransmitting, so an event the host crashed
  on is sent again, and one it has acknowledged is never needed again.
* A consumer that cannot keep an event (its disk is full) *refuses* it: the host rewinds to that seq,
  acknowledges neither it nor anything after it (not even cumulatively), and takes it again when the
  device resends it.
* HEARTBEAT's header seq is the device's next seq, so a lost last event is noticed even when the
  device goes quiet. Silence longer than the timeout means the link is down.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field

from firmware_bridge.messages import (
    Ack,
    Capabilities,
    DeviceMessage,
    Heartbeat,
    Hello,
    HelloAck,
    Message,
    Resend,
    is_sequenced,
)
from firmware_bridge.protocol import Frame, describe, encode_frame

log = logging.getLogger(__name__)

SEQ_MODULO = 1 << 16
HALF_SEQ_SPACE = SEQ_MODULO // 2


def seq_add(seq: int, n: int) -> int:
    return (seq + n) % SEQ_MODULO


def seq_distance(earlier: int, later: int) -> int:
    """How many steps forward from ``earlier`` to ``later`` (mod 2^16)."""
    return (later - earlier) % SEQ_MODULO


def seq_at_or_before(seq: int, reference: int) -> bool:
    """True if ``seq`` is ``reference`` or up to half the sequence space behind it (RFC 1982 style)."""
    return seq_distance(seq, reference) < HALF_SEQ_SPACE


@dataclass(frozen=True)
class LinkTiming:
    """Link periods and timeouts, microseconds. Defaults suit 115200 baud USB CDC."""

    heartbeat_period_us: int = 250_000
    hello_retry_us: int = 250_000
    ack_timeout_us: int = 300_000  # device: retransmit unacknowledged events after this long
    resend_retry_us: int = 200_000  # host: ask again for a gap that is still open after this long
    silence_timeout_us: int = 1_000_000  # either end: nothing heard for this long means the link is down


@dataclass(frozen=True)
class Delivery:
    """A device message handed to the consumer. ``seq`` is None for messages that need no ack (HELLO)."""

    boot_id: int
    seq: int | None
    message: DeviceMessage


@dataclass
class HostLinkStats:
    delivered: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    resend_requests: int = 0
    reboots: int = 0
    stale_frames: int = 0
    lost: int = 0  # events the device could no longer send (dropped for space)
    refused: int = 0  # times the consumer could not keep a delivery and the link rewound to it


@dataclass
class _Session:
    boot_id: int
    expected: int  # next seq to deliver
    acked: int  # last seq acknowledged to the device (one before ``expected`` at the start)
    stash: dict[int, DeviceMessage] = field(default_factory=dict)  # arrived early, waiting for a gap
    resend_asked_at: int | None = None


class HostLink:
    """Host end: de-duplicates, orders, acks after delivery, asks for resends, watches the heartbeat.

    ``resume=(boot_id, seq)`` starts as if events up to ``seq`` of that boot were already delivered and
    acknowledged, so a daemon restarted from its persisted log does not take retransmissions twice.
    """

    STASH_LIMIT = 1024

    def __init__(self, timing: LinkTiming | None = None, *, resume: tuple[int, int] | None = None) -> None:
        self.timing = timing or LinkTiming()
        self.stats = HostLinkStats()
        self.capabilities: Capabilities | None = None
        self._session: _Session | None = None
        if resume is not None:
            boot_id, seq = resume
            self._session = _Session(boot_id=boot_id, expected=seq_add(seq, 1), acked=seq)
        self._in_session = False  # HELLO received since the connection (re)opened
        self._ready: deque[Delivery] = deque()
        self._outgoing: list[bytes] = []
        self._last_heard_us: int | None = None
        self._up = False

    # ---------------------------------------------------------------- state the caller may look at
    @property
    def boot_id(self) -> int | None:
        return self._session.boot_id if self._session else None

    @property
    def is_up(self) -> bool:
        """A session is open and the device was heard within the silence timeout (as of the last poll)."""
        return self._up

    def silent_for_us(self, now_us: int) -> int:
        """Time since anything was heard from the device (or since the connection opened)."""
        return now_us - self._last_heard_us if self._last_heard_us is not None else 0

    @property
    def pending_deliveries(self) -> int:
        return len(self._ready)

    # ---------------------------------------------------------------- inputs
    def connection_opened(self, now_us: int) -> None:
        """The port was (re)opened: wait for a HELLO before accepting events."""
        self._in_session = False
        self._up = False
        self._last_heard_us = now_us

    def receive(self, frame: Frame, now_us: int) -> None:
        self._last_heard_us = now_us
        message = frame.message
        if isinstance(message, Hello):
            self._on_hello(frame, message, now_us)
            return
        session = self._session
        if not self._in_session or session is None or frame.boot_id != session.boot_id:
            # Events from a boot we have no session with: wait for its HELLO (it repeats HELLO when the
            # host stays silent), rather than guess where its stream starts.
            self.stats.stale_frames += 1
            log.debug("ignored %s: no session with this boot yet", describe(frame))
            return
        self._up = True
        if isinstance(message, Heartbeat):
            self._on_heartbeat(session, frame.seq, now_us)
        elif is_sequenced(message):
            self._on_event(session, frame.seq, message, now_us)
        else:  # ACK, RESEND, HELLO_ACK, SCAN_REQUEST: in v1 only the host sends these
            log.warning("device sent %s, which only the host sends; ignored", describe(frame))

    def poll(self, now_us: int) -> None:
        """Run the timers: link-down detection and re-asking for a gap that is still open."""
        if self._last_heard_us is not None and self._up:
            if now_us - self._last_heard_us > self.timing.silence_timeout_us:
                self._up = False
                silence_s = (now_us - self._last_heard_us) / 1e6
                log.warning("link down: nothing from the device for %.1f s", silence_s)
        session = self._session
        if session and session.resend_asked_at is not None and self._in_session:
            if now_us - session.resend_asked_at >= self.timing.resend_retry_us:
                self._ask_resend(session, now_us)

    def take(self) -> Delivery | None:
        """The next in-order delivery, or None. Taking it does not acknowledge it."""
        return self._ready.popleft() if self._ready else None

    def acknowledge(self, delivery: Delivery) -> None:
        """The consumer is done with ``delivery`` (and everything taken before it): ack it to the device.

        Call this only after the event is safe (persisted); acks are cumulative.
        """
        session = self._session
        if delivery.seq is None or session is None or delivery.boot_id != session.boot_id:
            return  # HELLO needs no ack; an event of a previous boot cannot be acked to a new one
        if seq_at_or_before(delivery.seq, session.acked):
            return  # already covered by a cumulative ack
        if not seq_at_or_before(delivery.seq, seq_add(session.expected, -1)):
            # Taken before a refusal rewound the link past it: acking it would cumulatively release the
            # refused events too, which are on no disk.
            log.debug("not acknowledging seq %d: the link rewound to %d", delivery.seq, session.expected)
            return
        session.acked = delivery.seq
        self._send(Ack(delivery.seq), session.boot_id)

    def refuse(self, delivery: Delivery, now_us: int) -> None:
        """The consumer could not keep ``delivery`` (nor, so, anything after it): take it again.

        Nothing from its seq on is acknowledged, not even cumulatively; deliveries after it still waiting to
        be taken are dropped, and the device is asked to resend from it. Deliveries the consumer took after
        it are stale: acknowledging one does nothing, and each comes again in order after the resend.
        """
        session = self._session
        if delivery.seq is None or session is None or delivery.boot_id != session.boot_id:
            return
        if seq_at_or_before(delivery.seq, session.acked):
            log.error("seq %d was refused after it was acknowledged; it cannot be taken again", delivery.seq)
            return
        if not seq_at_or_before(delivery.seq, seq_add(session.expected, -1)):
            return  # already rewound to it or before it
        self.stats.refused += 1
        refused = delivery.seq
        session.expected = refused
        self._ready = deque(
            d
            for d in self._ready
            if d.seq is None or d.boot_id != session.boot_id or seq_at_or_before(d.seq, seq_add(refused, -1))
        )
        log.warning(
            "seq %d of boot 0x%08x refused by the consumer: taking it again", refused, session.boot_id
        )
        if self._in_session:
            self._ask_resend(session, now_us)

    def outgoing(self) -> bytes:
        """Bytes to write to the device, in order; the link forgets them once taken."""
        data = b"".join(self._outgoing)
        self._outgoing.clear()
        return data

    def frame_for(self, message: Message) -> bytes:
        """Encode a host message (e.g. ScanRequest) for the device of the current session."""
        return encode_frame(message, seq=0, boot_id=self.boot_id or 0)

    # ---------------------------------------------------------------- internals
    def _on_hello(self, frame: Frame, hello: Hello, now_us: int) -> None:
        session = self._session
        start = frame.seq
        new_boot = session is None or session.boot_id != frame.boot_id
        if session is None or session.boot_id != frame.boot_id:
            if session is not None:
                self.stats.reboots += 1
                lost = len(session.stash) + (1 if session.resend_asked_at is not None else 0)
                log.warning(
                    "device rebooted (boot 0x%08x -> 0x%08x)%s",
                    session.boot_id,
                    frame.boot_id,
                    f"; events in an open gap of the old boot are gone ({lost}+)" if lost else "",
                )
                # Events of the old boot still waiting to be taken stay valid: they were received whole.
            session = _Session(boot_id=frame.boot_id, expected=start, acked=seq_add(start, -1))
            self._session = session
        elif not seq_at_or_before(start, session.expected):
            # Nothing before ``start`` can come any more: the device dropped it (its buffer overflowed
            # while we were away or slow), or it was acknowledged by a host run we do not remember.
            log.error(
                "device resumes at seq %d; events %d..%d of boot 0x%08x will never arrive",
                start,
                session.expected,
                seq_add(start, -1),
                frame.boot_id,
            )
            self.stats.lost += seq_distance(session.expected, start)
            session.expected = start
            session.acked = seq_add(start, -1)
            session.stash = {
                s: m for s, m in session.stash.items() if not seq_at_or_before(s, seq_add(start, -1))
            }
        self.capabilities = hello.capabilities
        session.resend_asked_at = None  # after HELLO_ACK the device sends everything unacknowledged anyway
        self._send(HelloAck(frame.boot_id), frame.boot_id)
        self._send(Ack(session.acked), frame.boot_id)
        if new_boot or not self._in_session:
            self._in_session = True
            self._up = True
            self._ready.append(Delivery(frame.boot_id, None, hello))
            log.info(
                "device session open: boot 0x%08x, firmware %s, expecting seq %d",
                frame.boot_id,
                hello.capabilities.firmware_version,
                session.expected,
            )
        self._drain_stash(session)

    def _on_heartbeat(self, session: _Session, next_seq: int, now_us: int) -> None:
        # The device has sent everything before ``next_seq``; if we expect less, its tail got lost.
        if next_seq != session.expected and seq_at_or_before(session.expected, next_seq):
            if session.resend_asked_at is None:
                self._ask_resend(session, now_us)
        self._send(Ack(session.acked), session.boot_id)

    def _on_event(self, session: _Session, seq: int, message: DeviceMessage, now_us: int) -> None:
        if seq == session.expected:
            self._deliver(session, seq, message)
            self._drain_stash(session)
            return
        if seq_at_or_before(seq, seq_add(session.expected, -1)):
            self.stats.duplicates += 1
            self._send(Ack(session.acked), session.boot_id)  # it may have missed our ack
            return
        if seq_distance(session.expected, seq) >= self.STASH_LIMIT:
            log.warning("seq %d is too far ahead of %d to hold; it will be resent", seq, session.expected)
        elif seq in session.stash:
            self.stats.duplicates += 1
        else:
            self.stats.out_of_order += 1
            session.stash[seq] = message
        if session.resend_asked_at is None:
            self._ask_resend(session, now_us)

    def _deliver(self, session: _Session, seq: int, message: DeviceMessage) -> None:
        self._ready.append(Delivery(session.boot_id, seq, message))
        self.stats.delivered += 1
        session.expected = seq_add(seq, 1)
        session.resend_asked_at = None

    def _drain_stash(self, session: _Session) -> None:
        while session.expected in session.stash:
            seq = session.expected
            self._deliver(session, seq, session.stash.pop(seq))
        if session.stash and session.resend_asked_at is None and self._in_session:
            # Delivered up to a second gap: events after it are waiting, so ask for it now.
            self._ask_resend(session, self._last_heard_us or 0)

    def _ask_resend(self, session: _Session, now_us: int) -> None:
        session.resend_asked_at = now_us
        self.stats.resend_requests += 1
        log.info("gap before seq %d of boot 0x%08x: asking for a resend", session.expected, session.boot_id)
        self._send(Resend(session.expected), session.boot_id)

    def _send(self, message: Message, boot_id: int) -> None:
        self._outgoing.append(encode_frame(message, seq=0, boot_id=boot_id))
