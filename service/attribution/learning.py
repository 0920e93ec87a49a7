"""Self-calibration: what one attributed shot teaches about its table, folded into the table's calibration.

Called after a shot is attributed, with that attribution and, for a held shot, the referee's answer —
never with ground truth, which a real table does not have. Each piece of evidence is used where it is
trustworthy on its own:

* **Sound speed, timing offsets, jitter, piezo gains**: from the placement of well-heard events (five or more
  piezos), which needs no reading of the shot at all, and of events heard by four where a sure reading says
  where they happened.
* **How loud contacts are** (walls and obstacles apart from disc-on-disc): from the contacts of a reading
  known to be right — the referee's answer where the sensors do not contradict it, else the model's reading
  when it was sure — both those a piezo heard and, as censored readings, those none did.
* **Friction and bounce**: the posterior over them among that reading's rollouts, divided by the prior it was
  drawn from, so only what the shot itself added is counted.
* **How far the gates' doubt was needed**: each answer counts for or against every reason the shot was held
  for (reliability.py).

Every update is tempered (counted at a fraction of its weight) because the model is not the mat: a hundred
shots should not make the calibration a hundred times surer than one shot's evidence allows.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from service.mat.trace import ShotTrace

from .acoustics import (
    MIN_SENSORS_ANCHORED,
    MIN_SENSORS_FOR_SPEED,
    SPEED_GRID,
    AcousticPicture,
    KeptEvent,
)
from .acoustics_joint import MAX_JOINT_EVENTS, solve_joint
from .answers import labelled_reading
from .calibration import (
    Belief,
    SensorStats,
    TableCalibration,
    load_calibration,
    save_calibration,
    wide_priors,
)
from .camera_quality import learn_camera, learn_from_referee
from .config import AttributionConfig
from .evidence import (
    CONTACT_LOUDNESS_SPREAD,
    EvidenceParams,
    ImpactMatch,
    board_threshold,
    unit_loudness_amplitude,
)
from .infer import Attribution
from .model import ModelContact, ModelParams
from .reliability import probability_band, reason_key

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
HELD_KEPT = 8  # the last shots' readings a live table keeps for the referee's answer


def learn_from_shot(
    cal: TableCalibration,
    trace: ShotTrace,
    result: Attribution,
    evidence_params: EvidenceParams | None = None,
    *,
    answer: frozenset[str] | None = None,
    answered_nothing: bool = False,
    model_params: ModelParams | None = None,
) -> TableCalibration:
    """What the shot's own evidence teaches, then (for a held shot) the referee's answer: ``answer`` is the
    hit set the referee gave (never ground truth), ``answered_nothing`` says the referee gave none."""
    cal = _learn_from_evidence(cal, trace, result, evidence_params or EvidenceParams())
    if answer is None and not answered_nothing:
        return cal
    return learn_from_answer(cal, trace, result, answer, evidence_params, model_params)


def learn_from_guided_touch(
    cal: TableCalibration,
    trace: ShotTrace,
    result: Attribution,
    answer: frozenset[str],
    evidence_params: EvidenceParams | None = None,
    model_params: ModelParams | None = None,
) -> TableCalibration:
    """A guided touch flick (one disc flicked softly into another before play, its touched set given by the
    routine): learnt like a referee's answer (the touch's loudness at its distance from each piezo, the
    physics), unless the sensors contradict it, but kept out of the referee's record: a staged flick says
    nothing of how the gates fare on shots held in play (reliability.py)."""
    learnt = learn_from_shot(cal, trace, result, evidence_params, answer=answer, model_params=model_params)
    return replace(learnt, referee=cal.referee)


def learn_from_answer(
    cal: TableCalibration,
    trace: ShotTrace,
    result: Attribution,
    answer: frozenset[str] | None,
    evidence_params: EvidenceParams | None = None,
    model_params: ModelParams | None = None,
) -> TableCalibration:
    """What a referee's answer to a held shot teaches, on top of the shot's own evidence (already learnt).

    The answered hit set's contacts (heard and unheard) and its rollouts' physics are learnt from unless the
    sensors contradict the answer (answers.py), or the shot's own reading was sure and taught them already;
    the answer always counts in the gates' record (reliability.py). ``None``: the referee gave no answer."""
    if answer is None:
        return replace(cal, referee=cal.referee.with_no_answer())
    cal = replace(cal, camera=learn_from_referee(cal.camera, trace, answer))
    evidence = result.evidence
    ep = evidence_params or EvidenceParams()
    labelled = (
        labelled_reading(trace, evidence.by_hits, evidence.sound, answer, ep, model_params)
        if evidence is not None
        else None
    )
    usable = labelled is not None and not labelled.contradicted
    # The reasons the shot was held for, or let through despite (a shot the record released and the referee
    # then found wrong counts against exactly the gates that released it).
    keys = {reason_key(r) for r in (*result.reasons, *result.released)}
    keys.add(probability_band(result.top.probability))
    referee = cal.referee.with_answer(
        keys, result.top.direct_hits == answer, contradicted=not usable, learnt=usable
    )
    if not usable or labelled is None or evidence is None or evidence.trusted:
        return replace(cal, referee=referee)
    cal = _anchored_by_answer(cal, trace, evidence.acoustics, labelled.matches)
    positions = {sid: (x, y) for sid, x, y in trace.mat.sensors}
    wall, disc, heard_flick = _learn_loudness(
        cal.wall_loudness,
        cal.disc_loudness,
        trace,
        labelled.matches,
        labelled.unheard,
        ep,
        cal.sensor_gains(),
        positions,
    )
    friction, disc_e, wall_e = cal.friction, cal.disc_restitution, cal.wall_restitution
    physics = labelled.hits  # the posterior among the answered set's rollouts alone
    if physics.effective_samples >= MIN_EFFECTIVE_SAMPLES:
        friction = _learn_scale(friction, physics.friction)
        disc_e = _learn_scale(disc_e, physics.disc_restitution)
        wall_e = _learn_scale(wall_e, physics.wall_restitution)
    heard, chances = cal.flick_sounds
    return replace(
        cal,
        wall_loudness=wall,
        disc_loudness=disc,
        friction=friction,
        disc_restitution=disc_e,
        wall_restitution=wall_e,
        flick_sounds=(heard + int(heard_flick), chances + 1),
        referee=referee,
    )


