"""Physics the model is not told: it draws what it cannot learn, and reads shots from another engine.

The truth of these shots comes from service/simulator/impulse_world.py, which shares no code and no
laws with the model's pymunk rollouts: its friction couples sliding and spin, its contacts are impulses with
Coulomb throw, its discs bounce with the mean of their restitutions.
"""

from __future__ import annotations

import dataclasses
import math
import random

from service.attribution import AttributionConfig, attribute
from service.attribution.model import RolloutParams, ShotModel
from service.attribution.proposals import DISC_FRICTION_MAX_SCALE, draw_nuisance
from service.simulator.shot_lab import ShotLab
from service.simulator.table_edges import Physics

QUICK = AttributionConfig(workers=1, broad_rollouts=64, refine_rounds=2, refine_rollouts=32, seed=1)


def _glancing_shot(engine: str = "pymunk", physics: Physics | None = None) -> ShotLab:
    table = ShotLab(seed=5, engine=engine, physics=physics)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 328, side="overseer", kind="monster")
    return table


def test_the_throw_of_a_glancing_hit_follows_the_rollouts_disc_friction() -> None:
    trace = _glancing_shot().shoot("hero-xoric", 0.0, 2000).trace
    model = ShotModel(trace)
    headings = []
    for scale in (0.3, DISC_FRICTION_MAX_SCALE):
        rollout = model.run(RolloutParams(0.0, 2000.0, disc_friction_scale=scale))
        assert rollout.direct == {"orc-1"}
        (x0, y0), (x1, y1) = model.start["orc-1"], rollout.final["orc-1"]
        headings.append(math.degrees(math.atan2(y1 - y0, x1 - x0)))
    # Friction at the contact drags the orc towards the direction of the flick (0°): the more, the flatter.
    assert headings[0] > headings[1] + 3.0


def test_every_rollout_draws_its_own_disc_friction_within_a_wide_capped_spread() -> None:
    trace = _glancing_shot().shoot("hero-xoric", 0.0, 2000).trace
    rng = random.Random(3)
    scales = [draw_nuisance(trace, rng, QUICK, 0.0, 1.0).disc_friction_scale for _ in range(400)]
    assert max(scales) <= DISC_FRICTION_MAX_SCALE
    assert min(scales) < 0.5 and max(scales) > 2.0  # a pair's coefficient from a few hundredths to ~0.45
    assert 0.85 < sorted(scales)[200] < 1.15  # centred on the model's own 0.25 per disc


def test_a_glancing_hit_on_another_engine_with_sticky_discs_is_read_as_the_hit() -> None:
    physics = dataclasses.replace(Physics(), disc_disc_friction=0.5, flick_spin_rad_s=8.0)
    table = _glancing_shot("impulse", physics)
    shot = table.shoot("hero-xoric", 0.0, 2000)
    assert shot.truth.direct_hits == {"orc-1"}
    result = attribute(shot.trace, AttributionConfig(workers=1, seed=1))
    assert result.top.direct_hits == {"orc-1"}
    assert result.top.probability > 0.5
