"""The real MQTT client: paho-mqtt 2.x, MQTT 3.1.1, a background network thread that keeps reconnecting."""

from __future__ import annotations

import logging
import secrets
import threading
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from service.publish.broker_url import BrokerUrl
from service.publish.transport import InboundMessage, OnConnect, OnMessage, Will

log = logging.getLogger(__name__)


def unguessable_client_id(name: str) -> str:
    """``name`` and 16 random hex digits, new for each call.

    MQTT drops the older of two clients with one id, so a fixed id lets anyone who can connect knock that
    client off. The shipped Mosquitto names each client after its account anyway; this protects elsewhere.
    """
    return f"{name}-{secrets.token_hex(8)}"


class PahoTransport:
    def __init__(
        self,
        url: str | BrokerUrl,
        client_id: str,
        keepalive_s: int = 30,
        reconnect_delay_s: tuple[int, int] = (1, 10),
    ) -> None:
        self.url = url if isinstance(url, BrokerUrl) else BrokerUrl.parse(url)
        self._keepalive_s = keepalive_s
        self._client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311, clean_session=True
        )
        if self.url.username is not None:
            self._client.username_pw_set(self.url.username, self.url.password)
        self._client.reconnect_delay_set(*reconnect_delay_s)
        self._connected = threading.Event()
        self._stopping = False
        # QoS 1 mids not yet acknowledged, for flush(). Paho keeps unacknowledged messages (also those
        # published while disconnected) and resends them after reconnecting; we only track when it is done.
        self._unacked: set[int] = set()
        self._acked_early: set[int] = set()  # PUBACK can beat publish() returning to us
        self._acks = threading.Condition()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def start(self, on_connect: OnConnect, on_message: OnMessage, will: Will | None = None) -> None:
        if will is not None:
            self._client.will_set(will.topic, will.payload, qos=will.qos, retain=will.retain)

        def handle_connect(client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
            if reason.is_failure:
                log.error("broker %s refused the connection: %s", self.url, reason)
                return
            self._connected.set()
            log.info("connected to broker %s", self.url)
            try:
                on_connect()
            except Exception:  # escaping, it would end paho's network thread and every reconnect with it
                log.exception("republishing after connecting to %s failed", self.url)

        def handle_disconnect(
            client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any
        ) -> None:
            was_connected = self._connected.is_set()
            self._connected.clear()
            if was_connected and not self._stopping:
                log.warning("lost the broker %s (%s); reconnecting", self.url, reason)

        def handle_message(client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
            inbound = InboundMessage(message.topic, bytes(message.payload), message.qos, bool(message.retain))
            try:
                on_message(inbound)
            except Exception:
                log.exception("handling a message on %s failed", message.topic)

        def handle_publish(client: mqtt.Client, userdata: Any, mid: int, reason: Any, props: Any) -> None:
            with self._acks:
                if mid in self._unacked:
                    self._unacked.discard(mid)
                else:
                    self._acked_early.add(mid)
                self._acks.notify_all()

        self._client.on_connect = handle_connect
        self._client.on_disconnect = handle_disconnect
        self._client.on_message = handle_message
        self._client.on_publish = handle_publish
        self._client.connect_async(self.url.host, self.url.port, keepalive=self._keepalive_s)
        self._client.loop_start()

    def wait_connected(self, timeout_s: float) -> bool:
        return self._connected.wait(timeout_s)

    def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        info = self._client.publish(topic, payload, qos=qos, retain=retain)
        if info.rc == mqtt.MQTT_ERR_NO_CONN:
            if qos == 0:
                log.warning("not connected: dropped a QoS 0 message on %s", topic)
            # QoS 1: paho holds it and sends it after reconnecting.
        elif info.rc != mqtt.MQTT_ERR_SUCCESS:
            log.error("publish to %s failed: %s", topic, mqtt.error_string(info.rc))
            return
        if qos > 0:
            with self._acks:
                if info.mid in self._acked_early:
                    self._acked_early.discard(info.mid)
                else:
                    self._unacked.add(info.mid)

    def subscribe(self, topic_filter: str, qos: int) -> None:
        self._client.subscribe(topic_filter, qos=qos)

    def flush(self, timeout_s: float) -> None:
        with self._acks:
            if not self._acks.wait_for(lambda: not self._unacked or not self.connected, timeout_s):
                log.warning("%d message(s) still unacknowledged by %s", len(self._unacked), self.url)

    def stop(self) -> None:
        self._stopping = True
        self._client.disconnect()
        self._client.loop_stop()
        self._connected.clear()


def accepts_anonymous(url: BrokerUrl, timeout_s: float = 3.0) -> bool | None:
    """Whether the broker at ``url`` lets a client in without a username: True, False, or None when it did not
    answer within ``timeout_s`` (it may be down; the table's client keeps trying)."""
    answer: dict[str, bool] = {}
    done = threading.Event()
    probe = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=unguessable_client_id("smartmat-probe"), protocol=mqtt.MQTTv311
    )

    def handle_connect(client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        answer["accepted"] = not reason.is_failure
        done.set()

    def handle_disconnect(client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        done.set()  # refused before a CONNACK came, or the connection dropped

    probe.on_connect = handle_connect
    probe.on_disconnect = handle_disconnect
    try:
        probe.connect(url.host, url.port, keepalive=10)
    except OSError:
        return None
    probe.loop_start()
    try:
        done.wait(timeout_s)
    finally:
        probe.disconnect()
        probe.loop_stop()
    return answer.get("accepted")