def _anchored_by_answer(
    cal: TableCalibration, trace: ShotTrace, picture: AcousticPicture, placed: Sequence[ImpactMatch]
) -> TableCalibration:
    """The shot's heard events kept again, anchored where the answered reading's best rollout makes its
    contacts (as a sure reading's are), and the sound speed, lags and jitter refitted: a held shot's answer
    places its sounds too, so a table whose shots are mostly held still learns its sound from where they
    happened (docs/calibration.md, "What the referee's answers teach")."""
    mine = {e.raw for e in picture.events if e.raw}
    before = tuple(k for k in cal.acoustic_events if k.arrivals not in mine)
    kept, speed_loglik, offsets, ss, dof = _learn_acoustics(cal, trace, picture, placed, before)
    if not any(k.anchor is not None and k.arrivals in mine for k in kept):
        return cal  # nothing of the shot's sound was placed by the answer
    return replace(
        cal,
        acoustic_events=kept,
        speed_loglik=speed_loglik,
        offsets_us=offsets,
        jitter_ss_us2=ss,
        jitter_dof=dof,
    )


def _learn_acoustics(
    cal: TableCalibration,
    trace: ShotTrace,
    picture: AcousticPicture,
    placed: Sequence[ImpactMatch],
    kept_before: tuple[KeptEvent, ...] | None = None,
) -> tuple[tuple[KeptEvent, ...], tuple[float, ...], tuple[tuple[int, float], ...], float, float]:
    """The kept events with this shot's, and the sound speed's log-likelihood, the lags and the jitter
    (sum of squares, degrees of freedom) refitted from them. ``placed``: the contacts of a reading the table
    may trust (a sure one, or the one a referee's answer named) matched to heard events; ``kept_before``:
    the kept events to add this shot's to (default the calibration's)."""
    # Sound speed, lags and jitter: refitted from the table's kept events together with this shot's.
    # A sure reading, or the answered one, says where its heard contacts happened: those places anchor the
    # events, which breaks the trade between a slower mat and lagging piezos that timing alone leaves open.
    anchors = {}
    for match in placed:
        event, contact = match.event, match.contact
        if event.x_mm is None or event.y_mm is None:
            continue
        # Only a close match anchors: a loose one may pair the click with a nearby collision.
        if math.hypot(contact.x_mm - event.x_mm, contact.y_mm - event.y_mm) > 2.0 * event.sigma_mm:
            continue
        sigma = FLICK_ANCHOR_SIGMA_MM if contact.kind == "flick" else CONTACT_ANCHOR_SIGMA_MM
        anchors[event.raw] = (contact.x_mm, contact.y_mm, sigma)
    # An event heard by four piezos is kept only where a sure reading anchored it (acoustics.py).
    new_events = tuple(
        KeptEvent(e.raw, anchors.get(e.raw))
        for e in picture.events
        if len(e.raw) >= MIN_SENSORS_FOR_SPEED or (len(e.raw) >= MIN_SENSORS_ANCHORED and e.raw in anchors)
    )
    before = cal.acoustic_events if kept_before is None else kept_before
    kept = (before + new_events)[-MAX_JOINT_EVENTS:]
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
    return tuple(kept), tuple(speed_loglik), tuple(offsets), ss, dof


