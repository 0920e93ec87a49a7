"""The posterior over a shot's readings, from its weighted rollouts: one candidate per hit set with its share
of the posterior and what its rollouts agree it did, and the posterior moments of the table's physics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from service.mat.trace import ShotTrace

from .config import AttributionConfig, calibrate
from .model import RolloutParams
from .reading import Candidate


@dataclass(frozen=True)
class Scored:
    params: RolloutParams
    log_l: float
    direct: frozenset[str]
    pushed: frozenset[str]
    left_mat: tuple[tuple[str, float, float], ...]
    covers: frozenset[str]
    path: tuple[tuple[float, float, float], ...]
    misfits: tuple[str, ...] = ()


def unresolved(pooled: list[tuple[Scored, float]]) -> bool:
    """The best rollout leaves a piece unexplained, or no hit set has most of the posterior."""
    best = max(pooled, key=lambda item: item[1])[0]
    if best.misfits:
        return True
    top = max(w for _, w in pooled)
    mass: dict[frozenset[str], float] = {}
    for s, w in pooled:
        mass[s.direct] = mass.get(s.direct, 0.0) + math.exp(w - top)
    return max(mass.values()) / sum(mass.values()) < UNRESOLVED_SHARE


UNRESOLVED_SHARE = 0.9


def moments(pooled: list[tuple[Scored, float]], value: Any) -> tuple[tuple[float, float], float]:
    top = max(w for _, w in pooled)
    weights = [math.exp(w - top) for _, w in pooled]
    total = sum(weights)
    xs = [value(s.params) for s, _ in pooled]
    mean = sum(w * x for w, x in zip(weights, xs, strict=True)) / total
    var = sum(w * (x - mean) ** 2 for w, x in zip(weights, xs, strict=True)) / total
    ess = total**2 / sum(w * w for w in weights)
    return (mean, math.sqrt(max(var, 1e-12))), ess


def physics(
    pooled: list[tuple[Scored, float]],
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float], float]:
    """Posterior (mean, sd) of log friction, disc and wall restitution scales, and the effective samples."""
    friction, ess = moments(pooled, lambda p: math.log(p.friction_scale))
    disc_e, _ = moments(pooled, lambda p: math.log(p.restitution_scale))
    wall_e, _ = moments(pooled, lambda p: math.log(p.wall_restitution_scale))
    return friction, disc_e, wall_e, ess


def by_hit_set(pooled: list[tuple[Scored, float]]) -> dict[frozenset[str], list[tuple[Scored, float]]]:
    out: dict[frozenset[str], list[tuple[Scored, float]]] = {}
    for item in pooled:
        out.setdefault(item[0].direct, []).append(item)
    return out


def ranked_candidates(
    trace: ShotTrace, pooled: list[tuple[Scored, float]], config: AttributionConfig
) -> tuple[list[Candidate], dict[frozenset[str], tuple[float, Scored]], dict[frozenset[str], float]]:
    """One candidate per hit set, most posterior mass first; with each set's best rollout and best fit."""
    top = max(w for _, w in pooled)
    mass: dict[frozenset[str], float] = {}
    best: dict[frozenset[str], tuple[float, Scored]] = {}
    # Within one hit set, which pieces were pushed, left the mat or lost their ice is decided by a weighted
    # vote of that set's rollouts, not by its single best rollout (one rollout over-fits the noise).
    votes: dict[frozenset[str], dict[tuple[str, str], float]] = {}
    fit: dict[frozenset[str], float] = {}
    for s, log_w in pooled:
        fit[s.direct] = max(fit.get(s.direct, -math.inf), s.log_l)
        w = math.exp(log_w - top)
        mass[s.direct] = mass.get(s.direct, 0.0) + w
        if s.direct not in best or log_w > best[s.direct][0]:
            best[s.direct] = (log_w, s)
        tally = votes.setdefault(s.direct, {})
        outcomes = [("pushed", p) for p in s.pushed] + [("left", p) for p, _, _ in s.left_mat]
        for key in outcomes + [("cover", p) for p in s.covers]:
            tally[key] = tally.get(key, 0.0) + w
    total = sum(mass.values())
    # Each candidate's raw share is mapped to the accuracy measured for such shares. The map is monotone and
    # below the diagonal, so the order is kept and the sum stays under 1: what is left is the chance that
    # something no rollout tried happened.
    ranked = sorted(mass.items(), key=lambda item: -item[1])
    shadows = {p.piece for p in trace.pieces if p.shadow}
    by_weight = sorted(pooled, key=lambda item: -item[1])
    candidates = []
    for direct, m in ranked:
        s = best[direct][1]

        def majority(kind: str, direct: frozenset[str] = direct, m: float = m) -> frozenset[str]:
            return frozenset(p for (k, p), w in votes[direct].items() if k == kind and w > m / 2)

        left = majority("left")
        where = {p: (x, y) for p, x, y in s.left_mat}
        for other, _ in by_weight:  # where a piece left: from the best rollout that has it leave
            if other.direct == direct:
                for p, x, y in other.left_mat:
                    where.setdefault(p, (x, y))
        candidates.append(
            Candidate(
                direct_hits=direct,
                pushed=majority("pushed"),
                left_mat=left,
                probability=calibrate(m / total, config.calibration),
                raw_probability=m / total,
                best_fit=fit[direct],
                path=s.path,
                left_mat_at=tuple((p, *where[p]) for p in sorted(left)),
                covers_knocked_off=majority("cover"),
                # 3E reference, Shadow Monsters: destroyed only when a direct hit pushes them off the playmat
                shadow_destroyed=frozenset(left & shadows & direct),
                unexplained=frozenset(s.misfits),
            )
        )
    return candidates, best, fit
