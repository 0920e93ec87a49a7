"""Where a rollout sets the pieces down: the scan's noisy centroids, nudged apart where discs would overlap.

Real discs never overlap, but noisy centroids of neighbours often do, and pymunk would fire such a pair apart
as if one had struck the other. The nudging visits only the pairs that can overlap; it must land every piece
exactly where the plain pass over every pair would, in the same order.
"""

from __future__ import annotations

import math
import random

import pytest

from service.attribution import AttributionConfig
from service.attribution.model import RolloutParams, ShotModel
from service.attribution.proposals import draw_nuisance
from service.mat.trace import ShotTrace
from service.simulator.shot_lab import ShotLab


def scanned_start(model: ShotModel, rp: RolloutParams) -> dict[str, tuple[float, float]]:
    """The scan's places with the rollout's corrections, before any nudging."""
    offsets = {pid: (dx, dy) for pid, dx, dy in rp.offsets}
    return {
        pid: (x + offsets.get(pid, (0.0, 0.0))[0], y + offsets.get(pid, (0.0, 0.0))[1])
        for pid, (x, y) in model.start.items()
    }


def every_pair_pass(model: ShotModel, rp: RolloutParams) -> dict[str, tuple[float, float]]:
    """The plain pairwise nudging: every pair in order, up to three passes, stop after a clean one."""
    pos = {pid: [x, y] for pid, (x, y) in scanned_start(model, rp).items()}
    ids = list(pos)
    for _ in range(3):
        clean = True
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                dx, dy = pos[b][0] - pos[a][0], pos[b][1] - pos[a][1]
                gap = math.hypot(dx, dy) - model.specs[a].radius_mm - model.specs[b].radius_mm - 0.3
                if gap >= 0:
                    continue
                clean = False
                d = math.hypot(dx, dy) or 1.0
                ux, uy = (dx / d, dy / d) if d > 1e-9 else (1.0, 0.0)
                pos[a][0] += ux * gap / 2
                pos[a][1] += uy * gap / 2
                pos[b][0] -= ux * gap / 2
                pos[b][1] -= uy * gap / 2
        if clean:
            break
    return {pid: (p[0], p[1]) for pid, p in pos.items()}


def crowded_room() -> ShotTrace:
    """Thirty pieces, most of them touching a neighbour: rows of heroes and monsters almost edge to edge."""
    table = ShotLab(seed=41)
    rng = random.Random(41)
    x, y, n = 60.0, 80.0, 0
    while n < 30:
        cls = rng.choice(["hero", "monster-medium", "monster-small"])
        radius = table.classes[cls].radius_mm
        if x + radius > 820:
            x, y = 60.0, y + 70.0
        x += radius
        side = "heroes" if cls == "hero" else "overseer"
        table.place(f"p{n:02d}", cls, x, y + rng.uniform(-2, 2), side=side)
        x += radius + rng.uniform(0.2, 1.5)  # almost touching: the scan's noise makes many overlap
        n += 1
    return table.shoot("p00", math.pi / 2, 300).trace


def test_the_nudged_start_is_exactly_where_the_pass_over_every_pair_puts_it() -> None:
    trace = crowded_room()
    model = ShotModel(trace)
    rng = random.Random(7)
    config = AttributionConfig(workers=1)
    nudged = 0
    try:
        for k in range(300):
            rp = draw_nuisance(trace, rng, config, 0.0, 1000.0)
            if k % 3 == 0:  # a much noisier scan, so that nudges push pieces into third ones
                wider = tuple((p, 4 * dx, 4 * dy) for p, dx, dy in rp.offsets)
                rp = RolloutParams(0.0, 1000.0, offsets=wider)
            expected = every_pair_pass(model, rp)
            nudged += expected != scanned_start(model, rp)
            assert model.starting_positions(rp) == expected
    finally:
        model.close()
    assert nudged > 150, "the room must make most rollouts nudge, or the comparison shows nothing"


def test_two_overlapping_discs_are_set_apart_evenly_along_their_line() -> None:
    table = ShotLab(seed=43)
    table.place("hero-a", "hero", 300.0, 300.0, side="heroes")
    table.place("orc-1", "monster-medium", 400.0, 300.0, side="overseer", kind="monster")
    trace = table.shoot("hero-a", math.pi, 200).trace
    model = ShotModel(trace)
    try:
        ra, rb = model.specs["hero-a"].radius_mm, model.specs["orc-1"].radius_mm
        (ax, ay), (bx, by) = model.start["hero-a"], model.start["orc-1"]
        overlap = 4.0
        # Move the orc onto the hero's edge, 4 mm too close, along the line between them.
        d = math.hypot(bx - ax, by - ay)
        shift = d - (ra + rb - overlap)
        rp = RolloutParams(0.0, 1000.0, offsets=(("orc-1", -shift * (bx - ax) / d, -shift * (by - ay) / d),))
        placed = model.starting_positions(rp)
        (pax, pay), (pbx, pby) = placed["hero-a"], placed["orc-1"]
        assert math.hypot(pbx - pax, pby - pay) - ra - rb == pytest.approx(0.3, abs=1e-6)
        moved_a = math.hypot(pax - ax, pay - ay)
        assert moved_a == pytest.approx((overlap + 0.3) / 2, abs=1e-6)
        rollout = model.run(rp)
        assert rollout.start == placed  # the rollout reports where it set the pieces down
    finally:
        model.close()
