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

from service.mat.trace import SeenPiece, ShotTrace

from .acoustics import HeardEvent
from .model import COVER_KINDS, ModelContact, Rollout

OUTLIER_WEIGHT = 0.01
OUTLIER_DENSITY = 1.0 / (600.0 * 600.0)  # a uniform guess anywhere on the mat
P_SEEN_OFF_MAT = 0.3  # edge antennas still catch some discs lying just beyond the mat
OFF_MAT_SIGMA_MM = 30.0
MISFIT_Z = 4.5  # a piece this many sigmas from where the rollout left it: evidence the rollout is wrong
# A poorly read disc (one antenna, or pinned at the grid's edge) is off by much the same amount in two reads
# as long as it stays where the same antennas see it: most of its sigma is a bias the two reads share, not
# noise. What a read's sigma holds beyond its random part (the larger of RANDOM_READ_MM and RANDOM_READ_SHARE
# of it) is counted as such a bias, shared in proportion to exp(−(travel / BIAS_CORRELATION_MM)²) of the
# rollout's travel for the piece. A well-read disc (three antennas, ~3 mm) has no shared part.
RANDOM_READ_MM = 4.0
# A read past the outermost antennas is pinned to the last row (sensing/locate.py reports it with a sigma of
# at least a pitch): the disc lies at most about half that sigma inward of the read, but may lie well beyond
# it. Such a read is judged with a split normal across the edge: tight inward, wide outward.
PINNED_SIGMA_MM = 20.0
PINNED_INWARD_SHARE = 0.5
PINNED_OUTWARD_SHARE = 1.5
RANDOM_READ_SHARE = 0.4
BIAS_CORRELATION_MM = 25.0  # about one antenna pitch


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
    # An event more piezos heard is less likely to be anything but a touch (echoes and knocks on the frame
    # reach few sensors): each sensor past the third takes the chance that a reading may leave it over
    # down by this share, to a floor (8 piezos: 1e-4, 9 nats, where 3 piezos cost 3).
    unexplained_from_sensors: int = 3
    unexplained_share_per_sensor: float = 0.3
    p_unexplained_floor: float = 1e-4
    use_impacts: bool = True
    use_contact_gaps: bool = True
    gap_touching_mm: float = 6.0  # a post-scan gap this small reads as "resting against each other"
    gap_model_mm: float = 2.0


@dataclass(frozen=True)
class SoundModel:
    """How this table's contacts sound, as far as its calibration knows (calibration.py), and this shot's
    placed events (acoustics.py). Picklable: it travels to the rollout workers with the trace."""

    events: tuple[HeardEvent, ...] = ()
    gains: tuple[tuple[int, float], ...] = ()  # per-piezo gain against the others
    wall_loudness: tuple[float, float] = (0.0, 0.8)  # (mean, sd) of log loudness against the nominal model
    disc_loudness: tuple[float, float] = (0.0, 0.8)
    flick_sound_rate: float = 0.25  # how often a flick's own click is heard on this table


AMPLITUDE_SCATTER = 0.15  # log-normal scatter of one reading
IMPULSE_MODEL_ERROR = 0.35  # the nominal model's contact impulses are themselves off by this much (log)
# How far one contact's loudness strays from the model's at a known mat loudness (log): the reading's scatter
# and the impulse's error together.
CONTACT_LOUDNESS_SPREAD = math.sqrt(AMPLITUDE_SCATTER**2 + IMPULSE_MODEL_ERROR**2)
TIMING_FLOOR_US = 4000.0  # a rollout's contact times are trusted to a few ms...
TIMING_SHARE = 0.10  # ...and a tenth of the time since the flick (friction and speed trade off)


def group_impacts(trace: ShotTrace, ep: EvidenceParams) -> list[HeardEvent]:
    """Events placed with the nominal sound speed (the baselines' view; attribution uses acoustics.py)."""
    from .acoustics import SPEED_GRID, read_impacts

    prior = tuple(-0.5 * ((v - ep.wave_speed_mm_per_us) / 0.01) ** 2 for v in SPEED_GRID)
    return list(read_impacts(trace, prior_loglik=prior, offsets_us={}, jitter_us=ep.timing_jitter_us).events)


def unit_loudness_amplitude(
    contact: ModelContact, trace: ShotTrace, ep: EvidenceParams, gains: dict[int, float]
) -> float:
    """What the second-loudest piezo would read of a contact on a mat of nominal loudness (scale 1): a
    contact is heard when two piezos pass the threshold, so the second one decides."""
    coupling = ep.disc_disc_coupling if contact.kind == "disc" else 1.0
    strength = ep.impulse_scale * contact.impulse * coupling
    if strength <= 0:
        return 0.0
    amplitudes = sorted(
        (
            gains.get(sid, 1.0)
            * strength
            / (1 + math.hypot(contact.x_mm - sx, contact.y_mm - sy) / ep.amplitude_falloff_mm)
            for sid, sx, sy in trace.mat.sensors
        ),
        reverse=True,
    )
    return amplitudes[1] if len(amplitudes) > 1 else 0.0


