"""Who hit whom: a posterior over the flicked piece's direct-hit sets, from likelihood-weighted rollouts.

Method (docs/attribution.md):

1. **Broad stage.** Flicks are drawn from a proposal that mixes a uniform angle with angles aimed at where the
   evidence points (the flicked piece's own rest position and every piece that moved or vanished), and
   speeds from a log-uniform range mixed with the speed its travel implies. Start positions, friction and
   restitution are drawn from their priors for every rollout, so the posterior averages over them.
2. **Refinement (population Monte Carlo).** The next proposal is a mixture of narrow Gaussians around
   particles resampled by weight, plus a share of the broad proposal so no mode is lost. Each sample's
   importance weight is likelihood × prior / proposal density; all stages' samples are pooled.
3. **Posterior.** Probabilities of direct-hit sets are the normalised weight sums (log-likelihoods divided by
   a temperature, 1 by default), mapped through the calibration table the benchmark measured (config.py).

Prior and proposals live in proposals.py, settings and calibration in config.py.

Rollouts are independent. They run in blocks, each on a model built for it, in a process pool (``workers``;
1 runs in-process, as the tests do), so a reading is the same whatever the number of workers.
"""

from __future__ import annotations

import logging
import math
import os
import random
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from multiprocessing import get_context
from typing import Any

from service.mat.trace import Scan, SeenPiece, ShotTrace

from .acoustics import AcousticPicture, read_impacts
from .answers import HitSetEvidence
from .camera_fusion import fuse_camera
from .config import AttributionConfig, calibrate
from .evidence import EvidenceParams, ImpactMatch, SoundModel, log_likelihood
from .gates import (
    LEFT_OVER_TOUCH_DOUBT,
    BestRollout,
    best_fitting_first,
    loud_touches_left_over,
    referee_reasons,
)
from .model import ModelContact, ModelParams, Rollout, RolloutParams, ShotModel
from .posterior import Scored, by_hit_set, physics, ranked_candidates, unresolved
from .proposals import BroadProposal, FlickPrior, RefinedProposal
from .reading import Candidate
from .reliability import probability_band, reason_key

