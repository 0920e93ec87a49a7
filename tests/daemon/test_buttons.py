"""The mat's physical buttons, driven through gpiozero's mock pins."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory

from service.daemon.buttons import RESCAN, SHOT_DONE, UNDO, ButtonPins, MatButtons
from service.daemon.clock import FakeClock


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def wait_for(predicate, timeout_s: float = 2.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


def test_pressing_shot_done_and_rescan_sends_their_actions(factory: MockFactory) -> None:
    presses: list[str] = []
    with MatButtons(presses.append, ButtonPins(bounce_s=0.01), pin_factory=factory):
        factory.pin(17).drive_low()
        assert wait_for(lambda: presses == [SHOT_DONE])
        factory.pin(17).drive_high()
        factory.pin(22).drive_low()
        assert wait_for(lambda: presses == [SHOT_DONE, RESCAN])


def test_contact_bounce_counts_as_one_press(factory: MockFactory) -> None:
    """The debounce window is read on the injected clock: edges inside it are one press, the next press
    after it is another (gpiozero's mock pins call the handler as each edge is driven)."""
    presses: list[str] = []
    clock = FakeClock()
    with MatButtons(presses.append, ButtonPins(bounce_s=0.2), pin_factory=factory, clock=clock):
        pin = factory.pin(17)
        for _ in range(5):  # a bouncing contact: five edges inside the debounce window
            pin.drive_low()
            pin.drive_high()
            clock.advance(0.01)
        pin.drive_low()
        assert wait_for(lambda: presses == [SHOT_DONE])
        pin.drive_high()
        clock.advance(0.2)  # the window has passed: a real second press
        pin.drive_low()
        assert wait_for(lambda: presses == [SHOT_DONE, SHOT_DONE])


def test_undo_needs_a_deliberate_hold(factory: MockFactory) -> None:
    presses: list[str] = []
    with MatButtons(presses.append, ButtonPins(bounce_s=0.01, hold_for_undo_s=0.2), pin_factory=factory):
        pin = factory.pin(27)
        pin.drive_low()
        pin.drive_high()  # a brush: released at once
        time.sleep(0.3)
        assert presses == []
        pin.drive_low()
        assert wait_for(lambda: presses == [UNDO])


def test_closing_releases_the_pins(factory: MockFactory) -> None:
    buttons = MatButtons(lambda _: None, pin_factory=factory)
    buttons.close()
    again = MatButtons(lambda _: None, pin_factory=factory)  # would fail if the pins were still reserved
    again.close()


def test_a_failing_handler_does_not_stop_later_presses(factory: MockFactory) -> None:
    seen: list[str] = []

    def handler(action: str) -> None:
        seen.append(action)
        raise RuntimeError("broker down")

    clock = FakeClock()
    with MatButtons(handler, ButtonPins(bounce_s=0.01), pin_factory=factory, clock=clock):
        factory.pin(17).drive_low()
        assert wait_for(lambda: len(seen) == 1)
        factory.pin(17).drive_high()
        clock.advance(0.05)  # past the debounce window
        factory.pin(17).drive_low()
        assert wait_for(lambda: len(seen) == 2)


def test_the_mats_buttons_reach_the_game(factory: MockFactory) -> None:
    """Held undo button → an undo record by ``button:undo``; re-scan → a scan request to the mat."""
    from firmware_bridge.messages import ScanRequest
    from tests.helpers.game_script import GameScript

    table = GameScript()
    try:
        table.send("enter_room")
        pins = ButtonPins(bounce_s=0.01, hold_for_undo_s=0.05)
        with MatButtons(table.daemon.on_button, pins, pin_factory=factory):
            factory.pin(27).drive_low()
            assert wait_for(lambda: ("button", "undo") in list(table.daemon.inbox.queue))
            table.settle()
            factory.pin(27).drive_high()
            assert table.eventlog.records()[-1].kind == "undo"
            assert table.eventlog.records()[-1].by == "button:undo"
            sent_before = len(table.connection.sent)
            factory.pin(22).drive_low()
            assert wait_for(lambda: ("button", "rescan") in list(table.daemon.inbox.queue))
            table.settle()
            assert (
                isinstance(table.connection.sent[-1], ScanRequest)
                and len(table.connection.sent) > sent_before
            )
    finally:
        table.close()
