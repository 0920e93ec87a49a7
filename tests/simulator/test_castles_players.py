"""The simulated people at a Catacombs & Castles table handle its pieces as the manual says."""

from __future__ import annotations

import math

from service.simulator.table import SimulatedTable
from service.table.config import load_table


def test_after_the_sequence_the_shield_is_put_back_beside_its_owner() -> None:
    """catacombs-and-castles-2e-manual.md: Shield Shots — immediately after the shot sequence, the shield
    piece is placed within 2.5cm (1") of the shield's owner (measured as Ranged Piece Placement)."""
    table = load_table("castles-demo")
    sim = SimulatedTable(table, "mqtt://127.0.0.1:1", play=False)
    try:
        randsarr = {"id": "hero-randsarr", "piece": "hero-randsarr", "side": "castle", "on_mat": True}
        state = {
            "phase": "battle",
            "sides": [{"id": "castle"}, {"id": "catacomb"}],
            "characters": [randsarr],
            "turn": {"side": "castle", "character": "hero-randsarr"},
        }
        sim.put_down("hero-randsarr", "castle", 0.12)
        shield_class = sim.classes["castles-shield"]
        sim.world.place("castle-shield", shield_class, 700.0, 500.0, kind="castles-shield")
        sim.shield_owners["castle-shield"] = "hero-randsarr"

        sim.tidy_the_mat(state)  # the sequence is still going on: the shield stays where it stopped
        assert sim.world.position("castle-shield") == (700.0, 500.0)

        sim.tidy_the_mat({**state, "turn": {"side": "catacomb", "character": None}})
        (ox, oy), (sx, sy) = sim.world.position("hero-randsarr"), sim.world.position("castle-shield")
        to_edge = math.hypot(sx - ox, sy - oy) - shield_class.radius_mm
        assert sim.world.radius("hero-randsarr") < to_edge <= 25.0 + 0.5
        assert "castle-shield" in sim.world.pieces, "a shield piece stays on the playmat"
    finally:
        sim.stop()
