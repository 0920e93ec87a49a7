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

Rollouts are independent and run in a process pool (``workers``; 1 runs in-process, as the tests do).
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
from .config import AttributionConfig, calibrate
from .evidence import EvidenceParams, ImpactMatch, SoundModel, log_likelihood
from .model import COVER_KINDS, ModelContact, ModelParams, Rollout, RolloutParams, ShotModel
from .proposals import BroadProposal, FlickPrior, RefinedProposal

__all__ = ["Attribution", "AttributionConfig", "Candidate", "attribute", "calibrate", "shutdown_pool"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate:
    direct_hits: frozenset[str]
    pushed: frozenset[str]
    left_mat: frozenset[str]
    probability: float
    path: tuple[tuple[float, float, float], ...]
    left_mat_at: tuple[tuple[str, float, float], ...] = ()
    covers_knocked_off: frozenset[str] = frozenset()  # ice / net / web pieces shaken off their host
    shadow_destroyed: frozenset[str] = frozenset()  # shadow monsters pushed off the mat by a direct hit
    unexplained: frozenset[str] = frozenset()  # pieces whose post-shot position even the best rollout misses
    raw_probability: float = 0.0  # the sampler's own share, before the calibration map (for refitting it)
    # How well this set's best rollout fits the sensors (its log-likelihood, no prior in it): what tells a
    # reading that fits nearly as well from one that is only less likely a priori.
    best_fit: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "direct_hits": sorted(self.direct_hits),
            "pushed": sorted(self.pushed),
            "left_mat": [
                {"piece": p, "x_mm": round(x, 1), "y_mm": round(y, 1)} for p, x, y in self.left_mat_at
            ],
            "covers_knocked_off": sorted(self.covers_knocked_off),
            "shadow_destroyed": sorted(self.shadow_destroyed),
            "unexplained": sorted(self.unexplained),
            "probability": round(self.probability, 4),
            "raw_probability": round(self.raw_probability, 6),
            "best_fit": round(self.best_fit, 2),
            "path": [[round(t, 3), round(x, 1), round(y, 1)] for t, x, y in self.path],
        }


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
        }


@dataclass(frozen=True)
class _Scored:
    params: RolloutParams
    log_l: float
    direct: frozenset[str]
    pushed: frozenset[str]
    left_mat: tuple[tuple[str, float, float], ...]
    covers: frozenset[str]
    path: tuple[tuple[float, float, float], ...]
    misfits: tuple[str, ...] = ()


# ---- rollouts, in-process or in a worker ----
_WORKER_CACHE: dict[int, ShotModel] = {}


def _model_for(trace: ShotTrace, key: int, model_params: ModelParams) -> ShotModel:
    cached = _WORKER_CACHE.get(key)
    if cached is None or cached.trace is not trace and cached.trace != trace:
        for old_model in _WORKER_CACHE.values():
            old_model.close()
        _WORKER_CACHE.clear()
        cached = ShotModel(trace, model_params)
        _WORKER_CACHE[key] = cached
    return cached


def _score_batch(
    trace: ShotTrace,
    key: int,
    model_params: ModelParams,
    evidence: EvidenceParams,
    heard: SoundModel,
    batch: Sequence[RolloutParams],
) -> list[_Scored]:
    model = _model_for(trace, key, model_params)
    out = []
    for rp in batch:
        rollout: Rollout = model.run(rp)
        start = model.starting_positions(rp)
        misfits: list[str] = []
        out.append(
            _Scored(
                rp,
                log_likelihood(rollout, trace, start, heard, evidence, misfits),
                rollout.direct,
                rollout.pushed,
                tuple((p, x, y) for p, (x, y) in sorted(rollout.left_mat.items())),
                rollout.covers_knocked_off,
                tuple(rollout.path),
                tuple(misfits),
            )
        )
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


