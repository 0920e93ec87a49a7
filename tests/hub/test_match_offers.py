"""Rounds flow to the tables (docs/tournaments.md, "Running the rounds"): when a round is paired the hub
offers each table its match, retained on smartmat/<t>/match; a table with no match this round has its old
offer withdrawn; across real bridges the offer reaches that table's broker, and no other's."""

from __future__ import annotations

import json
import time
from pathlib import Path

from service.hub.feed import HubFeed
from service.hub.hub import Hub
from service.hub.store import HubStore
from service.publish.fake import FakeBroker, FakeMqttClient
from service.publish.paho_transport import PahoTransport
from tests.helpers.mqtt_probe import MqttProbe
from tests.hub.builders import new_hub, play_round
from tests.hub.network import TABLE_ROLES, start_network


def offer_on(broker: FakeBroker, table: str) -> dict | None:
    payload = broker.retained.get(f"smartmat/{table}/match")
    return json.loads(payload) if payload else None


def test_pairing_a_round_offers_each_table_its_match(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo", "cy", "dee", "eli"))
    broker = FakeBroker()
    feed = HubFeed(hub, FakeMqttClient(broker, "hub"), retry_s=0.05)
    feed.start()
    try:
        hub.pair_next_round("organiser", ["t1", "t2"])
        first = hub.tournament.rounds[0]
        t1 = offer_on(broker, "t1")
        assert t1 is not None
        assert (t1["round"], t1["table"], t1["mode"], t1["event"]) == (1, "t1", "one-versus-one", "Test Open")
        assert [s["id"] for s in t1["sides"]] == [first[0].a, first[0].b]  # first side first
        assert t1["sides"][0]["name"] == first[0].a.title()
        assert offer_on(broker, "bye") is None  # a bye is no table

        play_round(hub, {m.table: m.a for m in first if m.b})
        hub.pair_next_round("organiser", ["t3", "t2"])  # round two on t3 and t2: t1 has no match now
        assert offer_on(broker, "t1") is None and "smartmat/t1/match" not in broker.retained
        assert offer_on(broker, "t3")["round"] == 2 and offer_on(broker, "t2")["round"] == 2
    finally:
        feed.stop()
        hub.store.close()


def test_a_round_paired_by_another_process_is_offered_too(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite"
    hub = new_hub(path, players=("ada", "bo"))
    broker = FakeBroker()
    feed = HubFeed(hub, FakeMqttClient(broker, "hub"), retry_s=0.05)
    feed.start()
    try:
        other = Hub(HubStore(path))  # `smartmat hub pair` while the hub serves
        other.pair_next_round("organiser", ["t1"])
        deadline = time.monotonic() + 5
        while offer_on(broker, "t1") is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert offer_on(broker, "t1")["sides"][0]["id"] == "ada"
        other.store.close()
    finally:
        feed.stop()
        hub.store.close()


def test_the_offer_crosses_the_bridge_to_its_table_only(tmp_path: Path) -> None:
    network = start_network(tmp_path, ["t1", "t2"])
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo"))
    feed = HubFeed(hub, PahoTransport(network.hub_url(), "smartmat-hub", keepalive_s=5), retry_s=0.3)
    try:
        feed.start()
        deadline = time.monotonic() + 10
        while not feed.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        hub.pair_next_round("organiser", ["t1"])
        # The table's referee (its dashboard) subscribes later and still finds it: the offer is retained.
        t1 = network.tables["t1"]
        with MqttProbe("127.0.0.1", t1.port, "referee", TABLE_ROLES["referee"]) as referee:
            referee.subscribe("smartmat/#")
            seen = referee.wait_for(lambda s: any(m.topic == "smartmat/t1/match" for m in s))
            offer = json.loads(next(m for m in seen if m.topic == "smartmat/t1/match").payload)
            assert [s["id"] for s in offer["sides"]] == ["ada", "bo"] and offer["round"] == 1
        t2 = network.tables["t2"]
        with MqttProbe("127.0.0.1", t2.port, "referee", TABLE_ROLES["referee"]) as other:
            other.subscribe("smartmat/#")
            time.sleep(0.5)
            assert [m.topic for m in other.wait_for(lambda s: True, 0.1) if "match" in m.topic] == []
        # A table's bridge account cannot offer a match itself: only the hub's account may write it.
        with MqttProbe(
            "127.0.0.1", network.central.port, "bridge-t2", network.passwords["bridge-t2"]
        ) as intruder:
            intruder.publish("smartmat/t1/match", {"round": 9}, retain=True)
        with MqttProbe("127.0.0.1", t1.port, "referee", TABLE_ROLES["referee"]) as referee:
            referee.subscribe("smartmat/t1/match")
            time.sleep(0.5)
            latest = referee.latest("smartmat/t1/match")
            assert latest is not None and json.loads(latest.payload)["round"] == 1
    finally:
        feed.stop()
        hub.store.close()
        network.stop()
