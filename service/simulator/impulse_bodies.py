"""The bodies of the impulse engine (impulse_world.py): a disc with its state and constants, and a fixed
solid (a wall's capsule, a circle, a convex polygon) that answers the nearest point of its surface. Pure
geometry, no stepping."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from service.simulator.table_edges import WALL_RADIUS_MM, inside_convex

REST_SPEED_MM_S = 2.0  # a disc slower than this, and spinning slower than the next, is at rest
REST_SPIN_RAD_S = 0.5


@dataclass
class Disc:
    """A piece: its state and constants. A ``covering`` piece rides on its host, outside the solver."""

    id: str
    kind: str
    side: str
    radius: float
    mass: float
    friction_scale: float
    restitution: float
    x: float = 0.0
    y: float = 0.0
    vx: float = 0.0
    vy: float = 0.0
    spin: float = 0.0  # rad/s, anticlockwise
    covering: str | None = None
    offset: tuple[float, float] = (0.0, 0.0)
    fallen: bool = False

    @property
    def inertia(self) -> float:
        return 0.5 * self.mass * self.radius**2

    def moving(self) -> bool:
        return math.hypot(self.vx, self.vy) > REST_SPEED_MM_S or abs(self.spin) > REST_SPIN_RAD_S


@dataclass(frozen=True)
class Static:
    """A wall (a capsule around its centre line) or a fixed obstacle (a circle or a convex polygon)."""

    name: str
    restitution: float
    segment: tuple[float, float, float, float] | None = None
    circle: tuple[float, float, float] | None = None
    polygon: tuple[tuple[float, float], ...] = ()

    def nearest(self, x: float, y: float) -> tuple[float, float, float]:
        """The nearest point of the solid's surface to (x, y), and the signed distance (negative inside)."""
        if self.segment is not None:
            qx, qy = closest_on_segment(x, y, *self.segment)
            d = math.hypot(x - qx, y - qy)
            if d < 1e-9:
                return qx, qy, -WALL_RADIUS_MM
            return qx + (x - qx) / d * WALL_RADIUS_MM, qy + (y - qy) / d * WALL_RADIUS_MM, d - WALL_RADIUS_MM
        if self.circle is not None:
            cx, cy, r = self.circle
            d = math.hypot(x - cx, y - cy) or 1e-9
            return cx + (x - cx) / d * r, cy + (y - cy) / d * r, d - r
        best = (0.0, 0.0, math.inf)
        n = len(self.polygon)
        for i in range(n):
            qx, qy = closest_on_segment(x, y, *self.polygon[i], *self.polygon[(i + 1) % n])
            d = math.hypot(x - qx, y - qy)
            if d < best[2]:
                best = (qx, qy, d)
        inside = inside_convex(x, y, self.polygon)
        return best[0], best[1], -best[2] if inside else best[2]


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def closest_on_segment(
    px: float, py: float, ax: float, ay: float, bx: float, by: float
) -> tuple[float, float]:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return ax + t * dx, ay + t * dy


def anticlockwise(points: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    area = sum(
        points[i][0] * points[(i + 1) % len(points)][1] - points[(i + 1) % len(points)][0] * points[i][1]
        for i in range(len(points))
    )
    return tuple(points) if area > 0 else tuple(reversed(points))