def board_threshold(trace: ShotTrace, ep: EvidenceParams) -> float:
    """The level below which the board stays silent: what its HELLO stated, or the reference board's."""
    return trace.mat.piezo_threshold or ep.detection_threshold


def heard_probability(
    contact: ModelContact, trace: ShotTrace, ep: EvidenceParams, sound: SoundModel
) -> float:
    """Probability that a predicted contact is heard by two or more sensors, given what is known of how loud
    this mat is: uncertain loudness makes the answer soft, so silence is weak evidence on a new table."""
    if contact.kind == "flick":
        return sound.flick_sound_rate
    mean, sd = sound.disc_loudness if contact.kind == "disc" else sound.wall_loudness
    second = unit_loudness_amplitude(contact, trace, ep, dict(sound.gains)) * math.exp(mean)
    if second <= 0:
        return 0.0
    spread = math.sqrt(CONTACT_LOUDNESS_SPREAD**2 + sd**2)
    # A board that states a higher threshold than the reference's makes silence weaker evidence. One that
    # states a lower one is not taken at its word: on hidden mats, trusting a 5-count board's silence
    # applied wrong shots even once the table had learnt its loudness (docs/attribution.md).
    threshold = max(board_threshold(trace, ep), ep.detection_threshold)
    z = math.log(second / threshold) / spread
    # Logistic approximation of the normal CDF (1.7 z).
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, 1.7 * z))))


@dataclass
class ImpactMatch:
    """Which predicted contact explained which placed event (for learning after attribution)."""

    contact: ModelContact
    event: HeardEvent


def impact_log_likelihood(
    rollout: Rollout,
    trace: ShotTrace,
    sound: SoundModel,
    ep: EvidenceParams,
    matches: list[ImpactMatch] | None = None,
) -> float:
    located = [e for e in sound.events if e.x_mm is not None]
    start = rollout.path[0] if rollout.path else None
    contacts = list(rollout.contacts)
    if start is not None:
        contacts.append(
            ModelContact(0.0, start[1], start[2], trace.declaration.flicked, "finger", "flick", 0.0)
        )
    predicted = [(c, heard_probability(c, trace, ep, sound)) for c in contacts]
    predicted = [(c, p) for c, p in predicted if p > 0.02]
    pairs = []
    for i, (c, _) in enumerate(predicted):
        for j, e in enumerate(located):
            s = math.hypot(e.sigma_mm, ep.model_floor_mm * 5)
            d = math.hypot(c.x_mm - e.x_mm, c.y_mm - e.y_mm)  # type: ignore[operator]
            if d <= max(ep.location_gate_mm, 3.5 * s):
                pairs.append((d / s, i, j))
    pairs.sort()
    used_pred: dict[int, int] = {}
    used_obs: set[int] = set()
    log_l = 0.0
    for z, i, j in pairs:
        if i in used_pred or j in used_obs:
            continue
        used_pred[i] = j
        used_obs.add(j)
        s = math.hypot(located[j].sigma_mm, ep.model_floor_mm * 5)
        log_l += math.log(predicted[i][1]) - 0.5 * z**2 - 2 * math.log(s / ep.location_sigma_mm)
    for i, (_, p) in enumerate(predicted):
        if i not in used_pred:
            log_l += math.log(max(1e-3, 1.0 - p))
    log_l += sum(unexplained_log_cost(e, ep) for j, e in enumerate(located) if j not in used_obs)
    log_l += _timing_log_likelihood([(predicted[i][0], located[j]) for i, j in used_pred.items()])
    if matches is not None:
        matches.extend(ImpactMatch(predicted[i][0], located[j]) for i, j in used_pred.items())
    return log_l


def unexplained_log_cost(event: HeardEvent, ep: EvidenceParams) -> float:
    """What leaving a placed event unexplained costs a rollout: more the more piezos heard it.

    A touch the reading leaves out (a second hit's sound, heard by most of the mat) must weigh against it
    in the posterior itself, not only in a gate after it: a lone faint event may be an echo, a loud one is a
    contact the rollout did not make."""
    extra = max(0, event.sensors - ep.unexplained_from_sensors)
    chance = ep.p_unexplained_event * ep.unexplained_share_per_sensor**extra
    return math.log(max(ep.p_unexplained_floor, chance))