__all__ = [
    "Attribution",
    "AttributionConfig",
    "Candidate",
    "attribute",
    "calibrate",
    "shutdown_pool",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ShotEvidence:
    """What one attributed shot says about its table, for learning (learning.py); never ground truth."""

    acoustics: AcousticPicture
    matches: tuple[ImpactMatch, ...] = ()  # the top reading's best rollout: contacts ↔ heard events
    # Posterior (mean, sd) of log friction / disc / wall restitution scale, with the effective sample size.
    friction: tuple[float, float] = (0.0, 1.0)
    disc_restitution: tuple[float, float] = (0.0, 1.0)
    wall_restitution: tuple[float, float] = (0.0, 1.0)
    effective_samples: float = 0.0
    trusted: bool = False  # the top reading is sure and explains everything: safe to learn contact loudness
    # Contacts of that rollout no heard event matched: each says its contact was quieter than the board's
    # threshold, which learning needs as much as the heard ones (only the loud ones are heard).
    unheard: tuple[ModelContact, ...] = ()
    # For a referee's answer (answers.py): how the shot sounded to the model, and each hit set's best rollout
    # and physics, so that the answered set's contacts and conditions can be learnt from.
    sound: SoundModel | None = None
    by_hits: tuple[HitSetEvidence, ...] = ()


@dataclass(frozen=True)
class Attribution:
    flicked: str
    candidates: list[Candidate]
    auto_apply: bool
    threshold: float
    rollouts: int
    elapsed_s: float
    reasons: tuple[str, ...] = ()  # why the referee is asked, in words (empty when applied)
    calibration: str = "built-in"  # digest of the table calibration the shot was read with
    evidence: ShotEvidence | None = None
    # Reasons the table's referee record let through (reliability.py): the shot was applied despite them.
    released: tuple[str, ...] = ()

    @property
    def top(self) -> Candidate:
        return self.candidates[0]

    def to_json(self) -> dict[str, Any]:
        return {
            "flicked": self.flicked,
            "auto_apply": self.auto_apply,
            "threshold": self.threshold,
            "reasons": list(self.reasons),
            "calibration": self.calibration,
            "rollouts": self.rollouts,
            "elapsed_s": round(self.elapsed_s, 3),
            "candidates": [c.to_json() for c in self.candidates],
        } | ({"released_by_referee_record": list(self.released)} if self.released else {})


# ---- rollouts, in-process or in a worker ----
# Rollouts run in blocks of this many, each block on a model built for it. A pymunk space keeps a trace of the
# rollouts it ran (which bodies are awake, in what order, what contacts it cached), and that moves a result in
# its last decimals; with a fresh model per block a reading is the same however many workers share the blocks
# and whichever worker runs which: the daemon's reading, a referee's re-reading and the tests' agree.
ROLLOUTS_PER_BLOCK = 16


def _score_block(
    trace: ShotTrace,
    model_params: ModelParams,
    evidence: EvidenceParams,
    heard: SoundModel,
    block: Sequence[RolloutParams],
) -> list[Scored]:
    model = ShotModel(trace, model_params)
    out = []
    try:
        for rp in block:
            rollout: Rollout = model.run(rp)
            misfits: list[str] = []
            out.append(
                Scored(
                    rp,
                    log_likelihood(rollout, trace, rollout.start, heard, evidence, misfits),
                    rollout.direct,
                    rollout.pushed,
                    tuple((p, x, y) for p, (x, y) in sorted(rollout.left_mat.items())),
                    rollout.covers_knocked_off,
                    tuple(rollout.path),
                    tuple(misfits),
                )
            )
    finally:
        model.close()
    return out


_POOL: Executor | None = None
_POOL_SIZE = 0


def _pool(workers: int) -> Executor:
    global _POOL, _POOL_SIZE
    if _POOL is None or _POOL_SIZE != workers:
        if _POOL is not None:
            _POOL.shutdown(cancel_futures=True)
        # spawn, not fork: the daemon runs MQTT and serial threads that must not be cloned mid-flight
        _POOL = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"))
        _POOL_SIZE = workers
    return _POOL


def shutdown_pool(*, wait: bool = True) -> None:
    """Stop the rollout workers. Wait for them, except for a broken pool: a pool left to stop by itself can
    still be shutting down when the interpreter exits, and CPython then prints an OSError from its exit
    hook (a bad file descriptor) after the last answer."""
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=wait, cancel_futures=True)
        _POOL = None


def _run(
    trace: ShotTrace, config: AttributionConfig, sound: SoundModel, params: list[RolloutParams]
) -> list[Scored]:
    blocks = [params[i : i + ROLLOUTS_PER_BLOCK] for i in range(0, len(params), ROLLOUTS_PER_BLOCK)]
    workers = config.workers or os.cpu_count() or 1
    if workers > 1 and len(blocks) > 1:
        try:
            futures = [
                _pool(workers).submit(_score_block, trace, config.model, config.evidence, sound, block)
                for block in blocks
            ]
            return [s for f in futures for s in f.result()]
        except BrokenProcessPool:
            log.exception("a rollout worker died; restarting the pool and running this batch in-process")
            shutdown_pool(wait=False)
    return [s for block in blocks for s in _score_block(trace, config.model, config.evidence, sound, block)]


def _resample(scored: list[tuple[Scored, float]], rng: random.Random, n: int) -> list[Scored]:
    top = max(w for _, w in scored)
    weights = [math.exp(w - top) for _, w in scored]
    picks = rng.choices(range(len(scored)), weights=weights, k=n)
    return [scored[i][0] for i in sorted(set(picks))]


