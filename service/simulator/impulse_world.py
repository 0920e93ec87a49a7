"""A second ground truth with physics of its own: discs that slide *and spin*, with no pymunk in it.

The daemon's model (service/attribution/model.py) and the classic simulated mat (world.py) are both pymunk
worlds of the same kind: Coulomb friction through pivot and gear joints, contacts solved iteratively, a
pair's bounce the product of two elasticities. A benchmark whose truth comes from the same engine cannot show
what a different engine, or a real mat, does to the attribution. This one is written from the mechanics:

* **Sliding and spinning friction are coupled.** A disc sliding on its whole face while it spins feels the
  friction of every point of its face, each opposing that point's own velocity: spin lowers the braking
  force (a spinning disc slides farther) and sliding lowers the braking torque. Padé approximants of the
  uniform-pressure disc (after Farkas, Bartels, Unger and Wolf, PRL 90, 248302, 2003) give both.
* **Friction depends on speed.** Neoprene is viscoelastic: μ(v) = μ₀ (1 + slope · (v − 1 m/s)), so a
  stopping distance does not grow exactly as v².
* **Contacts are instantaneous impulses**, applied pair by pair: the normal impulse from a restitution that
  falls with impact speed, the tangential one from Coulomb friction at the contact that stops the slip or
  saturates at μ·Jₙ, spinning both discs. A pair's restitution is the mean of the two discs' (not their
  product), drawn per piece around the table's.
* **Fixed step, plain Euler**, 0.4 ms: a fast disc moves about a millimetre a step.

It offers :class:`World`'s interface (place, move, remove, positions, flick, …) and returns the same
:class:`ShotRecord`, so :class:`ShotLab` and the sensor model run on it unchanged. Units: mm, g, s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from service.mat.geometry import MatConfig, PieceClass
from service.mat.trace import FixedObstacle, WallSegment
from service.simulator.impulse_bodies import Disc, Static, anticlockwise, pair_key
from service.simulator.table_edges import (
    GRAVITY_MM_S2,
    MAX_SHOT_S,
    RESTITUTION_FLOOR,
    WALL_FRICTION,
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

STEP_S = 0.0004
TOUCH_MM = 0.3  # a pair this close (surface to surface) is in contact
SEPARATE_MM = 0.8  # and has separated once this far apart
SOLVER_PASSES = 4  # impulse passes per step, so a push through a row of discs reaches its end
# Padé coefficients of the coupled sliding-spinning friction of a disc under uniform pressure: the braking
# force falls as spin (r·ω) grows against the sliding speed, and the braking torque the other way round.
FORCE_SPIN_WEIGHT = 0.6
TORQUE_SLIDE_WEIGHT = 1.5


class ImpulseWorld(PiecesOnTheTable):
    """The pieces on one mat, moved by the mechanics above; ``flick`` runs a shot to rest."""

    def __init__(
        self,
        mat: MatConfig,
        *,
        seed: int = 0,
        perturb: bool = True,
        walls: Sequence[WallSegment] | None = None,
        obstacles: Sequence[FixedObstacle] = (),
        physics: Physics | None = None,
    ) -> None:
        self._set_the_table(mat, seed, perturb, walls, obstacles, physics)
        self.pieces: dict[str, Disc] = {}
        self._statics: list[Static] = []
        self._wall_lines: list[tuple[float, float, float, float]] = []  # inner faces, for the fall-off test
        self._add_walls()
        for i, ob in enumerate(self.obstacles):
            restitution = self.physics.obstacle_elasticity
            if ob.shape == "circle":
                self._statics.append(
                    Static(f"fixed-{i + 1}", restitution, circle=(ob.x_mm, ob.y_mm, ob.radius_mm))
                )
            else:
                self._statics.append(Static(f"fixed-{i + 1}", restitution, polygon=anticlockwise(ob.points)))
        self._static_names = {s.name for s in self._statics} | {"wall"}
        self._record: ShotRecord | None = None  # the shot being run
        self._open: dict[tuple[str, str], list[float]] = {}  # contacts in progress: t, x, y, impulse, speed
        self._touching: set[tuple[str, str]] = set()
        self._surface = MatSurface(mat, self.rng, perturb)

    def _add_walls(self) -> None:
        lines, faces = wall_lines(self.mat, self.walls)
        for line, face in zip(lines, faces, strict=True):
            self._statics.append(Static("wall", self.mat.wall_restitution, segment=line))
            self._wall_lines.append(face)

    # ---- building and reading the table (World's interface) ----
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
        if piece_id in self.pieces:
            raise ValueError(f"piece {piece_id!r} is already on the mat")
        u = self.rng.uniform
        spread = self.physics.friction_spread
        mass = piece_class.mass_g
        if self.perturb and self.physics.mass_spread > 0.0:
            mass *= u(1.0 - self.physics.mass_spread, 1.0 + self.physics.mass_spread)
        disc = Disc(
            piece_id,
            kind or piece_class.name,
            side,
            piece_class.radius_mm + (u(-0.5, 0.5) if self.perturb else 0.0),
            mass,
            u(1.0 - spread, 1.0 + spread) if self.perturb else 1.0,
            min(0.97, self.physics.disc_elasticity * (u(0.94, 1.04) if self.perturb else 1.0)),
            x_mm,
            y_mm,
        )
        if covering is not None:
            if covering not in self.pieces:
                raise ValueError(f"cannot cover {covering!r}: no such piece on the mat")
            host = self.pieces[covering]
            disc.covering, disc.offset = covering, (x_mm - host.x, y_mm - host.y)
        self.pieces[piece_id] = disc

    def remove(self, piece_id: str) -> None:
        for other in self.pieces.values():
            if other.covering == piece_id:
                other.x, other.y = self.position(other.id)  # its host is gone: the ice stays where it was
                other.covering = None
        self.pieces.pop(piece_id)

    def move(self, piece_id: str, x_mm: float, y_mm: float) -> None:
        disc = self.pieces[piece_id]
        disc.fallen = False
        disc.x, disc.y, disc.vx, disc.vy, disc.spin = x_mm, y_mm, 0.0, 0.0, 0.0

    def position(self, piece_id: str) -> tuple[float, float]:
        disc = self.pieces[piece_id]
        if disc.covering is not None:
            host = self.pieces[disc.covering]
            return (host.x + disc.offset[0], host.y + disc.offset[1])
        return (disc.x, disc.y)

    def fixed_clearance(self, x_mm: float, y_mm: float) -> float:
        return min((s.nearest(x_mm, y_mm)[2] for s in self._statics if s.name != "wall"), default=math.inf)

    def radius(self, piece_id: str) -> float:
        return self.pieces[piece_id].radius

    # ---- a shot ----
    def flick(
        self, piece_id: str, angle_rad: float, speed_mm_s: float, *, spin_rad_s: float | None = None
    ) -> ShotRecord:
        """Flick a piece (with ``spin_rad_s``, or the spin a finger gives) and run the shot to rest."""
        if (
            piece_id not in self.pieces
            or self.pieces[piece_id].covering is not None
            or self.off_table(piece_id)
        ):
            raise ValueError(f"cannot flick {piece_id!r}: not a free piece on the mat")
        start = {pid: self.position(pid) for pid in self.pieces}
        flicked = self.pieces[piece_id]
        record = ShotRecord(
            piece_id,
            angle_rad,
            speed_mm_s,
            self.time_s,
            flick_at=start[piece_id],
            flick_momentum=flicked.mass * speed_mm_s,
        )
        flicked.vx, flicked.vy = speed_mm_s * math.cos(angle_rad), speed_mm_s * math.sin(angle_rad)
        # A fingernail flick off the disc's centre line spins it: a few turns a second either way.
        if spin_rad_s is not None:
            flicked.spin = spin_rad_s
        else:
            flicked.spin = self.rng.gauss(0.0, self.physics.flick_spin_rad_s) if self.perturb else 0.0
        free = [d for d in self.pieces.values() if d.covering is None and not d.fallen]
        # Pairs already touching (a disc flicked from against another): no contact begins until they push.
        touching = {
            pair_key(a.id, b.id)
            for i, a in enumerate(free)
            for b in free[i + 1 :]
            if math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius < TOUCH_MM
        }
        self._open = {}
        self._touching = touching
        self._record = record
        t0 = self.time_s
        steps = 0
        awake = {flicked.id}
        self.film(record, 0.0)
        while self.time_s - t0 < MAX_SHOT_S and awake:
            self.time_s += STEP_S
            steps += 1
            self._step(free, awake, record, t0)
            if steps % 50 == 0:
                record.path.append((self.time_s - t0, flicked.x, flicked.y))
            self.film(record, self.time_s - t0)
        for disc in free:
            if not disc.fallen and self._falls(disc):
                self._note_edge(disc, record)
                self._fall(disc, record)
            disc.vx = disc.vy = disc.spin = 0.0
        for key in list(self._open):
            self._close(key)
        record.duration_s = self.time_s - t0
        record.path.append((record.duration_s, flicked.x, flicked.y))
        self.film(record, record.duration_s, last=True)
        covers = {pid: d.covering for pid, d in self.pieces.items() if d.covering is not None}
        close_the_record(
            record, start, {pid: self.position(pid) for pid in start}, covers, self._static_names
        )
        for cover_id in record.covers_knocked_off:
            self._knock_off(cover_id)
        self._record = None
        return record

    def _step(self, free: list[Disc], awake: set[str], record: ShotRecord, t0: float) -> None:
        """One step of a shot: the moving discs braked and moved, their contacts solved, and each that left
        the table or came to rest put to sleep."""
        for disc in [self.pieces[p] for p in sorted(awake)]:
            self._brake(disc)
            disc.x += disc.vx * STEP_S
            disc.y += disc.vy * STEP_S
        for _ in range(SOLVER_PASSES):
            if not self._solve(free, awake, t0):
                break
        self._close_separated(t0)
        for pid in sorted(awake):  # sorted: the record's order, and so the noise drawn for it, never
            # depends on how strings hash in this process
            disc = self.pieces[pid]
            self._note_edge(disc, record)
            if self._falls(disc):
                self._fall(disc, record)
                awake.discard(pid)
            elif not disc.moving():
                disc.vx = disc.vy = disc.spin = 0.0
                awake.discard(pid)

    def _brake(self, disc: Disc) -> None:
        """One step of the mat's friction on a sliding, spinning disc (coupled: see the module's text)."""
        speed = math.hypot(disc.vx, disc.vy)
        rim = abs(disc.spin) * disc.radius
        mu = self.friction_at(disc.x, disc.y) * disc.friction_scale
        mu *= max(0.5, 1.0 + self.physics.speed_friction_slope * (speed / 1000.0 - 1.0))
        if speed > 0.0:
            share = speed / math.hypot(speed, FORCE_SPIN_WEIGHT * rim)
            slow = mu * GRAVITY_MM_S2 * share * STEP_S
            if slow >= speed:
                disc.vx = disc.vy = 0.0
            else:
                disc.vx -= disc.vx / speed * slow
                disc.vy -= disc.vy / speed * slow
        if rim > 0.0:
            share = rim / math.hypot(rim, TORQUE_SLIDE_WEIGHT * speed)
            # Torque (2/3) μ m g r over the inertia ½ m r²: angular deceleration (4/3) μ g / r.
            unspin = (4.0 / 3.0) * mu * GRAVITY_MM_S2 / disc.radius * share * STEP_S
            disc.spin = 0.0 if unspin >= abs(disc.spin) else disc.spin - math.copysign(unspin, disc.spin)

    def _solve(self, free: list[Disc], awake: set[str], t0: float) -> bool:
        """One pass of contact impulses over every pair that involves a moving disc; True if any acted."""
        acted = False
        movers = [self.pieces[p] for p in sorted(awake)]
        mover_ids = {a.id for a in movers}
        for a in movers:
            if a.fallen:
                continue
            for b in free:
                if b is a or b.fallen or (b.id in mover_ids and b.id < a.id):
                    continue
                dx, dy = b.x - a.x, b.y - a.y
                reach = a.radius + b.radius
                if abs(dx) > reach + 1.0 or abs(dy) > reach + 1.0:
                    continue
                d = math.hypot(dx, dy)
                if d >= reach or d < 1e-9:
                    continue
                nx, ny = dx / d, dy / d
                if self._impulse(a, b, nx, ny, a.x + nx * a.radius, a.y + ny * a.radius, t0):
                    acted = True
                    awake.add(b.id)
                # Undo the overlap, split by inverse mass, so pressed discs do not sink into each other.
                overlap = reach - d
                wa, wb = 1 / a.mass, 1 / b.mass
                a.x -= nx * overlap * wa / (wa + wb)
                a.y -= ny * overlap * wa / (wa + wb)
                b.x += nx * overlap * wb / (wa + wb)
                b.y += ny * overlap * wb / (wa + wb)
            for solid in self._statics:
                qx, qy, dist = solid.nearest(a.x, a.y)
                if dist >= a.radius:
                    continue
                # The normal points from the solid to the disc's centre.
                gx, gy = a.x - qx, a.y - qy
                g = math.hypot(gx, gy)
                if g < 1e-9:
                    continue
                nx, ny = gx / g, gy / g
                if dist < 0:
                    nx, ny = -nx, -ny
                if self._impulse_static(a, solid, nx, ny, t0):
                    acted = True
                push = a.radius - dist
                a.x += nx * push
                a.y += ny * push
        return acted

    def _impulse(self, a: Disc, b: Disc, nx: float, ny: float, px: float, py: float, t0: float) -> bool:
        """The impulse between two discs touching along the normal (a → b); False when they are separating."""
        tx, ty = -ny, nx
        # Velocity of each disc's surface at the contact point (ω × r).
        ua_x, ua_y = a.vx - a.spin * ny * a.radius, a.vy + a.spin * nx * a.radius
        ub_x, ub_y = b.vx + b.spin * ny * b.radius, b.vy - b.spin * nx * b.radius
        rel_n = (ub_x - ua_x) * nx + (ub_y - ua_y) * ny
        if rel_n >= 0.0:
            return False
        rel_t = (ub_x - ua_x) * tx + (ub_y - ua_y) * ty
        key = pair_key(a.id, b.id)
        restitution = 0.5 * (a.restitution + b.restitution) if key not in self._touching else 0.0
        restitution *= max(
            RESTITUTION_FLOOR, 1.0 - self.physics.restitution_falloff_per_m_s * -rel_n / 1000.0
        )
        inv_n = 1 / a.mass + 1 / b.mass
        jn = -(1.0 + restitution) * rel_n / inv_n
        inv_t = inv_n + a.radius**2 / a.inertia + b.radius**2 / b.inertia
        jt = max(
            -self.physics.disc_disc_friction * jn, min(self.physics.disc_disc_friction * jn, -rel_t / inv_t)
        )
        ix, iy = jn * nx + jt * tx, jn * ny + jt * ty
        a.vx -= ix / a.mass
        a.vy -= iy / a.mass
        b.vx += ix / b.mass
        b.vy += iy / b.mass
        # Torque of the tangential impulse: on a at +r·n, on b at −r·n.
        a.spin -= a.radius * jt / a.inertia
        b.spin -= b.radius * jt / b.inertia
        self._note(key, a.id, b.id, px, py, jn, -rel_n, t0)
        return True

    def _impulse_static(self, a: Disc, solid: Static, nx: float, ny: float, t0: float) -> bool:
        """The impulse from a wall or fixed obstacle whose surface normal (towards the disc) is n."""
        tx, ty = -ny, nx
        ux, uy = a.vx + a.spin * ny * a.radius, a.vy - a.spin * nx * a.radius  # surface at −r·n
        rel_n = ux * nx + uy * ny
        if rel_n >= 0.0:
            return False
        rel_t = ux * tx + uy * ty
        restitution = solid.restitution * max(
            RESTITUTION_FLOOR, 1.0 - self.physics.restitution_falloff_per_m_s * -rel_n / 1000.0
        )
        jn = -(1.0 + restitution) * rel_n * a.mass
        inv_t = 1 / a.mass + a.radius**2 / a.inertia
        jt = max(-WALL_FRICTION * jn, min(WALL_FRICTION * jn, -rel_t / inv_t))
        a.vx += (jn * nx + jt * tx) / a.mass
        a.vy += (jn * ny + jt * ty) / a.mass
        a.spin -= a.radius * jt / a.inertia
        key = (a.id, solid.name)
        self._note(key, a.id, solid.name, a.x - nx * a.radius, a.y - ny * a.radius, jn, -rel_n, t0)
        return True

    # ---- contacts: opened by the first impulse of a pair, closed once it separates ----
    def _note(
        self, key: tuple[str, str], a: str, b: str, x: float, y: float, jn: float, speed: float, t0: float
    ) -> None:
        opened = self._open.get(key)
        if opened is None:
            self._open[key] = [self.time_s - t0, x, y, jn, speed]
            self._touching.add(key)
            record = self._record
            if record is not None and record.flicked in (a, b):
                other = b if a == record.flicked else a
                if other not in self._static_names:
                    record.direct_hits.add(other)
        else:
            opened[3] += jn

    def _close_separated(self, t0: float) -> None:
        for key in sorted(self._touching):
            a, b = key
            da = self.pieces.get(a)
            if da is None:
                self._touching.discard(key)
                continue
            if b in self._static_names:
                solids = [s for s in self._statics if s.name == b]
                gap = min(s.nearest(da.x, da.y)[2] for s in solids) - da.radius
            else:
                db = self.pieces.get(b)
                if db is None:
                    self._touching.discard(key)
                    continue
                gap = math.hypot(da.x - db.x, da.y - db.y) - da.radius - db.radius
            if gap > SEPARATE_MM:
                self._touching.discard(key)
                self._close(key)

    # ---- leaving the mat and the table (as world.py) ----
    def _note_edge(self, disc: Disc, record: ShotRecord) -> None:
        if disc.id not in record.left_mat:
            crossing = edge_crossing(self.mat, disc.x, disc.y, disc.radius)
            if crossing is not None:
                record.left_mat[disc.id] = crossing

    def _falls(self, disc: Disc) -> bool:
        return falls_off(self.mat, self._wall_lines, disc.x, disc.y)

    def _fall(self, disc: Disc, record: ShotRecord) -> None:
        if disc.id not in record.left_mat:
            record.left_mat[disc.id] = fell_at(self.mat, disc.x, disc.y)
        for key in [k for k in self._open if disc.id in k]:
            self._close(key)
        disc.vx = disc.vy = disc.spin = 0.0
        disc.fallen = True

    def _knock_off(self, cover_id: str) -> None:
        cover = self.pieces[cover_id]
        host = self.pieces[cover.covering] if cover.covering else None
        if host is None:
            return
        spot = landing_spot(
            self.rng, self.mat, (host.x, host.y, host.radius), cover.radius, self.fixed_clearance
        )
        cover.covering = None
        cover.x, cover.y = spot
