"""The spectator page's Server-Sent Events over HTTP: ids are event-log seqs, Last-Event-ID resumes."""

from __future__ import annotations

import json
from collections.abc import Iterator

from flask.testing import FlaskClient

from web_dashboard.table.fake_feed import FakeFeed


def sse_messages(client: FlaskClient, count: int, **headers: str) -> list[dict[str, object]]:
    """Read ``count`` SSE messages (keep-alives and the retry hint skipped), then hang up like a phone."""
    response = client.get("/table/t1/events", headers=headers, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    chunks: Iterator[bytes] = iter(response.response)
    messages: list[dict[str, object]] = []
    idle = 0
    try:
        for chunk in chunks:
            text = chunk.decode()
            if text.startswith(":"):
                idle += 1
                if idle > 10:  # two seconds of silence: nothing more is coming
                    break
                continue
            if text.startswith("retry:"):
                continue
            fields = dict(line.split(": ", 1) for line in text.strip().splitlines())
            messages.append(
                {"kind": fields["event"], "id": fields.get("id"), "data": json.loads(fields["data"])}
            )
            if len(messages) == count:
                break
    finally:
        response.close()
    return messages


def test_a_new_spectator_sees_the_table_then_the_recent_story(client: FlaskClient, feed: FakeFeed) -> None:
    feed.event("damage", "Xoric's melee hits the Troll (1 damage)", seq=4)
    messages = sse_messages(client, 2)
    assert messages[0]["kind"] == "hello"
    assert messages[0]["data"]["state"]["round"] == 1  # type: ignore[index]
    assert messages[1] == {
        "kind": "event",
        "id": "4",
        "data": {"type": "damage", "text": "Xoric's melee hits the Troll (1 damage)", "seq": 4},
    }


def test_a_dropped_phone_catches_up_without_missing_or_repeating(client: FlaskClient, feed: FakeFeed) -> None:
    feed.event("damage", "Xoric's melee hits the Troll (1 damage)", seq=4)
    feed.event("flip", "The Troll is flipped", seq=4)
    first = sse_messages(client, 3)
    assert [m["id"] for m in first] == [None, "4", "4.1"]

    feed.event("damage", "The Troll hits Xoric (1 damage)", seq=5)
    feed.event("turn", "Elyra's turn", seq=6)
    resumed = sse_messages(client, 3, **{"Last-Event-ID": "4.1"})
    assert [(m["kind"], m["id"]) for m in resumed] == [("event", "5"), ("event", "6")]
    story = [m["data"]["text"] for m in first + resumed if m["kind"] == "event"]  # type: ignore[index]
    assert story == [
        "Xoric's melee hits the Troll (1 damage)",
        "The Troll is flipped",
        "The Troll hits Xoric (1 damage)",
        "Elyra's turn",
    ]


def test_a_garbled_last_event_id_is_a_clear_400(client: FlaskClient) -> None:
    response = client.get("/table/t1/events", headers={"Last-Event-ID": "yesterday"})
    assert response.status_code == 400
    assert "Last-Event-ID 'yesterday' is not an event id" in response.get_data(as_text=True)
