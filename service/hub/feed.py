"""The hub's MQTT client on the central broker: reads every table, asks tables for log records it misses.

It subscribes to ``smartmat/+/status``, ``state``, ``bridge``, ``log`` and ``log/head`` (the ``hub`` account
may read everything and write only ``log/request`` and ``match``). Every message goes to
:class:`service.hub.hub.Hub`; a gap in a game's records, a head the hub has not reached, or a bridge that
comes back up becomes a catch-up request, and requests still unanswered are asked again every second or two
until the gap is filled. When a round is paired (here or by a ``smartmat hub pair`` in another process) it
publishes each table's match offer, retained (service/hub/offers.py).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from service.hub import offers
from service.hub.hub import Hub
from service.hub.topics import (
    BRIDGE,
    HUB_READS,
    LOG,
    LOG_HEAD,
    LOG_REQUEST,
    MATCH,
    hub_filter,
    parse_table,
    table_topic,
)
from service.publish import topics as table_topics
from service.publish.transport import InboundMessage, MqttTransport

log = logging.getLogger(__name__)
MAX_PAYLOAD = 1 << 20
COUNT_FLUSH_S = 0.1  # how often the log counts held back during a burst are sent


class HubFeed:
    def __init__(self, hub: Hub, transport: MqttTransport, retry_s: float = 1.0) -> None:
        self.hub = hub
        self._transport = transport
        self._retry_s = retry_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._retry_loop, name="hub-catch-up", daemon=True)
        self._offered: dict[str, bytes] = {}  # table -> the offer last published there
        self._offers_lock = threading.Lock()
        self._stop_listening = hub.listen(self._on_hub_change)

    def start(self) -> None:
        self._transport.start(self._on_connect, self._on_message)
        self._thread.start()

    def stop(self) -> None:
        self._stop_listening()
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
        with self._offers_lock:
            self._offered.clear()  # say them again: a central broker without persistence forgot them
        self.publish_offers()

    def _retry_loop(self) -> None:
        last_retry = time.monotonic()
        while not self._stop.wait(COUNT_FLUSH_S):
            self.hub.flush_log_counts()  # the last count of a burst reaches the pages
            if time.monotonic() - last_retry < self._retry_s:
                continue
            last_retry = time.monotonic()
            if self._transport.connected:
                self.ask(self.hub.pending_requests())
                self.publish_offers()  # a round paired by another process (smartmat hub pair)

    def _on_hub_change(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "tournament" and data.get("kind") == "round":
            self.publish_offers()

    def publish_offers(self) -> None:
        """Each table's current match offer, retained, published when it changes."""
        if not self._transport.connected:
            return
        with self._offers_lock:
            for table, offer in self.hub.match_offers().items():
                payload = offers.encode(offer)
                if self._offered.get(table) == payload:
                    continue
                self._transport.publish(table_topic(table, MATCH), payload, qos=1, retain=True)
                self._offered[table] = payload
                if offer is None:
                    log.info("table %s: match offer withdrawn (no match this round)", table)
                else:
                    log.info("table %s: offered round %d, %s", table, offer["round"], offer["sides"])

    def ask(self, requests: list[tuple[str, str | None, int]]) -> None:
        """Ask each table for a game's records after a seq (table, game, after): the catch-up the hub does
        on its own, or an organiser's recount."""
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
            self.ask(self.hub.on_bridge(table, text))
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
                    self.ask(self.hub.on_head(table, game, seq))
                else:
                    log.error("table %s: log head without game and seq: %.80s", table, text)
            else:
                game, record = data.get("game"), data.get("record")
                if isinstance(game, str) and isinstance(record, dict):
                    self.ask(self.hub.on_log(table, game, record))
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