# ---- the public entry point ----
def sound_model(trace: ShotTrace, config: AttributionConfig) -> tuple[SoundModel, AcousticPicture]:
    """The shot's impacts read with what the table knows of its mat (calibration.py)."""
    cal = config.table_calibration()
    picture = read_impacts(
        trace, prior_loglik=cal.speed_loglik, offsets_us=cal.sensor_offsets_us(), jitter_us=cal.jitter_us
    )
    sound = SoundModel(
        events=picture.events,
        gains=tuple(sorted(cal.sensor_gains().items())),
        wall_loudness=(cal.wall_loudness.mean, cal.wall_loudness.sd),
        disc_loudness=(cal.disc_loudness.mean, cal.disc_loudness.sd),
        flick_sound_rate=cal.flick_sound_rate,
    )
    return sound, picture


def with_flicked_start(trace: ShotTrace, last_seen: SeenPiece | None) -> ShotTrace:
    """A trace whose pre-scan missed the flicked disc, completed with where it was last seen (wide sigma)."""
    if last_seen is None:
        return trace
    guess = SeenPiece(
        trace.declaration.flicked, last_seen.x_mm, last_seen.y_mm, max(8.0, last_seen.sigma_mm * 2)
    )
    return replace(trace, pre=Scan(trace.pre.t_us, (*trace.pre.pieces, guess)))


def attribute(
    trace: ShotTrace, config: AttributionConfig | None = None, *, last_seen: SeenPiece | None = None
) -> Attribution:
    """Posterior over direct-hit sets for one shot; ``auto_apply`` when the top set is sure enough.

    ``last_seen``: where the flicked disc was last seen, for a shot whose pre-scan missed it (the shot then
    always goes to the referee, with that reason).
    """
    config = config or AttributionConfig()
    started = time.perf_counter()
    reasons: list[str] = []
    cal = config.table_calibration()
    flicked = trace.declaration.flicked
    if flicked not in trace.pre.by_piece():
        reasons.append("the flicked disc was not seen before the shot")
        trace = with_flicked_start(trace, last_seen)
        if flicked not in trace.pre.by_piece():
            return Attribution(
                flicked,
                [_nothing_known(trace)],
                False,
                config.auto_apply_threshold,
                0,
                time.perf_counter() - started,
                tuple(reasons),
                cal.digest,
            )
    rng = random.Random(config.seed)
    sound, picture = sound_model(trace, config)
    broad = BroadProposal(trace, config, picture.events)
    prior = FlickPrior(trace, config.aimed_prior_share)
    pooled: list[tuple[Scored, float]] = []  # (rollout, log importance weight)

    proposal: BroadProposal | RefinedProposal = broad
    rounds = [(config.broad_rollouts, None)] + [
        (config.refine_rollouts, (math.radians(2.5) / (2**r), 0.08 / (2**r)))
        for r in range(config.refine_rounds)
    ]
    sigmas_mm = {p.piece: p.sigma_mm for p in trace.pre.pieces}
    extra_given = False
    while rounds:
        count, sigmas = rounds.pop(0)
        if sigmas is not None:
            parents = _resample(pooled, rng, 16)
            involved = [p.direct | p.pushed | {trace.declaration.flicked} for p in parents]
            proposal = RefinedProposal(
                [p.params for p in parents], involved, sigmas[0], sigmas[1], broad, sigmas_mm
            )
        params = [proposal.draw(rng, trace, config) for _ in range(count)]
        for s in _run(trace, config, sound, params):
            log_w = (
                s.log_l / config.temperature + prior.log_density(s.params) - proposal.log_density(s.params)
            )
            if math.isfinite(log_w):
                pooled.append((s, log_w))
        if not rounds and not extra_given and config.extra_rounds and pooled and unresolved(pooled):
            # A shot the standard budget leaves unexplained or split — most often two or more hits, whose
            # second contact hangs on a fraction of a degree — gets more, finer refinement.
            extra_given = True
            rounds = [
                (config.refine_rollouts, (math.radians(2.5) / (2**r), 0.08 / (2**r)))
                for r in range(config.extra_rounds)
            ]
    if not pooled:
        raise RuntimeError("no rollout explained the shot at all")
    return _summarise(trace, pooled, config, started, reasons, sound, picture)


