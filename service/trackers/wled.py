"""The JSON a WLED device takes on its MQTT API topic (``<device topic>/api``), for one tracker. Pure.

Each message is **absolute**: it sets the device on, its brightness, one segment over the whole strip, and
the colour of every LED (WLED's per-LED ``i`` list, as ``[start, stop, "RRGGBB"]`` runs). Nothing depends on
what the device showed before, so a retained copy brings a device that rebooted, or reconnected after a
broker restart, straight back to the right picture (docs/trackers.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.table.trackers import TrackerLayout

from .display import Colour, tracker_colours


def runs(colours: list[Colour]) -> list[int | str]:
    """WLED's per-LED list: ``start, stop, "RRGGBB"`` for each run of one colour, covering every LED."""
    out: list[int | str] = []
    start = 0
    for i in range(1, len(colours) + 1):
        if i == len(colours) or colours[i] != colours[start]:
            out += [start, i, "{:02X}{:02X}{:02X}".format(*colours[start])]
            start = i
    return out


def wled_state(character: Mapping[str, Any] | None, layout: TrackerLayout) -> dict[str, Any]:
    colours = tracker_colours(character, layout)
    return {
        "on": True,
        "bri": layout.brightness,
        "transition": 0,
        "seg": [{"id": 0, "start": 0, "stop": layout.leds, "on": True, "fx": 0, "i": runs(colours)}],
    }
