"""A paho client for tests: subscribes, records what arrives, and waits for a condition with a deadline."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


@dataclass(frozen=True)
class Seen:
    topic: str
    payload: bytes
    qos: int
    retain: bool

    def json(self) -> Any:
        return json.loads(self.payload)


class MqttProbe:
    def __init__(
        self,
        host: str,
        port: int,
        username: str | None = None,
        password: str | None = None,
        client_id: str = "",
    ) -> None:
        self.seen: list[Seen] = []
        self._cond = threading.Condition()
        self._connected = threading.Event()
        self.refused: str | None = None
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
        if username is not None:
            self._client.username_pw_set(username, password)
        self._client.on_message = self._on_message
        self._client.on_connect = self._on_connect
        self._client.connect(host, port, keepalive=10)
        self._client.loop_start()
        if not self._connected.wait(5):
            self.close()
            raise TimeoutError(f"no CONNACK from {host}:{port}")
        if self.refused:
            self.close()
            raise PermissionError(f"broker refused {username!r}: {self.refused}")

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)
        self._connected.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.seen.append(Seen(message.topic, bytes(message.payload), message.qos, bool(message.retain)))
            self._cond.notify_all()

    def subscribe(self, topic_filter: str, qos: int = 1) -> None:
        done = threading.Event()
        self._client.on_subscribe = lambda *args: done.set()
        self._client.subscribe(topic_filter, qos)
        if not done.wait(5):
            raise TimeoutError(f"no SUBACK for {topic_filter}")

    def publish(
        self, topic: str, payload: bytes | str | dict[str, Any], qos: int = 1, retain: bool = False
    ) -> None:
        data = json.dumps(payload).encode() if isinstance(payload, dict) else payload
        self._client.publish(topic, data, qos=qos, retain=retain).wait_for_publish(5)

    def wait_for(self, condition: Callable[[list[Seen]], bool], timeout_s: float = 10.0) -> list[Seen]:
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while not condition(self.seen):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise TimeoutError(
                        f"condition not met in {timeout_s} s; saw {[s.topic for s in self.seen]}"
                    )
                self._cond.wait(remaining)
            return list(self.seen)

    def latest(self, topic: str) -> Seen | None:
        with self._cond:
            return next((s for s in reversed(self.seen) if s.topic == topic), None)

    def on(self, topic: str) -> list[Seen]:
        with self._cond:
            return [s for s in self.seen if s.topic == topic]

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def __enter__(self) -> MqttProbe:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
