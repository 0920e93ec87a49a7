"""Optional physical buttons on the mat, through gpiozero: "shot done / confirm", "undo" and "re-scan".

The pin factory is passed in, never taken from a global, so tests use gpiozero's ``MockFactory`` and a Pi 5
uses ``LGPIOFactory`` (``GPIOZERO_PIN_FACTORY=lgpio`` also works). Debounce is gpiozero's ``bounce_time``.
Presses become the same commands a referee sends from the console, with the actor ``button:<name>``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from gpiozero import Button

log = logging.getLogger(__name__)

# What each button asks for; the daemon turns these into commands.
SHOT_DONE = "shot_done"
UNDO = "undo"
RESCAN = "rescan"
BUTTON_ACTIONS = (SHOT_DONE, UNDO, RESCAN)


@dataclass(frozen=True)
class ButtonPins:
    """BCM pin numbers; None leaves a button out."""

    shot_done: int | None = 17
    undo: int | None = 27
    rescan: int | None = 22
    bounce_s: float = 0.05
    hold_for_undo_s: float = 1.0  # undo changes the game: it needs a deliberate press, not a brush


class MatButtons:
    """Owns the gpiozero devices; ``close()`` (or ``with``) releases the pins."""

    def __init__(
        self, on_press: Callable[[str], None], pins: ButtonPins | None = None, pin_factory: Any = None
    ) -> None:
        self.pins = pins or ButtonPins()
        self._on_press = on_press
        self._buttons: dict[str, Button] = {}
        self._last_press: dict[str, float] = {}
        self._lock = threading.Lock()
        wanted: Mapping[str, int | None] = {
            SHOT_DONE: self.pins.shot_done,
            UNDO: self.pins.undo,
            RESCAN: self.pins.rescan,
        }
        try:
            for action, pin in wanted.items():
                if pin is None:
                    continue
                hold = self.pins.hold_for_undo_s if action == UNDO else None
                button = Button(
                    pin,
                    pull_up=True,
                    bounce_time=self.pins.bounce_s,
                    hold_time=hold or 1.0,
                    pin_factory=pin_factory,
                )
                if action == UNDO:
                    button.when_held = self._handler(action)
                else:
                    button.when_pressed = self._handler(action)
                self._buttons[action] = button
        except Exception:
            self.close()
            raise

    def _handler(self, action: str) -> Callable[[], None]:
        def pressed() -> None:
            # Debounce here as well as in the pin driver: not every pin factory honours bounce_time.
            now = time.monotonic()
            with self._lock:
                last = self._last_press.get(action)
                if last is not None and now - last < self.pins.bounce_s:
                    return
                self._last_press[action] = now
            log.info("mat button %s pressed", action)
            try:
                self._on_press(action)
            except Exception:  # a failing handler must not kill gpiozero's callback thread
                log.exception("handling mat button %s failed", action)

        return pressed

    def close(self) -> None:
        for button in self._buttons.values():
            button.close()
        self._buttons.clear()

    def __enter__(self) -> MatButtons:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
