"""How well one rollout explains a trace's sensor evidence: a log-likelihood.

Two kinds of evidence:

* **Post-shot positions.** Each piece's predicted rest position against its post-scan centroid. The error
  allowed grows with how far the piece travelled, more along its travel than across it, because the real
  discs' friction differs from the model's by up to ±20 % (stopping distance) while directions are set by
  the geometry of the contact. A small outlier weight keeps one odd piece from vetoing a good rollout.
  A piece missing from the post-scan is likely if it left the mat, unlikely (a missed read) otherwise.
* **Impacts.** Piezo impacts are grouped into events (one contact heard by several sensors within the
  sound's travel time across the mat); events heard by three or more sensors are located from their time
  differences. Each contact the rollout predicts loud enough to be heard should match a located event
  nearby, and each located event should be explained by some predicted contact. False triggers are single
  sensor events and are ignored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .model import ModelContact, Rollout
from .trace import ShotTrace

OUTLIER_WEIGHT = 0.01
OUTLIER_DENSITY = 1.0 / (600.0 * 600.0)  # a uniform guess anywhere on the mat
P_SEEN_OFF_MAT = 0.3  # edge antennas still catch some discs lying just beyond the mat
OFF_MAT_SIGMA_MM = 30.0
MISFIT_Z = 4.5  # a piece this many sigmas from where the rollout left it: evidence the rollout is wrong


@dataclass(frozen=True)
class EvidenceParams:
    along_track_per_mm: float = 0.15
    cross_track_per_mm: float = 0.02
    model_floor_mm: float = 2.0
    missed_read: float = 0.02
    wave_speed_mm_per_us: float = 0.8
    timing_jitter_us: float = 30.0
    amplitude_falloff_mm: float = 400.0
    impulse_scale: float = 0.1
    disc_disc_coupling: float = 0.3
    detection_threshold: float = 40.0
    location_sigma_mm: float = 35.0
    location_gate_mm: float = 120.0
    p_unexplained_event: float = 0.05
    use_impacts: bool = True


@dataclass(frozen=True)
class HeardEvent:
    t_us: float
    x_mm: float | None  # None when fewer than three sensors heard it
    y_mm: float | None
    sensors: int


def group_impacts(trace: ShotTrace, ep: EvidenceParams) -> list[HeardEvent]:
    """Cluster impacts into contact events and locate those heard by at least three sensors."""
    positions = {sid: (x, y) for sid, x, y in trace.mat.sensors}
    diagonal = math.hypot(trace.mat.width_mm, trace.mat.height_mm)
    window = diagonal / ep.wave_speed_mm_per_us + 4 * ep.timing_jitter_us
    events: list[list[tuple[int, int]]] = []
    for impact in sorted(trace.impacts, key=lambda i: i.t_us):
        if impact.sensor_id not in positions:
            continue
        if (
            events
            and impact.t_us - events[-1][0][1] <= window
            and impact.sensor_id not in {s for s, _ in events[-1]}
        ):
            events[-1].append((impact.sensor_id, impact.t_us))
        else:
            events.append([(impact.sensor_id, impact.t_us)])
    heard = []
    for group in events:
        if len(group) < 2:
            continue  # a lone trigger: a false trigger or too weak to place
        where = _locate(group, positions, trace, ep) if len(group) >= 3 else None
        t0 = min(t for _, t in group)
        heard.append(HeardEvent(t0, where[0] if where else None, where[1] if where else None, len(group)))
    return heard


def _locate(
    group: list[tuple[int, int]],
    positions: dict[int, tuple[float, float]],
    trace: ShotTrace,
    ep: EvidenceParams,
) -> tuple[float, float]:
    """Time-difference-of-arrival fit by a coarse-to-fine grid search (a handful of sensors, so cheap)."""
    v = ep.wave_speed_mm_per_us

    def cost(x: float, y: float) -> float:
        emitted = [t - math.hypot(x - positions[s][0], y - positions[s][1]) / v for s, t in group]
        mean = sum(emitted) / len(emitted)
        return sum((e - mean) ** 2 for e in emitted)

    g = trace.mat.wall_gap_mm
    best = (trace.mat.width_mm / 2, trace.mat.height_mm / 2)
    span_x, span_y = trace.mat.width_mm / 2 + g, trace.mat.height_mm / 2 + g
    for _ in range(4):
        candidates = [
            (best[0] + span_x * i / 6, best[1] + span_y * j / 6) for i in range(-6, 7) for j in range(-6, 7)
        ]
        best = min(candidates, key=lambda p: cost(*p))
        span_x, span_y = span_x / 4, span_y / 4
    return best


def _heard_by(contact: ModelContact, trace: ShotTrace, ep: EvidenceParams) -> float:
    """Probability that a predicted contact is heard by two or more sensors."""
    coupling = ep.disc_disc_coupling if contact.kind == "disc" else 1.0
    strength = ep.impulse_scale * contact.impulse * coupling
    amplitudes = sorted(
        (
            strength / (1 + math.hypot(contact.x_mm - sx, contact.y_mm - sy) / ep.amplitude_falloff_mm)
            for _, sx, sy in trace.mat.sensors
        ),
        reverse=True,
    )
    second = amplitudes[1] if len(amplitudes) > 1 else 0.0
    # Amplitudes scatter by ~15 % around the prediction, so detection is soft near the threshold.
    z = (second - ep.detection_threshold) / (0.25 * ep.detection_threshold)
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def impact_log_likelihood(
    rollout: Rollout, trace: ShotTrace, heard: list[HeardEvent], ep: EvidenceParams
) -> float:
    located = [e for e in heard if e.x_mm is not None]
    predicted = [(c, _heard_by(c, trace, ep)) for c in rollout.contacts]
    predicted = [(c, p) for c, p in predicted if p > 0.02]
    pairs = []
    for i, (c, _) in enumerate(predicted):
        for j, e in enumerate(located):
            d = math.hypot(c.x_mm - e.x_mm, c.y_mm - e.y_mm)  # type: ignore[operator]
            if d <= ep.location_gate_mm:
                pairs.append((d, i, j))
    pairs.sort()
    used_pred: set[int] = set()
    used_obs: set[int] = set()
    log_l = 0.0
    s = ep.location_sigma_mm
    for d, i, j in pairs:
        if i in used_pred or j in used_obs:
            continue
        used_pred.add(i)
        used_obs.add(j)
        log_l += math.log(predicted[i][1]) - 0.5 * (d / s) ** 2
    for i, (_, p) in enumerate(predicted):
        if i not in used_pred:
            log_l += math.log(max(1e-3, 1.0 - p))
    unexplained = len(located) - len(used_obs)
    log_l += unexplained * math.log(ep.p_unexplained_event)
    return log_l


def position_log_likelihood(
    rollout: Rollout,
    trace: ShotTrace,
    start: dict[str, tuple[float, float]],
    ep: EvidenceParams,
    misfits: list[str] | None = None,
) -> float:
    """Log-likelihood of the post-scan; pieces the rollout cannot explain at all are added to ``misfits``."""
    post, pre = trace.post.by_piece(), trace.pre.by_piece()
    log_l = 0.0
    for pid, (mx, my) in rollout.final.items():
        sx, sy = start.get(pid, (mx, my))
        observed_before = pre.get(pid)
        # Compare displacements, not positions: the rollout's start corrections only shape the contacts, and
        # a piece that stays put then costs the same in every rollout (its pre/post noise is marginalised).
        if observed_before is not None:
            fx, fy = observed_before.x_mm + mx - sx, observed_before.y_mm + my - sy
            sigma_before = observed_before.sigma_mm
        else:
            fx, fy, sigma_before = mx, my, 0.0
        travel = math.hypot(mx - sx, my - sy)
        seen = post.get(pid)
        if pid in rollout.covers_knocked_off:
            continue  # an ice piece shaken off lands anywhere near its host: no evidence either way
        if pid in rollout.left_mat:
            if seen is None:
                log_l += math.log(1 - P_SEEN_OFF_MAT)
            else:
                d = math.hypot(seen.x_mm - fx, seen.y_mm - fy)
                gauss = math.exp(-0.5 * (d / OFF_MAT_SIGMA_MM) ** 2) / (2 * math.pi * OFF_MAT_SIGMA_MM**2)
                log_l += math.log(
                    P_SEEN_OFF_MAT * ((1 - OUTLIER_WEIGHT) * gauss + OUTLIER_WEIGHT * OUTLIER_DENSITY)
                )
            continue
        if seen is None:
            log_l += math.log(ep.missed_read)
            continue
        along = ep.model_floor_mm + ep.along_track_per_mm * travel
        across = ep.model_floor_mm + ep.cross_track_per_mm * travel
        sa = math.sqrt(seen.sigma_mm**2 + sigma_before**2 + along**2)
        sc = math.sqrt(seen.sigma_mm**2 + sigma_before**2 + across**2)
        rx, ry = seen.x_mm - fx, seen.y_mm - fy
        if travel > 1e-6:
            ux, uy = (mx - sx) / travel, (my - sy) / travel
        else:
            ux, uy = 1.0, 0.0
        ra, rc = rx * ux + ry * uy, -rx * uy + ry * ux
        z2 = (ra / sa) ** 2 + (rc / sc) ** 2
        if misfits is not None and z2 > MISFIT_Z**2:
            misfits.append(pid)
        gauss = math.exp(-0.5 * z2) / (2 * math.pi * sa * sc)
        log_l += math.log((1 - OUTLIER_WEIGHT) * gauss + OUTLIER_WEIGHT * OUTLIER_DENSITY)
    return log_l


def log_likelihood(
    rollout: Rollout,
    trace: ShotTrace,
    start: dict[str, tuple[float, float]],
    heard: list[HeardEvent],
    ep: EvidenceParams,
    misfits: list[str] | None = None,
) -> float:
    value = position_log_likelihood(rollout, trace, start, ep, misfits)
    if ep.use_impacts:
        value += impact_log_likelihood(rollout, trace, heard, ep)
    return value
