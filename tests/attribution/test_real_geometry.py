"""The model plays on the mat the trace describes: walls with gaps, open sides, boxes at any angle.

Ground truth comes from the simulated mat built with the same geometry (service/simulator/world.py);
attribution sees only the trace, which now carries that geometry (docs/trace-format.md).
"""

from __future__ import annotations

import math

from service.attribution import AttributionConfig, attribute
from service.attribution.model import RolloutParams, ShotModel
from service.mat.trace import FixedObstacle, WallSegment, box_corners, trace_from_json, trace_to_json
from service.simulator.shot_lab import ShotLab

QUICK = AttributionConfig(workers=1, broad_rollouts=64, refine_rounds=2, refine_rollouts=32, seed=1)


def walls_with_open_right_side() -> tuple[WallSegment, ...]:
    # Inner faces 50 mm outside the 860 x 610 mat; the right-hand side (x = 910) has no wall at all.
    return (
        WallSegment(-50, -50, 910, -50),
        WallSegment(910, 660, -50, 660),
        WallSegment(-50, 660, -50, -50),
    )


def test_a_disc_flicked_off_an_open_side_leaves_the_table_in_the_model_too() -> None:
    table = ShotLab(seed=31, walls=walls_with_open_right_side())
    table.place("hero-xoric", "hero", 600, 300, side="heroes")
    table.place("orc-1", "monster-medium", 760, 300, side="overseer", kind="monster")
    shot = table.shoot("hero-xoric", 0.0, 2600)
    assert "orc-1" in shot.truth.left_mat  # the truth: knocked clean off the open side
    trace = trace_from_json(trace_to_json(shot.trace))
    assert trace.mat.walls == walls_with_open_right_side()
    result = attribute(trace, QUICK)
    assert result.top.direct_hits == {"orc-1"}
    assert "orc-1" in result.top.left_mat
    ((_, x, _),) = [p for p in result.top.left_mat_at if p[0] == "orc-1"]
    assert x == 860  # where it crossed the mat's edge


def test_without_the_wall_the_model_does_not_bounce_a_disc_back() -> None:
    model = ShotModel(
        trace_from_json(
            {
                **trace_to_json(_lone_disc_trace(walls=walls_with_open_right_side())),
            }
        )
    )
    rollout = model.run(RolloutParams(0.0, 2500.0))
    assert "hero-xoric" in rollout.left_mat
    assert not [c for c in rollout.contacts if c.kind == "wall"]
    closed = ShotModel(_lone_disc_trace(walls=None)).run(RolloutParams(0.0, 2500.0))
    assert [c for c in closed.contacts if c.kind == "wall"]  # the classic closed walls do bounce it


def test_a_ricochet_off_a_box_at_an_angle_is_nobodys_hit_and_the_orc_behind_it_is() -> None:
    box = FixedObstacle("polygon", 450, 300, 0.0, box_corners(450, 300, 160, 24, 45.0))
    table = ShotLab(seed=33, fixed_obstacles=(box,))
    table.place("hero-xoric", "hero", 450, 120, side="heroes")
    table.place("orc-1", "monster-medium", 640, 295, side="overseer", kind="monster")
    shot = table.shoot("hero-xoric", math.radians(90.0), 2000)
    assert shot.truth.direct_hits == {"orc-1"}, "the scene: up into the box, turned right onto the orc"
    assert any(c.kind == "obstacle" for c in shot.truth.contacts)
    assert len(shot.trace.mat.obstacles) == 1
    result = attribute(shot.trace, AttributionConfig(workers=1, seed=1))
    assert result.top.direct_hits == {"orc-1"}
    assert not any(hit.startswith("fixed") for c in result.candidates for hit in c.direct_hits)
    # The model itself turns a straight-up flick off the box, as the mat did.
    rollout = ShotModel(shot.trace).run(RolloutParams(math.radians(90.0), 2000.0))
    assert [c for c in rollout.contacts if c.kind == "obstacle"]
    assert rollout.final["hero-xoric"][0] > 550


def _lone_disc_trace(walls: tuple[WallSegment, ...] | None):  # type: ignore[no-untyped-def]
    table = ShotLab(seed=35, walls=walls)
    table.place("hero-xoric", "hero", 700, 300, side="heroes")
    return table.shoot("hero-xoric", math.pi, 200).trace  # a gentle nudge: only its trace is used
