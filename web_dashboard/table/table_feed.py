"""What the dashboard knows about one table, and the fan-out of it to Server-Sent Events clients.

:class:`TableFeed` is the pure part: it is fed MQTT messages (topic, payload) by an adapter (the paho
client in :mod:`web_dashboard.table.mqtt_link`, or :class:`web_dashboard.table.fake_feed.FakeFeed` in tests)
and keeps the latest retained snapshot, board, characters and shot, plus a bounded ring of recent domain
events keyed by their event-log ``seq``. Each SSE client subscribes with the id it last saw and gets exactly
what it missed, then the live stream, through the web server's one SSE fan-out (:mod:`web_dashboard.sse`):
its own bounded queue, and a client that cannot keep up is dropped, never waited for.

Several domain events may share one event-log record (one action → "hits the Troll", "Troll destroyed"), so an
event's SSE id is ``"<seq>"`` for the first of its record and ``"<seq>.<n>"`` for the n-th after it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from service.publish import topics
from web_dashboard.sse import Fanout, SseMessage

log = logging.getLogger(__name__)

EventKey = tuple[int, int]  # (event-log seq, position of the domain event within that record)

DEFAULT_RING_SIZE = 500
DEFAULT_QUEUE_SIZE = 200
# How far an event's seq may run ahead of the state shown: the daemon publishes a record's events just before
# its state, so a real event is a record or two ahead. One far beyond it (999999) is not the daemon's.
PLAUSIBLE_AHEAD = 64


class FeedPayloadError(ValueError):
    """A message on a table topic that does not fit the contract; it is logged and skipped."""


def format_event_id(key: EventKey) -> str:
    seq, sub = key
    return str(seq) if sub == 0 else f"{seq}.{sub}"


def parse_event_id(text: str) -> EventKey:
    """Read a ``Last-Event-ID`` header; ``ValueError`` with a clear message when it is not one of ours."""
    head, dot, tail = text.strip().partition(".")
    try:
        seq = int(head)
        sub = int(tail) if dot else 0
    except ValueError:
        raise ValueError(f"Last-Event-ID {text!r} is not an event id like '12' or '12.1'") from None
    if seq < 0 or sub < 0:
        raise ValueError(f"Last-Event-ID {text!r} must not be negative")
    return seq, sub


@dataclass
class TableView:
    """The latest retained picture of the table, as one JSON-able dict for a page's first render."""

    table: str
    status: str | None = None
    state: dict[str, Any] | None = None
    board: dict[str, Any] | None = None
    shot: dict[str, Any] | None = None
    trackers: dict[str, Any] | None = None  # the WLED bridge's report (docs/trackers.md)
    # The tournament hub's offer of this table's match (docs/tournaments.md).
    match: dict[str, Any] | None = None
    characters: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "status": self.status,
            "state": self.state,
            "board": self.board,
            "shot": self.shot,
            "trackers": self.trackers,
            "match": self.match,
            "characters": self.characters,
        }


