"""A two-hit shot read as one hit: the second hit's own evidence makes the reading doubt it.

catacombs-3e-reference.txt: Taking Damage — "Multiple targets can be damaged by a single (unmodified) shot
provided the shot hits them directly", a shot may ricochet off one piece and hit another, and a piece merely
pushed into another does it no damage. So a hero that glances off an obstacle into an orc has made two
direct hits, and a reading that counts only the orc is wrong, however well the orc's push fits.
"""

from __future__ import annotations

import dataclasses
import math

from service.attribution import AttributionConfig, attribute
from service.attribution.acoustics import HeardEvent
from service.attribution.caroms import HEARD_SIGMA, heard_pieces
from service.attribution.evidence import EvidenceParams, impact_log_likelihood, unexplained_log_cost
from service.attribution.gates import LEFT_OVER_TOUCH_DOUBT
from service.attribution.infer import sound_model
from service.attribution.model import RolloutParams, ShotModel
from service.attribution.proposals import BroadProposal
from service.mat.trace import FixedObstacle, box_corners
from service.simulator.shot_lab import ShotLab, SimulatedShot

QUICK = AttributionConfig(workers=1, broad_rollouts=64, refine_rounds=2, refine_rollouts=32, seed=1)
FLICK_DEG, FLICK_SPEED = 49.0, 2200.0


def _glance_off_the_obstacle_into_the_orc(table_seed: int = 0) -> SimulatedShot:
    table = ShotLab(seed=table_seed)
    table.place("hero-xoric", "hero", 150, 150, side="heroes")
    table.place("obstacle-1", "obstacle", 360, 330, side="neutral")
    table.place("orc-1", "monster-medium", 368, 520, side="overseer", kind="monster")
    return table.shoot("hero-xoric", math.radians(FLICK_DEG), FLICK_SPEED)


def test_the_bank_off_the_obstacle_and_the_orc_are_both_direct_hits_and_the_obstacle_is_heard() -> None:
    shot = _glance_off_the_obstacle_into_the_orc()
    assert shot.truth.direct_hits == {"obstacle-1", "orc-1"}
    sound, picture = sound_model(shot.trace, QUICK)
    loud = [
        (e.x_mm, e.y_mm)
        for e in picture.events
        if e.x_mm is not None and e.y_mm is not None and e.sensors >= 5
    ]
    # The glance is a real touch most piezos hear, placed beside the obstacle (which barely moves).
    assert any(math.hypot(x - 360, y - 330) < 60 for x, y in loud)
    assert heard_pieces(shot.trace, picture.events)[0][0] == "obstacle-1"


def test_a_loud_event_left_unexplained_costs_a_reading_more_than_a_faint_one() -> None:
    ep = EvidenceParams()
    faint, loud = HeardEvent(0.0, 300.0, 300.0, 3), HeardEvent(0.0, 300.0, 300.0, 8)
    assert unexplained_log_cost(faint, ep) == math.log(ep.p_unexplained_event)
    assert unexplained_log_cost(loud, ep) < unexplained_log_cost(faint, ep) - 5.0


def test_the_true_two_hit_flick_fits_the_sound_better_than_any_straight_hit_on_the_orc() -> None:
    shot = _glance_off_the_obstacle_into_the_orc()
    sound, _ = sound_model(shot.trace, QUICK)
    model = ShotModel(shot.trace, QUICK.model)
    try:
        glance = model.run(RolloutParams(math.radians(FLICK_DEG), 2100.0))
        straight = [
            model.run(RolloutParams(math.radians(a), s))
            for a in range(54, 66, 2)
            for s in (1600.0, 2000.0, 2400.0)
        ]
    finally:
        model.close()
    assert glance.direct == {"obstacle-1", "orc-1"}
    heard_straight = [
        impact_log_likelihood(r, shot.trace, sound, QUICK.evidence) for r in straight if r.direct == {"orc-1"}
    ]
    assert heard_straight
    # The straight hits leave the obstacle's touch over; the glance explains it.
    assert impact_log_likelihood(glance, shot.trace, sound, QUICK.evidence) > max(heard_straight) + 5.0


def test_the_search_aims_narrowly_at_the_glance_the_sound_names() -> None:
    shot = _glance_off_the_obstacle_into_the_orc()
    _, picture = sound_model(shot.trace, QUICK)
    broad = BroadProposal(shot.trace, AttributionConfig(), picture.events)
    narrow = [a for a, s in zip(broad.aims, broad.aim_sigmas, strict=True) if s == HEARD_SIGMA]
    assert narrow and min(abs(math.degrees(a) - FLICK_DEG) for a in narrow) < 1.0


def test_a_one_hit_reading_that_leaves_the_second_touch_over_doubts_itself() -> None:
    # The risk on record (docs/attribution.md, "Two hits read as one"): a two-hit shot read as one hit at
    # 96 %, held only because a gate saw the loud impact left over. Now the reading's own probability says
    # so too, and the shot is never applied, whichever way the sampler's seed falls.
    for table_seed in (0, 1):
        shot = _glance_off_the_obstacle_into_the_orc(table_seed)
        for sampler_seed in (0, 1, 2):
            result = attribute(shot.trace, dataclasses.replace(QUICK, seed=sampler_seed))
            assert not result.auto_apply
            if result.top.direct_hits == {"orc-1"}:
                assert result.top.probability <= LEFT_OVER_TOUCH_DOUBT
                assert any("does not explain" in why for why in result.reasons)


def test_a_bank_off_a_fixed_box_is_aimed_at_like_a_bank_off_a_wall() -> None:
    # A fixed box is nobody's hit, so no carom names it; its loud touch, left over by a straight hit on the
    # orc, now costs that reading more, and the search must find the flick that turns off the box instead.
    box = FixedObstacle("polygon", 450, 300, 0.0, box_corners(450, 300, 160, 24, 45.0))
    table = ShotLab(seed=33, fixed_obstacles=(box,))
    table.place("hero-xoric", "hero", 450, 120, side="heroes")
    table.place("orc-1", "monster-medium", 640, 295, side="overseer", kind="monster")
    shot = table.shoot("hero-xoric", math.radians(90.0), 2000)
    assert shot.truth.direct_hits == {"orc-1"}
    broad = BroadProposal(shot.trace, AttributionConfig())
    assert min(abs(math.degrees(a) - 90.0) for a in broad.aims) < 3.0
    without_the_box = BroadProposal(
        dataclasses.replace(shot.trace, mat=dataclasses.replace(shot.trace.mat, obstacles=())),
        AttributionConfig(),
    )
    assert min(abs(math.degrees(a) - 90.0) for a in without_the_box.aims) > 3.0
