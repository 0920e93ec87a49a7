"""Writes the example shot traces in this folder by flicking pieces on the simulated mat.

Run from the repository root: ``python examples/traces/generate.py``. Each line is a real trace from the
ground-truth simulator and its sensor model (docs/trace-format.md). ``meta`` says, for people, what the scene
was and which direct hits really happened; attribution never reads ``meta``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from pathlib import Path

from service.mat.trace import write_traces
from service.simulator.shot_lab import ShotLab, SimulatedShot

HERE = Path(__file__).parent


def straight_hit() -> SimulatedShot:
    table = ShotLab(seed=11)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    table.place("troll-1", "monster-large", 420, 480, side="overseer", kind="monster")
    return table.shoot("hero-xoric", 0.0, 1400)


def wall_ricochet() -> SimulatedShot:
    table = ShotLab(seed=6)
    table.place("hero-xoric", "hero", 200, 120, side="heroes")
    table.place("troll-1", "monster-large", 560, 60, side="overseer", kind="monster")
    table.place("orc-1", "monster-medium", 200, 450, side="overseer", kind="monster")
    return table.shoot("hero-xoric", math.radians(-38.0), 2400)


def push_is_not_a_hit() -> SimulatedShot:
    table = ShotLab(seed=13)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 300, 300, side="overseer", kind="monster")
    table.place("orc-2", "monster-medium", 345, 300, side="overseer", kind="monster")
    return table.shoot("hero-xoric", 0.0, 1500)


def missile() -> SimulatedShot:
    table = ShotLab(seed=3)
    table.place("hero-elani", "hero", 150, 200, side="heroes")
    table.place("ranged-1", "ranged", 190, 200, side="heroes", kind="ranged")
    table.place("skeleton-1", "monster-small", 450, 205, side="overseer", kind="monster")
    return table.shoot("ranged-1", 0.0, 1600, shot="missile", shooter="hero-elani")


SCENES: dict[str, Callable[[], SimulatedShot]] = {
    "a straight melee hit on the Orc": straight_hit,
    "a ricochet off the wall, then the Troll": wall_ricochet,
    "the first Orc struck, the second only pushed": push_is_not_a_hit,
    "Elani's missile at the Skeleton": missile,
}


def main() -> None:
    traces = []
    for scene, play in SCENES.items():
        shot = play()
        meta = {"scene": scene, "true_direct_hits": sorted(shot.truth.direct_hits)}
        traces.append(dataclasses.replace(shot.trace, meta=meta))
    with (HERE / "clear-shots.jsonl").open("w") as out:
        write_traces(traces, out)


if __name__ == "__main__":
    main()
