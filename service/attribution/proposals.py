"""Where the attribution looks: the prior over flicks and the proposals that draw rollouts from it.

Densities over the nuisance parameters (start corrections, friction, restitution) are kept relative to their
prior, so draws from that prior cancel out of the importance weights.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from service.mat.trace import SeenPiece, ShotTrace

from .config import AttributionConfig
from .model import COVER_KINDS, RolloutParams

MIN_SPEED_MM_S = 250.0
MAX_SPEED_MM_S = 4500.0
LOG_SPEED_SPAN = math.log(MAX_SPEED_MM_S / MIN_SPEED_MM_S)
BANK_SHARE_OF_AIMS = 0.2
# Disc-on-disc tangential friction is not learnt (only glancing hits feel it, and they are rarely heard), so
# every rollout draws it: per disc ×exp(N(0, 0.5)) around the model's 0.25, which puts a pair's coefficient
# (pymunk multiplies the two) between about 0.01 and 0.45 — lacquered wood to raw wood and felt. The disc's
# grip on walls and fixed obstacles scales with it, being the same product.
DISC_FRICTION_LOG_SD = 0.5
DISC_FRICTION_MAX_SCALE = 3.0
# Caroms (a hit glancing on to a second piece or to where the flicked disc stopped): their share of the aims,
# the spread around each, the contact points tried around the first piece, and how many kept per pair.
CAROM_SHARE_OF_AIMS = 0.15
CAROM_SIGMA = math.radians(1.5)
CAROM_STEPS = 360
CAROM_PER_PAIR = 2
CAROM_FIRST_PIECES = 6  # the surest movers only: a push through a crowd moves many
# Pairs along the flicked disc's path: a second touch soft enough to leave its piece where the scans cannot
# tell it moved makes no carom above (only moved pieces do), yet it is half of most two-hit shots the
# sampler missed. The pieces that stood within reach of the straight line from the flicked disc's start to
# its rest (the nearest few) are tried as either piece of a carom, aimed at their centres.
PAIR_SHARE_OF_AIMS = 0.07
PAIR_PATH_MARGIN_MM = 40.0
PAIR_PIECES = 4
PAIR_WEIGHT = 0.3


def wrap_angle(angle: float) -> float:
    return (angle + math.pi) % (2 * math.pi) - math.pi


class FlickPrior:
    """What we believe about a flick before looking at the sensors.

    Speed: log-uniform over what a finger can do. Angle: players flick at enemies. Half the prior mass is
    spread evenly over all directions; the other half sits around the directions to the enemies on the mat
    (nearer ones weighted more), with a human aiming error. Without this, a hit, which needs the flick and
    the pieces' true positions to line up within millimetres, loses to a miss by sheer parameter volume.
    """

    AIM_SIGMA = math.radians(4.0)

    def __init__(self, trace: ShotTrace, aimed_share: float) -> None:
        self.aimed_share = aimed_share
        pre = trace.pre.by_piece()
        me = pre[trace.declaration.flicked]
        actor = trace.declaration.shooter or trace.declaration.flicked
        side = (
            trace.spec(actor).side if actor in {p.piece for p in trace.pieces} else trace.spec(me.piece).side
        )
        enemy_side = {"heroes": "overseer", "overseer": "heroes"}.get(side)
        self.aims: list[tuple[float, float]] = []
        for spec in trace.pieces:
            seen = pre.get(spec.piece)
            if spec.side != enemy_side or seen is None or spec.kind in COVER_KINDS:
                continue
            distance = math.hypot(seen.x_mm - me.x_mm, seen.y_mm - me.y_mm)
            self.aims.append((math.atan2(seen.y_mm - me.y_mm, seen.x_mm - me.x_mm), 1 / max(distance, 50.0)))
        total = sum(w for _, w in self.aims)
        self.aims = [(a, w / total) for a, w in self.aims]

    def log_density(self, rp: RolloutParams) -> float:
        if not MIN_SPEED_MM_S <= rp.speed_mm_s <= MAX_SPEED_MM_S:
            return -math.inf
        share = self.aimed_share if self.aims else 0.0
        dens = (1 - share) / (2 * math.pi)
        for aim, weight in self.aims:
            dens += share * weight * normal_density(wrap_angle(rp.angle_rad - aim), self.AIM_SIGMA)
        return math.log(dens) - math.log(LOG_SPEED_SPAN)


class BroadProposal:
    """Uniform-and-aimed mixture over (angle, log speed)."""

    AIM_SIGMA = math.radians(7.0)
    UNIFORM_SHARE = 0.3

    def __init__(self, trace: ShotTrace, config: AttributionConfig) -> None:
        pre, post = trace.pre.by_piece(), trace.post.by_piece()
        me = pre[trace.declaration.flicked]
        self.origin = (me.x_mm, me.y_mm)
        # Points the flicked piece's centre seems to have gone for, each weighted by how sure the evidence is:
        # a piece that moved ten sigmas is a far better lead than one whose scan merely wobbled.
        targets: list[tuple[float, float, float]] = []
        moved_pieces: list[tuple[str, float, float, float, float, float]] = []  # id, before, after, weight
        travel = 0.0
        mover = post.get(me.piece)
        if mover is not None:
            travel = math.hypot(mover.x_mm - me.x_mm, mover.y_mm - me.y_mm)
            if travel > 10:
                targets.append((mover.x_mm, mover.y_mm, 1.5))
        for piece in trace.pre.pieces:
            if piece.piece == me.piece:
                continue
            after = post.get(piece.piece)
            if after is None:
                targets.append((piece.x_mm, piece.y_mm, 1.0))  # vanished: left the mat, or a missed read
                continue
            moved = math.hypot(after.x_mm - piece.x_mm, after.y_mm - piece.y_mm)
            noise = math.hypot(piece.sigma_mm, after.sigma_mm)
            if moved <= max(8.0, 3 * noise):
                continue
            weight = min(3.0, max(0.3, moved / noise / 8.0))
            targets.append((piece.x_mm, piece.y_mm, 0.5 * weight))
            moved_pieces.append((piece.piece, piece.x_mm, piece.y_mm, after.x_mm, after.y_mm, weight))
            # "Ghost ball" aim: a struck disc leaves along the line of centres, so the flicked piece met
            # it one radius-sum behind its start, opposite to where it went.
            dx, dy = after.x_mm - piece.x_mm, after.y_mm - piece.y_mm
            reach = trace.spec(piece.piece).radius_mm + trace.spec(me.piece).radius_mm
            targets.append((piece.x_mm - reach * dx / moved, piece.y_mm - reach * dy / moved, weight))
        aims = [math.atan2(ty - me.y_mm, tx - me.x_mm) for tx, ty, _ in targets]
        aim_weights = [w for _, _, w in targets]
        caroms = carom_aims(trace, config, moved_pieces, mover if travel > 10 else None)
        pairs = pair_aims(trace, config, moved_pieces, mover if travel > 10 else None)
        banks: list[float] = []
        bank_weights: list[float] = []
        # Bank shots: the same targets by way of each wall. The disc's centre turns on a line one radius
        # inside the wall's face, and the bounce keeps only e of the normal speed, so the image point lies
        # 1/e times as far behind that line as the target is in front of it.
        e = config.model.wall_restitution * config.model.disc_restitution
        mat, radius = trace.mat, trace.spec(me.piece).radius_mm
        cx, cy = mat.width_mm / 2, mat.height_mm / 2
        lines = []
        for seg in mat.wall_segments():
            nx, ny = seg.y1_mm - seg.y2_mm, seg.x2_mm - seg.x1_mm
            norm = math.hypot(nx, ny)
            nx, ny = nx / norm, ny / norm
            if (cx - seg.x1_mm) * nx + (cy - seg.y1_mm) * ny < 0:
                nx, ny = -nx, -ny  # the normal points into the mat
            lines.append((seg.x1_mm + nx * radius, seg.y1_mm + ny * radius, nx, ny))
        for tx, ty, w in targets:
            for lx, ly, nx, ny in lines:
                depth = (tx - lx) * nx + (ty - ly) * ny  # how far the target is in front of the line
                ix, iy = tx - nx * depth * (1 + 1 / e), ty - ny * depth * (1 + 1 / e)
                banks.append(math.atan2(iy - me.y_mm, ix - me.x_mm))
                bank_weights.append(w)
        # Straight aims carry most of the aimed share; bank shots and caroms are rarer, and there are several
        # of them per target.
        self.aims = aims + banks + [a for a, _ in caroms] + [a for a, _ in pairs]
        carom_share = CAROM_SHARE_OF_AIMS if caroms else 0.0
        pair_share = PAIR_SHARE_OF_AIMS if pairs else 0.0
        straight_total, bank_total = sum(aim_weights) or 1.0, sum(bank_weights) or 1.0
        carom_total = sum(w for _, w in caroms) or 1.0
        pair_total = sum(w for _, w in pairs) or 1.0
        self.aim_weights = (
            [(1 - BANK_SHARE_OF_AIMS - carom_share - pair_share) * w / straight_total for w in aim_weights]
            + [BANK_SHARE_OF_AIMS * w / bank_total for w in bank_weights]
            + [carom_share * w / carom_total for _, w in caroms]
            + [pair_share * w / pair_total for _, w in pairs]
        )
        self.aim_sigmas = [self.AIM_SIGMA] * (len(aims) + len(banks)) + [CAROM_SIGMA] * (
            len(caroms) + len(pairs)
        )
        mu = config.model.sliding_friction * config.table_calibration().friction.scale
        self.speed_guess = max(MIN_SPEED_MM_S, math.sqrt(2 * mu * 9810.0 * max(travel, 30.0)) * 1.15)

    def draw(self, rng: random.Random, trace: ShotTrace, config: AttributionConfig) -> RolloutParams:
        angle, speed = self.sample(rng)
        return draw_nuisance(trace, rng, config, angle, speed)

    def log_density(self, rp: RolloutParams) -> float:
        return self.log_density_flick(rp.angle_rad, rp.speed_mm_s)

    def sample(self, rng: random.Random) -> tuple[float, float]:
        if not self.aims or rng.random() < self.UNIFORM_SHARE:
            angle = rng.uniform(-math.pi, math.pi)
        else:
            k = rng.choices(range(len(self.aims)), weights=self.aim_weights)[0]
            angle = wrap_angle(self.aims[k] + rng.gauss(0, self.aim_sigmas[k]))
        if rng.random() < 0.5:
            log_speed = rng.uniform(math.log(MIN_SPEED_MM_S), math.log(MAX_SPEED_MM_S))
        else:
            log_speed = math.log(self.speed_guess) + rng.gauss(0, 0.35)
        return angle, math.exp(log_speed)

    def log_density_flick(self, angle: float, speed: float) -> float:
        dens_a = self.UNIFORM_SHARE / (2 * math.pi) if self.aims else 1 / (2 * math.pi)
        if self.aims:
            for aim, weight, sigma in zip(self.aims, self.aim_weights, self.aim_sigmas, strict=True):
                dens_a += (1 - self.UNIFORM_SHARE) * weight * normal_density(wrap_angle(angle - aim), sigma)
        ls = math.log(speed)
        inside = math.log(MIN_SPEED_MM_S) <= ls <= math.log(MAX_SPEED_MM_S)
        dens_s = 0.5 * (1 / LOG_SPEED_SPAN if inside else 0.0) + 0.5 * normal_density(
            ls - math.log(self.speed_guess), 0.35
        )
        return math.log(dens_a) + math.log(max(dens_s, 1e-300))


def carom_aims(
    trace: ShotTrace,
    config: AttributionConfig,
    moved: list[tuple[str, float, float, float, float, float]],
    rest: SeenPiece | None,
) -> list[tuple[float, float]]:
    """Flick angles that strike one moved piece and glance on to another moved piece, or to where the flicked
    disc came to rest: (angle, weight) pairs.

    A second hit needs the flick lined up within a fraction of a degree, which aims at single pieces rarely
    find. After a hit the flicked disc keeps its speed across the line of centres and a share
    (m − e·M)/(m + M) of its speed along it, so for each point of contact around the first piece the way on
    is known; the contact whose way on passes through the second piece's ghost-ball point (or the rest point)
    gives the flick's angle.
    """
    pre = trace.pre.by_piece()
    me = pre[trace.declaration.flicked]
    spec = trace.spec(me.piece)
    e = config.model.disc_restitution**2  # the model's discs meet at the product of their elasticities
    goals: list[tuple[str, float, float, float, float]] = []  # piece, where the flicked centre must pass
    for pid, x0, y0, x1, y1, w in moved:
        d = math.hypot(x1 - x0, y1 - y0)
        reach = trace.spec(pid).radius_mm + spec.radius_mm
        goals.append((pid, x0 - reach * (x1 - x0) / d, y0 - reach * (y1 - y0) / d, w, reach))
    if rest is not None:
        goals.append((me.piece, rest.x_mm, rest.y_mm, 1.0, spec.radius_mm))
    out: list[tuple[float, float]] = []
    for first, ax, ay, _, _, weight in sorted(moved, key=lambda m: -m[5])[:CAROM_FIRST_PIECES]:
        reach = trace.spec(first).radius_mm + spec.radius_mm
        k = (spec.mass_g - e * trace.spec(first).mass_g) / (spec.mass_g + trace.spec(first).mass_g)
        for second, gx, gy, w2, tolerance in goals:
            if second == first:
                continue
            runs: list[list[tuple[float, float]]] = []  # contact points, in turn, whose way on reaches it
            inside = False
            for step in range(CAROM_STEPS):
                phi = 2 * math.pi * step / CAROM_STEPS
                miss_angle = _carom(me.x_mm, me.y_mm, ax, ay, reach, k, gx, gy, phi)
                if miss_angle is None or miss_angle[0] >= tolerance:
                    inside = False
                    continue
                if not inside:
                    runs.append([])
                    inside = True
                runs[-1].append(miss_angle)
            for run in runs[:CAROM_PER_PAIR]:
                out.append((min(run)[1], min(weight, w2)))
    return out


def path_pieces(
    trace: ShotTrace, moved: Sequence[str], rest: SeenPiece | None
) -> list[tuple[str, float, float]]:
    """The pieces that stood within reach of the flicked disc's way from its start to its rest and that the
    scans do not show moving (``moved``): the nearest ``PAIR_PIECES`` of them, (piece, x, y)."""
    if rest is None:
        return []
    pre = trace.pre.by_piece()
    me = pre[trace.declaration.flicked]
    radius = trace.spec(me.piece).radius_mm
    near: list[tuple[float, str, float, float]] = []
    for piece in trace.pre.pieces:
        spec = trace.spec(piece.piece)
        if piece.piece == me.piece or piece.piece in moved or spec.kind in COVER_KINDS:
            continue
        gap = _distance_to_segment(piece.x_mm, piece.y_mm, me.x_mm, me.y_mm, rest.x_mm, rest.y_mm)
        if gap <= spec.radius_mm + radius + PAIR_PATH_MARGIN_MM:
            near.append((gap, piece.piece, piece.x_mm, piece.y_mm))
    return [(pid, x, y) for _, pid, x, y in sorted(near)[:PAIR_PIECES]]


def pair_aims(
    trace: ShotTrace,
    config: AttributionConfig,
    moved: list[tuple[str, float, float, float, float, float]],
    rest: SeenPiece | None,
) -> list[tuple[float, float]]:
    """Flick angles for two-hit shots whose one touch left no visible move: a carom off any piece along the
    path (moved or not) on to an unmoved piece along it, or off an unmoved one on to a moved one or the
    rest point. (angle, weight) pairs; the caroms between moved pieces are :func:`carom_aims`'."""
    along = path_pieces(trace, [m[0] for m in moved], rest)
    if not along:
        return []
    pre = trace.pre.by_piece()
    me = pre[trace.declaration.flicked]
    spec = trace.spec(me.piece)
    e = config.model.disc_restitution**2
    firsts = [(pid, x, y, PAIR_WEIGHT) for pid, x, y in along] + [
        (pid, x0, y0, w) for pid, x0, y0, _, _, w in sorted(moved, key=lambda m: -m[5])[:CAROM_FIRST_PIECES]
    ]
    goals = [(pid, x, y, PAIR_WEIGHT, trace.spec(pid).radius_mm + spec.radius_mm) for pid, x, y in along]
    unmoved = {pid for pid, _, _ in along}
    for pid, x0, y0, x1, y1, w in moved:
        d = math.hypot(x1 - x0, y1 - y0)
        reach = trace.spec(pid).radius_mm + spec.radius_mm
        goals.append((pid, x0 - reach * (x1 - x0) / d, y0 - reach * (y1 - y0) / d, w, reach))
    if rest is not None:
        goals.append((me.piece, rest.x_mm, rest.y_mm, 1.0, spec.radius_mm))
    out: list[tuple[float, float]] = []
    for first, ax, ay, weight in firsts:
        reach = trace.spec(first).radius_mm + spec.radius_mm
        k = (spec.mass_g - e * trace.spec(first).mass_g) / (spec.mass_g + trace.spec(first).mass_g)
        for second, gx, gy, w2, tolerance in goals:
            if second == first or (first not in unmoved and second not in unmoved):
                continue  # two moved pieces: carom_aims has them
            best: tuple[float, float] | None = None
            for step in range(CAROM_STEPS):
                found = _carom(me.x_mm, me.y_mm, ax, ay, reach, k, gx, gy, 2 * math.pi * step / CAROM_STEPS)
                if found is not None and found[0] < tolerance and (best is None or found < best):
                    best = found
            if best is not None:
                out.append((best[1], min(weight, w2)))
    return out


