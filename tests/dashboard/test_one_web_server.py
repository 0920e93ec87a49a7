"""One web server for the table and the hub (docs/dashboard.md, "One server for the table and the hub"): one
SSE fan-out with the same slow-client handling, keep-alives and Last-Event-ID for both streams, one security
layer on both apps, and the server's limit on live streams counting the hub's stream as the table's."""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.dashboard.test_production_server import Phone
from tests.dashboard.test_production_server import request as http_request
from tests.hub.builders import new_hub
from web_dashboard.hub import create_hub_app
from web_dashboard.hub.stream import ChangeStream
from web_dashboard.server import serve_hub
from web_dashboard.sse import Fanout, SseMessage, TooManyStreams


def message(n: int) -> SseMessage:
    return SseMessage("event", {"n": n}, str(n))


# ---- the fan-out itself --------------------------------------------------------------------------------
def test_a_slow_subscriber_is_dropped_after_what_it_holds_and_the_others_go_on() -> None:
    fanout = Fanout(queue_size=3)
    slow = fanout.join()
    fast = fanout.join()
    fast_stream = fanout.messages(fast, keepalive_s=0.05)
    for n in range(1, 4):
        fanout.broadcast(message(n))
        assert next(fast_stream) == message(n)
    fanout.broadcast(message(4))  # the slow one's queue is full: dropped, never waited for
    assert fanout.count == 1
    assert next(fast_stream) == message(4)
    # The dropped one gets what it held, then its stream ends (the browser comes back with its last id).
    assert list(fanout.messages(slow, keepalive_s=0.05)) == [message(1), message(2), message(3)]


def test_an_idle_stream_yields_keep_alives_and_close_ends_every_stream_and_refuses_new_ones() -> None:
    fanout = Fanout()
    stream = fanout.messages(fanout.join([message(7)]), keepalive_s=0.01)
    assert next(stream) == message(7)  # the catch-up first
    assert next(stream) is None  # nothing to say: a keep-alive
    fanout.close()
    assert list(stream) == []
    assert fanout.count == 0
    assert list(fanout.messages(fanout.join([message(8)]), keepalive_s=0.01)) == [message(8)]
    assert fanout.count == 0


def test_a_limit_of_streams_is_refused_beyond_it_and_a_gone_browser_frees_its_place() -> None:
    fanout = Fanout(max_clients=1)
    first = fanout.messages(fanout.join(), keepalive_s=0.01)
    next(first)  # keep-alive: it is streaming
    with pytest.raises(TooManyStreams):
        fanout.join()
    first.close()  # the browser went away
    assert fanout.count == 0
    fanout.join()


# ---- both publishers use it ------------------------------------------------------------------------------
@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Any]:
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo"))
    yield hub
    hub.store.close()


def test_the_hubs_stream_numbers_its_messages_and_a_returning_browser_gets_what_it_missed(hub: Any) -> None:
    stream = ChangeStream(hub, keepalive_s=0.01)
    page = stream.subscribe()
    hub.on_status("t1", "online")
    first = next(m for m in page if m is not None)
    assert (first.kind, first.id, first.data["table"]) == ("table", "1", "t1")
    page.close()  # the phone went away
    hub.on_status("t2", "online")
    hub.on_status("t1", "offline")
    back = stream.subscribe(last_event_id="1")
    missed = [next(back), next(back)]
    assert [(m.id, m.data["table"]) for m in missed] == [("2", "t2"), ("3", "t1")]
    assert next(back) is None  # then live, idle
    # An id this hub never gave (from before it restarted) is a fresh page: nothing is replayed.
    assert next(stream.subscribe(last_event_id="99")) is None
    stream.close()


def test_the_hubs_stream_drops_a_browser_that_does_not_keep_up(hub: Any) -> None:
    stream = ChangeStream(hub, queue_size=2, keepalive_s=0.01)
    slow = stream.subscribe()
    for table in ("t1", "t2", "t3"):
        hub.on_status(table, "online")
    assert stream.subscriber_count == 0
    assert [m.data["table"] for m in slow if m is not None] == ["t1", "t2"]
    stream.close()


def test_the_hubs_stream_over_http_resumes_after_the_last_event_id(hub: Any) -> None:
    app = create_hub_app(hub)
    stream: ChangeStream = app.extensions["smartmat_hub_stream"]
    hub.on_status("t1", "online")
    hub.on_status("t2", "online")
    response = app.test_client().get("/hub/api/stream", headers={"Last-Event-ID": "1"}, buffered=False)
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    chunks = iter(response.response)
    assert next(chunks) == b"retry: 2000\n\n"
    text = next(chunks).decode()
    assert text.startswith("event: table\nid: 2\ndata: ") and '"table":"t2"' in text
    stream.close()
    assert list(chunks) == []
    response.close()


# ---- one security layer, one stream limit -------------------------------------------------------------
def test_the_hubs_pages_carry_the_same_security_headers_and_json_errors_as_the_tables(hub: Any) -> None:
    client = create_hub_app(hub).test_client()
    page = client.get("/hub/standings")
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    missing = client.get("/hub/api/nothing-here")
    assert missing.status_code == 404 and missing.get_json()["ok"] is False
    refused = client.post("/hub/api/pair", json={"tables": ["t1"]})  # no CSRF token: refused before the view
    assert refused.status_code == 400 and "CSRF" in refused.get_json()["error"]


def test_the_hub_served_alone_keeps_its_streams_within_the_servers_limit_and_pages_still_load(
    hub: Any,
) -> None:
    server = serve_hub(create_hub_app(hub, max_streams=1), "127.0.0.1", 0)
    try:
        held = Phone(http.client.HTTPConnection("127.0.0.1", server.port, timeout=10), "/hub/api/stream")
        held.wait_for("retry: 2000")
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        response, body = http_request(connection, "GET", "/hub/api/stream")
        assert response.status == 200
        assert re.fullmatch(r"retry: \d+\n\n", body), body  # the browser comes back later by itself
        response, page = http_request(connection, "GET", "/hub/standings")
        assert response.status == 200 and "standings" in page.lower()
        hub.on_status("t1", "online")
        held.wait_for('"table":"t1"')
    finally:
        server.stop()
