"""The hub's live stream: what changed at the hub, through the web server's one SSE fan-out (``sse.py``).

A message says what changed (a table, with its overview row; a table's log; or the tournament), so a page
updates the row at once and re-reads the standings only when a result or a round changed. Each message
carries a number: a browser that reconnects (its stream ended, or it was dropped for not keeping up) gets
the messages after the one it last saw, as far as the last ``history`` go back; its page re-reads
everything when the stream opens anyway.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Iterator
from typing import Any

from service.hub.hub import Hub
from web_dashboard.sse import DEFAULT_QUEUE_SIZE, Fanout, SseMessage, TooManyStreams

__all__ = ["KEEPALIVE_S", "ChangeStream", "TooManyStreams"]

KEEPALIVE_S = 15.0


class ChangeStream:
    def __init__(
        self,
        hub: Hub,
        max_clients: int = 200,
        queue_size: int = DEFAULT_QUEUE_SIZE,
        history: int = 256,
        keepalive_s: float = KEEPALIVE_S,
    ) -> None:
        self.max_clients = max_clients
        self.keepalive_s = keepalive_s
        self._fanout = Fanout(queue_size, max_clients=max_clients)
        self._lock = threading.Lock()
        self._counter = 0
        self._recent: deque[SseMessage] = deque(maxlen=history)
        self._stop_listening = hub.listen(self._on_change)

    def _on_change(self, kind: str, data: dict[str, Any]) -> None:
        with self._lock:
            self._counter += 1
            message = SseMessage(kind, data, str(self._counter))
            self._recent.append(message)
            self._fanout.broadcast(message)

    def subscribe(self, last_event_id: str | None = None) -> Iterator[SseMessage | None]:
        """The live messages for one browser, after ``last_event_id`` when it says one; ``TooManyStreams``
        when ``max_clients`` streams are open."""
        with self._lock:
            subscription = self._fanout.join(self._missed(last_event_id))
        return self._fanout.messages(subscription, self.keepalive_s)

    def _missed(self, last_event_id: str | None) -> list[SseMessage]:
        if last_event_id is None or not last_event_id.isdigit():
            return []  # a fresh page, or an id not of this hub: the page reads everything when it opens
        last = int(last_event_id)
        if last >= self._counter:
            return []  # up to date, or an id from before the hub restarted
        return [m for m in self._recent if int(m.id or 0) > last]

    @property
    def subscriber_count(self) -> int:
        return self._fanout.count

    def close(self) -> None:
        """End every stream and refuse new ones (server shutdown)."""
        self._stop_listening()
        self._fanout.close()
