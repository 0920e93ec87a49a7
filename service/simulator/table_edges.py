"""What a simulated table is beyond its physics engine: walls, the mat's uneven friction, its edges, the
floor beyond them, and the bookkeeping that turns a shot's contacts into its ground truth.

Both ground-truth engines use it (world.py on pymunk, impulse_world.py on its own mechanics), so the two
differ only in how discs move and meet, not in where a table ends or what counts as a push.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from service.mat.geometry import MatConfig
from service.mat.trace import FixedObstacle, WallSegment

WALL_RADIUS_MM = 10.0  # walls are 20 mm thick
FALL_OFF_MM = 40.0  # how far past the mat's edge the table goes where no wall stands
COVER_KNOCK_IMPULSE = 400.0  # g·mm/s: any real contact with the host shakes an ice piece off
GRAVITY_MM_S2 = 9810.0
MAX_SHOT_S = 8.0
WALL_FRICTION = 0.3
RESTITUTION_FLOOR = 0.6  # hard hits lose bounce, but never below this share of the nominal restitution


@dataclass(frozen=True)
class Physics:
    """Constants of the ground truth beyond the mat's own (MatConfig). The defaults are the classic table.

    Elasticities are pymunk's: a contact bounces with the product of its two shapes' elasticities, as in the
    daemon's model, so ``disc_elasticity`` is comparable with the model's ``disc_restitution`` and the mat's
    ``wall_restitution`` is the walls' elasticity.
    """

    disc_elasticity: float = 0.85  # each piece then varies ×U(0.92, 1.05), capped at 0.98
    friction_spread: float = 0.20  # each piece's sliding friction ×U(1 − spread, 1 + spread)
    restitution_falloff_per_m_s: float = 0.10  # share of restitution lost per m/s of impact speed
    obstacle_elasticity: float = 0.60  # fixed obstacles (wooden or plastic scenery)
    disc_disc_friction: float = 0.25  # wood on wood, tangential: how much spin and throw a glancing hit gives
    mass_spread: float = 0.0  # each piece's mass ×U(1 − spread, 1 + spread); 0: the catalogue mass
    # Only the impulse engine (impulse_world.py) reads these two: pymunk's joints have neither law.
    flick_spin_rad_s: float = 3.0  # spread of the spin a flick gives
    speed_friction_slope: float = 0.0  # share by which sliding friction grows per m/s above 1 m/s


Line = tuple[float, float, float, float]


@dataclass(frozen=True)
class Contact:
    """One contact between two bodies, from first touch to separation."""

    t_s: float
    x_mm: float
    y_mm: float
    a: str  # piece id
    b: str  # piece id, "wall", or a fixed obstacle's id ("fixed-1", …)
    kind: str  # "disc" (two movable discs), "obstacle" (a disc and a tagged or fixed obstacle) or "wall"
    impulse: float  # g·mm/s, summed over the contact
    relative_speed_mm_s: float


@dataclass
class ShotRecord:
    """Ground truth of one shot, for tests and the benchmark (never shown to the daemon)."""

    flicked: str
    angle_rad: float
    speed_mm_s: float
    start_t_s: float
    flick_at: tuple[float, float] = (0.0, 0.0)  # where the flicked piece stood
    flick_momentum: float = 0.0  # g·mm/s given to it by the finger (a real flick clicks: sensors.py)
    duration_s: float = 0.0
    direct_hits: set[str] = field(default_factory=set)
    pushed: set[str] = field(default_factory=set)
    moved: set[str] = field(default_factory=set)
    left_mat: dict[str, tuple[float, float]] = field(
        default_factory=dict
    )  # piece → where it crossed the edge
    covers_knocked_off: set[str] = field(default_factory=set)  # ice pieces shaken off their host
    contacts: list[Contact] = field(default_factory=list)
    path: list[tuple[float, float, float]] = field(default_factory=list)  # (t_s, x, y) of the flicked piece
    # Every piece on the table at an overhead camera's frame times (t_s, {piece: (x, y)}), when the world
    # films (``frame_period_s``); a piece that fell off is out of the later frames.
    frames: list[tuple[float, dict[str, tuple[float, float]]]] = field(default_factory=list)
    # Look-alike discs whose labels the overhead camera's tracker exchanged in this shot (frame, a, b).
    camera_swaps: list[tuple[int, str, str]] = field(default_factory=list)


def wall_lines(mat: MatConfig, walls: Sequence[WallSegment] | None) -> tuple[list[Line], list[Line]]:
    """The walls' centre lines (a wall is a capsule of ``WALL_RADIUS_MM`` around one) and their inner faces.
    ``walls`` gives the inner faces; None: the classic closed rectangle ``wall_gap_mm`` outside the mat."""
    g, w, h = mat.wall_gap_mm, mat.width_mm, mat.height_mm
    if walls is None:
        corners = [(-g, -g), (w + g, -g), (w + g, h + g), (-g, h + g)]
        lines = [(*corners[i], *corners[(i + 1) % 4]) for i in range(4)]
        faces = [_offset(*line, w / 2, h / 2, -WALL_RADIUS_MM) for line in lines]
    else:
        # A segment is the wall's inner face; the wall's body stands behind it, away from the mat.
        faces = [(s.x1_mm, s.y1_mm, s.x2_mm, s.y2_mm) for s in walls]
        lines = [_offset(*face, w / 2, h / 2, WALL_RADIUS_MM) for face in faces]
    return lines, faces


class MatSurface:
    """The mat's sliding friction where a disc is: a few random sine waves across it, the floor beyond."""

    def __init__(self, mat: MatConfig, rng: random.Random, perturb: bool) -> None:
        self.mat, self.perturb = mat, perturb
        self.waves = [
            (rng.uniform(0.004, 0.02), rng.uniform(0.004, 0.02), rng.uniform(0, 2 * math.pi))
            for _ in range(3)
        ]

    def friction_at(self, x_mm: float, y_mm: float) -> float:
        m = self.mat
        if not (0.0 <= x_mm <= m.width_mm and 0.0 <= y_mm <= m.height_mm):
            return m.off_mat_friction
        if not self.perturb:
            return m.sliding_friction
        wave = sum(math.sin(kx * x_mm + ky * y_mm + phase) for kx, ky, phase in self.waves) / 3
        return m.sliding_friction * (1.0 + m.friction_variation * wave)


