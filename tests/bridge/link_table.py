"""A device link and a host link joined by a wire the test can tamper with, on a virtual clock.

Time passes only when the test says so (``advance``), so timeouts are exact and the tests take milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable

from firmware_bridge.device_link import DeviceLink
from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.link import Delivery, HostLink, LinkTiming
from firmware_bridge.messages import DeviceMessage, Impact
from firmware_bridge.protocol import Frame, FrameDecoder

TIMING = LinkTiming(
    heartbeat_period_us=100_000,
    hello_retry_us=100_000,
    ack_timeout_us=150_000,
    resend_retry_us=80_000,
    silence_timeout_us=400_000,
)
TICK_US = 10_000

# A wire tamperer sees each frame about to reach the other side and returns what actually arrives.
Tamper = Callable[[Frame], list[Frame]]


def untouched(frame: Frame) -> list[Frame]:
    return [frame]


class LinkTable:
    def __init__(
        self,
        *,
        boot_id: int = 0xB007,
        first_seq: int = 0,
        host: HostLink | None = None,
        buffer_limit: int = 4096,
        window: int = 64,
    ) -> None:
        self.now_us = 0
        self.device = DeviceLink(
            default_capabilities(boot_id),
            timing=TIMING,
            first_seq=first_seq,
            buffer_limit=buffer_limit,
            window=window,
        )
        self.host = host or HostLink(TIMING)
        self.to_host: Tamper = untouched
        self.to_device: Tamper = untouched
        self.host_heard: list[Frame] = []
        self.device_heard: list[Frame] = []
        self.taken: list[Delivery] = []
        self._host_decoder = FrameDecoder()
        self._device_decoder = FrameDecoder()

    # ---------------------------------------------------------------- playing
    def plug_in(self) -> None:
        self.host.connection_opened(self.now_us)
        self.device.connect(self.now_us)
        self.exchange()

    def sense(self, *events: DeviceMessage) -> None:
        for event in events:
            self.device.send(event, self.now_us)
        self.exchange()

    def impacts(self, count: int, start: int = 0) -> list[Impact]:
        events = [Impact(sensor_id=1, t_us=1000 * (start + i), amplitude=start + i) for i in range(count)]
        self.sense(*events)
        return events

    def reboot_device(self, new_boot_id: int) -> None:
        self.device = DeviceLink(default_capabilities(new_boot_id), timing=TIMING, first_seq=0)
        self.device.connect(self.now_us)
        self.exchange()

    def advance(self, ms: int, *, consume: bool = True) -> None:
        """Let time pass, both ends running their timers; the consumer takes and acks as it goes."""
        end = self.now_us + ms * 1000
        while self.now_us < end:
            self.now_us += TICK_US
            self.device.poll(self.now_us)
            self.host.poll(self.now_us)
            self.exchange()
            if consume:
                self.consume()

    def consume(self, *, acknowledge: bool = True) -> list[Delivery]:
        taken = []
        while (delivery := self.host.take()) is not None:
            taken.append(delivery)
            if acknowledge:
                self.host.acknowledge(delivery)
        self.taken += taken
        self.exchange()
        return taken

    def exchange(self) -> None:
        """Move bytes both ways until both ends have nothing more to say."""
        for _ in range(100):
            to_host = self.device.outgoing()
            to_device = self.host.outgoing()
            if not to_host and not to_device:
                return
            for frame in self._host_decoder.feed(to_host):
                for arriving in self.to_host(frame):
                    self.host_heard.append(arriving)
                    self.host.receive(arriving, self.now_us)
            for frame in self._device_decoder.feed(to_device):
                for arriving in self.to_device(frame):
                    self.device_heard.append(arriving)
                    self.device.receive(arriving, self.now_us)
        raise AssertionError("the two ends never stopped talking")

    def host_sends(self, wire: bytes) -> None:
        """Bytes on the wire from the host, as the device's end decodes and takes them."""
        for frame in self._device_decoder.feed(wire):
            self.device.receive(frame, self.now_us)

    # ---------------------------------------------------------------- looking
    def delivered_events(self) -> list[DeviceMessage]:
        return [d.message for d in self.taken if d.seq is not None]

    def delivered_seqs(self) -> list[int | None]:
        return [d.seq for d in self.taken if d.seq is not None]
