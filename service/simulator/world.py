"""The simulated mat's ground truth: wooden discs sliding on a neoprene mat inside Elzra's walls.

This physics is deliberately richer than the daemon's model (service/attribution/model.py): every piece gets
its own friction (±20 %), restitution and radius (±0.5 mm), restitution falls with impact speed, the mat's
friction varies across its surface, and the time step is fine. The daemon never sees this module's state; it
only sees what the sensor model (sensors.py) makes of it.

By default the table is the classic one: a closed rectangle of walls ``wall_gap_mm`` outside the mat, and the
constants of :class:`Physics` (table_edges.py, shared with impulse_world.py). A table can instead have walls
with gaps or open sides (a piece that goes more than ``FALL_OFF_MM`` past the mat where no wall holds it falls
off the table), fixed untagged obstacles (circles and convex polygons such as boxes at any angle) and other
constants, so that benchmarks can draw ground truths the daemon's model is not told
(service/simulator/hidden_mats.py).

Sliding friction follows pymunk's "tank" pattern: each disc is tied to the static body by a pivot joint and a
gear joint with ``max_bias = 0`` and ``max_force = μ m g``. The joints then act as Coulomb friction
(a constant decelerating force), so a disc stops after v²/(2 μ g) as a real one does; ``space.damping``
would instead make the slowdown proportional to speed.

Units: millimetres, grams, seconds (forces in g·mm/s²).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pymunk

from service.mat.geometry import MatConfig, PieceClass
from service.mat.trace import FixedObstacle, WallSegment
from service.simulator.table_edges import (
    COVER_KNOCK_IMPULSE,
    FALL_OFF_MM,
    GRAVITY_MM_S2,
    MAX_SHOT_S,
    RESTITUTION_FLOOR,
    WALL_FRICTION,
    WALL_RADIUS_MM,
    Contact,
    MatSurface,
    Physics,
    PiecesOnTheTable,
    ShotRecord,
    close_the_record,
    edge_crossing,
    falls_off,
    fell_at,
    landing_spot,
    wall_lines,
)

__all__ = [
    "COVER_KNOCK_IMPULSE",
    "FALL_OFF_MM",
    "WALL_RADIUS_MM",
    "Contact",
    "ShotRecord",
    "World",
]

SUBSTEP_S = 1 / 2000  # a 3 m/s disc moves 1.5 mm per step: far less than the smallest radius (11 mm)
REST_SPEED_MM_S = 2.0
FRICTION_UPDATE_EVERY = 10  # substeps between re-reading the mat's local friction

PIECE_COLLISION = 1
WALL_COLLISION = 2
FIXED_OBSTACLE_COLLISION = 3


@dataclass
class _Piece:
    id: str
    kind: str
    side: str
    body: pymunk.Body
    shape: pymunk.Circle
    pivot: pymunk.PivotJoint
    gear: pymunk.GearJoint
    friction_scale: float
    base_elasticity: float
    nominal: PieceClass | None = None  # the catalogue size and mass, before this piece's own variation
    covering: str | None = None  # for ice: the piece it sits on (then it has no body in the space)
    offset: tuple[float, float] = (0.0, 0.0)
    fallen: bool = False  # fell off the table: out of the space and out of every scan until put back


class World(PiecesOnTheTable):
    """Pymunk world of the pieces on the mat; ``flick`` runs one shot to rest and returns its ground truth."""

    def __init__(
        self,
        mat: MatConfig,
        *,
        seed: int = 0,
        perturb: bool = True,
        substep_s: float = SUBSTEP_S,
        walls: Sequence[WallSegment] | None = None,
        obstacles: Sequence[FixedObstacle] = (),
        physics: Physics | None = None,
    ) -> None:
        """``walls``: the walls' inner faces (docs/trace-format.md); None: the classic closed rectangle."""
        self._set_the_table(mat, seed, perturb, walls, obstacles, physics)
        self.substep_s = substep_s
        self.space = pymunk.Space()
        self.space.gravity = (0.0, 0.0)
        self.space.iterations = 20
        self.pieces: dict[str, _Piece] = {}
        self._by_shape: dict[pymunk.Shape, str] = {}
        self._wall_lines: list[tuple[float, float, float, float]] = []  # inner faces, for the fall-off test
        self._fixed: list[pymunk.Shape] = []
        self._static_names = {"wall"}
        self._add_walls()
        self._add_fixed_obstacles()
        self._surface = MatSurface(mat, self.rng, perturb)  # the mat's friction varies smoothly across it
        self._record: ShotRecord | None = None
        self._open: dict[tuple[str, str], list[float]] = {}
        # Pieces the flicked disc rests against when it is flicked: no contact begins with them, yet a flick
        # into one pushes it from the first instant, and that is a direct hit like any other.
        self._resting_against: set[str] = set()
        self.space.on_collision(
            begin=self._on_begin,
            post_solve=self._on_post_solve,
            pre_solve=self._on_pre_solve,
            separate=self._on_separate,
        )

    # ---- building the table ----
    def _add_walls(self) -> None:
        lines, faces = wall_lines(self.mat, self.walls)
        for (x1, y1, x2, y2), face in zip(lines, faces, strict=True):
            wall = pymunk.Segment(self.space.static_body, (x1, y1), (x2, y2), WALL_RADIUS_MM)
            wall.elasticity = self.mat.wall_restitution
            wall.friction = WALL_FRICTION
            wall.collision_type = WALL_COLLISION
            self.space.add(wall)
            self._by_shape[wall] = "wall"
            self._wall_lines.append(face)

    def _add_fixed_obstacles(self) -> None:
        for i, obstacle in enumerate(self.obstacles):
            body = self.space.static_body
            if obstacle.shape == "circle":
                shape: pymunk.Shape = pymunk.Circle(
                    body, obstacle.radius_mm, offset=(obstacle.x_mm, obstacle.y_mm)
                )
            else:
                shape = pymunk.Poly(body, list(obstacle.points))
            shape.elasticity = self.physics.obstacle_elasticity
            shape.friction = WALL_FRICTION
            shape.collision_type = FIXED_OBSTACLE_COLLISION
            self.space.add(shape)
            name = f"fixed-{i + 1}"
            self._by_shape[shape] = name
            self._static_names.add(name)
            self._fixed.append(shape)

    def place(
        self,
        piece_id: str,
        piece_class: PieceClass,
        x_mm: float,
        y_mm: float,
        *,
        kind: str | None = None,
        side: str = "neutral",
        covering: str | None = None,
    ) -> None:
        """Put a piece on the mat. An ice piece is placed ``covering`` another piece and rides on it."""
        if piece_id in self.pieces:
            raise ValueError(f"piece {piece_id!r} is already on the mat")
        kind = kind or piece_class.name
        radius = piece_class.radius_mm + (self.rng.uniform(-0.5, 0.5) if self.perturb else 0.0)
        mass = piece_class.mass_g
        if self.perturb and self.physics.mass_spread > 0.0:
            mass *= self.rng.uniform(1.0 - self.physics.mass_spread, 1.0 + self.physics.mass_spread)
        body = pymunk.Body(mass, pymunk.moment_for_circle(mass, 0, radius))
        body.position = (x_mm, y_mm)
        shape = pymunk.Circle(body, radius)
        spread = self.physics.friction_spread
        friction_scale = self.rng.uniform(1.0 - spread, 1.0 + spread) if self.perturb else 1.0
        base = self.physics.disc_elasticity
        elasticity = (base * self.rng.uniform(0.92, 1.05)) if self.perturb else base
        shape.elasticity = min(elasticity, 0.98)
        shape.friction = self.physics.disc_disc_friction
        shape.collision_type = PIECE_COLLISION
        pivot = pymunk.PivotJoint(self.space.static_body, body, (0, 0), (0, 0))
        pivot.max_bias = 0
        gear = pymunk.GearJoint(self.space.static_body, body, 0.0, 1.0)
        gear.max_bias = 0
        piece = _Piece(
            piece_id, kind, side, body, shape, pivot, gear, friction_scale, shape.elasticity, piece_class
        )
        if covering is not None:
            if covering not in self.pieces:
                raise ValueError(f"cannot cover {covering!r}: no such piece on the mat")
            piece.covering = covering
            piece.offset = (
                x_mm - self.pieces[covering].body.position.x,
                y_mm - self.pieces[covering].body.position.y,
            )
        else:
            self.space.add(body, shape, pivot, gear)
            self._by_shape[shape] = piece_id
        self.pieces[piece_id] = piece
        self._update_friction(piece)

    def remove(self, piece_id: str) -> None:
        piece = self.pieces.pop(piece_id)
        if piece.covering is None and not piece.fallen:
            self.space.remove(piece.body, piece.shape, piece.pivot, piece.gear)
            del self._by_shape[piece.shape]
        for other in self.pieces.values():
            if other.covering == piece_id:
                other.covering = None  # its host is gone: the ice piece falls where it was
                self.space.add(other.body, other.shape, other.pivot, other.gear)
                self._by_shape[other.shape] = other.id

    def move(self, piece_id: str, x_mm: float, y_mm: float) -> None:
        """Pick a piece up and set it down elsewhere (returning a piece to the edge, placing a shot)."""
        piece = self.pieces[piece_id]
        body = piece.body
        if piece.fallen:  # picked up from the floor
            piece.fallen = False
            self.space.add(piece.body, piece.shape, piece.pivot, piece.gear)
            self._by_shape[piece.shape] = piece_id
        body.position = (x_mm, y_mm)
        body.velocity = (0, 0)
        body.angular_velocity = 0
        self.space.reindex_shapes_for_body(body)

    # ---- reading it ----
    def position(self, piece_id: str) -> tuple[float, float]:
        piece = self.pieces[piece_id]
        if piece.covering is not None:
            host = self.pieces[piece.covering].body.position
            return (host.x + piece.offset[0], host.y + piece.offset[1])
        return (piece.body.position.x, piece.body.position.y)

    def fixed_clearance(self, x_mm: float, y_mm: float) -> float:
        """Distance from a point to the nearest fixed obstacle (negative inside one; infinite without any)."""
        return min((shape.point_query((x_mm, y_mm)).distance for shape in self._fixed), default=math.inf)

    def radius(self, piece_id: str) -> float:
        return float(self.pieces[piece_id].shape.radius)

    def _update_friction(self, piece: _Piece) -> None:
        mu = self.friction_at(*self.position(piece.id)) * piece.friction_scale
        force = mu * piece.body.mass * GRAVITY_MM_S2
        piece.pivot.max_force = force
        # A sliding disc's spin is braked by friction acting over its face: torque ≈ (2/3) μ m g r.
        piece.gear.max_force = force * piece.shape.radius * 2 / 3

    # ---- contacts ----
    def _note_resting_against(self, arbiter: pymunk.Arbiter, flicked: str) -> None:
        other = next((name for name in self._names(arbiter) if name != flicked), None)
        if other is not None and other not in self._static_names and arbiter.contact_point_set.points:
            self._resting_against.add(other)

    def _names(self, arbiter: pymunk.Arbiter) -> tuple[str, str]:
        a, b = arbiter.shapes
        return self._by_shape.get(a, "?"), self._by_shape.get(b, "?")

    def _on_pre_solve(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        if not self.perturb:
            return
        a, b = arbiter.bodies
        normal = arbiter.normal
        speed = abs((a.velocity - b.velocity).dot(normal))
        # Wood bounces less the harder it is hit (plastic deformation): e falls ~10 % per m/s by default.
        falloff = self.physics.restitution_falloff_per_m_s / 1000  # per mm/s
        arbiter.restitution = arbiter.restitution * max(RESTITUTION_FLOOR, 1.0 - falloff * speed)

    def _on_begin(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        record = self._record
        if record is None:
            return
        a, b = self._names(arbiter)
        body_a, body_b = arbiter.bodies
        speed = abs((body_a.velocity - body_b.velocity).dot(arbiter.normal))
        if speed < 1.0:
            return  # pieces resting against each other are not a new contact
        point = (
            arbiter.contact_point_set.points[0].point_a
            if arbiter.contact_point_set.points
            else body_a.position
        )
        # Contact times count from the flick: the sensor model adds them to the shot's start on the device
        # clock, so the world's running time (which goes on across shots) must not leak into them.
        self._open[(a, b)] = [self.time_s - record.start_t_s, point.x, point.y, 0.0, speed]
        if record.flicked in (a, b):
            other = b if a == record.flicked else a
            if other not in self._static_names:
                record.direct_hits.add(other)

    def _on_post_solve(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        key = self._names(arbiter)
        if key in self._open:
            self._open[key][3] += arbiter.total_impulse.length
        record = self._record
        if record is not None and record.flicked in key and arbiter.total_impulse.length > 0:
            other = key[1] if key[0] == record.flicked else key[0]
            if other in self._resting_against:
                record.direct_hits.add(other)

    def _on_separate(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        key = self._names(arbiter)
        self._close(key)

    # ---- a shot ----
    def flick(self, piece_id: str, angle_rad: float, speed_mm_s: float) -> ShotRecord:
        """Flick a piece and run the world until every piece rests; returns what really happened."""
        if (
            piece_id not in self.pieces
            or self.pieces[piece_id].covering is not None
            or self.off_table(piece_id)
        ):
            raise ValueError(f"cannot flick {piece_id!r}: not a free piece on the mat")
        start = {pid: self.position(pid) for pid in self.pieces}
        flicked = self.pieces[piece_id].body
        record = ShotRecord(
            piece_id,
            angle_rad,
            speed_mm_s,
            self.time_s,
            flick_at=start[piece_id],
            flick_momentum=flicked.mass * speed_mm_s,
        )
        self._record = record
        self._resting_against = set()
        flicked.each_arbiter(self._note_resting_against, piece_id)
        flicked.velocity = (speed_mm_s * math.cos(angle_rad), speed_mm_s * math.sin(angle_rad))
        # A flick with a fingernail adds some spin; it changes little but is real.
        flicked.angular_velocity = self.rng.gauss(0.0, 3.0) if self.perturb else 0.0
        free = [p for p in self.pieces.values() if p.covering is None and not p.fallen]
        step = 0
        t0 = self.time_s
        self.film(record, 0.0)
        while self.time_s - t0 < MAX_SHOT_S:
            self.space.step(self.substep_s)
            self.time_s += self.substep_s
            step += 1
            self.film(record, self.time_s - t0)
            if step % FRICTION_UPDATE_EVERY == 0:
                moving = False
                for piece in free:
                    if piece.fallen:
                        continue
                    if piece.body.velocity.length > REST_SPEED_MM_S or abs(piece.body.angular_velocity) > 0.5:
                        moving = True
                        self._update_friction(piece)
                        self._note_edge(piece, record)
                        if self._falls(piece):
                            self._fall(piece, record)
                if step % 20 == 0:
                    record.path.append((self.time_s - t0, flicked.position.x, flicked.position.y))
                if not moving:
                    break
        for piece in free:
            # A piece can creep past the table's edge between two checks and stop there: it topples off.
            if not piece.fallen and self._falls(piece):
                self._note_edge(piece, record)
                self._fall(piece, record)
        for key in list(self._open):
            self._close(key)
        for piece in free:
            piece.body.velocity = (0, 0)
            piece.body.angular_velocity = 0
        self._record = None
        record.duration_s = self.time_s - t0
        record.path.append((record.duration_s, flicked.position.x, flicked.position.y))
        self.film(record, record.duration_s, last=True)
        covers = {pid: p.covering for pid, p in self.pieces.items() if p.covering is not None}
        now = {pid: self.position(pid) for pid in start}
        close_the_record(record, start, now, covers, self._static_names)
        for cover_id in record.covers_knocked_off:
            self._knock_off(cover_id)
        return record

    def _note_edge(self, piece: _Piece, record: ShotRecord) -> None:
        """Record where a piece went completely off the playmat (beyond the edge by more than its radius)."""
        if piece.id not in record.left_mat:
            crossing = edge_crossing(self.mat, *piece.body.position, piece.shape.radius)
            if crossing is not None:
                record.left_mat[piece.id] = crossing

    def _falls(self, piece: _Piece) -> bool:
        """Whether a piece went off the table (table_edges.falls_off)."""
        return falls_off(self.mat, self._wall_lines, *piece.body.position)

    def _fall(self, piece: _Piece, record: ShotRecord) -> None:
        """The piece drops off the table where it is: it leaves the space and every later scan."""
        if piece.id not in record.left_mat:
            record.left_mat[piece.id] = fell_at(self.mat, *piece.body.position)
        for key in [k for k in self._open if piece.id in k]:
            self._close(key)  # contacts it was still in end here, with the impulse they had so far
        piece.body.velocity = (0, 0)
        piece.body.angular_velocity = 0
        self.space.remove(piece.body, piece.shape, piece.pivot, piece.gear)
        del self._by_shape[piece.shape]
        piece.fallen = True

    def _knock_off(self, cover_id: str) -> None:
        cover = self.pieces[cover_id]
        host = self.pieces[cover.covering] if cover.covering else None
        if host is None:
            return
        hx, hy = host.body.position
        x, y = landing_spot(
            self.rng, self.mat, (hx, hy, host.shape.radius), cover.shape.radius, self.fixed_clearance
        )
        cover.covering = None
        cover.body.position = (x, y)
        self.space.add(cover.body, cover.shape, cover.pivot, cover.gear)
        self._by_shape[cover.shape] = cover.id
        self._update_friction(cover)
