"""Simulated players aim at enemies with human error and put ranged pieces down by the rulebook."""

from __future__ import annotations

import math
import random
import statistics

from service.mat.geometry import load_mat, load_piece_classes
from service.simulator.players import RANGED_PLACEMENT_MM, SimulatedPlayer
from service.simulator.world import World

MAT = load_mat()
PIECES = load_piece_classes()


def _room() -> World:
    world = World(MAT, seed=2)
    world.place("hero-elani", PIECES["hero"], 200.0, 300.0, side="heroes")
    world.place("orc-1", PIECES["monster-medium"], 500.0, 300.0, side="overseer")
    world.place("troll-1", PIECES["monster-large"], 700.0, 550.0, side="overseer")
    return world


def test_a_player_aims_at_the_nearest_enemy_with_a_few_degrees_of_error() -> None:
    world = _room()
    player = SimulatedPlayer(random.Random(3))
    shots = [player.plan_character_shot(world, "hero-elani", ["orc-1", "troll-1"]) for _ in range(200)]
    at_orc = [s for s in shots if s.target == "orc-1"]
    assert len(at_orc) > 150  # the nearer enemy, mostly
    errors = [math.degrees(s.angle_rad) for s in at_orc]  # the orc is straight ahead (0°)
    assert abs(statistics.mean(errors)) < 1.0
    assert 1.5 < statistics.stdev(errors) < 8.0
    assert all(500 <= s.speed_mm_s <= 3000 for s in shots)


def test_a_ranged_piece_is_put_down_within_an_inch_of_its_shooter() -> None:
    for seed in range(20):
        world = _room()
        plan = SimulatedPlayer(random.Random(seed)).plan_ranged_shot(
            world, "hero-elani", "ranged-1", PIECES["ranged"], ["orc-1"], side="heroes"
        )
        assert plan.piece == "ranged-1" and plan.placed_at == world.position("ranged-1")
        sx, sy = world.position("hero-elani")
        x, y = plan.placed_at
        centre_to_near_edge = math.hypot(x - sx, y - sy) - PIECES["ranged"].radius_mm
        assert centre_to_near_edge <= RANGED_PLACEMENT_MM  # 3E reference: Ranged Piece Placement
        assert math.hypot(x - sx, y - sy) > world.radius("hero-elani") + world.radius(
            "ranged-1"
        )  # no overlap
        assert plan.target == "orc-1"
