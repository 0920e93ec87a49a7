"""Self-calibration: what one attributed shot teaches about its table, folded into the table's calibration.

Called after a shot is attributed, with that attribution only — never with ground truth, which a real table
does not have. Each piece of evidence is used where it is trustworthy on its own:

* **Sound speed, timing offsets, jitter, piezo gains**: from the placement of well-heard events (five or more
  piezos), which needs no reading of the shot at all, and of events heard by four where a sure reading says
  where they happened.
* **How loud contacts are** (walls and obstacles apart from disc-on-disc): from the contacts of the chosen
  reading's best rollout that matched a heard event, and only when that reading was sure.
* **Friction and bounce**: the shot's posterior over them, divided by the prior it was drawn from, so only
  what the shot itself added is counted (and only from sure shots).

Every update is tempered (counted at a fraction of its weight) because the model is not the mat: a hundred
shots should not make the calibration a hundred times surer than one shot's evidence allows.
"""

from __future__ import annotations

import logging
import math
from dataclasses import replace
from pathlib import Path

from service.mat.trace import ShotTrace

from .acoustics import (
    MAX_JOINT_EVENTS,
    MIN_SENSORS_ANCHORED,
    MIN_SENSORS_FOR_SPEED,
    SPEED_GRID,
    KeptEvent,
    solve_joint,
)
from .calibration import (
    Belief,
    SensorStats,
    TableCalibration,
    load_calibration,
    save_calibration,
    wide_priors,
)
from .camera_quality import learn_camera
from .config import AttributionConfig
from .evidence import (
    CONTACT_LOUDNESS_SPREAD,
    EvidenceParams,
    board_threshold,
    unit_loudness_amplitude,
)
from .infer import Attribution

log = logging.getLogger(__name__)

PHYSICS_TEMPER = 0.3
LOUDNESS_SAMPLE_SD = 0.5  # one matched contact's loudness against the model's impulse: a rough reading
# A contact the board heard can still go unmatched (its event placed too far off, or merged with another):
# the share of "unheard" contacts that were heard after all.
UNRECOGNISED_SHARE = 0.1
MASKING_WINDOW_S = 0.004  # contacts this close in time share one heard event (one mat crossing of sound)
MIN_EFFECTIVE_SAMPLES = 15.0
FLICK_ANCHOR_SIGMA_MM = 8.0  # the finger's click is where the flicked disc stood
CONTACT_ANCHOR_SIGMA_MM = 15.0  # a contact of the sure reading's best rollout
MIN_LIKELIHOOD_SD = 0.06  # one shot never pins friction or bounce closer than this (log scale)