def _distance_to_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 < 1e-9 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _carom(
    sx: float, sy: float, ax: float, ay: float, reach: float, k: float, gx: float, gy: float, phi: float
) -> tuple[float, float] | None:
    """Flicked from (sx, sy), the disc meets the piece at (ax, ay) with the line of centres at ``phi``: how
    far its way on passes from (gx, gy), and the flick's angle; None when it cannot meet it so or the goal
    lies behind."""
    nx, ny = math.cos(phi), math.sin(phi)  # from the flicked centre at contact to the piece's
    cx, cy = ax - reach * nx, ay - reach * ny
    ux, uy = cx - sx, cy - sy
    run = math.hypot(ux, uy)
    if run < 1.0:
        return None
    ux, uy = ux / run, uy / run
    along = ux * nx + uy * ny
    if along < 0.05:
        return None  # it would not reach this side of the piece
    across = -ux * ny + uy * nx
    ox, oy = -ny * across + nx * along * k, nx * across + ny * along * k
    norm = math.hypot(ox, oy)
    if norm < 1e-9 or (gx - cx) * ox + (gy - cy) * oy <= 0:
        return None
    return abs((gx - cx) * oy - (gy - cy) * ox) / norm, math.atan2(uy, ux)


def normal_density(x: float, sigma: float) -> float:
    return math.exp(-0.5 * (x / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))