def shutdown_pool() -> None:
    global _POOL
    if _POOL is not None:
        _POOL.shutdown(wait=False, cancel_futures=True)
        _POOL = None


def _run(
    trace: ShotTrace, key: int, config: AttributionConfig, sound: SoundModel, params: list[RolloutParams]
) -> list[_Scored]:
    workers = config.workers or os.cpu_count() or 1
    if workers <= 1 or len(params) < 8:
        return _score_batch(trace, key, config.model, config.evidence, sound, params)
    chunk = math.ceil(len(params) / workers)
    try:
        return _run_in_pool(trace, key, config, sound, params, workers, chunk)
    except BrokenProcessPool:
        log.exception("a rollout worker died; restarting the pool and running this batch in-process")
        shutdown_pool()
        return _score_batch(trace, key, config.model, config.evidence, sound, params)


def _run_in_pool(
    trace: ShotTrace,
    key: int,
    config: AttributionConfig,
    sound: SoundModel,
    params: list[RolloutParams],
    workers: int,
    chunk: int,
) -> list[_Scored]:
    futures = [
        _pool(workers).submit(
            _score_batch, trace, key, config.model, config.evidence, sound, params[i : i + chunk]
        )
        for i in range(0, len(params), chunk)
    ]
    return [s for f in futures for s in f.result()]


def _resample(scored: list[tuple[_Scored, float]], rng: random.Random, n: int) -> list[_Scored]:
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
    key = id(trace)
    sound, picture = sound_model(trace, config)
    broad = BroadProposal(trace, config)
    prior = FlickPrior(trace, config.aimed_prior_share)
    pooled: list[tuple[_Scored, float]] = []  # (rollout, log importance weight)

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
        for s in _run(trace, key, config, sound, params):
            log_w = (
                s.log_l / config.temperature + prior.log_density(s.params) - proposal.log_density(s.params)
            )
            if math.isfinite(log_w):
                pooled.append((s, log_w))
        if not rounds and not extra_given and config.extra_rounds and pooled and _unresolved(pooled):
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


def _barely_moved(trace: ShotTrace, piece: str) -> bool:
    """The scans cannot tell that the piece moved (within three sigmas of where it was)."""
    before, after = trace.pre.by_piece().get(piece), trace.post.by_piece().get(piece)
    if before is None or after is None:
        return False
    moved = math.hypot(after.x_mm - before.x_mm, after.y_mm - before.y_mm)
    return moved < 3 * math.hypot(before.sigma_mm, after.sigma_mm)


def moved_beside_path(trace: ShotTrace, reading: Candidate) -> list[tuple[str, float]]:
    """Pieces within reach of the flicked disc's path that the scans saw move (``MOVED_SIGMAS``) though the
    reading neither hits nor pushes them: a touch the reading does not have, or a model that is not the mat.
    Anywhere on the mat a 2.5-sigma wobble is common; beside the path it is what a missed hit looks like."""
    flicked = trace.declaration.flicked
    specs = {spec.piece: spec for spec in trace.pieces}
    before, after = trace.pre.by_piece(), trace.post.by_piece()
    path = [(x, y) for _, x, y in reading.path]
    accounted = reading.direct_hits | reading.pushed | reading.left_mat | {flicked}
    out = []
    for pid, was in before.items():
        now = after.get(pid)
        if now is None or pid in accounted or pid not in specs or specs[pid].kind in COVER_KINDS:
            continue
        moved = math.hypot(now.x_mm - was.x_mm, now.y_mm - was.y_mm)
        if moved < MOVED_SIGMAS * math.hypot(was.sigma_mm, now.sigma_mm):
            continue
        reach = specs[flicked].radius_mm + specs[pid].radius_mm + BESIDE_PATH_MM
        if any(
            _segment_distance((was.x_mm, was.y_mm), a, b) <= reach
            for a, b in zip(path, path[1:], strict=False)
        ):
            out.append((pid, moved))
    return out


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _unresolved(pooled: list[tuple[_Scored, float]]) -> bool:
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
# Surface gap of a pass the sensors cannot tell from a soft touch: the scans place each disc to about ±3 mm
# per axis, so two discs' relative position to about ±4 mm; on the hidden mats a 3 mm margin let missed
# grazes through (docs/attribution.md).
NEAR_MISS_MM = 5.0
AS_WELL_FITTING_NATS = 1.0  # a log-likelihood margin this small is one the sensors cannot tell apart
CLEAR_FIT_NATS = 6.0  # a reading is applied only if it fits the sensors this much better than any other
# A piece this close to the flicked disc's path (beyond touching) that moved this many scan sigmas, and that
# the reading leaves alone, keeps the shot for the referee.
BESIDE_PATH_MM = 20.0
MOVED_SIGMAS = 2.5
LIGHT_DISC_G = 3.0  # missiles (2 g) and the smallest monsters (2.5 g), against a hero's 7.4 g
PLAUSIBLE_SHARE = 0.01  # a reading holding less of the posterior than this is not offered first on its fit


