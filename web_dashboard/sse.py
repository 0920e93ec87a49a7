"""The web server's one Server-Sent Events fan-out: the table's live stream and the hub's use it alike.

A publisher (the table's :class:`~web_dashboard.table.table_feed.TableFeed`, the hub's
:class:`~web_dashboard.hub.stream.ChangeStream`) owns a :class:`Fanout` and hands it every message.

* **Slow clients.** Each subscriber has its own bounded queue. One whose queue is full is dropped, never
  waited for: it gets what its queue still holds, then its stream ends, and the browser's EventSource
  reconnects by itself (``retry:``) with the id it last saw.
* **Last-Event-ID.** Messages that carry an ``id`` let a reconnecting browser say where it was; the
  publisher computes what it missed (:meth:`Fanout.join` takes it, under the publisher's lock, so nothing
  falls between the catch-up and the live stream) and :func:`parse_last_event_id` reads the header.
* **Keep-alives.** After ``keepalive_s`` of silence a stream yields ``None``, written as an SSE comment, so
  proxies and phones keep the connection open and a gone client is noticed.
* **Shutdown.** :meth:`Fanout.close` ends every stream and refuses new ones, so the server's worker threads
  finish; :meth:`Fanout.disconnect_all` ends the current streams only (they come back and catch up).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from flask import Response, request

log = logging.getLogger(__name__)

DEFAULT_QUEUE_SIZE = 200
RETRY_MS = 2000  # how soon a browser comes back after its stream ended


class TooManyStreams(Exception):
    """A publisher's limit of streams at once is reached; the browser is asked to come back later."""


@dataclass(frozen=True)
class SseMessage:
    """One message of a stream: ``kind`` is the SSE event name; ``id`` is set on messages a browser may resume
    after (``Last-Event-ID``)."""

    kind: str
    data: Any
    id: str | None = None

    def encode(self) -> str:
        lines = [f"event: {self.kind}"]
        if self.id is not None:
            lines.append(f"id: {self.id}")
        lines.append("data: " + json.dumps(self.data, separators=(",", ":"), sort_keys=True))
        return "\n".join(lines) + "\n\n"


@dataclass(eq=False)
class Subscription:
    """One browser's place in a fan-out: its bounded queue, and the messages it missed while away."""

    messages: queue.Queue[SseMessage | None]
    catch_up: list[SseMessage] = field(default_factory=list)
    dropped: bool = False


class Fanout:
    """Every message to every subscriber's own bounded queue; a subscriber that cannot keep up is dropped."""

    def __init__(self, queue_size: int = DEFAULT_QUEUE_SIZE, max_clients: int | None = None) -> None:
        self.queue_size = queue_size
        self.max_clients = max_clients
        self._lock = threading.Lock()
        self._subscribers: list[Subscription] = []
        self._closed = False

    def join(self, catch_up: Iterable[SseMessage] = ()) -> Subscription:
        """A new subscriber, first given ``catch_up`` (what it missed). Call it under the publisher's lock,
        the one held while broadcasting, so no message falls between the two. After :meth:`close` the
        subscription is ended at once; over ``max_clients`` it is refused with :class:`TooManyStreams`."""
        subscription = Subscription(queue.Queue(maxsize=self.queue_size), list(catch_up))
        with self._lock:
            if self._closed:
                subscription.messages.put_nowait(None)
            elif self.max_clients is not None and len(self._subscribers) >= self.max_clients:
                raise TooManyStreams(f"{self.max_clients} streams are open")
            else:
                self._subscribers.append(subscription)
        return subscription

    def broadcast(self, message: SseMessage) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for subscriber in subscribers:
            try:
                subscriber.messages.put_nowait(message)
            except queue.Full:
                # A slow phone is dropped; it reconnects with Last-Event-ID and catches up.
                subscriber.dropped = True
                self.leave(subscriber)
                log.info("dropped a slow SSE client (queue of %d full)", self.queue_size)

    def messages(self, subscription: Subscription, keepalive_s: float) -> Iterator[SseMessage | None]:
        """The subscriber's catch-up, then its live messages, ``None`` after each ``keepalive_s`` of silence;
        ends when the subscriber was dropped (once its queue is drained) or the fan-out closed. Leaving the
        iterator early (the browser went away) ends the subscription."""
        try:
            yield from subscription.catch_up
            subscription.catch_up = []
            while True:
                try:
                    message = subscription.messages.get(timeout=keepalive_s)
                except queue.Empty:
                    if subscription.dropped:
                        return
                    yield None
                    continue
                if message is None:
                    return
                yield message
                if subscription.dropped and subscription.messages.empty():
                    return
        finally:
            self.leave(subscription)

    def leave(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscribers:
                self._subscribers.remove(subscription)

    @property
    def count(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def disconnect_all(self) -> None:
        """End every current stream; browsers reconnect by themselves and resume from their last event id."""
        with self._lock:
            self._end_streams()

    def close(self) -> None:
        """End every stream and refuse new ones (server shutdown)."""
        with self._lock:
            self._closed = True
            self._end_streams()

    def _end_streams(self) -> None:
        for subscriber in self._subscribers:
            try:
                subscriber.messages.put_nowait(None)
            except queue.Full:
                subscriber.dropped = True
        self._subscribers.clear()


def last_event_id() -> str | None:
    """The id a reconnecting browser last saw: the ``Last-Event-ID`` header, or ``?lastEventId=`` (a page
    that opens its stream anew after a reload passes it so)."""
    return request.headers.get("Last-Event-ID") or request.args.get("lastEventId") or None


def sse_response(messages: Iterable[SseMessage | None]) -> Response:
    """The streaming response: the reconnect delay first, then each message, keep-alives as comments."""

    def generate() -> Iterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        for message in messages:
            yield ": keep-alive\n\n" if message is None else message.encode()

    response = Response(generate(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx in front must not buffer the stream
    return response