def _timing_log_likelihood(pairs: list[tuple[ModelContact, HeardEvent]]) -> float:
    """Matched contacts must also keep their order and spacing in time (the flick's start is unknown)."""
    if len(pairs) < 2:
        return 0.0
    weights, lags = [], []
    for c, e in pairs:
        sigma = TIMING_FLOOR_US + TIMING_SHARE * c.t_s * 1e6
        weights.append(1 / sigma**2)
        lags.append(e.t_us - c.t_s * 1e6)
    offset = sum(w * lag for w, lag in zip(weights, lags, strict=True)) / sum(weights)
    return -0.5 * sum(w * (lag - offset) ** 2 for w, lag in zip(weights, lags, strict=True))


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
        shared = math.exp(-((travel / BIAS_CORRELATION_MM) ** 2)) * _bias(seen.sigma_mm) * _bias(sigma_before)
        reads = max(seen.sigma_mm**2 + sigma_before**2 - 2 * shared, 0.0)
        sa = math.sqrt(reads + along**2)
        sc = math.sqrt(reads + across**2)
        rx, ry = seen.x_mm - fx, seen.y_mm - fy
        if sigma_before < PINNED_SIGMA_MM or travel > BIAS_CORRELATION_MM:  # not a bias both reads share
            rx, ry = _pinned_residual(seen, trace, rx, ry)
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


def _pinned_residual(seen: SeenPiece, trace: ShotTrace, rx: float, ry: float) -> tuple[float, float]:
    """The read-minus-predicted residual, its component across the nearest edge rescaled for a pinned read."""
    if seen.sigma_mm < PINNED_SIGMA_MM:
        return rx, ry
    w, h = trace.mat.width_mm, trace.mat.height_mm
    edges: tuple[tuple[float, tuple[float, float]], ...] = (
        (seen.x_mm, (-1.0, 0.0)),
        (w - seen.x_mm, (1.0, 0.0)),
        (seen.y_mm, (0.0, -1.0)),
        (h - seen.y_mm, (0.0, 1.0)),
    )
    distance, (nx, ny) = min(edges)
    if distance > seen.sigma_mm:
        return rx, ry  # a poor read, but not one pinned at the edge
    across = rx * nx + ry * ny  # > 0: the prediction lies inward of the read, where a pinned disc hardly is
    share = PINNED_INWARD_SHARE if across > 0 else PINNED_OUTWARD_SHARE
    scaled = across / share
    return rx + nx * (scaled - across), ry + ny * (scaled - across)


def _bias(sigma_mm: float) -> float:
    """The part of a read's per-axis error that a second read from the same place repeats."""
    random_part = max(RANDOM_READ_MM, RANDOM_READ_SHARE * sigma_mm)
    return math.sqrt(max(sigma_mm**2 - random_part**2, 0.0))


def contact_gap_log_likelihood(
    rollout: Rollout, trace: ShotTrace, start: dict[str, tuple[float, float]], ep: EvidenceParams
) -> float:
    """A rollout that stopped the flicked disc short of a piece it is found resting against: a coincidence.

    Where a disc stops is uncertain by a share of its travel (friction differs piece by piece), so the
    position term cannot tell a kiss — the flicked disc just reaching a piece and stopping against it — from
    stopping a few millimetres short. The scan can: both discs are read, and a disc that stopped short by
    chance rarely stops exactly in contact, while one that touched ends there. So for each piece the
    post-scan shows touching the flicked disc, a rollout in which the flicked disc never touched it pays for
    the gap it leaves between them (scan noise of both discs plus a little model error). Rollouts that touch
    it are judged by the position term alone.
    """
    flicked = trace.declaration.flicked
    post = trace.post.by_piece()
    seen_f = post.get(flicked)
    if seen_f is None or flicked in rollout.left_mat or flicked not in rollout.final:
        return 0.0
    rf = trace.spec(flicked).radius_mm
    fx, fy = rollout.final[flicked]
    log_l = 0.0
    for pid, (px, py) in rollout.final.items():
        if pid == flicked or pid in rollout.direct or pid in rollout.left_mat:
            continue
        if trace.spec(pid).kind in COVER_KINDS:
            continue
        seen_p = post.get(pid)
        if seen_p is None:
            continue
        reach = rf + trace.spec(pid).radius_mm
        observed = math.hypot(seen_f.x_mm - seen_p.x_mm, seen_f.y_mm - seen_p.y_mm) - reach
        if observed > ep.gap_touching_mm:
            continue
        predicted = max(0.0, math.hypot(fx - px, fy - py) - reach)
        if predicted <= observed:
            continue
        sigma = math.sqrt(seen_f.sigma_mm**2 + seen_p.sigma_mm**2 + ep.gap_model_mm**2)
        log_l -= 0.5 * ((predicted - observed) / sigma) ** 2
    return max(log_l, -12.0)  # one odd read must not veto a rollout


def log_likelihood(
    rollout: Rollout,
    trace: ShotTrace,
    start: dict[str, tuple[float, float]],
    sound: SoundModel,
    ep: EvidenceParams,
    misfits: list[str] | None = None,
    matches: list[ImpactMatch] | None = None,
) -> float:
    value = position_log_likelihood(rollout, trace, start, ep, misfits)
    if ep.use_contact_gaps:
        value += contact_gap_log_likelihood(rollout, trace, start, ep)
    if ep.use_impacts:
        value += impact_log_likelihood(rollout, trace, sound, ep, matches)
    return value
