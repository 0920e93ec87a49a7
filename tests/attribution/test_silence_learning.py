"""What a table learns from the contacts its board did *not* hear, and how far a board's silence is believed.

A board hears only the contacts loud enough to pass its threshold, so a loudness learnt from heard contacts
alone comes out too loud, and a model that believes it then trusts silence too much: soft second hits are
read as pushes. docs/calibration.md, "Loudness: heard and unheard contacts".
"""

from __future__ import annotations

import dataclasses
import math

import pytest

from service.attribution import AttributionConfig, attribute
from service.attribution.acoustics import HeardEvent
from service.attribution.calibration import Belief, wide_priors
from service.attribution.evidence import (
    EvidenceParams,
    ImpactMatch,
    SoundModel,
    heard_probability,
    unit_loudness_amplitude,
)
from service.attribution.infer import Attribution
from service.attribution.learning import learn_from_shot
from service.attribution.model import ModelContact
from service.mat.trace import Declaration, MatGeometry, PieceSpec, Scan, SeenPiece, ShotTrace

SENSORS = ((0, 0.0, 0.0), (1, 860.0, 0.0), (2, 860.0, 610.0), (3, 0.0, 610.0))
QUICK = dict(workers=1, broad_rollouts=32, refine_rounds=1, refine_rollouts=16, seed=1)


def quiet_trace(threshold: float | None = None) -> ShotTrace:
    """A hero alone on the mat that nothing was heard of; the board states ``threshold`` (None: reference)."""
    hero = SeenPiece("hero-1", 200.0, 300.0, 3.0)
    return ShotTrace(
        MatGeometry(860, 610, 60, SENSORS, piezo_threshold=threshold),
        (PieceSpec("hero-1", 19.0, 7.4, "hero", "heroes"),),
        Scan(0, (hero,)),
        Declaration("hero-1", "melee"),
        (),
        Scan(10_000_000, (hero,)),
    )


def touch(impulse: float, t_s: float = 0.2) -> ModelContact:
    return ModelContact(t_s, 430.0, 305.0, "hero-1", "orc-1", "disc", impulse)


def sure_reading_with(trace: ShotTrace, unheard: tuple[ModelContact, ...], heard=()) -> Attribution:
    """What ``attribute`` returns for a sure shot whose best rollout made these contacts."""
    result = attribute(trace, AttributionConfig(table=wide_priors(), **QUICK))
    assert result.evidence is not None
    evidence = dataclasses.replace(result.evidence, trusted=True, unheard=unheard, matches=tuple(heard))
    return dataclasses.replace(result, evidence=evidence)


def loudness_at_threshold(trace: ShotTrace, threshold: float) -> float:
    """The impulse whose contact would just reach ``threshold`` on a mat of nominal loudness."""
    return threshold / unit_loudness_amplitude(touch(1.0), trace, EvidenceParams(), {})


def test_a_contact_that_was_not_heard_teaches_that_the_mat_is_quieter_than_believed() -> None:
    trace = quiet_trace()
    # A touch that a mat of nominal loudness would have made twice as loud as the threshold.
    loud = touch(2 * loudness_at_threshold(trace, 40.0))
    learnt = learn_from_shot(wide_priors(), trace, sure_reading_with(trace, (loud,)))
    assert learnt.disc_loudness.mean < wide_priors().disc_loudness.mean - 0.3
    assert learnt.disc_loudness.shots == 1
    # A touch far too soft to hear says nothing either way, and is not counted as learnt from.
    faint = touch(0.01 * loudness_at_threshold(trace, 40.0))
    unchanged = learn_from_shot(wide_priors(), trace, sure_reading_with(trace, (faint,)))
    assert unchanged.disc_loudness.mean == pytest.approx(wide_priors().disc_loudness.mean, abs=0.01)
    assert unchanged.disc_loudness.shots == 0


def test_an_unheard_contact_next_to_a_heard_one_is_not_taken_as_silence() -> None:
    # Two contacts a few milliseconds apart reach the piezos as one event: the quieter one was not silent.
    trace = quiet_trace()
    loud = touch(3 * loudness_at_threshold(trace, 40.0), t_s=0.2)
    heard = ImpactMatch(touch(10.0, t_s=0.202), HeardEvent(200_000.0, 430.0, 305.0, 4))
    learnt = learn_from_shot(wide_priors(), trace, sure_reading_with(trace, (loud,), [heard]))
    assert learnt.disc_loudness.mean == pytest.approx(wide_priors().disc_loudness.mean, abs=1e-6)


def test_one_loud_contact_that_went_unmatched_cannot_drag_a_learnt_loudness_down() -> None:
    learnt = Belief(0.0, 0.15, 20)
    # "Unheard" though a hundred times louder than the threshold: more likely heard and not recognised.
    after = learnt.below(math.log(0.01), 0.38, outlier=0.1)
    assert after.mean > -0.1
    assert after.shots == 20
    # Without that allowance the belief would jump to the bound.
    assert learnt.below(math.log(0.01), 0.38).mean < -1.0


def test_a_quiet_board_is_not_taken_at_its_word_but_a_deaf_one_is() -> None:
    # A board behind a charge amplifier states 5 counts in HELLO (firmware_bridge/PROTOCOL.md). Believing it
    # applied wrong shots on hidden mats even after the loudness was learnt, so silence is still weighed
    # against the reference's 40 counts; a board that states a higher threshold makes silence weaker.
    soft = touch(loudness_at_threshold(quiet_trace(), 15.0))  # would pass 5 counts, not 40
    ep = EvidenceParams()
    learnt = SoundModel(disc_loudness=(0.0, 0.15))
    assert heard_probability(soft, quiet_trace(threshold=5.0), ep, learnt) == pytest.approx(
        heard_probability(soft, quiet_trace(), ep, learnt)
    )
    assert heard_probability(soft, quiet_trace(), ep, learnt) < 0.2
    loud = touch(loudness_at_threshold(quiet_trace(), 120.0))
    assert heard_probability(loud, quiet_trace(), ep, learnt) > 0.9
    assert heard_probability(loud, quiet_trace(threshold=400.0), ep, learnt) < 0.1
