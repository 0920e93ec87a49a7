"""A Catacombs & Castles 2E game's snapshot on MQTT and on the LED trackers: health pools and charges."""

from __future__ import annotations

import json

from service.publish import FakeBroker, FakeMqttClient, TablePublisher
from service.table.trackers import TrackerLayout
from service.trackers.display import CHARGE, HEALTH, LOST, tracker_colours
from tests.helpers.game_setups import team_game

T = "smartmat/table-1"


def test_every_hero_tracker_shows_its_teams_pool_and_its_charges() -> None:
    """catacombs-and-castles-2e-manual.md: Health and Transfer Types (pools shared by a team)"""
    g = team_game(first="catacomb")
    g.turn("hero-hakoru", ("rush",), ("fireball",))
    g.declare("hero-delilah")
    g.shot("hero-delilah", "rush")
    g.shot("hero-delilah", "missile", "hero-hakoru")
    g.answer("power:delilah-ability")

    broker = FakeBroker()
    publisher = TablePublisher("table-1", FakeMqttClient(broker, "daemon-table-1"), lambda command: None)
    publisher.start()
    publisher.publish_state(g.state.public_view(), seq=9)

    for hero in ("hero-hakoru", "hero-formilus", "hero-cahreliss"):
        assert broker.retained[f"{T}/tracker/{hero}/health"] == b"11"
    assert broker.retained[f"{T}/tracker/hero-larra/health"] == b"12"
    delilah = json.loads(broker.retained[f"{T}/character/hero-delilah"])
    assert (delilah["charges"], delilah["cards"]["delilah-ability"], delilah["pool"]) == (1, 1, "castle")
    state = json.loads(broker.retained[f"{T}/state"])
    assert {s["id"]: s["health"] for s in state["sides"]} == {"castle": 12, "catacomb": 11}

    leds = tracker_colours(delilah, TrackerLayout(bar_leds=12, status_leds=2, charge_leds=3))
    assert leds[:12] == [HEALTH] * 12
    assert leds[14] == CHARGE and leds[15] != CHARGE  # one token on her cards
    hakoru = json.loads(broker.retained[f"{T}/character/hero-hakoru"])
    assert tracker_colours(hakoru, TrackerLayout(bar_leds=12, status_leds=2, charge_leds=3))[11] == LOST