def as_well_fitting_rival(candidates: Sequence[Candidate]) -> Candidate | None:
    """A lower-ranked reading that counts every hit the top one counts and more, and fits the sensors within
    ``AS_WELL_FITTING_NATS`` of it: only the prior ranks it lower."""
    first = candidates[0]
    for other in candidates[1:]:
        if other.direct_hits > first.direct_hits and first.best_fit - other.best_fit < AS_WELL_FITTING_NATS:
            return other
    return None


def nearly_as_well_fitting(candidates: Sequence[Candidate]) -> Candidate | None:
    """The best-fitting other reading when the first does not beat it by ``CLEAR_FIT_NATS``.

    On a mat that is not the model's, the sensors must prefer the reading clearly, not just the posterior:
    the wrongly applied shots of hidden mats had a runner-up within a few nats far more often than the right
    ones (docs/attribution.md, "A clear fit margin")."""
    first = candidates[0]
    others = [c for c in candidates[1:] if c.direct_hits != first.direct_hits]
    if not others:
        return None
    runner_up = max(others, key=lambda c: c.best_fit)
    return runner_up if first.best_fit - runner_up.best_fit < CLEAR_FIT_NATS else None


def best_fitting_first(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates in the order the referee should weigh them: those holding at least
    ``PLAUSIBLE_SHARE`` of the posterior by how well they fit the sensors, then the rest as ranked.

    Posterior mass adds the prior's volume to the fit: a second hit needs the flick lined up within a
    fraction of a degree, so it holds little volume. On mats that are not the model's, that volume misleads:
    where a reading with one more hit fitted better than the likeliest one, the extra hit was the truth more
    often than not, while the posterior gave it under a quarter (docs/attribution.md, "Best fit first").
    A shot whose best-fitting reading is not its likeliest is never applied automatically."""
    plausible = [c for c in candidates if c.raw_probability >= PLAUSIBLE_SHARE]
    rest = [c for c in candidates if c.raw_probability < PLAUSIBLE_SHARE]
    return sorted(plausible, key=lambda c: -c.best_fit) + rest


def _described(hits: frozenset[str]) -> str:
    return "no hit" if not hits else "a hit on " + " and ".join(sorted(hits))


def _nothing_known(trace: ShotTrace) -> Candidate:
    """The only honest reading of a shot whose flicked disc was never seen: no hits claimed."""
    return Candidate(frozenset(), frozenset(), frozenset(), 0.0, ())


def _moments(pooled: list[tuple[_Scored, float]], value: Any) -> tuple[tuple[float, float], float]:
    top = max(w for _, w in pooled)
    weights = [math.exp(w - top) for _, w in pooled]
    total = sum(weights)
    xs = [value(s.params) for s, _ in pooled]
    mean = sum(w * x for w, x in zip(weights, xs, strict=True)) / total
    var = sum(w * (x - mean) ** 2 for w, x in zip(weights, xs, strict=True)) / total
    ess = total**2 / sum(w * w for w in weights)
    return (mean, math.sqrt(max(var, 1e-12))), ess


def _summarise(
    trace: ShotTrace,
    pooled: list[tuple[_Scored, float]],
    config: AttributionConfig,
    started: float,
    reasons: list[str],
    sound: SoundModel,
    picture: AcousticPicture,
) -> Attribution:
    top = max(w for _, w in pooled)
    mass: dict[frozenset[str], float] = {}
    best: dict[frozenset[str], tuple[float, _Scored]] = {}
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
    likeliest = candidates[0]
    candidates = best_fitting_first(candidates)
    # Never a silent guess: a sure-looking answer that leaves a piece's movement unexplained goes to the
    # referee (no rollout found what happened, so the probabilities are over the wrong hypotheses).
    first = candidates[0]
    if first is not likeliest:
        reasons.append(
            f"this reading fits the sensors best, but the model's prior favours "
            f"{_described(likeliest.direct_hits)} ({likeliest.probability:.0%})"
        )
    elif first.probability < config.auto_apply_threshold:
        if len(candidates) > 1 and candidates[1].probability > 0.15:
            reasons.append(
                f"two readings are close ({first.probability:.0%} against {candidates[1].probability:.0%})"
            )
        else:
            reasons.append(f"the best reading is only {first.probability:.0%} sure")
    # The posterior's margin over a reading with one more hit can rest on the prior alone: a second hit
    # needs the flick lined up within a fraction of a degree, so it holds little prior volume. When that
    # reading fits the sensors as well, the volume argument is all that stands against it, and on a mat that
    # is not the model's mat it is the first thing to break.
    rival = as_well_fitting_rival(candidates)
    if rival is not None:
        added = ", ".join(sorted(rival.direct_hits - first.direct_hits))
        reasons.append(f"a reading that also counts a hit on {added} fits the sensors as well")
    else:
        runner_up = nearly_as_well_fitting(candidates)
        if runner_up is not None:
            reasons.append(
                f"a reading with {_described(runner_up.direct_hits)} fits the sensors nearly as well"
            )
    # A missile or a small monster weighs a third of a hero: what it touches moves a third as far and sounds
    # a third as loud, so a second touch, or a touch on a heavy obstacle, passes unseen. Applied readings of
    # such flicks were wrong 4 times in 298 on hidden mats, against 7 in 1,431 for heavier discs.
    flicked_mass = trace.spec(trace.declaration.flicked).mass_g
    if flicked_mass < LIGHT_DISC_G:
        reasons.append(
            f"the flicked disc weighs {flicked_mass:g} g: what so light a disc touches barely moves and is "
            "rarely heard, so the referee confirms its shots"
        )
    # A reading's later hits rest on weaker evidence than its first: they come after a deflection the model
    # reproduces less well, and are softer. Applied readings with two or more hits were wrong 2 times in 33
    # on hidden mats, against 9 in 1,622 for the rest (docs/attribution.md), so the referee confirms them.
    if len(first.direct_hits) >= 2:
        reasons.append(
            f"it counts {len(first.direct_hits)} hits: a shot with more than one is confirmed by the referee"
        )
    if first.unexplained:
        reasons.append(
            "a piece moved that no reading explains (" + ", ".join(sorted(first.unexplained)) + ")"
        )
    beside = moved_beside_path(trace, first)
    if beside:
        reasons.append(
            ", ".join(f"{pid} moved {moved:.0f} mm" for pid, moved in beside)
            + " beside the flicked disc's path, and the best reading leaves "
            + ("it" if len(beside) == 1 else "them")
            + " where "
            + ("it was" if len(beside) == 1 else "they were")
        )
    best_top = best[first.direct_hits][1]
    matches: list[ImpactMatch] = []
    located = [e for e in picture.events if e.x_mm is not None]
    model = _model_for(trace, id(trace), config.model)
    closest: dict[str, float] = {}
    rollout = model.run(best_top.params, closest)
    log_likelihood(
        rollout, trace, model.starting_positions(best_top.params), sound, config.evidence, None, matches
    )
    # A soft touch no piezo hears and that barely moves the piece is invisible to these sensors, so a
    # reading whose flicked disc brushes past a piece it does not count is not applied on its own say-so.
    brushed = sorted(
        pid
        for pid, gap in closest.items()
        if gap <= NEAR_MISS_MM
        and pid not in first.direct_hits
        and pid in rollout.final
        and trace.spec(pid).kind not in COVER_KINDS
    )
    if brushed:
        reasons.append(
            "the flicked disc passed within a few millimetres of "
            + ", ".join(brushed)
            + ": a touch too soft to hear cannot be ruled out"
        )
    # The other way round: a touch the reading counts, that no piezo heard and that left the piece where
    # the scans cannot tell it moved, rests on the model alone.
    heard_contacts = {id(m.contact) for m in matches}
    unconfirmed = sorted(
        pid
        for pid in first.direct_hits
        if _barely_moved(trace, pid)
        and not any(
            id(c) in heard_contacts
            for c in rollout.contacts
            if {c.a, c.b} == {pid, trace.declaration.flicked}
        )
    )
    if unconfirmed:
        reasons.append(
            "the touch on "
            + ", ".join(unconfirmed)
            + " was too soft for any sensor to confirm (nothing heard, no clear movement)"
        )
    # A piece the pre-scan missed is not in the model at all: no reading can say it was not hit, and on the
    # hidden mats such shots were applied wrongly seven times as often as the rest.
    pre_seen = trace.pre.by_piece()
    unseen = sorted(
        spec.piece
        for spec in trace.pieces
        if spec.piece not in pre_seen
        and spec.piece != trace.declaration.flicked
        and spec.kind not in COVER_KINDS
    )
    if unseen:
        reasons.append(
            ", ".join(unseen)
            + (" was" if len(unseen) == 1 else " were")
            + " not seen before the shot, so a hit on "
            + ("it" if len(unseen) == 1 else "them")
            + " cannot be ruled out"
        )
    # A piece the reading pushes that no scan saw afterwards: where it ended is what tells a push from a hit
    # (on the hidden mats one such applied shot in twelve was a missed second hit).
    post_seen = trace.post.by_piece()
    unchecked = sorted(pid for pid in first.pushed if pid not in post_seen and pid in pre_seen)
    if unchecked:
        reasons.append(
            ", ".join(unchecked)
            + (" was" if len(unchecked) == 1 else " were")
            + " not seen after the shot, so whether the flicked disc pushed or hit "
            + ("it" if len(unchecked) == 1 else "them")
            + " cannot be checked"
        )
    unmatched_loud = [e for e in located if e.sensors >= 5 and all(m.event is not e for m in matches)]
    if len(unmatched_loud) >= 2:
        reasons.append(f"{len(unmatched_loud)} loud impacts that no reading explains (a hand on the mat?)")
    cal = config.table_calibration()
    if not cal.settled:
        reasons.extend(f"calibration not settled: {why}" for why in cal.unsettled_reasons())
    auto = not reasons
    friction, ess = _moments(pooled, lambda p: math.log(p.friction_scale))
    disc_e, _ = _moments(pooled, lambda p: math.log(p.restitution_scale))
    wall_e, _ = _moments(pooled, lambda p: math.log(p.wall_restitution_scale))
    evidence = ShotEvidence(
        picture,
        tuple(matches),
        friction,
        disc_e,
        wall_e,
        ess,
        trusted=first.probability >= config.auto_apply_threshold and not first.unexplained,
        unheard=tuple(c for c in rollout.contacts if id(c) not in heard_contacts and c.impulse > 0),
    )
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
    )
