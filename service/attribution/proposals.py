"""Where the attribution looks: the prior over flicks and the proposals that draw rollouts from it.

Densities over the nuisance parameters (start corrections, friction, restitution) are kept relative to their
prior, so draws from that prior cancel out of the importance weights.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from service.mat.trace import SeenPiece, ShotTrace

from .acoustics import HeardEvent
from .caroms import (
    CAROM_SHARE_OF_AIMS,
    CAROM_SIGMA,
    HEARD_SHARE_OF_AIMS,
    HEARD_SIGMA,
    PAIR_SHARE_OF_AIMS,
    carom_aims,
    heard_aims,
    pair_aims,
)
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

    def __init__(
        self, trace: ShotTrace, config: AttributionConfig, events: Sequence[HeardEvent] = ()
    ) -> None:
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
        heard = heard_aims(trace, config, moved_pieces, mover if travel > 10 else None, events)
        banks, bank_weights = bank_aims(trace, config, me, targets)
        # Straight aims carry most of the aimed share; bank shots and caroms are rarer, and there are several
        # of them per target.
        # Each heard carom is aimed twice: as widely as the other caroms, and narrowly, since its second
        # contact is known to have happened (heard) and the window that makes it is a fraction of a degree.
        heard_aims_ = [a for a, _ in heard] * 2
        self.aims = aims + banks + [a for a, _ in caroms] + [a for a, _ in pairs] + heard_aims_
        carom_share = CAROM_SHARE_OF_AIMS if caroms else 0.0
        pair_share = PAIR_SHARE_OF_AIMS if pairs else 0.0
        heard_share = HEARD_SHARE_OF_AIMS if heard else 0.0
        straight_total, bank_total = sum(aim_weights) or 1.0, sum(bank_weights) or 1.0
        carom_total = sum(w for _, w in caroms) or 1.0
        pair_total = sum(w for _, w in pairs) or 1.0
        heard_total = 2 * sum(w for _, w in heard) or 1.0
        straight_share = 1 - BANK_SHARE_OF_AIMS - carom_share - pair_share - heard_share
        self.aim_weights = (
            [straight_share * w / straight_total for w in aim_weights]
            + [BANK_SHARE_OF_AIMS * w / bank_total for w in bank_weights]
            + [carom_share * w / carom_total for _, w in caroms]
            + [pair_share * w / pair_total for _, w in pairs]
            + [heard_share * w / heard_total for _, w in heard] * 2
        )
        self.aim_sigmas = (
            [self.AIM_SIGMA] * (len(aims) + len(banks))
            + [CAROM_SIGMA] * (len(caroms) + len(pairs) + len(heard))
            + [HEARD_SIGMA] * len(heard)
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


def bank_aims(
    trace: ShotTrace, config: AttributionConfig, me: SeenPiece, targets: list[tuple[float, float, float]]
) -> tuple[list[float], list[float]]:
    """Bank shots: the same targets by way of each wall and each face of a fixed box, (angles, weights).

    The disc's centre turns on a line one radius inside the wall's face, and the bounce keeps only e of the
    normal speed, so the image point lies 1/e times as far behind that line as the target is in front of it.
    """
    banks: list[float] = []
    bank_weights: list[float] = []
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
    walls = len(lines)
    lines += _box_faces(trace, radius)
    for tx, ty, w in targets:
        for k, (lx, ly, nx, ny) in enumerate(lines):
            depth = (tx - lx) * nx + (ty - ly) * ny  # how far the target is in front of the line
            if k >= walls and (depth <= 0 or (me.x_mm - lx) * nx + (me.y_mm - ly) * ny <= 0):
                continue  # a box face the disc or the target lies behind turns nothing towards it
            ix, iy = tx - nx * depth * (1 + 1 / e), ty - ny * depth * (1 + 1 / e)
            banks.append(math.atan2(iy - me.y_mm, ix - me.x_mm))
            bank_weights.append(w)
    return banks, bank_weights


def _box_faces(trace: ShotTrace, radius: float) -> list[tuple[float, float, float, float]]:
    """The faces of the mat's fixed polygons as bank lines: (point, outward normal), one radius out.

    A loud impact on a box that the straight aims cannot explain is most often a bank off it; the heard
    caroms name only pieces, and a box is none."""
    faces: list[tuple[float, float, float, float]] = []
    for obstacle in trace.mat.obstacles:
        corners = obstacle.points
        for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
            nx, ny = y2 - y1, x1 - x2
            norm = math.hypot(nx, ny)
            if norm < 1e-9:
                continue
            nx, ny = nx / norm, ny / norm
            if (x1 - obstacle.x_mm) * nx + (y1 - obstacle.y_mm) * ny < 0:
                nx, ny = -nx, -ny  # the normal points away from the box
            faces.append((x1 + nx * radius, y1 + ny * radius, nx, ny))
    return faces


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
