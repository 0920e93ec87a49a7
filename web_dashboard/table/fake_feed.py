"""Stand-ins for the broker, shipped with the package so tests (and page designers) need no MQTT.

``FakeFeed`` publishes into a :class:`TableFeed` exactly as the daemon's topics would; ``FakeCommandChannel``
records every command the dashboard would publish and answers with a scripted responder.

    feed = FakeFeed("t1")
    feed.snapshot({"phase": "battle", ...}, seq=3)
    feed.event("damage", "Xoric's melee hits the Troll (1 damage)", seq=4)
    app = create_app({"TABLE": "t1", "TABLE_FEED": feed.feed, "COMMAND_CHANNEL": FakeCommandChannel()})
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from service.publish import topics
from web_dashboard.table.commands import CommandResult
from web_dashboard.table.table_feed import TableFeed


class FakeFeed:
    """Drives a :class:`TableFeed` through its real ``ingest`` path with well-formed table messages."""

    def __init__(self, table: str = "t1", **feed_options: Any):
        self.table = table
        self.feed = TableFeed(table, **feed_options)

    def publish(self, word: str, payload: Any, retained: bool = False) -> None:
        text = payload if isinstance(payload, str | bytes) else json.dumps(payload)
        self.feed.ingest(topics.topic(self.table, *word.split("/")), text, retained)

    def online(self) -> None:
        self.publish(topics.STATUS, topics.ONLINE, retained=True)

    def snapshot(self, state: dict[str, Any], seq: int) -> None:
        self.publish(topics.STATE, {**state, "seq": seq}, retained=True)

    def board(self, board: dict[str, Any]) -> None:
        self.publish(topics.BOARD, board, retained=True)

    def shot(self, shot: dict[str, Any]) -> None:
        self.publish(topics.SHOT, shot)

    def event(self, type_: str, text: str, seq: int, **fields: Any) -> None:
        self.publish(topics.EVENT, {"type": type_, "text": text, "seq": seq, **fields})


Responder = Callable[[dict[str, Any]], CommandResult]


def accept_all(request: dict[str, Any]) -> CommandResult:
    return CommandResult(request["txn"], True)


class FakeCommandChannel:
    """Records published commands; ``responder`` decides the daemon's answer (default: accepted)."""

    def __init__(self, responder: Responder = accept_all):
        self.responder = responder
        self.sent: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def send(self, request: dict[str, Any], timeout_s: float) -> CommandResult:
        with self._lock:
            self.sent.append(json.loads(json.dumps(request)))
        return self.responder(request)

    def close(self) -> None:
        pass