class RefinedProposal:
    """Narrow moves around resampled particles, with a share of the broad proposal.

    A move jitters the parent's flick and also the start corrections of the pieces its rollout touched
    (a graze hangs on millimetres of relative position, which fresh prior draws would rarely reproduce);
    every other piece's correction is drawn afresh from its prior. Densities are kept relative to the
    nuisance prior, so prior draws cancel out of the importance weights.
    """

    BROAD_SHARE = 0.15
    OFFSET_STEP = 0.35  # jitter of an inherited start correction, as a share of the piece's sigma

    def __init__(
        self,
        parents: list[RolloutParams],
        involved: list[frozenset[str]],
        sigma_angle: float,
        sigma_log_speed: float,
        broad: BroadProposal,
        sigmas: dict[str, float],
    ) -> None:
        self.parents = parents
        self.involved = involved
        self.offsets = [{pid: (dx, dy) for pid, dx, dy in p.offsets} for p in parents]
        self.sa, self.ss, self.broad, self.sigmas = sigma_angle, sigma_log_speed, broad, sigmas

    def draw(self, rng: random.Random, trace: ShotTrace, config: AttributionConfig) -> RolloutParams:
        if rng.random() < self.BROAD_SHARE:
            return self.broad.draw(rng, trace, config)
        k = rng.randrange(len(self.parents))
        parent, keep = self.parents[k], self.involved[k]
        fresh = draw_nuisance(trace, rng, config, 0.0, 0.0)
        offsets = []
        for pid, dx, dy in fresh.offsets:
            if pid in keep and pid in self.offsets[k]:
                step = self.OFFSET_STEP * self.sigmas[pid]
                px, py = self.offsets[k][pid]
                dx, dy = px + rng.gauss(0, step), py + rng.gauss(0, step)
            offsets.append((pid, dx, dy))
        angle = wrap_angle(parent.angle_rad + rng.gauss(0, self.sa))
        speed = math.exp(math.log(parent.speed_mm_s) + rng.gauss(0, self.ss))
        return RolloutParams(
            angle,
            speed,
            fresh.friction_scale,
            fresh.restitution_scale,
            tuple(offsets),
            fresh.wall_restitution_scale,
            fresh.disc_friction_scale,
        )

    def log_density(self, rp: RolloutParams) -> float:
        ls = math.log(rp.speed_mm_s)
        mine = {pid: (dx, dy) for pid, dx, dy in rp.offsets}
        terms = [math.log(self.BROAD_SHARE) + self.broad.log_density(rp)]
        share = math.log((1 - self.BROAD_SHARE) / len(self.parents))
        for parent, keep, offs in zip(self.parents, self.involved, self.offsets, strict=True):
            t = share + log_normal_density(wrap_angle(rp.angle_rad - parent.angle_rad), self.sa)
            t += log_normal_density(ls - math.log(parent.speed_mm_s), self.ss)
            for pid in keep:
                if pid not in offs or pid not in mine:
                    continue
                sigma = self.sigmas[pid]
                step = self.OFFSET_STEP * sigma
                for mv, pv in zip(mine[pid], offs[pid], strict=True):
                    t += log_normal_density(mv - pv, step) - log_normal_density(mv, sigma)
            terms.append(t)
        top = max(terms)
        return top + math.log(sum(math.exp(x - top) for x in terms))


