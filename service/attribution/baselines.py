"""Two simple attribution methods the benchmark measures smartmat against, on the same shots.

* ``moved_enemies``: every enemy of the flicked piece that moved (or vanished) was hit directly; every other
  piece that moved was pushed. What a scorekeeper without physics would do.
* ``nominal_best_fit``: search flicks with the nominal model and the reported positions taken as exact, keep
  the single best-fitting rollout, and believe it. What "replay the shot once" does.
"""

from __future__ import annotations

import math
import random

from service.mat.trace import ShotTrace

from .config import AttributionConfig
from .evidence import SoundModel, group_impacts, log_likelihood
from .infer import Attribution, Candidate
from .model import RolloutParams, ShotModel
from .proposals import BroadProposal, wrap_angle

MOVED_MM = 8.0


def enemies_of(trace: ShotTrace, piece: str) -> set[str]:
    side = trace.spec(piece).side
    if trace.declaration.shooter:
        side = trace.spec(trace.declaration.shooter).side
    opposite = {"heroes": "overseer", "overseer": "heroes"}.get(side)
    return {p.piece for p in trace.pieces if p.side == opposite}


def moved_pieces(trace: ShotTrace) -> set[str]:
    post = trace.post.by_piece()
    moved = set()
    for before in trace.pre.pieces:
        after = post.get(before.piece)
        if after is None:
            moved.add(before.piece)
            continue
        noise = 3 * math.hypot(before.sigma_mm, after.sigma_mm)
        if math.hypot(after.x_mm - before.x_mm, after.y_mm - before.y_mm) > max(MOVED_MM, noise):
            moved.add(before.piece)
    return moved - {trace.declaration.flicked}


def moved_enemies(trace: ShotTrace) -> Attribution:
    moved = moved_pieces(trace)
    hit = frozenset(moved & enemies_of(trace, trace.declaration.flicked))
    candidate = Candidate(hit, frozenset(moved - hit), frozenset(), 1.0, ())
    return Attribution(trace.declaration.flicked, [candidate], True, 1.0, 0, 0.0)


def nominal_best_fit(
    trace: ShotTrace, config: AttributionConfig | None = None, *, broad: int = 96, local: int = 64
) -> Attribution:
    config = config or AttributionConfig()
    rng = random.Random(config.seed)
    model = ShotModel(trace, config.model)
    heard = SoundModel(events=tuple(group_impacts(trace, config.evidence)))
    proposal = BroadProposal(trace, config)
    best: tuple[float, RolloutParams] | None = None
    best_rollout = None
    draws = [proposal.sample(rng) for _ in range(broad)]
    for i in range(broad + local):
        if i < broad:
            angle, speed = draws[i]
        else:
            assert best is not None
            angle = wrap_angle(best[1].angle_rad + rng.gauss(0, math.radians(1.5)))
            speed = best[1].speed_mm_s * math.exp(rng.gauss(0, 0.05))
        rp = RolloutParams(angle, speed)
        rollout = model.run(rp)
        score = log_likelihood(rollout, trace, rollout.start, heard, config.evidence)
        if best is None or score > best[0]:
            best, best_rollout = (score, rp), rollout
    model.close()
    assert best_rollout is not None
    candidate = Candidate(
        best_rollout.direct,
        best_rollout.pushed,
        frozenset(best_rollout.left_mat),
        1.0,
        tuple(best_rollout.path),
    )
    return Attribution(trace.declaration.flicked, [candidate], True, 1.0, broad + local, 0.0)
