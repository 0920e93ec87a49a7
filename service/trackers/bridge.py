"""``smartmat trackers``: feeds a table's WLED trackers from the retained per-character topics.

An MQTT client of its own (the ``tracker`` account). It reads ``smartmat/<table>/character/+`` and publishes,
for each WLED tracker assigned to a character, the absolute JSON state of :func:`service.trackers.wled.
wled_state` on the device's API topic, **retained** (QoS 1), whenever what the LEDs should show changes.
After every (re)connect it subscribes again and republishes what it holds, so a broker restart that lost the
retained messages, or a bridge restarted after a power cut, puts every device right as soon as the daemon
has republished the game (docs/trackers.md).

It also reports, retained on ``smartmat/<table>/trackers``, whether it is connected (its last will says
``offline``) and what each WLED device last said on its own ``<device topic>/status`` (WLED's ``online`` /
``offline``), for the set-up wizard's health check.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence
from typing import Any

from service.publish import topics
from service.publish.broker_url import BrokerUrl
from service.publish.paho_transport import PahoTransport, unguessable_client_id
from service.publish.transport import InboundMessage, MqttTransport, Will
from service.table.trackers import TrackerConfig

from .wled import wled_state

log = logging.getLogger(__name__)


class WledBridge:
    def __init__(self, table: str, trackers: Sequence[TrackerConfig], transport: MqttTransport) -> None:
        self.table = topics.check_id(table, "table id")
        self.trackers = [t for t in trackers if t.kind == "wled"]
        self.transport = transport
        self._lock = threading.Lock()
        self._characters: dict[str, dict[str, Any] | None] = {}
        self._sent: dict[str, bytes] = {}  # api topic -> the payload it holds
        self._devices: dict[str, str] = {t.id: "unknown" for t in self.trackers}  # what each device said
        self._report_topic = topics.topic(self.table, topics.TRACKERS)
        self._status_topics = {f"{t.topic}/status": t.id for t in self.trackers}

    @classmethod
    def connect_to(cls, table: str, trackers: Sequence[TrackerConfig], url: str | BrokerUrl) -> WledBridge:
        bridge = cls(table, trackers, PahoTransport(url, unguessable_client_id(f"smartmat-trackers-{table}")))
        bridge.start()
        return bridge

    def start(self) -> None:
        will = Will(self._report_topic, json.dumps({"bridge": "offline", "devices": {}}).encode())
        self.transport.start(self._on_connect, self._on_message, will)

    def stop(self) -> None:
        self._report("offline")
        self.transport.flush(2.0)
        self.transport.stop()

    def character_for(self, tracker: TrackerConfig) -> dict[str, Any] | None:
        """The character a tracker shows: the one whose payload lists it (the set-up wizard's choice, which
        the daemon publishes); when no payload lists trackers at all, the table file's ``character``."""
        listing = [c for c in self._characters.values() if c is not None and "trackers" in c]
        if listing:
            return next((c for c in listing if tracker.id in (c.get("trackers") or ())), None)
        return self._characters.get(tracker.character) if tracker.character else None

    def payload_for(self, tracker: TrackerConfig) -> bytes:
        """What the device should hold now (all off until its character is known)."""
        character = self.character_for(tracker)
        return json.dumps(wled_state(character, tracker.layout), separators=(",", ":")).encode()

    def _on_connect(self) -> None:
        self.transport.subscribe(topics.kind_filter(topics.CHARACTER, self.table), 1)
        for status_topic in self._status_topics:
            self.transport.subscribe(status_topic, 1)
        self._report("online")
        with self._lock:
            self._sent.clear()  # the broker may have lost every retained message: send them all again
            self._publish_changes()

    def _report(self, bridge: str) -> None:
        with self._lock:
            body = {"bridge": bridge, "devices": dict(sorted(self._devices.items()))}
        self.transport.publish(self._report_topic, json.dumps(body, separators=(",", ":")).encode(), 1, True)

    def _on_message(self, message: InboundMessage) -> None:
        device = self._status_topics.get(message.topic)
        if device is not None:
            said = message.payload.decode("utf-8", errors="replace").strip()
            with self._lock:
                self._devices[device] = said if said in ("online", "offline") else "unknown"
            self._report("online")
            return
        try:
            parsed = topics.parse(message.topic)
        except topics.TopicError:
            return
        if parsed.kind != topics.CHARACTER or parsed.subject is None:
            return
        character: dict[str, Any] | None = None
        if message.payload:
            try:
                data = json.loads(message.payload)
            except ValueError:
                log.warning("ignored a character message on %s that is not JSON", message.topic)
                return
            if not isinstance(data, dict):
                log.warning("ignored a character message on %s that is not a JSON object", message.topic)
                return
            character = data
        with self._lock:
            self._characters[parsed.subject] = character
            self._publish_changes()

    def _publish_changes(self) -> None:
        for tracker in self.trackers:
            payload = self.payload_for(tracker)
            if self._sent.get(tracker.api_topic) == payload:
                continue  # unchanged: no traffic for the device
            self.transport.publish(tracker.api_topic, payload, qos=1, retain=True)
            self._sent[tracker.api_topic] = payload