def learn_from_shot(
    cal: TableCalibration,
    trace: ShotTrace,
    result: Attribution,
    evidence_params: EvidenceParams | None = None,
) -> TableCalibration:
    evidence = result.evidence
    if evidence is None:  # nothing was read (the flicked disc was never seen)
        return cal
    ep = evidence_params or EvidenceParams()
    picture = evidence.acoustics
    # Sound speed, lags and jitter: refitted from the table's kept events together with this shot's.
    # A sure reading says where its heard contacts happened: those places anchor the events, which breaks
    # the trade between a slower mat and lagging piezos that timing alone leaves open.
    anchors = {}
    if evidence.trusted:
        for match in evidence.matches:
            event, contact = match.event, match.contact
            if event.x_mm is None or event.y_mm is None:
                continue
            # Only a close match anchors: a loose one may pair the click with a nearby collision.
            if math.hypot(contact.x_mm - event.x_mm, contact.y_mm - event.y_mm) > 2.0 * event.sigma_mm:
                continue
            sigma = FLICK_ANCHOR_SIGMA_MM if contact.kind == "flick" else CONTACT_ANCHOR_SIGMA_MM
            anchors[id(event)] = (contact.x_mm, contact.y_mm, sigma)
    # An event heard by four piezos is kept only where a sure reading anchored it (acoustics.py).
    new_events = tuple(
        KeptEvent(e.raw, anchors.get(id(e)))
        for e in picture.events
        if len(e.raw) >= MIN_SENSORS_FOR_SPEED or (len(e.raw) >= MIN_SENSORS_ANCHORED and id(e) in anchors)
    )
    kept = (cal.acoustic_events + new_events)[-MAX_JOINT_EVENTS:]
    speed_loglik, offsets, ss, dof = cal.speed_loglik, cal.offsets_us, cal.jitter_ss_us2, cal.jitter_dof
    if new_events:
        joint = solve_joint(
            list(kept),
            trace.mat.sensors,
            trace.mat.width_mm,
            trace.mat.height_mm,
            trace.mat.wall_gap_mm,
            cal.speed_mm_per_us,
            cal.sensor_offsets_us(),
            cal.jitter_us,
        )
        if joint is not None:
            # The joint fit's error bar (events' places left free), widened by half because a mat is not
            # perfectly uniform; never under 1 %.
            sd = max(0.01, 1.5 * joint.speed_log_sd)
            prior = wide_priors().speed_loglik
            speed_loglik = tuple(
                p - 0.5 * (math.log(v / joint.speed_mm_per_us) / sd) ** 2
                for p, v in zip(prior, SPEED_GRID, strict=True)
            )
            offsets = joint.offsets_us
            ss = joint.jitter_us**2 * max(joint.jitter_dof, 1)
            dof = float(max(joint.jitter_dof, 1))
    stats = dict(cal.sensors)
    positions = {sid: (x, y) for sid, x, y in trace.mat.sensors}
    gains = cal.sensor_gains()
    for event in picture.events:
        if event.x_mm is None or event.y_mm is None or len(event.readings) < 4:
            continue
        level = {
            sid: math.log(max(amp, 1e-6))
            + math.log(
                1
                + math.hypot(event.x_mm - positions[sid][0], event.y_mm - positions[sid][1])
                / ep.amplitude_falloff_mm
            )
            for sid, _, amp in event.readings
            if sid in positions
        }
        if len(level) < 4:
            continue
        mean = sum(level.values()) / len(level)
        for sid, value in level.items():
            old = stats.get(sid, SensorStats())
            stats[sid] = replace(old, log_gain_sum=old.log_gain_sum + value - mean, gain_n=old.gain_n + 1)

    wall, disc = cal.wall_loudness, cal.disc_loudness
    heard_flick = False
    if evidence.trusted:
        for match in evidence.matches:
            contact, event = match.contact, match.event
            if contact.kind == "flick":
                heard_flick = True
                continue
            if event.x_mm is None or contact.impulse <= 0 or not event.readings:
                continue
            coupling = ep.disc_disc_coupling if contact.kind == "disc" else 1.0
            predicted = math.log(ep.impulse_scale * contact.impulse * coupling)
            observed = [
                math.log(max(amp, 1e-6) / gains.get(sid, 1.0))
                + math.log(
                    1
                    + math.hypot(contact.x_mm - positions[sid][0], contact.y_mm - positions[sid][1])
                    / ep.amplitude_falloff_mm
                )
                for sid, _, amp in event.readings
                if sid in positions
            ]
            if not observed:
                continue
            sample = sum(observed) / len(observed) - predicted
            if contact.kind == "disc":
                disc = _shift(disc.update(sample, LOUDNESS_SAMPLE_SD))
            else:
                wall = _shift(wall.update(sample, LOUDNESS_SAMPLE_SD))
        # Learning only from the contacts that were heard would learn the loud ones: on a mat where most
        # touches fall near the threshold the loudness comes out too high, and silence is then trusted too
        # much. So each unheard contact says "quieter than the threshold" (a censored reading).
        heard_at = [m.contact.t_s for m in evidence.matches if m.contact.kind != "flick"]
        silence = board_threshold(trace, ep)
        for contact in evidence.unheard:
            if any(abs(contact.t_s - t) < MASKING_WINDOW_S for t in heard_at):
                continue  # it may have been heard inside a louder contact's event
            unit = unit_loudness_amplitude(contact, trace, ep, gains)
            if unit <= 0:
                continue
            bound = math.log(silence / unit)
            if contact.kind == "disc":
                disc = _shift(disc.below(bound, CONTACT_LOUDNESS_SPREAD, UNRECOGNISED_SHARE))
            else:
                wall = _shift(wall.below(bound, CONTACT_LOUDNESS_SPREAD, UNRECOGNISED_SHARE))

    friction, disc_e, wall_e = cal.friction, cal.disc_restitution, cal.wall_restitution
    if evidence.trusted and evidence.effective_samples >= MIN_EFFECTIVE_SAMPLES:
        friction = _learn_scale(friction, evidence.friction)
        disc_e = _learn_scale(disc_e, evidence.disc_restitution)
        wall_e = _learn_scale(wall_e, evidence.wall_restitution)
    heard, chances = cal.flick_sounds
    return replace(
        cal,
        shots=cal.shots + 1,
        source="learnt from play" if cal.source == "wide priors" else cal.source,
        speed_loglik=speed_loglik,
        jitter_ss_us2=ss,
        jitter_dof=dof,
        offsets_us=tuple(offsets),
        acoustic_events=tuple(kept),
        sensors=tuple(sorted(stats.items())),
        wall_loudness=wall,
        disc_loudness=disc,
        friction=friction,
        disc_restitution=disc_e,
        wall_restitution=wall_e,
        flick_sounds=(heard + int(heard_flick), chances + int(evidence.trusted)),
        camera=learn_camera(cal.camera, trace, picture.events),
    )