def _learn_gains(
    cal: TableCalibration,
    picture: AcousticPicture,
    positions: dict[int, tuple[float, float]],
    ep: EvidenceParams,
) -> dict[int, SensorStats]:
    """Each piezo's loudness against the others' for the same placed event, distance fall-off removed."""
    stats = dict(cal.sensors)
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
    return stats


def _learn_from_evidence(
    cal: TableCalibration, trace: ShotTrace, result: Attribution, ep: EvidenceParams
) -> TableCalibration:
    evidence = result.evidence
    if evidence is None:  # nothing was read (the flicked disc was never seen)
        return cal
    picture = evidence.acoustics
    placed = evidence.matches if evidence.trusted else ()
    kept, speed_loglik, offsets, ss, dof = _learn_acoustics(cal, trace, picture, placed)
    positions = {sid: (x, y) for sid, x, y in trace.mat.sensors}
    gains = cal.sensor_gains()
    stats = _learn_gains(cal, picture, positions, ep)
    wall, disc = cal.wall_loudness, cal.disc_loudness
    heard_flick = False
    if evidence.trusted:
        wall, disc, heard_flick = _learn_loudness(
            wall, disc, trace, evidence.matches, evidence.unheard, ep, gains, positions
        )
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


def _learn_loudness(
    wall: Belief,
    disc: Belief,
    trace: ShotTrace,
    matches: Sequence[ImpactMatch],
    unheard: Sequence[ModelContact],
    ep: EvidenceParams,
    gains: dict[int, float],
    positions: dict[int, tuple[float, float]],
) -> tuple[Belief, Belief, bool]:
    """How loud walls and disc-on-disc touches are, from a right reading's heard contacts and its unheard
    ones; and whether the flick's own click was heard."""
    heard_flick = False
    for match in matches:
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
    heard_at = [m.contact.t_s for m in matches if m.contact.kind != "flick"]
    silence = board_threshold(trace, ep)
    for contact in unheard:
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
    return wall, disc, heard_flick


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

    def __init__(self, path: Path, table: str, *, learn_answers: bool = True) -> None:
        self.path = path
        # False: the referee's answers are not learnt (a comparison of what they add; no reading is kept)
        self.learn_answers = learn_answers
        # The last shots' readings, by the shot record's seq, until the referee answers (never logged: the log
        # keeps the trace, and a restart reads the shot again).
        self.held: dict[int, tuple[ShotTrace, Attribution, AttributionConfig]] = {}
        self.calibration = load_calibration(path)
        if self.calibration.shots == 0:  # a new table: name it after the table, not the file
            self.calibration = replace(self.calibration, table=table)
        log.info("table calibration %s (%s)", path, self.describe())

    def describe(self) -> str:
        """The calibration in a few words: where it comes from, what it rests on, whether it is settled."""
        cal = self.calibration
        return (
            f"{cal.source}, {cal.shots} shots, {cal.referee.labelled} answered by the referee, "
            + ("settled" if cal.settled else "not settled yet: shots go to the referee")
            + ("" if self.learn_answers else "; the referee's answers are not learnt")
        )

    def config(self, base: AttributionConfig) -> AttributionConfig:
        return replace(base, table=self.calibration)

    def learn(
        self, trace: ShotTrace, result: Attribution, base: AttributionConfig, shot_seq: int = 0
    ) -> None:
        """Learn from a shot's own evidence; a shot the table did not apply is kept for its answer."""
        try:
            self.calibration = learn_from_shot(self.calibration, trace, result, base.evidence)
            save_calibration(self.calibration, self.path)
        except (OSError, ValueError) as exc:  # a full disk must not stop the game; the log keeps the traces
            log.error("could not update the table calibration %s: %s", self.path, exc)
        if shot_seq and self.learn_answers:
            self.held[shot_seq] = (trace, result, base)
            while len(self.held) > HELD_KEPT:
                del self.held[next(iter(self.held))]

    def learn_answer(self, shot_seq: int, answer: frozenset[str] | None) -> bool:
        """The referee's answer to a shot (pieces the flicked disc touched directly; None: none given). False
        when the shot is not one this keeper holds (read before a restart, or answered already)."""
        kept = self.held.pop(shot_seq, None)
        if kept is None:
            return False
        trace, result, base = kept
        try:
            self.calibration = learn_from_answer(
                self.calibration, trace, result, answer, base.evidence, base.model
            )
            save_calibration(self.calibration, self.path)
        except (OSError, ValueError) as exc:
            log.error("could not update the table calibration %s: %s", self.path, exc)
        log.info(
            "shot %d: the referee's answer learnt (%d labelled shots)",
            shot_seq,
            self.calibration.referee.labelled,
        )
        return True