class TableFeed:
    """Latest retained state of one table, a ring of recent events, and the SSE subscribers."""

    def __init__(self, table: str, ring_size: int = DEFAULT_RING_SIZE, queue_size: int = DEFAULT_QUEUE_SIZE):
        self.table = topics.check_id(table, "table id")
        self._lock = threading.Lock()
        self._view = TableView(table)
        self._ring: deque[tuple[EventKey, dict[str, Any]]] = deque(maxlen=ring_size)
        # Every event after this key is in the ring. None until the first snapshot tells us where we joined.
        self._complete_after: EventKey | None = None
        self._fanout = Fanout(queue_size)
        self._daemon_restarted = False
        self.rejected: list[str] = []  # reasons of skipped messages, newest last (bounded), for the console
        self._warned_topics: set[str] = set()  # a bad topic is logged once, not once per message

    # -- ingest ------------------------------------------------------------------------------------------

    def ingest(self, topic: str, payload: bytes | str, retained: bool = False) -> None:
        """Take one MQTT message of this table. Bad messages are logged and skipped; nothing else is lost."""
        try:
            self._ingest(topic, payload, retained)
        except (FeedPayloadError, topics.TopicError) as exc:
            if topic not in self._warned_topics and len(self._warned_topics) < 1000:
                self._warned_topics.add(topic)
                log.warning(
                    "skipped message on %s: %s (further ones on this topic are not logged)", topic, exc
                )
            else:
                log.debug("skipped message on %s: %s", topic, exc)
            with self._lock:
                self.rejected.append(f"{topic}: {exc}")
                del self.rejected[:-20]

    def _ingest(self, topic: str, payload: bytes | str, retained: bool) -> None:
        parsed = topics.parse(topic)
        if parsed.table != self.table:
            raise FeedPayloadError(f"message for table {parsed.table!r}, this dashboard shows {self.table!r}")
        text = payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else payload
        kind = parsed.kind
        if kind == topics.STATUS:
            self._set_status(text.strip())
        elif kind == topics.STATE:
            self._set_state(_json_object(text, topic), retained)
        elif kind == topics.BOARD:
            self._set_simple("board", _json_object(text, topic))
        elif kind == topics.SHOT:
            self._set_simple("shot", _json_object(text, topic))
        elif kind == topics.TRACKERS:
            self._set_simple("trackers", _json_object(text, topic))
        elif kind == topics.CHARACTER:
            assert parsed.subject is not None
            if not text.strip():  # an empty retained payload: the character left the game
                self._drop_character(parsed.subject)
            else:
                self._set_character(parsed.subject, _json_object(text, topic))
        elif kind == topics.EVENT:
            self._add_event(_json_object(text, topic))
        elif kind == topics.MATCH:
            self._set_match(_json_object(text, topic) if text.strip() else None)
        # tracker/… duplicates character health for LED strips; cmd/… belongs to the command channel; the
        # tournament's log, log/head, log/request and bridge are the log shipper's and the hub's business.

    def _set_status(self, status: str) -> None:
        if status not in (topics.ONLINE, topics.OFFLINE):
            raise FeedPayloadError(f"status must be {topics.ONLINE!r} or {topics.OFFLINE!r}, got {status!r}")
        with self._lock:
            if status == topics.ONLINE and self._view.status == topics.OFFLINE:
                # The daemon came back: it may have started a new game log whose seqs begin again.
                self._daemon_restarted = True
            self._view.status = status
            self._broadcast(SseMessage("status", {"status": status}))

    def _set_state(self, state: dict[str, Any], retained: bool = False) -> None:
        seq = state.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise FeedPayloadError(f"snapshot needs a non-negative integer 'seq', got {seq!r}")
        with self._lock:
            old = self._view.state
            if old is not None and isinstance(old.get("seq"), int) and seq < old["seq"]:
                if self._daemon_restarted:
                    self._start_new_log(seq)
                elif retained:
                    # A stale retained copy arriving after a newer one (e.g. on reconnect) must not roll back.
                    log.info("ignored snapshot seq %d older than the one shown (%d)", seq, old["seq"])
                    return
                else:
                    # Live, in order from the one writer the broker lets write it: this is the table now, and
                    # the higher seq shown was not the daemon's. One stranger's seq must not freeze the page.
                    log.warning(
                        "snapshot seq %d after seq %d: the higher one was not the table's", seq, old["seq"]
                    )
                    self._forget_events_after(seq + PLAUSIBLE_AHEAD)
            self._daemon_restarted = False
            self._view.state = state
            if self._complete_after is None:
                # We joined here: every record after ``seq`` will pass through the ring.
                self._complete_after = (seq, 0)
            self._broadcast(SseMessage("snapshot", state))

    def _start_new_log(self, seq: int) -> None:
        """The restarted daemon's game log starts below what we showed: forget the old story."""
        log.warning("the daemon restarted with a new game log (seq %d): starting the story again", seq)
        self._ring.clear()
        self._complete_after = (seq, 0)
        self._view.shot = None
        self._broadcast(SseMessage("reset", {"seq": seq}))

    def _forget_events_after(self, seq: int) -> None:
        """Drop the events implausibly far ahead of the table; each stream starts its story again."""
        kept = [(k, e) for k, e in self._ring if k[0] <= seq]
        if len(kept) == len(self._ring):
            return
        log.warning("dropped %d event(s) numbered past seq %d", len(self._ring) - len(kept), seq)
        self._ring = deque(kept, maxlen=self._ring.maxlen)
        if self._complete_after is not None and self._complete_after[0] > seq:
            self._complete_after = (seq, 0)
        self._broadcast(SseMessage("reset", {"seq": seq}))
        for key, event in kept:  # the story as it stands, for pages that just cleared theirs
            self._broadcast(SseMessage("event", event, format_event_id(key)))

    def _set_simple(self, name: str, value: dict[str, Any]) -> None:
        with self._lock:
            setattr(self._view, name, value)
            self._broadcast(SseMessage(name, value))

    def _set_match(self, offer: dict[str, Any] | None) -> None:
        """The hub's offer (or its withdrawal): shown to the referee, who may start it; never applied here."""
        with self._lock:
            self._view.match = offer
            self._broadcast(SseMessage("match", {"match": offer}))

    def _set_character(self, character_id: str, value: dict[str, Any]) -> None:
        with self._lock:
            self._view.characters[character_id] = value
            self._broadcast(SseMessage("character", {"id": character_id, **value}))

    def _drop_character(self, character_id: str) -> None:
        with self._lock:
            if self._view.characters.pop(character_id, None) is not None:
                self._broadcast(SseMessage("character", {"id": character_id, "removed": True}))

    def _add_event(self, event: dict[str, Any]) -> None:
        seq = event.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise FeedPayloadError(f"event needs a non-negative integer 'seq', got {seq!r}")
        if not isinstance(event.get("type"), str):
            raise FeedPayloadError("event needs a string 'type'")
        with self._lock:
            shown = (self._view.state or {}).get("seq")
            if isinstance(shown, int) and seq > shown + PLAUSIBLE_AHEAD:
                raise FeedPayloadError(f"event seq {seq} is implausibly far past the table's seq {shown}")
            same_record = [e for k, e in self._ring if k[0] == seq]
            if event in same_record:
                return  # a QoS 1 redelivery
            key = (seq, len(same_record))
            if len(self._ring) == self._ring.maxlen:
                self._complete_after = self._ring[0][0]
            if self._ring and key < self._ring[-1][0]:
                # Only after an event that was not the table's (its own come in order): kept in its place,
                # so that it is in the story once the table's next state shows which one to drop.
                log.warning("event seq %d arrived after seq %d", seq, self._ring[-1][0][0])
                ordered = sorted([*self._ring, (key, event)], key=lambda item: item[0])
                self._ring = deque(ordered, maxlen=self._ring.maxlen)
            else:
                self._ring.append((key, event))
            self._broadcast(SseMessage("event", event, format_event_id(key)))

    def _broadcast(self, message: SseMessage) -> None:
        self._fanout.broadcast(message)  # under self._lock: a new stream's catch-up and the live ones agree

    # -- read --------------------------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        with self._lock:
            copied: dict[str, Any] = json.loads(json.dumps(self._view.to_json()))
            return copied

    def recent_events(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(event, id=format_event_id(key)) for key, event in list(self._ring)[-limit:]]

    # -- subscribe ---------------------------------------------------------------------------------------

    def stream(
        self, last_event_id: EventKey | None, history: int = 30, keepalive_s: float = 15.0
    ) -> Iterator[SseMessage | None]:
        """Messages for one SSE client: what it missed since ``last_event_id``, then the live stream.

        Yields ``None`` after ``keepalive_s`` of silence (the caller writes an SSE comment) and ends when the
        client is dropped for being slow or the feed is closed.
        """
        with self._lock:
            catch_up = self._catch_up(last_event_id, history)
            subscription = self._fanout.join()
        last_sent = last_event_id
        try:
            for missed in catch_up:
                last_sent = _key_of(missed) or last_sent
                yield missed
            for message in self._fanout.messages(subscription, keepalive_s):
                if message is None:
                    yield None
                    continue
                if message.kind == "reset":
                    last_sent = None  # ids start again in the new game log
                key = _key_of(message)
                if key is not None:
                    if last_sent is not None and key <= last_sent:
                        continue  # already sent during catch-up
                    last_sent = key
                yield message
        finally:
            self._fanout.leave(subscription)

    def _catch_up(self, last: EventKey | None, history: int) -> list[SseMessage]:
        if last is not None and last > self._newest_key():
            last = None  # an id from an earlier game log: this client needs the whole picture
        events = [SseMessage("event", e, format_event_id(k)) for k, e in self._ring]
        ring_covers = last is not None and self._complete_after is not None and last >= self._complete_after
        if ring_covers:
            return [m for m in events if _key_of(m) > last]  # type: ignore[operator]
        # Fresh page or too far behind: the whole picture first, then the events we still hold after it.
        hello = SseMessage("hello", self._view.to_json())
        if last is None:
            return [hello, *events[-history:]] if history else [hello]
        return [hello, *[m for m in events if _key_of(m) > last]]  # type: ignore[operator]

    def _newest_key(self) -> EventKey:
        newest: EventKey = self._ring[-1][0] if self._ring else (-1, 0)
        state_seq = (self._view.state or {}).get("seq")
        if isinstance(state_seq, int):
            # Events of the snapshot's own record may not have reached us; any of their ids is still current.
            newest = max(newest, (state_seq, 1 << 30))
        return newest

    @property
    def subscriber_count(self) -> int:
        return self._fanout.count

    def disconnect_all(self) -> None:
        """End every current stream; browsers reconnect by themselves and resume from their last event id."""
        self._fanout.disconnect_all()

    def close(self) -> None:
        """End every stream and refuse new ones (server shutdown)."""
        self._fanout.close()


def _key_of(message: SseMessage) -> EventKey | None:
    return parse_event_id(message.id) if message.id is not None else None


def _json_object(text: str, topic: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FeedPayloadError(f"payload is not JSON ({exc.msg} at position {exc.pos})") from None
    except RecursionError:
        raise FeedPayloadError("payload is nested too deeply") from None
    if not isinstance(value, dict):
        raise FeedPayloadError(f"payload must be a JSON object, got {type(value).__name__}")
    return value