def _shift(belief: Belief) -> Belief:
    """Keep a floor on the sd: contact loudness is never known better than the model's impulses."""
    return replace(belief, sd=max(belief.sd, 0.12))


def _learn_scale(prior: Belief, posterior: tuple[float, float]) -> Belief:
    """Fold in what one shot added: its posterior divided by the prior it was sampled from (Gaussians)."""
    mean, sd = posterior
    precision = 1 / sd**2 - 1 / prior.sd**2
    if precision <= 1.0:  # the shot said (almost) nothing about it
        return prior
    precision = min(precision, 1 / MIN_LIKELIHOOD_SD**2)
    like_mean = (mean / sd**2 - prior.mean / prior.sd**2) / (1 / sd**2 - 1 / prior.sd**2)
    like_mean = max(-0.7, min(0.7, like_mean))
    return prior.update(like_mean, math.sqrt(1 / (precision * PHYSICS_TEMPER)))


class CalibrationKeeper:
    """A live table's calibration: read at start, learnt from every attributed shot, saved atomically.

    The daemon owns one; ``config`` is what the next shot is read with, and its digest goes into the shot's
    log record so a replay months later knows which calibration decided it.
    """

    def __init__(self, path: Path, table: str) -> None:
        self.path = path
        self.calibration = load_calibration(path)
        if self.calibration.shots == 0:  # a new table: name it after the table, not the file
            self.calibration = replace(self.calibration, table=table)
        log.info(
            "table calibration %s (%s, %d shots, %s)",
            path,
            self.calibration.source,
            self.calibration.shots,
            "settled" if self.calibration.settled else "not settled yet: shots go to the referee",
        )

    def config(self, base: AttributionConfig) -> AttributionConfig:
        return replace(base, table=self.calibration)

    def learn(self, trace: ShotTrace, result: Attribution, base: AttributionConfig) -> None:
        try:
            self.calibration = learn_from_shot(self.calibration, trace, result, base.evidence)
            save_calibration(self.calibration, self.path)
        except (OSError, ValueError) as exc:  # a full disk must not stop the game; the log keeps the traces
            log.error("could not update the table calibration %s: %s", self.path, exc)
