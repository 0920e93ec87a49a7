"""Faults of a real board that no physics engine makes, laid over a recorded shot trace.

The hidden mats (hidden_mats.py) draw the physics and the sensors' constants; these are what a table adds on
top: a piezo channel that misses a trigger, a stray trigger (a knock on the table leg, electrical noise), tag
reads noisier than the board states, a playmat that lies a few millimetres off the tag grid, and a hand that
moves a piece while the discs are still (a player steadying a disc, a sleeve). The
benchmark (benchmarks/attribution_hidden.py --faults) lays them over a set's traces after the shots are
played, so the truth is untouched and the same shots can be read with and without them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from typing import Any

FAULTS = ("dropped", "spurious", "scan-noise", "mat-offset", "hand")

DROPPED_SHARE = 0.10  # each piezo trigger is lost with this chance
SPURIOUS_SHOT_SHARE = 0.5  # half the shots get one or two stray single-piezo triggers
SPURIOUS_AMPLITUDE = (41, 90)  # counts: just over the reference board's 40-count threshold
SPURIOUS_WINDOW_US = 200_000  # strays fall between the shot's first trigger and this long after its last
SCAN_NOISE_MM = 2.0  # extra Gaussian noise on every after-shot tag read, beyond the stated sigma
MAT_OFFSET_MM = (6.0, -4.0)  # the playmat lies this far off the grid, in both scans
HAND_SHOT_SHARE = 0.3  # a hand moves one piece (not the flicked one) between the scans on this share of shots
HAND_MOVE_MM = (25.0, 40.0)


def check_faults(names: Iterable[str]) -> tuple[str, ...]:
    chosen = tuple(n for n in names if n)
    unknown = sorted(set(chosen) - set(FAULTS))
    if unknown:
        raise ValueError(f"unknown fault(s) {', '.join(unknown)}; known: {', '.join(FAULTS)}")
    return chosen


def with_faults(trace: dict[str, Any], faults: Iterable[str], rng: random.Random) -> dict[str, Any]:
    """A copy of ``trace`` (its JSON form) with the named faults laid over it."""
    chosen = check_faults(faults)
    out = {**trace, "pre": _copy_scan(trace["pre"]), "post": _copy_scan(trace["post"])}
    impacts = [dict(i) for i in trace["impacts"]]
    if "dropped" in chosen:
        impacts = [i for i in impacts if rng.random() >= DROPPED_SHARE]
    if "spurious" in chosen and rng.random() < SPURIOUS_SHOT_SHARE:
        times = [i["t_us"] for i in trace["impacts"]] or [trace["pre"]["t_us"]]
        sensors = [s["id"] for s in trace["mat"]["sensors"]]
        for _ in range(rng.choice((1, 1, 2))):
            impacts.append(
                {
                    "sensor_id": rng.choice(sensors),
                    "t_us": rng.randint(min(times), max(times) + SPURIOUS_WINDOW_US),
                    "amplitude": float(rng.randint(*SPURIOUS_AMPLITUDE)),
                }
            )
    out["impacts"] = sorted(impacts, key=lambda i: i["t_us"])
    if "mat-offset" in chosen:
        dx, dy = MAT_OFFSET_MM
        for scan in (out["pre"], out["post"]):
            for seen in scan["pieces"]:
                seen["x_mm"], seen["y_mm"] = seen["x_mm"] + dx, seen["y_mm"] + dy
    if "hand" in chosen and rng.random() < HAND_SHOT_SHARE:
        others = [p for p in out["post"]["pieces"] if p["piece"] != trace["declaration"]["flicked"]]
        if others:
            moved = rng.choice(others)
            heading, distance = rng.uniform(0.0, 2 * math.pi), rng.uniform(*HAND_MOVE_MM)
            moved["x_mm"] += distance * math.cos(heading)
            moved["y_mm"] += distance * math.sin(heading)
    if "scan-noise" in chosen:
        for seen in out["post"]["pieces"]:
            seen["x_mm"] += rng.gauss(0.0, SCAN_NOISE_MM)
            seen["y_mm"] += rng.gauss(0.0, SCAN_NOISE_MM)
    return out


def _copy_scan(scan: dict[str, Any]) -> dict[str, Any]:
    return {**scan, "pieces": [dict(p) for p in scan["pieces"]]}
