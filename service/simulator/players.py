"""Simulated players: people at the table who look at the mat, pick a target and flick, imperfectly.

They may read the ground-truth world (they are the people, not the daemon). Their aim and strength errors are
human-sized: a few degrees of aim and ±15 % of strength, more for long shots.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from service.mat.geometry import PieceClass

from .impulse_world import ImpulseWorld
from .table_edges import GRAVITY_MM_S2
from .world import World

AnyWorld = World | ImpulseWorld  # the players aim the same on either engine

RANGED_PLACEMENT_MM = (
    25.0  # 3E reference, Ranged Piece Placement: centre of the character to the piece's edge
)
MIN_SPEED_MM_S = 500.0
MAX_SPEED_MM_S = 3000.0


@dataclass(frozen=True)
class PlannedShot:
    piece: str  # the piece that will be flicked: the character, or a ranged piece placed beside it
    target: str | None
    angle_rad: float
    speed_mm_s: float
    placed_at: tuple[float, float] | None = None  # where a ranged piece was put down first


@dataclass(frozen=True)
class Skill:
    aim_sigma_rad: float = math.radians(3.0)
    aim_sigma_per_m: float = math.radians(2.0)  # aim gets worse with distance
    strength_sigma: float = 0.15  # relative error of the flick's speed
    follow_through_mm: float = 120.0  # players flick hard enough to carry on past the target


class SimulatedPlayer:
    def __init__(self, rng: random.Random, skill: Skill | None = None) -> None:
        self.rng = rng
        self.skill = skill or Skill()

    def choose_target(self, world: AnyWorld, shooter: str, enemies: Sequence[str]) -> str | None:
        """The nearest enemy, with some preference noise (players do not always go for the closest)."""
        on_mat = [e for e in enemies if e in world.pieces and world.pieces[e].covering is None]
        if not on_mat:
            return None
        sx, sy = world.position(shooter)

        def score(e: str) -> float:
            x, y = world.position(e)
            return math.hypot(x - sx, y - sy) * self.rng.uniform(0.7, 1.3)

        return min(on_mat, key=score)

    def aim(self, world: AnyWorld, piece: str, target: str | None) -> tuple[float, float]:
        """Angle and speed of a flick from ``piece`` at ``target`` (or a random direction when none)."""
        x, y = world.position(piece)
        if target is None:
            angle, distance = self.rng.uniform(0, 2 * math.pi), self.rng.uniform(100, 300)
        else:
            tx, ty = world.position(target)
            angle, distance = math.atan2(ty - y, tx - x), math.hypot(tx - x, ty - y)
        sigma = self.skill.aim_sigma_rad + self.skill.aim_sigma_per_m * distance / 1000
        angle += self.rng.gauss(0.0, sigma)
        mu = world.mat.sliding_friction
        wanted = math.sqrt(2 * mu * GRAVITY_MM_S2 * (distance + self.skill.follow_through_mm))
        speed = wanted * math.exp(self.rng.gauss(0.0, self.skill.strength_sigma))
        return angle, min(MAX_SPEED_MM_S, max(MIN_SPEED_MM_S, speed))

    def plan_character_shot(self, world: AnyWorld, character: str, enemies: Sequence[str]) -> PlannedShot:
        target = self.choose_target(world, character, enemies)
        angle, speed = self.aim(world, character, target)
        return PlannedShot(character, target, angle, speed)

    def plan_ranged_shot(
        self,
        world: AnyWorld,
        shooter: str,
        ranged_id: str,
        ranged_class: PieceClass,
        enemies: Sequence[str],
        *,
        side: str,
    ) -> PlannedShot:
        """Put the ranged piece down beside the shooter, towards the target and clear of other pieces."""
        target = self.choose_target(world, shooter, enemies)
        sx, sy = world.position(shooter)
        if target is not None:
            tx, ty = world.position(target)
            towards = math.atan2(ty - sy, tx - sx)
        else:
            towards = self.rng.uniform(0, 2 * math.pi)
        r_shooter, r_piece = world.radius(shooter), ranged_class.radius_mm
        spot = None
        for attempt in range(40):
            offset = towards + self.rng.gauss(0.0, 0.3 + 0.1 * attempt)
            distance = self.rng.uniform(r_shooter + r_piece + 1.0, RANGED_PLACEMENT_MM + r_piece)
            x, y = sx + distance * math.cos(offset), sy + distance * math.sin(offset)
            if self._clear(world, x, y, r_piece):
                spot = (x, y)
                break
        if spot is None:
            raise RuntimeError(f"no room to place a ranged piece beside {shooter!r}")
        world.place(ranged_id, ranged_class, *spot, kind="ranged", side=side)
        angle, speed = self.aim(world, ranged_id, target)
        return PlannedShot(ranged_id, target, angle, speed, placed_at=spot)

    @staticmethod
    def _clear(world: AnyWorld, x: float, y: float, radius: float) -> bool:
        m = world.mat
        if not (radius <= x <= m.width_mm - radius and radius <= y <= m.height_mm - radius):
            return False
        if not clear_of_fixed_obstacles(world, x, y, radius):
            return False
        for pid, piece in world.pieces.items():
            if piece.covering is not None:
                continue
            px, py = world.position(pid)
            if math.hypot(px - x, py - y) < world.radius(pid) + radius + 0.5:
                return False
        return True


def clear_of_fixed_obstacles(world: AnyWorld, x: float, y: float, radius: float) -> bool:
    """Whether a disc of ``radius`` at (x, y) stays clear of the table's fixed obstacles (each taken as the
    circle round it: a hand puts a disc down beside the scenery, not against it)."""
    for obstacle in world.obstacles:
        reach = obstacle.radius_mm or max(
            (math.hypot(px - obstacle.x_mm, py - obstacle.y_mm) for px, py in obstacle.points), default=0.0
        )
        if math.hypot(x - obstacle.x_mm, y - obstacle.y_mm) < reach + radius + 2.0:
            return False
    return True


def put_back_from_the_gutter(world: AnyWorld) -> list[str]:
    """Put every piece resting with its centre past the mat's edge (in the gutter before a wall) back on the
    edge, and name them. Such a piece has left the playmat, and the tag grid cannot read it there (3E
    reference: "place it back on the edge of the playmat at the point where it left")."""
    strays = [
        pid
        for pid in world.pieces
        if world.pieces[pid].covering is None and not world.off_table(pid) and not world.on_mat(pid)
    ]
    for pid in strays:
        world.return_to_edge(pid, world.position(pid))
    return strays