def log_normal_density(x: float, sigma: float) -> float:
    return -0.5 * (x / sigma) ** 2 - math.log(sigma * math.sqrt(2 * math.pi))


def draw_nuisance(
    trace: ShotTrace, rng: random.Random, config: AttributionConfig, angle: float, speed: float
) -> RolloutParams:
    """Start corrections from the scan's sigmas; friction and bounce from what the table's calibration
    believes (wide on a new table, narrow once its shots have taught it)."""
    offsets = tuple((p.piece, rng.gauss(0, p.sigma_mm), rng.gauss(0, p.sigma_mm)) for p in trace.pre.pieces)
    cal = config.table_calibration()

    def scale(belief_mean: float, belief_sd: float, floor: float) -> float:
        return max(floor, math.exp(rng.gauss(belief_mean, belief_sd)))

    return RolloutParams(
        angle,
        speed,
        scale(cal.friction.mean, cal.friction.sd, 0.3),
        scale(cal.disc_restitution.mean, cal.disc_restitution.sd, 0.5),
        offsets,
        scale(cal.wall_restitution.mean, cal.wall_restitution.sd, 0.3),
        min(DISC_FRICTION_MAX_SCALE, math.exp(rng.gauss(0.0, DISC_FRICTION_LOG_SD))),
    )