def edge_crossing(mat: MatConfig, x: float, y: float, radius: float) -> tuple[float, float] | None:
    """Where a disc wholly off the playmat (beyond its edge by more than its radius) left it; else None."""
    if -radius <= x <= mat.width_mm + radius and -radius <= y <= mat.height_mm + radius:
        return None
    return (min(max(x, 0.0), mat.width_mm), min(max(y, 0.0), mat.height_mm))


def falls_off(mat: MatConfig, faces: Sequence[Line], x: float, y: float) -> bool:
    """Whether a piece at (x, y) went off the table: more than FALL_OFF_MM beyond the mat, no wall behind it.

    Looking outwards from the nearest point of the mat through the piece, a wall whose body is at or beyond
    the piece holds it (it sits in the gap between mat and wall); a wall already passed, a gap in the wall
    or an open side does not. With the classic closed walls nothing ever falls.
    """
    cx, cy = min(max(x, 0.0), mat.width_mm), min(max(y, 0.0), mat.height_mm)
    distance = math.hypot(x - cx, y - cy)
    if distance <= FALL_OFF_MM:
        return False
    ux, uy = (x - cx) / distance, (y - cy) / distance
    for x1, y1, x2, y2 in faces:
        hit = _ray_hits_segment(cx, cy, ux, uy, x1, y1, x2, y2)
        if hit is not None and hit >= distance - 2 * WALL_RADIUS_MM:
            return False
    return True


RETURN_STEP_MM = 4.0  # how far along the edge a player looks for room to put a stray back


def return_spot(mat: MatConfig, where: tuple[float, float], radius: float) -> tuple[float, float]:
    """Rulebook: a piece that left the playmat is put back on the edge where it left."""
    return (
        min(max(where[0], radius), mat.width_mm - radius),
        min(max(where[1], radius), mat.height_mm - radius),
    )


def landing_spot(
    rng: random.Random,
    mat: MatConfig,
    host: tuple[float, float, float],
    cover_radius: float,
    clearance: Callable[[float, float], float],
) -> tuple[float, float]:
    """Where an ice piece shaken off its host (x, y, radius) lands: beside it, never in a fixed obstacle."""
    hx, hy, hr = host
    x, y = hx, hy
    for _ in range(20):
        angle = rng.uniform(0, 2 * math.pi)
        distance = hr + cover_radius + rng.uniform(2, 20)
        x, y = hx + distance * math.cos(angle), hy + distance * math.sin(angle)
        x, y = min(max(x, 5.0), mat.width_mm - 5.0), min(max(y, 5.0), mat.height_mm - 5.0)
        if clearance(x, y) >= cover_radius:
            break  # it must not land inside a fixed obstacle; the classic table has none
    return x, y


def contact_kind(a: str, b: str, static_names: set[str], kind_of: Callable[[str], str]) -> str:
    """What a contact between ``a`` and ``b`` was: a wall, an obstacle (fixed, or a piece of that kind: it
    rings the mat like a wall) or two discs. ``kind_of`` names a piece's kind; it is asked only of pieces."""
    if a == "wall" or b == "wall":
        return "wall"
    if a in static_names or b in static_names:
        return "obstacle"
    if "obstacle" in (kind_of(a), kind_of(b)):
        return "obstacle"
    return "disc"


