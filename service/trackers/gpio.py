"""``smartmat tracker``: a Raspberry Pi Zero beside a player board, driving LEDs from one character's topic.

It subscribes to the retained ``smartmat/<table>/character/<id>`` (the ``tracker`` account), so after a
broker restart or a power cut it shows the right health as soon as the daemon has republished the game.
The health bar is a gpiozero ``LEDBarGraph`` (one LED per health point when the maximum fits, else in
proportion: :func:`service.trackers.display.bar_fill`); optional single LEDs show the states (poisoned,
stunned, teleported, frozen, devoured, dead). The pin factory is passed in (gpiozero's ``MockFactory`` in
tests; ``LGPIOFactory`` on a Pi 5).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from gpiozero import LED, LEDBarGraph

from service.publish import topics
from service.publish.broker_url import BrokerUrl
from service.publish.paho_transport import PahoTransport, unguessable_client_id
from service.publish.transport import InboundMessage, MqttTransport

from .display import bar_fill, states

log = logging.getLogger(__name__)

STATE_NAMES = ("poisoned", "stunned", "teleported", "frozen", "devoured", "dead")


class GpioTracker:
    """Owns its gpiozero devices; ``close()`` releases the pins and the broker connection."""

    def __init__(
        self,
        table: str,
        character: str,
        bar_pins: Sequence[int | str],
        transport: MqttTransport,
        state_pins: Mapping[str, int | str] | None = None,
        pin_factory: Any = None,
    ) -> None:
        unknown = sorted(set(state_pins or {}) - set(STATE_NAMES))
        if unknown:
            raise ValueError(f"no such state LED {', '.join(unknown)} (one of {', '.join(STATE_NAMES)})")
        self.topic = topics.character_topic(table, character)
        self.bar = LEDBarGraph(*bar_pins, pin_factory=pin_factory)
        self.state_leds = {
            name: LED(pin, pin_factory=pin_factory) for name, pin in (state_pins or {}).items()
        }
        self.transport = transport
        self.shown: dict[str, Any] | None = None
        self._lock = threading.Lock()

    @classmethod
    def connect_to(
        cls,
        table: str,
        character: str,
        bar_pins: Sequence[int | str],
        url: str | BrokerUrl,
        state_pins: Mapping[str, int | str] | None = None,
        pin_factory: Any = None,
    ) -> GpioTracker:
        transport = PahoTransport(url, unguessable_client_id(f"smartmat-tracker-{table}-{character}"))
        tracker = cls(table, character, bar_pins, transport, state_pins, pin_factory)
        tracker.start()
        return tracker

    def start(self) -> None:
        self.transport.start(lambda: self.transport.subscribe(self.topic, 1), self._on_message)

    def close(self) -> None:
        self.transport.stop()
        self.bar.close()
        for led in self.state_leds.values():
            led.close()

    def show(self, character: Mapping[str, Any] | None) -> None:
        """Light the LEDs for ``character`` (None: it left the game, everything off)."""
        with self._lock:
            self.shown = dict(character) if character is not None else None
            alive = character is not None and character.get("alive") is not False
            lit = 0
            if alive and character is not None:
                health, max_health = character.get("health"), character.get("max_health")
                if type(health) is int and type(max_health) is int:
                    lit, _ = bar_fill(max(health, 0), max_health, len(self.bar))
            self.bar.value = lit / len(self.bar)
            present = set(states(character)) if alive and character is not None else set()
            if character is not None and not alive:
                present.add("dead")
            for name, led in self.state_leds.items():
                led.value = name in present

    def _on_message(self, message: InboundMessage) -> None:
        if message.topic != self.topic:
            return
        if not message.payload:
            self.show(None)
            return
        try:
            data = json.loads(message.payload)
        except ValueError:
            log.warning("ignored a message on %s that is not JSON", message.topic)
            return
        if isinstance(data, dict):
            self.show(data)
