"""An in-memory broker and client for unit tests of anything that speaks MQTT through ``MqttTransport``.

Like a real MQTT 3.1.1 broker it keeps retained messages (an empty retained payload deletes one), replays them
with the retain flag to new subscriptions, delivers live messages with the flag cleared, and publishes a
client's will when the client vanishes without disconnecting. Delivery is synchronous, so tests need no waits;
one broker-wide lock serialises routing, so clients may publish from several threads.

    broker = FakeBroker()
    daemon = FakeMqttClient(broker, "daemon")
    phone = FakeMqttClient(broker, "phone"); phone.start(); phone.subscribe("smartmat/t1/#", 1)
    broker.outage(); broker.restore()       # every client drops (wills fire) and reconnects
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from paho.mqtt.client import topic_matches_sub

from service.publish.transport import InboundMessage, OnConnect, OnMessage, Will


@dataclass(frozen=True)
class Published:
    sender: str
    topic: str
    payload: bytes
    qos: int
    retain: bool


class FakeBroker:
    def __init__(self) -> None:
        self.retained: dict[str, bytes] = {}
        self.log: list[Published] = []  # everything any client published, in order
        self._clients: list[FakeMqttClient] = []
        self.up = True
        # Reentrant: a delivery may make its receiver publish (an answer) inside the same call.
        self.lock = threading.RLock()

    def attach(self, client: FakeMqttClient) -> None:
        with self.lock:
            if client not in self._clients:
                self._clients.append(client)

    def route(self, sender: str, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        with self.lock:
            self._route(sender, topic, payload, qos, retain)

    def _route(self, sender: str, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        self.log.append(Published(sender, topic, payload, qos, retain))
        if retain:
            if payload:
                self.retained[topic] = payload
            else:
                self.retained.pop(topic, None)
        for client in list(self._clients):
            if client.connected and client.matches(topic):
                client.deliver(InboundMessage(topic, payload, qos, retain=False))

    def replay_retained(self, client: FakeMqttClient, topic_filter: str) -> None:
        with self.lock:
            for topic, payload in list(self.retained.items()):
                if topic_matches_sub(topic_filter, topic):
                    client.deliver(InboundMessage(topic, payload, 1, retain=True))

    def outage(self) -> None:
        """The broker goes away: every client loses its connection, and wills fire (to nobody, as in life)."""
        with self.lock:
            self.up = False
            for client in self._clients:
                client.lose_connection()

    def restore(self) -> None:
        """The broker comes back (without its retained messages, like a broker without persistence)."""
        with self.lock:
            self.up = True
            self.retained.clear()
            for client in self._clients:
                if client.started:
                    client.reconnect()


class FakeMqttClient:
    """Implements ``MqttTransport``; also records what it received in ``received``."""

    def __init__(self, broker: FakeBroker, client_id: str) -> None:
        self.broker = broker
        self.client_id = client_id
        self.received: list[InboundMessage] = []
        self.started = False
        self._connected = False
        self._filters: list[str] = []
        self._queued: list[tuple[str, bytes, int, bool]] = []
        self._on_connect: OnConnect | None = None
        self._on_message: OnMessage | None = None
        self._will: Will | None = None
        broker.attach(self)

    @property
    def connected(self) -> bool:
        return self._connected

    def start(
        self,
        on_connect: OnConnect | None = None,
        on_message: OnMessage | None = None,
        will: Will | None = None,
    ) -> None:
        self._on_connect, self._on_message, self._will = on_connect, on_message, will
        self.started = True
        if self.broker.up:
            self.reconnect()

    def reconnect(self) -> None:
        self._connected = True
        self._filters = []  # clean session: subscriptions do not survive
        queued, self._queued = self._queued, []
        for topic, payload, qos, retain in queued:
            self.broker.route(self.client_id, topic, payload, qos, retain)
        if self._on_connect:
            self._on_connect()

    def lose_connection(self) -> None:
        """The network drops without a DISCONNECT: the broker publishes the will."""
        if not self._connected:
            return
        self._connected = False
        if self._will is not None:
            self.broker.route(
                self.client_id, self._will.topic, self._will.payload, self._will.qos, self._will.retain
            )

    def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        with self.broker.lock:
            if not self._connected:
                if qos > 0:
                    self._queued.append((topic, payload, qos, retain))
                return
            self.broker.route(self.client_id, topic, payload, qos, retain)

    def subscribe(self, topic_filter: str, qos: int) -> None:
        with self.broker.lock:
            if not self._connected:
                return
            self._filters.append(topic_filter)
            self.broker.replay_retained(self, topic_filter)

    def matches(self, topic: str) -> bool:
        return any(topic_matches_sub(f, topic) for f in self._filters)

    def deliver(self, message: InboundMessage) -> None:
        self.received.append(message)
        if self._on_message:
            self._on_message(message)

    def flush(self, timeout_s: float) -> None:
        return None  # delivery is synchronous

    def stop(self) -> None:
        self._connected = False
        self.started = False

    # -- conveniences for assertions ------------------------------------------------------------------------
    def last(self, topic: str) -> InboundMessage | None:
        for message in reversed(self.received):
            if message.topic == topic:
                return message
        return None

    def on(self, topic: str) -> list[InboundMessage]:
        return [m for m in self.received if m.topic == topic]
