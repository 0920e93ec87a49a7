"""Server-Sent Events for the hub's pages: one bounded queue per browser, fed by the hub's listeners.

A message says what changed (a table, with its overview row; or the tournament), so a page updates the
row at once and re-reads the standings only when a result or a round changed. A browser that does not keep
up loses its oldest messages, never the hub's time; it re-reads everything when it reconnects.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from typing import Any

from service.hub.hub import Hub

KEEPALIVE_S = 15.0


class TooManyStreams(Exception):
    pass


class ChangeStream:
    def __init__(self, hub: Hub, max_clients: int = 200, queue_size: int = 256) -> None:
        self.max_clients = max_clients
        self._queue_size = queue_size
        self._clients: list[queue.Queue[str | None]] = []
        self._lock = threading.Lock()
        self._closed = False
        self._counter = 0
        hub.listen(self._on_change)

    def _on_change(self, kind: str, data: dict[str, Any]) -> None:
        with self._lock:
            self._counter += 1
            text = f"id: {self._counter}\nevent: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
            clients = list(self._clients)
        for client in clients:
            try:
                client.put_nowait(text)
            except queue.Full:
                try:
                    client.get_nowait()
                    client.put_nowait(text)
                except (queue.Empty, queue.Full):
                    pass

    def subscribe(self) -> Iterator[str]:
        client: queue.Queue[str | None] = queue.Queue(self._queue_size)
        with self._lock:
            if self._closed or len(self._clients) >= self.max_clients:
                raise TooManyStreams()
            self._clients.append(client)

        def generate() -> Iterator[str]:
            try:
                yield "retry: 2000\n\n"
                while True:
                    try:
                        message = client.get(timeout=KEEPALIVE_S)
                    except queue.Empty:
                        yield ": keep-alive\n\n"
                        continue
                    if message is None:
                        return
                    yield message
            finally:
                with self._lock:
                    if client in self._clients:
                        self._clients.remove(client)

        return generate()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            clients = list(self._clients)
        for client in clients:
            try:
                client.put_nowait(None)
            except queue.Full:
                client.get_nowait()
                client.put_nowait(None)
