"""One table's MQTT presence: retained state, events, shots, and the command channel.

Everything retained is kept in a cache and republished on every (re)connect, so a broker restart or a
subscriber that arrives late always finds the current picture. Publishing is safe from any thread.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from service.publish import topics
from service.publish.broker_url import BrokerUrl
from service.publish.commands import (
    Command,
    CommandResult,
    MalformedCommandError,
    parse_command,
    response_payload,
)
from service.publish.paho_transport import PahoTransport
from service.publish.transport import InboundMessage, MqttTransport, Will

log = logging.getLogger(__name__)

CommandHandler = Callable[[Command], CommandResult | None]
"""Called on the network thread for each valid command. Return a result to answer at once, or None and call
``TablePublisher.respond`` later (e.g. after the daemon thread has applied it)."""

CameraHandler = Callable[[str, bytes], None]
"""Called on the network thread with each message of the camera process (its topic word and payload)."""

_REMEMBERED_TXNS = 256  # enough to absorb QoS 1 redeliveries without growing forever


def _kind_of(topic: str) -> str | None:
    try:
        return topics.parse(topic).kind
    except topics.TopicError:
        return None


def encode(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")


class TablePublisher:
    def __init__(
        self,
        table: str,
        transport: MqttTransport,
        handler: CommandHandler | None = None,
        camera: CameraHandler | None = None,  # the overhead camera's frames and health, where there is one
    ) -> None:
        self.table = topics.check_id(table, "table id")
        self._transport = transport
        self._handler = handler
        self._camera = camera
        self._lock = threading.RLock()  # reentrant: a fake broker delivers synchronously inside publish()
        self._retained: OrderedDict[str, bytes] = OrderedDict()
        self._characters: dict[str, dict[str, Any]] = {}
        self._state_published = False
        self._seen_on_broker: set[str] = set()
        self._answers: OrderedDict[str, bytes | None] = OrderedDict()
        self._status_topic = topics.topic(table, topics.STATUS)
        self._request_topic = topics.topic(table, topics.CMD_REQUEST)
        self._response_topic = topics.topic(table, topics.CMD_RESPONSE)

    @classmethod
    def connect_to(
        cls, table: str, url: str | BrokerUrl, handler: CommandHandler | None = None
    ) -> TablePublisher:
        """The production set-up: a paho client with id ``smartmat-daemon-<table>``, started."""
        client_id = f"smartmat-daemon-{topics.check_id(table, 'table id')}"
        publisher = cls(table, PahoTransport(url, client_id), handler)
        publisher.start()
        return publisher

    # -- lifecycle ------------------------------------------------------------------------------------------
    def start(self) -> None:
        will = Will(self._status_topic, topics.OFFLINE.encode(), qos=1, retain=True)
        self._transport.start(self._on_connect, self._on_message, will)

    def stop(self) -> None:
        """Say ``offline`` ourselves (a clean disconnect does not fire the will), then disconnect."""
        with self._lock:
            self._transport.publish(self._status_topic, topics.OFFLINE.encode(), qos=1, retain=True)
        self._transport.flush(timeout_s=2.0)
        self._transport.stop()

    @property
    def connected(self) -> bool:
        return self._transport.connected

    def _on_connect(self) -> None:
        with self._lock:
            self._transport.subscribe(self._request_topic, qos=1)
            # The broker may still hold characters from before a crash that have since left the game (the
            # clearing message was never sent). Its retained replay tells us which; see _forget_stale().
            self._transport.subscribe(topics.kind_filter(topics.CHARACTER, self.table), qos=1)
            self._transport.subscribe(topics.kind_filter(topics.TRACKER, self.table), qos=1)
            if self._camera is not None:
                for kind in topics.CAMERA_WORDS:
                    self._transport.subscribe(topics.kind_filter(kind, self.table), qos=0)
            self._transport.publish(self._status_topic, topics.ONLINE.encode(), qos=1, retain=True)
            for topic, payload in self._retained.items():
                self._transport.publish(topic, payload, qos=1, retain=True)
        log.info("table %s connected: republished %d retained topic(s)", self.table, len(self._retained))

    # -- retained state -------------------------------------------------------------------------------------
    def publish_state(self, snapshot: Mapping[str, Any], seq: int) -> None:
        """Publish the game snapshot (``state.public_view()``) as of event-log ``seq``, with its per-character
        and tracker topics. Characters no longer in the snapshot get their retained topics cleared."""
        characters = snapshot.get("characters", [])
        if not isinstance(characters, list):
            raise TypeError("snapshot['characters'] must be a list of character objects")
        current: dict[str, dict[str, Any]] = {}
        for index, character in enumerate(characters):
            if not isinstance(character, dict) or not isinstance(character.get("id"), str):
                raise TypeError(f"snapshot['characters'][{index}] must be an object with a string 'id'")
            current[topics.check_id(character["id"], "character id")] = character
        state_payload = encode({**snapshot, "seq": seq})
        with self._lock:
            self._put_retained(topics.topic(self.table, topics.STATE), state_payload)
            for character_id, character in current.items():
                if self._characters.get(character_id) == character:
                    continue  # unchanged: no traffic for the trackers
                self._put_retained(
                    topics.character_topic(self.table, character_id), encode({**character, "seq": seq})
                )
                health = character.get("health")
                if isinstance(health, int) and not isinstance(health, bool):
                    self._put_retained(topics.tracker_topic(self.table, character_id), str(health).encode())
            departed = (set(self._characters) | self._seen_on_broker) - set(current)
            self._seen_on_broker.clear()
            self._state_published = True
            for gone in sorted(departed):
                self._clear_retained(topics.character_topic(self.table, gone))
                self._clear_retained(topics.tracker_topic(self.table, gone))
            self._characters = {key: dict(value) for key, value in current.items()}

    def publish_board(self, board: Mapping[str, Any], seq: int) -> None:
        """Retained piece positions as the reader grid last saw them."""
        with self._lock:
            self._put_retained(topics.topic(self.table, topics.BOARD), encode({**board, "seq": seq}))

    def _put_retained(self, topic: str, payload: bytes) -> None:
        self._retained[topic] = payload
        self._retained.move_to_end(topic)
        self._transport.publish(topic, payload, qos=1, retain=True)

    def _clear_retained(self, topic: str) -> None:
        self._retained.pop(topic, None)
        # An empty retained payload makes the broker forget the topic.
        self._transport.publish(topic, b"", qos=1, retain=True)

    # -- streams --------------------------------------------------------------------------------------------
    def publish_event(self, event: Mapping[str, Any], seq: int) -> None:
        """One domain event (``{"type", "text", ...}``) of event-log record ``seq``; QoS 1, not retained."""
        with self._lock:
            self._transport.publish(
                topics.topic(self.table, topics.EVENT), encode({**event, "seq": seq}), qos=1, retain=False
            )

    def publish_shot(self, shot: Mapping[str, Any], seq: int | None = None) -> None:
        """The last shot's attribution (candidates, probabilities, paths); QoS 1, not retained."""
        body = dict(shot) if seq is None else {**shot, "seq": seq}
        with self._lock:
            self._transport.publish(topics.topic(self.table, topics.SHOT), encode(body), qos=1, retain=False)

    # -- commands -------------------------------------------------------------------------------------------
    def respond(self, txn: str, result: CommandResult) -> None:
        payload = encode(response_payload(txn, result))
        with self._lock:
            self._answers[txn] = payload
            self._answers.move_to_end(txn)
            while len(self._answers) > _REMEMBERED_TXNS:
                self._answers.popitem(last=False)
            self._transport.publish(self._response_topic, payload, qos=1, retain=False)

    def _forget_stale(self, message: InboundMessage) -> None:
        """A retained character topic on the broker: clear it if that character is no longer in the game."""
        if not message.retain or not message.payload:
            return  # our own publishes echoed back, or a clearing: nothing to do
        try:
            character_id = topics.parse(message.topic).subject
        except topics.TopicError:
            return
        if character_id is None:
            return
        with self._lock:
            if self._state_published:
                if character_id not in self._characters:
                    log.info("table %s clears stale retained topics of %s", self.table, character_id)
                    self._clear_retained(topics.character_topic(self.table, character_id))
                    self._clear_retained(topics.tracker_topic(self.table, character_id))
            else:
                self._seen_on_broker.add(character_id)  # judged at the first publish_state

    def _on_message(self, message: InboundMessage) -> None:
        kind = _kind_of(message.topic)
        if kind in (topics.CHARACTER, topics.TRACKER):
            self._forget_stale(message)
            return
        if kind in topics.CAMERA_WORDS and self._camera is not None:
            self._camera(kind, message.payload)
            return
        if message.topic != self._request_topic:
            log.warning("table %s ignored a message on unexpected topic %s", self.table, message.topic)
            return
        if message.retain:
            # A retained command is the broker replaying an old request; acting on it would repeat history.
            log.warning("table %s ignored a retained (replayed) command on %s", self.table, message.topic)
            return
        try:
            command = parse_command(message.payload)
        except MalformedCommandError as exc:
            log.error(
                "table %s refused a malformed command: %s (payload %r)",
                self.table,
                exc,
                message.payload[:200],
            )
            if exc.txn is not None:
                refusal = CommandResult.refused(str(exc))
                with self._lock:
                    if exc.txn in self._answers:
                        # A txn already taken keeps its own answer for its QoS 1 duplicates: this other
                        # request is refused without overwriting it.
                        payload = encode(response_payload(exc.txn, refusal))
                        self._transport.publish(self._response_topic, payload, qos=1, retain=False)
                        return
                self.respond(exc.txn, refusal)
            return
        with self._lock:
            if command.txn in self._answers:
                earlier = self._answers[command.txn]
                log.info("table %s saw txn %s again; not applying it twice", self.table, command.txn)
                if earlier is not None:
                    self._transport.publish(self._response_topic, earlier, qos=1, retain=False)
                return
            self._answers[command.txn] = None  # in progress
        if self._handler is None:
            self.respond(command.txn, CommandResult.refused("this table accepts no commands"))
            return
        try:
            result = self._handler(command)
        except (
            Exception
        ) as exc:  # the handler's failure must reach the requester, not kill the network thread
            log.exception("table %s: handler failed on %s (txn %s)", self.table, command.command, command.txn)
            result = CommandResult.refused(f"{type(exc).__name__}: {exc}")
        if result is not None:
            self.respond(command.txn, result)
