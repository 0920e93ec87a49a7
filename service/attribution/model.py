"""The daemon's physics model of a shot: nominal pymunk rollouts from what the sensors reported.

Deliberately not the simulated mat's ground truth: every disc gets the nominal size and mass of its trace
entry, one friction coefficient (scaled per rollout), one restitution, a coarser time step, and pieces at rest
are allowed to sleep so a rollout costs a few milliseconds. What varies between rollouts is in
:class:`RolloutParams`; everything a rollout reports is in :class:`Rollout`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pymunk

from service.mat.trace import PieceSpec, ShotTrace

GRAVITY_MM_S2 = 9810.0
STEP_S = 1 / 500  # 6 mm per step at 3 m/s; the smallest disc is 20 mm across
MAX_ROLLOUT_S = 5.0
REST_SPEED_MM_S = 3.0
PATH_EVERY_STEPS = 10
COVER_KINDS = ("ice", "net", "web")  # pieces that sit on top of a character and are knocked off
GAP_NOISE_MM = 0.5  # a gap that closes by less than this over a rollout did not close
FIXED_PREFIX = "fixed:"  # contacts with the mat's fixed obstacles; like walls, they are nobody's hit


@dataclass(frozen=True)
class ModelParams:
    """Nominal physics the daemon assumes (the real mat differs piece by piece)."""

    sliding_friction: float = 0.40
    off_mat_friction: float = 0.30
    disc_restitution: float = 0.85
    wall_restitution: float = 0.55
    wall_friction: float = 0.3
    disc_friction: float = 0.25


@dataclass(frozen=True)
class RolloutParams:
    angle_rad: float
    speed_mm_s: float
    friction_scale: float = 1.0
    restitution_scale: float = 1.0  # disc on disc
    offsets: tuple[tuple[str, float, float], ...] = ()  # start-position corrections of some pieces
    wall_restitution_scale: float = 1.0  # walls and fixed obstacles
    disc_friction_scale: float = 1.0  # tangential friction between discs: the throw of a glancing hit


@dataclass(frozen=True)
class ModelContact:
    t_s: float
    x_mm: float
    y_mm: float
    a: str
    b: str  # piece id or "wall"
    kind: str  # disc | obstacle | wall
    impulse: float


@dataclass
class Rollout:
    params: RolloutParams
    direct: frozenset[str] = frozenset()
    pushed: frozenset[str] = frozenset()
    left_mat: dict[str, tuple[float, float]] = field(default_factory=dict)
    covers_knocked_off: frozenset[str] = frozenset()
    final: dict[str, tuple[float, float]] = field(default_factory=dict)
    contacts: list[ModelContact] = field(default_factory=list)
    path: list[tuple[float, float, float]] = field(default_factory=list)
    duration_s: float = 0.0
    start: dict[str, tuple[float, float]] = field(default_factory=dict)  # where this rollout set the pieces


@dataclass
class _Live:
    """Bookkeeping of the rollout in progress."""

    clock: float = 0.0
    open: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    contacts: list[ModelContact] = field(default_factory=list)
    direct: set[str] = field(default_factory=set)
    touched: set[str] = field(default_factory=set)


def cover_hosts(trace: ShotTrace) -> dict[str, str]:
    """Which piece each ice / net / web piece sits on: the nearest other piece in the pre-shot scan."""
    seen = trace.pre.by_piece()
    hosts = {}
    for spec in trace.pieces:
        if spec.kind not in COVER_KINDS or spec.piece not in seen:
            continue
        me = seen[spec.piece]
        best, best_d = None, math.inf
        for other in trace.pre.pieces:
            if other.piece == spec.piece or trace.spec(other.piece).kind in COVER_KINDS:
                continue
            d = math.hypot(other.x_mm - me.x_mm, other.y_mm - me.y_mm)
            if d < best_d:
                best, best_d = other.piece, d
        if best is not None and best_d <= trace.spec(best).radius_mm + 5:
            hosts[spec.piece] = best
    return hosts


class ShotModel:
    """Runs rollouts of one trace's shot; build one per block of rollouts, call :meth:`run` many times."""

    def __init__(self, trace: ShotTrace, params: ModelParams | None = None) -> None:
        self.trace = trace
        self.params = params or ModelParams()
        self.specs: dict[str, PieceSpec] = {p.piece: p for p in trace.pieces}
        self.hosts = cover_hosts(trace)
        self.start = {p.piece: (p.x_mm, p.y_mm) for p in trace.pre.pieces if p.piece not in self.hosts}
        self.flicked = trace.declaration.flicked
        self.obstacle_ids = {pid for pid, s in self.specs.items() if s.kind == "obstacle"}
        self._live: _Live | None = None
        self._placed: dict[str, tuple[float, float]] = dict(self.start)
        self._on_mat: dict[str, bool] = {}  # whether each piece has the mat's friction (set on a change only)
        self._radius = {pid: self.specs[pid].radius_mm for pid in self.start}
        self._largest_radius = max(self._radius.values(), default=0.0)
        self._build()

    def _build(self) -> None:
        """Built once per model; each rollout only resets it (30 pieces build in about half a rollout)."""
        mat, mp = self.trace.mat, self.params
        space = pymunk.Space()
        space.gravity = (0.0, 0.0)
        space.iterations = 8
        space.sleep_time_threshold = 0.01
        space.idle_speed_threshold = REST_SPEED_MM_S
        self.names: dict[pymunk.Shape, str] = {}
        self.walls: list[pymunk.Shape] = []
        # Walls as the trace gives them: a gap is a missing stretch, an open side no segment at all. The
        # segment's rounded thickness sits outside the line, so the line is the wall's inner face.
        cx, cy = mat.width_mm / 2, mat.height_mm / 2
        for seg in mat.wall_segments():
            nx, ny = seg.y2_mm - seg.y1_mm, seg.x1_mm - seg.x2_mm
            length = math.hypot(nx, ny)
            nx, ny = nx / length, ny / length
            mx, my = (seg.x1_mm + seg.x2_mm) / 2, (seg.y1_mm + seg.y2_mm) / 2
            if (cx - mx) * nx + (cy - my) * ny > 0:
                nx, ny = -nx, -ny  # point away from the mat
            a = (seg.x1_mm + nx * 10.0, seg.y1_mm + ny * 10.0)
            b = (seg.x2_mm + nx * 10.0, seg.y2_mm + ny * 10.0)
            wall = pymunk.Segment(space.static_body, a, b, 10.0)
            wall.friction = mp.wall_friction
            space.add(wall)
            self.names[wall] = "wall"
            self.walls.append(wall)
        for i, ob in enumerate(mat.obstacles):
            shape: pymunk.Shape
            if ob.shape == "circle":
                shape = pymunk.Circle(space.static_body, ob.radius_mm, (ob.x_mm, ob.y_mm))
            else:
                shape = pymunk.Poly(space.static_body, list(ob.points))
            shape.friction = mp.wall_friction
            space.add(shape)
            name = f"{FIXED_PREFIX}{i + 1}"
            self.names[shape] = name
            self.obstacle_ids.add(name)
            self.walls.append(shape)
        self.bodies: dict[str, tuple[pymunk.Body, pymunk.Circle, pymunk.PivotJoint, pymunk.GearJoint]] = {}
        for pid in self.start:
            spec = self.specs[pid]
            body = pymunk.Body(spec.mass_g, pymunk.moment_for_circle(spec.mass_g, 0, spec.radius_mm))
            body.position = self.start[pid]
            shape = pymunk.Circle(body, spec.radius_mm)
            shape.friction = mp.disc_friction
            pivot = pymunk.PivotJoint(space.static_body, body, (0, 0), (0, 0))
            pivot.max_bias = 0
            gear = pymunk.GearJoint(space.static_body, body, 0.0, 1.0)
            gear.max_bias = 0
            space.add(body, shape, pivot, gear)
            self.names[shape] = pid
            self.bodies[pid] = (body, shape, pivot, gear)
        self.space = space
        self._handlers: dict[str, object] = {}
        space.on_collision(begin=self._begin, post_solve=self._post_solve, separate=self._separate)

    def close(self) -> None:
        """Wake and remove every body before the space is dropped: freeing a space that still holds sleeping
        bodies can corrupt Chipmunk's memory."""
        for body, *_ in self.bodies.values():
            if body.is_sleeping:
                body.activate()
        for body, shape, pivot, gear in self.bodies.values():
            self.space.remove(body, shape, pivot, gear)
        self.bodies = {}

    def _reset(self, rp: RolloutParams) -> None:
        mp = self.params
        for wall in self.walls:
            wall.elasticity = min(0.98, mp.wall_restitution * rp.wall_restitution_scale)
        placed = self._placed = self.starting_positions(rp)
        elasticity = min(0.98, mp.disc_restitution * rp.restitution_scale)
        grip = mp.disc_friction * rp.disc_friction_scale  # per shape: pymunk multiplies a pair's two
        for pid, (body, shape, pivot, gear) in self.bodies.items():
            if body.is_sleeping:
                body.activate()
            body.position = placed[pid]
            body.velocity = (0.0, 0.0)
            body.angular_velocity = 0.0
            body.angle = 0.0
            shape.elasticity = elasticity
            shape.friction = grip
            self._on_mat[pid] = self._set_friction(body, pivot, gear, shape.radius, rp.friction_scale)
            self.space.reindex_shapes_for_body(body)
        # Settle one empty step so contacts cached from the previous rollout separate before the flick.
        # (Resting discs fall asleep by themselves after sleep_time_threshold; putting them to sleep by hand
        # here was faster but not safe with Chipmunk's memory management.)
        self.space.step(1e-6)

    # Contact bookkeeping of the rollout being run (a model runs one rollout at a time).
    def _begin(self, arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
        if self._live is None:
            return
        sa, sb = arbiter.shapes
        a, b = self.names.get(sa, "?"), self.names.get(sb, "?")
        ba, bb = arbiter.bodies
        if abs((ba.velocity - bb.velocity).dot(arbiter.normal)) < 1.0:
            return
        pts = arbiter.contact_point_set.points
        p = pts[0].point_a if pts else ba.position
        live = self._live
        live.open[(a, b)] = [live.clock, p.x, p.y, 0.0]
        if self.flicked in (a, b):
            other = b if a == self.flicked else a
            if other != "wall" and not other.startswith(FIXED_PREFIX):
                live.direct.add(other)
        for x in (a, b):
            if x not in ("wall", self.flicked) and not x.startswith(FIXED_PREFIX):
                live.touched.add(x)

    def _post_solve(self, arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
        if self._live is None:
            return
        sa, sb = arbiter.shapes
        entry = self._live.open.get((self.names.get(sa, "?"), self.names.get(sb, "?")))
        if entry is not None:
            entry[3] += arbiter.total_impulse.length

    def _separate(self, arbiter: pymunk.Arbiter, _space: pymunk.Space, _data: object) -> None:
        if self._live is None:
            return
        sa, sb = arbiter.shapes
        self._close((self.names.get(sa, "?"), self.names.get(sb, "?")))

    def _close(self, key: tuple[str, str]) -> None:
        live = self._live
        assert live is not None
        entry = live.open.pop(key, None)
        if entry is None:
            return
        a, b = key
        kind = "wall" if "wall" in key else ("obstacle" if {a, b} & self.obstacle_ids else "disc")
        if kind == "obstacle" and a in self.obstacle_ids and b in self.obstacle_ids:
            return
        live.contacts.append(ModelContact(entry[0], entry[1], entry[2], a, b, kind, entry[3]))

    def run(self, rp: RolloutParams, closest: dict[str, float] | None = None) -> Rollout:
        """One rollout. ``closest``, when given, is filled with the smallest gap (mm, surface to surface)
        the flicked piece came to each other piece (costly: used once per shot, on the chosen rollout). A
        piece it only ever drew away from, as a missile from the shooter it lay beside, is left out."""
        if self.flicked not in self.bodies:
            raise ValueError(f"the flicked piece {self.flicked!r} has no pre-shot position")
        self._live = None
        self._reset(rp)
        live = self._live = _Live()
        w, h = self.trace.mat.width_mm, self.trace.mat.height_mm
        fb = self.bodies[self.flicked][0]
        fb.velocity = (rp.speed_mm_s * math.cos(rp.angle_rad), rp.speed_mm_s * math.sin(rp.angle_rad))
        path = [(0.0, fb.position.x, fb.position.y)]
        steps = 0
        left: dict[str, tuple[float, float]] = {}
        opening: dict[str, float] = {}
        if closest is not None:
            self._note_gaps(fb, opening)
        while live.clock < MAX_ROLLOUT_S:
            self.space.step(STEP_S)
            live.clock += STEP_S
            steps += 1
            if closest is not None:
                self._note_gaps(fb, closest)
            if steps % 5:
                continue
            moving = False
            for pid in live.touched | {self.flicked}:
                body, shape, pivot, gear = self.bodies[pid]
                if body.is_sleeping or body.velocity.length < REST_SPEED_MM_S:
                    continue
                moving = True
                radius = shape.radius
                x, y = body.position
                if (0.0 <= x <= w and 0.0 <= y <= h) != self._on_mat[pid]:
                    self._on_mat[pid] = self._set_friction(body, pivot, gear, radius, rp.friction_scale)
                if pid not in left:
                    if not (-radius <= x <= w + radius and -radius <= y <= h + radius):
                        left[pid] = (min(max(x, 0.0), w), min(max(y, 0.0), h))
            if steps % PATH_EVERY_STEPS == 0:
                path.append((live.clock, fb.position.x, fb.position.y))
            if not moving:
                break
        for key in list(live.open):
            self._close(key)
        self._live = None
        if closest is not None:
            for pid, gap in opening.items():
                if closest.get(pid, math.inf) >= gap - GAP_NOISE_MM:
                    closest.pop(pid, None)  # it never came nearer than it stood at the flick: no pass
        direct, touched, contacts = live.direct, live.touched, live.contacts
        path.append((live.clock, fb.position.x, fb.position.y))
        result = Rollout(rp)
        result.direct = frozenset(direct)
        result.pushed = frozenset(touched - direct)
        result.left_mat = left
        result.final = {pid: (b[0].position.x, b[0].position.y) for pid, b in self.bodies.items()}
        for cover, host in self.hosts.items():
            result.final[cover] = result.final.get(host, self.start.get(host, (0.0, 0.0)))
        result.covers_knocked_off = frozenset(c for c, host in self.hosts.items() if host in direct | touched)
        result.contacts = contacts
        result.path = path
        result.duration_s = live.clock
        result.start = self._placed
        return result

    def _note_gaps(self, flicked: pymunk.Body, closest: dict[str, float]) -> None:
        fr = self.specs[self.flicked].radius_mm
        fx, fy = flicked.position
        for pid, (body, shape, _, _) in self.bodies.items():
            if pid == self.flicked:
                continue
            x, y = body.position
            gap = math.hypot(x - fx, y - fy) - fr - shape.radius
            if gap < closest.get(pid, math.inf):
                closest[pid] = gap

    def starting_positions(self, rp: RolloutParams) -> dict[str, tuple[float, float]]:
        """Pre-shot positions with this rollout's corrections, nudged apart where discs would overlap.

        Real discs never overlap; noisy centroids of neighbours (a ranged piece set down beside its shooter)
        often do, and an overlap would make pymunk fire the pair apart as if one had struck the other.
        """
        offsets = {pid: (dx, dy) for pid, dx, dy in rp.offsets}
        pos = {
            pid: [x + offsets.get(pid, (0.0, 0.0))[0], y + offsets.get(pid, (0.0, 0.0))[1]]
            for pid, (x, y) in self.start.items()
        }
        radius = self._radius
        ids = list(pos)
        index = {pid: i for i, pid in enumerate(ids)}
        for _ in range(3):
            # The pairwise pass in the order of `ids`, visiting only the pairs that can overlap: those that
            # did when the pass began, and any pair with a piece already nudged in this pass.
            near = self._overlapping_pairs(pos, index)
            if not near:
                break
            moved: set[str] = set()
            last_moved = -1
            for i, a in enumerate(ids):
                row = near.get(i, ())
                if not row and last_moved <= i and a not in moved:
                    continue
                for j in range(i + 1, len(ids)):
                    b = ids[j]
                    if j not in row and a not in moved and b not in moved:
                        continue
                    dx, dy = pos[b][0] - pos[a][0], pos[b][1] - pos[a][1]
                    gap = math.hypot(dx, dy) - radius[a] - radius[b] - 0.3
                    if gap >= 0:
                        continue
                    d = math.hypot(dx, dy) or 1.0
                    ux, uy = (dx / d, dy / d) if d > 1e-9 else (1.0, 0.0)
                    pos[a][0] += ux * gap / 2
                    pos[a][1] += uy * gap / 2
                    pos[b][0] -= ux * gap / 2
                    pos[b][1] -= uy * gap / 2
                    moved.update((a, b))
                    last_moved = max(last_moved, j)
        return {pid: (p[0], p[1]) for pid, p in pos.items()}

    def _overlapping_pairs(self, pos: dict[str, list[float]], index: dict[str, int]) -> dict[int, set[int]]:
        """The pairs of discs that overlap, as ``{i: {j, ...}}`` with i < j indices into ``index``: a sweep
        along x, where checking every pair costs a room of 30 pieces 435 distances."""
        radius, reach = self._radius, self._largest_radius + 0.3
        order = sorted(pos, key=lambda pid: pos[pid][0])
        pairs: dict[int, set[int]] = {}
        for k, a in enumerate(order):
            ax, ay = pos[a]
            ra = radius[a]
            for b in order[k + 1 :]:
                bx, by = pos[b]
                if bx - ax >= ra + reach:
                    break
                if math.hypot(bx - ax, by - ay) - ra - radius[b] - 0.3 < 0:
                    i, j = sorted((index[a], index[b]))
                    pairs.setdefault(i, set()).add(j)
        return pairs

    def _set_friction(
        self, body: pymunk.Body, pivot: pymunk.PivotJoint, gear: pymunk.GearJoint, radius: float, scale: float
    ) -> bool:
        """Set the sliding friction for where the body is; returns whether that is on the mat."""
        x, y = body.position
        mat = self.trace.mat
        on_mat = 0.0 <= x <= mat.width_mm and 0.0 <= y <= mat.height_mm
        mu = (self.params.sliding_friction if on_mat else self.params.off_mat_friction) * scale
        force = mu * body.mass * GRAVITY_MM_S2
        pivot.max_force = force
        gear.max_force = force * radius * 2 / 3
        return on_mat
