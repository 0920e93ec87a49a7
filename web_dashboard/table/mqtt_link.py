"""The dashboard's two MQTT connections to the broker.

* :class:`MqttFeed` reads ``smartmat/<table>/#`` with the **read-only** credential and feeds a
  :class:`~web_dashboard.table.table_feed.TableFeed`.
* :class:`MqttCommandChannel` uses the separate **referee** credential, publishes on ``cmd/request`` and waits
  for the matching ``cmd/response``.

Both use paho-mqtt 2 with MQTT 3.1.1 and reconnect on their own; retained state is republished by the daemon
on every reconnect, so nothing needs to be replayed here.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from service.publish import topics
from service.publish.broker_url import BrokerUrl
from service.publish.paho_transport import unguessable_client_id
from web_dashboard.table.commands import CommandResult
from web_dashboard.table.table_feed import TableFeed

log = logging.getLogger(__name__)


def _client(address: BrokerUrl, client_id: str) -> mqtt.Client:
    client = mqtt.Client(
        callback_api_version=CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311
    )
    if address.username:
        client.username_pw_set(address.username, address.password)
    client.reconnect_delay_set(min_delay=1, max_delay=10)
    return client


class MqttFeed:
    """Subscribes to every topic of one table and hands each message to the feed."""

    def __init__(self, feed: TableFeed, address: BrokerUrl, client_id: str | None = None):
        self.feed = feed
        self._client = _client(
            address, client_id or unguessable_client_id(f"smartmat-dashboard-{feed.table}-feed")
        )
        self._client.on_connect = self._on_connect
        self._client.on_message = self._on_message
        self._client.connect_async(address.host, address.port, keepalive=30)
        self._client.loop_start()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("feed connection refused by the broker: %s", reason)
            return
        client.subscribe(topics.table_filter(self.feed.table), qos=1)
        log.info("dashboard feed subscribed to %s", topics.table_filter(self.feed.table))

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.feed.ingest(message.topic, bytes(message.payload), retained=bool(message.retain))

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()


class MqttCommandChannel:
    """Publishes referee commands and waits for the daemon's answer with the same ``txn``."""

    def __init__(self, table: str, address: BrokerUrl, client_id: str | None = None):
        self.table = table
        self._request_topic = topics.topic(table, topics.CMD_REQUEST)
        self._response_topic = topics.topic(table, topics.CMD_RESPONSE)
        self._view_topic = topics.topic(table, topics.CAMERA_VIEW)
        self._ask_topic = topics.topic(table, topics.CAMERA_VIEW_ASK)
        self.on_camera_view: Callable[[bytes], None] | None = None  # the calibrate page's camera step
        self._lock = threading.Lock()
        self._waiting: dict[str, tuple[threading.Event, list[CommandResult]]] = {}
        self._subscribed = threading.Event()
        self._client = _client(
            address, client_id or unguessable_client_id(f"smartmat-dashboard-{table}-referee")
        )
        self._client.on_connect = self._on_connect
        self._client.on_subscribe = lambda *a: self._subscribed.set()
        self._client.on_message = self._on_message
        self._client.connect_async(address.host, address.port, keepalive=30)
        self._client.loop_start()

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("referee connection refused by the broker: %s", reason)
            return
        client.subscribe([(self._response_topic, 1), (self._view_topic, 0)])

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self._view_topic:
            if self.on_camera_view is not None and not message.retain:
                self.on_camera_view(bytes(message.payload))
            return
        if message.retain:
            return  # a response is an answer to a live request, never a replay
        try:
            body = json.loads(message.payload)
            txn = body["txn"]
            result = CommandResult(
                txn=str(txn), ok=bool(body["ok"]), error=body.get("error"), seq=body.get("seq")
            )
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("malformed command response %r: %s", message.payload[:200], exc)
            return
        with self._lock:
            waiter = self._waiting.get(result.txn)
        if waiter is not None:
            waiter[1].append(result)
            waiter[0].set()

    def send(self, request: dict[str, Any], timeout_s: float) -> CommandResult:
        txn = request["txn"]
        done = threading.Event()
        box: list[CommandResult] = []
        with self._lock:
            self._waiting[txn] = (done, box)
        try:
            if not self._subscribed.wait(timeout_s):
                return CommandResult(txn, False, "not connected to the table's broker", answered=False)
            info = self._client.publish(self._request_topic, json.dumps(request), qos=1, retain=False)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                return CommandResult(
                    txn,
                    False,
                    f"could not publish the command ({mqtt.error_string(info.rc)})",
                    answered=False,
                )
            if not done.wait(timeout_s):
                return CommandResult(
                    txn, False, f"no answer from the daemon within {timeout_s:g} s", answered=False
                )
            return box[0]
        finally:
            with self._lock:
                self._waiting.pop(txn, None)

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def ask_camera_view(self) -> bool:
        """Asks the camera process for one picture for the calibrate page (answered on camera/view)."""
        if not self._subscribed.is_set():
            return False
        info = self._client.publish(self._ask_topic, b"", qos=1, retain=False)
        return info.rc == mqtt.MQTT_ERR_SUCCESS
