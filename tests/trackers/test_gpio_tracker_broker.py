"""A Pi Zero tracker: gpiozero's mock pins driven from the retained character topic, through a real broker."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from service.publish.paho_transport import PahoTransport
from service.publish.publisher import TablePublisher
from service.trackers.gpio import GpioTracker
from tests.helpers.broker import MosquittoBroker
from tests.publish.game_snapshots import barracks

pytestmark = pytest.mark.broker
BAR_PINS = (5, 6, 13, 19, 26, 16, 20, 21)


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    factory = MockFactory()
    yield factory
    factory.reset()


def _lit(tracker: GpioTracker) -> list[int]:
    return [int(led.value) for led in tracker.bar]


def _until(condition: Callable[[], bool], timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the tracker's LEDs did not change in time")
        time.sleep(0.02)


def test_the_bar_follows_xorics_health_and_states_and_survives_a_broker_restart(
    mosquitto_broker: MosquittoBroker, pins: MockFactory
) -> None:
    daemon = TablePublisher.connect_to("table-1", mosquitto_broker.url())
    tracker = GpioTracker(
        "table-1",
        "hero-xoric",
        BAR_PINS,
        PahoTransport(mosquitto_broker.url(), "tracker-board-1"),
        state_pins={"poisoned": 12, "stunned": 25, "dead": 24},
        pin_factory=pins,
    )
    tracker.start()
    try:
        daemon.publish_state(barracks(xoric_health=7), seq=1)
        _until(lambda: _lit(tracker) == [1, 1, 1, 1, 1, 1, 1, 0])  # 7 of Xoric's 7 health on an 8-LED bar

        wounded = barracks(xoric_health=3)
        wounded["characters"][0].update(poison_total=1, status=["stunned"])
        daemon.publish_state(wounded, seq=2)
        _until(lambda: _lit(tracker) == [1, 1, 1, 0, 0, 0, 0, 0])
        assert pins.pin(12).state and pins.pin(25).state and not pins.pin(24).state

        mosquitto_broker.stop()
        mosquitto_broker.start()
        tracker.show(None)  # as after a power cut of the Pi: every LED dark until the broker answers
        _until(lambda: _lit(tracker) == [1, 1, 1, 0, 0, 0, 0, 0], timeout_s=30)

        dead = barracks(xoric_health=0)
        daemon.publish_state(dead, seq=3)
        _until(lambda: bool(pins.pin(24).state))
        assert _lit(tracker) == [0] * 8 and not pins.pin(25).state
    finally:
        tracker.close()
        daemon.stop()
