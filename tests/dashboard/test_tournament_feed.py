"""A table's dashboard at a tournament (docs/tournaments.md): it shows the hub's match offer, and it passes
over the tournament's own topics under its prefix (the log shipper's and the hub's) without a word; a topic
it cannot read is logged once, not once per message."""

from __future__ import annotations

import json
import logging

import pytest

from web_dashboard.table.table_feed import TableFeed

OFFER = {
    "event": "Castles Open",
    "format": "castles-1v1",
    "mode": "one-versus-one",
    "round": 2,
    "table": "t1",
    "sides": [{"id": "ada", "name": "Ada"}, {"id": "cy", "name": "Cy"}],
}


def test_the_hubs_offer_is_shown_and_withdrawn() -> None:
    feed = TableFeed("t1")
    feed.ingest("smartmat/t1/match", json.dumps(OFFER).encode(), retained=True)
    assert feed.view()["match"] == OFFER
    feed.ingest("smartmat/t1/match", b"", retained=True)  # the hub withdrew it (no match this round)
    assert feed.view()["match"] is None


def test_the_tournaments_own_topics_pass_without_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    feed = TableFeed("t1")
    with caplog.at_level(logging.DEBUG, logger="web_dashboard.table.table_feed"):
        for seq in range(1, 200):
            feed.ingest("smartmat/t1/log", json.dumps({"game": "g", "record": {"seq": seq}}).encode())
            feed.ingest("smartmat/t1/log/head", json.dumps({"game": "g", "seq": seq}).encode())
        feed.ingest("smartmat/t1/log/request", b'{"game": "g", "after": 3}')
        feed.ingest("smartmat/t1/bridge", b"1")
    assert [r for r in caplog.records if r.levelno >= logging.INFO] == []
    assert feed.rejected == []


def test_a_topic_outside_the_contract_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    feed = TableFeed("t1")
    with caplog.at_level(logging.INFO, logger="web_dashboard.table.table_feed"):
        for _ in range(50):
            feed.ingest("smartmat/t1/something/else", b"{}")
        feed.ingest("smartmat/t1/another", b"{}")
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 2
    assert "smartmat/t1/something/else" in warned[0] and "smartmat/t1/another" in warned[1]
    assert len(feed.rejected) == 20  # every one is still counted for the console (the newest twenty)