def fell_at(mat: MatConfig, x: float, y: float) -> tuple[float, float]:
    """Where on the mat's edge a piece that fell off the table at (x, y) is said to have left it."""
    return (min(max(x, 0.0), mat.width_mm), min(max(y, 0.0), mat.height_mm))


def close_the_record(
    record: ShotRecord,
    start: dict[str, tuple[float, float]],
    now: dict[str, tuple[float, float]],
    covers: dict[str, str],
    static_names: set[str],
) -> None:
    """After the pieces rest: who was pushed, which pieces moved, which ice pieces were shaken off.

    ``now`` holds every piece's position (on or off the table), ``covers`` each ice piece's host."""
    flicked = record.flicked
    touched: set[str] = set()
    for contact in record.contacts:
        touched.update(p for p in (contact.a, contact.b) if p not in static_names and p != flicked)
        if contact.impulse >= COVER_KNOCK_IMPULSE:
            for pid in (contact.a, contact.b):
                record.covers_knocked_off.update(c for c, host in covers.items() if host == pid)
    for pid, (x0, y0) in start.items():
        x, y = now[pid]
        if math.hypot(x - x0, y - y0) > 1.0:
            record.moved.add(pid)
    record.pushed = (touched | record.moved) - record.direct_hits - {flicked}
    record.pushed -= set(covers)


def _offset(x1: float, y1: float, x2: float, y2: float, mx: float, my: float, by: float) -> Line:
    """The segment moved ``by`` mm along its normal away from (mx, my) (towards it when ``by`` < 0)."""
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = (y2 - y1) / length, -(x2 - x1) / length
    if (x1 + x2) / 2 * nx + (y1 + y2) / 2 * ny - (mx * nx + my * ny) < 0:
        nx, ny = -nx, -ny
    return (x1 + by * nx, y1 + by * ny, x2 + by * nx, y2 + by * ny)


def _ray_hits_segment(
    ox: float, oy: float, ux: float, uy: float, x1: float, y1: float, x2: float, y2: float
) -> float | None:
    """Distance along the ray (o, u) to the segment, or None when the ray misses it."""
    dx, dy = x2 - x1, y2 - y1
    denominator = ux * dy - uy * dx
    if abs(denominator) < 1e-12:
        return None  # parallel
    t = ((x1 - ox) * dy - (y1 - oy) * dx) / denominator
    s = ((x1 - ox) * uy - (y1 - oy) * ux) / denominator
    if t < 0 or not 0.0 <= s <= 1.0:
        return None
    return t


def inside_convex(px: float, py: float, polygon: Sequence[tuple[float, float]]) -> bool:
    """Inside a convex polygon whose corners run anticlockwise."""
    n = len(polygon)
    for i in range(n):
        (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % n]
        if (bx - ax) * (py - ay) - (by - ay) * (px - ax) < 0:
            return False
    return True


def _segment_distance(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def point_polygon_distance(px: float, py: float, polygon: Sequence[tuple[float, float]]) -> float:
    if inside_convex(px, py, polygon):
        return 0.0
    n = len(polygon)
    return min(_segment_distance(px, py, *polygon[i], *polygon[(i + 1) % n]) for i in range(n))


def polygon_gap(a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]) -> float:
    """Distance between two convex polygons (0 when they overlap)."""
    if any(inside_convex(x, y, b) for x, y in a) or any(inside_convex(x, y, a) for x, y in b):
        return 0.0
    gap = min(
        min(point_polygon_distance(x, y, b) for x, y in a),
        min(point_polygon_distance(x, y, a) for x, y in b),
    )
    # Two boxes can cross without either holding a corner of the other (a plus sign): then edges intersect.
    n, m = len(a), len(b)
    for i in range(n):
        for j in range(m):
            if _segments_cross(a[i], a[(i + 1) % n], b[j], b[(j + 1) % m]):
                return 0.0
    return gap


