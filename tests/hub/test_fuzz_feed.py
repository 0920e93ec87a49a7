"""Fuzzing what tables send the hub: whatever arrives on a table's topics, the feed never fails, stores only
well-formed game records under the table that sent them, and never takes a tournament decision."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.eventlog import Record
from service.hub.feed import HubFeed
from service.hub.hub import Hub
from service.hub.store import HubStore
from service.publish.fake import FakeBroker, FakeMqttClient
from service.publish.transport import InboundMessage

WORDS = ["status", "state", "bridge", "log", "log/head", "log/request", "event", "x/y", ""]
TABLES = ["t1", "t2", "T1", "+", "a/b", ""]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**12) | st.text(max_size=20) | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=12,
)
RECORDS = st.fixed_dictionaries(
    {
        "v": st.sampled_from([1, 2]),
        "seq": st.integers(-2, 50),
        "at": st.sampled_from(["2026-11-25T10:00:00Z", "x"]),
        "by": st.sampled_from(["sensor", ""]),
        "kind": st.sampled_from(["setup", "action", "zz"]),
        "payload": st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
    }
)
PAYLOADS = (
    st.binary(max_size=64)
    | JSON_VALUES.map(lambda v: json.dumps(v).encode())
    | st.builds(
        lambda g, r: json.dumps({"game": g, "record": r}).encode(), st.sampled_from(["g1", "g2", 7]), RECORDS
    )
    | st.builds(
        lambda g, s: json.dumps({"game": g, "seq": s}).encode(), st.sampled_from(["g1", None]), JSON_VALUES
    )
)
MESSAGES = st.lists(
    st.tuples(st.sampled_from(TABLES), st.sampled_from(WORDS), PAYLOADS, st.booleans()),
    min_size=1,
    max_size=12,
)


@settings(
    deadline=None,
    max_examples=50,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(MESSAGES)
def test_any_table_message_is_taken_or_ignored_never_a_failure(tmp_path: Path, messages: Any) -> None:
    hub = Hub(HubStore(tmp_path / f"hub-{id(messages)}.sqlite"))
    client = FakeMqttClient(FakeBroker(), "hub")
    feed = HubFeed(hub, client)
    feed.start()
    try:
        for table, word, payload, retain in messages:  # as the broker hands them to the hub's client
            client.deliver(InboundMessage(f"smartmat/{table}/{word}".rstrip("/"), payload, 1, retain))
        for game, table, _, _ in hub.store.games():
            assert table in ("t1", "t2") and game in ("g1", "g2")
            for raw in hub.store.game_records(game):
                Record.from_json(raw)  # only records the game-log format accepts were stored
        assert hub.tournament.last_seq == 0  # tables never change the tournament
    finally:
        feed.stop()
        hub.store.close()
