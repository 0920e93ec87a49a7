"""The seam between smartmat's MQTT logic and a network client.

``TablePublisher`` talks to an :class:`MqttTransport`; ``PahoTransport`` is the real one, ``FakeMqttClient``
(in :mod:`service.publish.fake`) the in-memory one for tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class InboundMessage:
    topic: str
    payload: bytes
    qos: int
    retain: bool  # True only for a retained copy replayed by the broker on subscribe


@dataclass(frozen=True)
class Will:
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = True


OnConnect = Callable[[], None]
OnMessage = Callable[[InboundMessage], None]


class MqttTransport(Protocol):
    def start(self, on_connect: OnConnect, on_message: OnMessage, will: Will | None = None) -> None:
        """Connect in the background and keep reconnecting; ``on_connect`` runs after every (re)connect."""

    def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        """Thread-safe. QoS 1 messages sent while disconnected are queued for the next connection."""

    def subscribe(self, topic_filter: str, qos: int) -> None: ...

    def flush(self, timeout_s: float) -> None:
        """Wait until everything published so far has left (best effort, bounded)."""

    def stop(self) -> None:
        """Disconnect cleanly (the broker does not send the will) and stop the network thread."""

    @property
    def connected(self) -> bool: ...