def _nothing_known(trace: ShotTrace) -> Candidate:
    """The only honest reading of a shot whose flicked disc was never seen: no hits claimed."""
    return Candidate(frozenset(), frozenset(), frozenset(), 0.0, ())


def _shot_evidence(
    pooled: list[tuple[Scored, float]],
    best: dict[frozenset[str], tuple[float, Scored]],
    fit: dict[frozenset[str], float],
    picture: AcousticPicture,
    matches: list[ImpactMatch],
    rollout: Rollout,
    sound: SoundModel,
    trusted: bool,
) -> ShotEvidence:
    """What the shot teaches its table: the physics posterior, overall and per hit set, and the contacts of
    the best reading's rollout that were heard and not."""
    heard = {id(m.contact) for m in matches}
    friction, disc_e, wall_e, ess = physics(pooled)
    by_hits = tuple(
        HitSetEvidence(direct, best[direct][1].params, fit[direct], *physics(of_set))
        for direct, of_set in by_hit_set(pooled).items()
    )
    unheard = tuple(c for c in rollout.contacts if id(c) not in heard and c.impulse > 0)
    return ShotEvidence(
        picture, tuple(matches), friction, disc_e, wall_e, ess, trusted, unheard, sound=sound, by_hits=by_hits
    )


def _summarise(
    trace: ShotTrace,
    pooled: list[tuple[Scored, float]],
    config: AttributionConfig,
    started: float,
    reasons: list[str],
    sound: SoundModel,
    picture: AcousticPicture,
) -> Attribution:
    candidates, best, fit = ranked_candidates(trace, pooled, config)
    likeliest = candidates[0]
    candidates = best_fitting_first(candidates)
    first = candidates[0]
    matches: list[ImpactMatch] = []
    model = ShotModel(trace, config.model)
    closest: dict[str, float] = {}
    try:
        rollout = model.run(best[first.direct_hits][1].params, closest)
    finally:
        model.close()
    log_likelihood(rollout, trace, rollout.start, sound, config.evidence, None, matches)
    best_rollout = BestRollout(rollout, tuple(matches), closest)
    if (
        loud_touches_left_over(trace, first, best_rollout, picture)
        and first.probability > LEFT_OVER_TOUCH_DOUBT
    ):
        # The second hit's own evidence: a loud touch the reading does not make (gates.LEFT_OVER_TOUCH_DOUBT).
        doubted = replace(first, probability=LEFT_OVER_TOUCH_DOUBT)
        likeliest = doubted if likeliest is first else likeliest
        first, candidates = doubted, [doubted, *candidates[1:]]
    reasons.extend(
        referee_reasons(trace, candidates, likeliest, best_rollout, picture, config.auto_apply_threshold)
    )
    cal = config.table_calibration()
    if not cal.settled:
        reasons.extend(f"calibration not settled: {why}" for why in cal.unsettled_reasons())
    released: tuple[str, ...] = ()
    if reasons and cal.referee.lets_through(
        {reason_key(r) for r in reasons}, probability_band(candidates[0].probability)
    ):
        released, reasons = tuple(reasons), []
    auto = not reasons
    if trace.camera is not None:
        candidates, auto, seen_reasons = fuse_camera(
            trace, candidates, tuple(reasons), config.auto_apply_threshold, cal.camera
        )
        reasons = list(seen_reasons)
    trusted = first.probability >= config.auto_apply_threshold and not first.unexplained
    evidence = _shot_evidence(pooled, best, fit, picture, matches, rollout, sound, trusted)
    elapsed = time.perf_counter() - started
    log.debug(
        "attributed %s: top %s p=%.3f over %d rollouts in %.2fs",
        trace.declaration.flicked,
        sorted(candidates[0].direct_hits),
        candidates[0].probability,
        len(pooled),
        elapsed,
    )
    return Attribution(
        trace.declaration.flicked,
        candidates,
        auto,
        config.auto_apply_threshold,
        len(pooled),
        elapsed,
        tuple(reasons),
        cal.digest,
        evidence,
        released,
    )
