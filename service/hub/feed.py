"""The hub's MQTT client on the central broker: reads every table, asks tables for log records it misses.

It subscribes to ``smartmat/+/status``, ``state``, ``bridge``, ``log`` and ``log/head`` (the ``hub`` account
may read everything and write only ``log/request``). Every message goes to :class:`service.hub.hub.Hub`; a
gap in a game's records, a head the hub has not reached, or a bridge that comes back up becomes a catch-up
request, and requests still unanswered are asked again every second or two until the gap is filled.
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from service.hub.hub import Hub
from service.hub.topics import (
    BRIDGE,
    HUB_READS,
    LOG,
    LOG_HEAD,
    LOG_REQUEST,
    hub_filter,
    parse_table,
    table_topic,
)
from service.publish import topics as table_topics
from service.publish.transport import InboundMessage, MqttTransport

log = logging.getLogger(__name__)
MAX_PAYLOAD = 1 << 20


class HubFeed:
    def __init__(self, hub: Hub, transport: MqttTransport, retry_s: float = 1.0) -> None:
        self.hub = hub
        self._transport = transport
        self._retry_s = retry_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._retry_loop, name="hub-catch-up", daemon=True)

    def start(self) -> None:
        self._transport.start(self._on_connect, self._on_message)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self._transport.stop()

    @property
    def connected(self) -> bool:
        return self._transport.connected

    def _on_connect(self) -> None:
        for word in HUB_READS:
            self._transport.subscribe(hub_filter(word), 1)

    def _retry_loop(self) -> None:
        while not self._stop.wait(self._retry_s):
            if self._transport.connected:
                self._ask(self.hub.pending_requests())

    def _ask(self, requests: list[tuple[str, str | None, int]]) -> None:
        for table, game, after in requests:
            payload = json.dumps({"game": game, "after": after}).encode()
            log.info("asking table %s for game %s after record %d", table, game, after)
            self._transport.publish(table_topic(table, LOG_REQUEST), payload, qos=1, retain=False)

    def _on_message(self, message: InboundMessage) -> None:
        parsed = parse_table(message.topic)
        if parsed is None:
            log.warning("ignored a message on %s (not a table topic)", message.topic)
            return
        table, word = parsed
        if len(message.payload) > MAX_PAYLOAD:
            log.error("ignored %d bytes on %s (over %d)", len(message.payload), message.topic, MAX_PAYLOAD)
            return
        text = message.payload.decode("utf-8", errors="replace")
        if word == table_topics.STATUS:
            self.hub.on_status(table, text)
        elif word == BRIDGE:
            self._ask(self.hub.on_bridge(table, text))
        elif word in (table_topics.STATE, LOG, LOG_HEAD):
            if not text:
                return  # a retained topic being cleared
            data = _json_object(text, message.topic)
            if data is None:
                return
            if word == table_topics.STATE:
                self.hub.on_state(table, data)
            elif word == LOG_HEAD:
                game, seq = data.get("game"), data.get("seq")
                if isinstance(game, str) and isinstance(seq, int):
                    self._ask(self.hub.on_head(table, game, seq))
                else:
                    log.error("table %s: log head without game and seq: %.80s", table, text)
            else:
                game, record = data.get("game"), data.get("record")
                if isinstance(game, str) and isinstance(record, dict):
                    self._ask(self.hub.on_log(table, game, record))
                else:
                    log.error("table %s: log message without game and record: %.80s", table, text)


def _json_object(text: str, topic_name: str) -> dict[str, Any] | None:
    try:
        data = json.loads(text)
    except ValueError as exc:
        log.error("ignored a message on %s that is not JSON: %s", topic_name, exc)
        return None
    if not isinstance(data, dict):
        log.error("ignored a message on %s that is not a JSON object", topic_name)
        return None
    return data