def _segments_cross(
    p1: tuple[float, float], p2: tuple[float, float], q1: tuple[float, float], q2: tuple[float, float]
) -> bool:
    def side(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    return side(p1, p2, q1) * side(p1, p2, q2) < 0 and side(q1, q2, p1) * side(q1, q2, p2) < 0


class SeatedPiece(Protocol):
    kind: str  # its piece class, or "obstacle" for a movable obstacle
    covering: str | None  # for ice: the piece it rides on
    fallen: bool  # fell off the table


class PiecesOnTheTable:
    """What either engine answers alike about its pieces: where they are, whether they are on the mat or
    off the table, the mat's friction under a point, and putting a stray back on the edge."""

    mat: MatConfig
    pieces: Mapping[str, SeatedPiece]
    _surface: MatSurface
    _static_names: set[str]  # "wall" and the fixed obstacles' names
    _record: ShotRecord | None  # the shot being run
    _open: dict[tuple[str, str], list[float]]  # contacts in progress: t, x, y, impulse, speed
    frame_period_s: float | None = None  # set: each shot is filmed at this period (ShotRecord.frames)

    def _set_the_table(
        self,
        mat: MatConfig,
        seed: int,
        perturb: bool,
        walls: Sequence[WallSegment] | None,
        obstacles: Sequence[FixedObstacle],
        physics: Physics | None,
    ) -> None:
        """The table either engine plays on: the mat, its walls and obstacles, its constants, its dice."""
        self.mat = mat
        self.rng = random.Random(seed)
        self.perturb = perturb
        self.physics = physics or Physics()
        self.walls = tuple(walls) if walls is not None else None
        self.obstacles = tuple(obstacles)
        self.time_s = 0.0

    def film(self, record: ShotRecord, t_s: float, *, last: bool = False) -> None:
        """Take the frames due by ``t_s`` into the shot (``last``: the shot has ended; one more frame)."""
        if self.frame_period_s is None:
            return
        due = len(record.frames) * self.frame_period_s
        if t_s + 1e-9 >= due or last:
            record.frames.append((t_s, self.positions()))

    def _close(self, key: tuple[str, str]) -> None:
        """A contact in progress ends: it goes into the shot's record with the impulse it had."""
        opened = self._open.pop(key, None)
        if opened is None or self._record is None:
            return
        a, b = key
        kind = contact_kind(a, b, self._static_names, lambda p: self.pieces[p].kind)
        t, x, y, impulse, speed = opened
        self._record.contacts.append(Contact(t, x, y, a, b, kind, impulse, speed))

    def position(self, piece_id: str) -> tuple[float, float]:
        raise NotImplementedError

    def fixed_clearance(self, x_mm: float, y_mm: float) -> float:
        """Distance from a point to the nearest fixed obstacle (negative inside one)."""
        raise NotImplementedError

    def radius(self, piece_id: str) -> float:
        raise NotImplementedError

    def move(self, piece_id: str, x_mm: float, y_mm: float) -> None:
        raise NotImplementedError

    def positions(self) -> dict[str, tuple[float, float]]:
        """Where the pieces on the table are; a piece that fell off it (or rides on one that did) is not."""
        return {pid: self.position(pid) for pid in self.pieces if not self.off_table(pid)}

    def off_table(self, piece_id: str) -> bool:
        piece = self.pieces[piece_id]
        if piece.covering is not None:
            return self.pieces[piece.covering].fallen
        return piece.fallen

    def on_mat(self, piece_id: str) -> bool:
        x, y = self.position(piece_id)
        return 0.0 <= x <= self.mat.width_mm and 0.0 <= y <= self.mat.height_mm

    def friction_at(self, x_mm: float, y_mm: float) -> float:
        return self._surface.friction_at(x_mm, y_mm)

    def return_to_edge(self, piece_id: str, where: tuple[float, float]) -> None:
        """Rulebook: a piece that left the playmat is put back on the edge where it left. Where another piece
        already stands there, the player puts it beside that one, along the edge (discs never overlap)."""
        radius = self.radius(piece_id)
        x0, y0 = return_spot(self.mat, where, radius)
        others = [
            (*self.position(p), self.radius(p))
            for p, piece in self.pieces.items()
            if p != piece_id and piece.covering is None and not self.off_table(p)
        ]
        w, h = self.mat.width_mm, self.mat.height_mm
        along_x = not (x0 <= radius + 1e-6 or x0 >= w - radius - 1e-6)  # on the bottom or top edge
        inward = (0.0, 1.0 if y0 < h / 2 else -1.0) if along_x else (1.0 if x0 < w / 2 else -1.0, 0.0)
        for row in range(4):
            for step in range(60):
                for sign in (1.0, -1.0) if step else (1.0,):
                    shift = sign * step * RETURN_STEP_MM
                    x = x0 + (shift if along_x else 0.0) + inward[0] * row * 2 * radius
                    y = y0 + (0.0 if along_x else shift) + inward[1] * row * 2 * radius
                    if not (radius <= x <= w - radius and radius <= y <= h - radius):
                        continue
                    if self.fixed_clearance(x, y) < radius:
                        continue
                    if all(math.hypot(x - ox, y - oy) >= radius + orad + 0.5 for ox, oy, orad in others):
                        self.move(piece_id, x, y)
                        return
        self.move(piece_id, x0, y0)
