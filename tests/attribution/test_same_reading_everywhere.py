"""A shot reads the same on the daemon's workers, on a referee's laptop and in the tests.

Rollouts run in blocks, each on a model built for it, so a reading depends on the trace, the settings and the
sampler's seed only: not on how many worker processes share the blocks, nor on which worker ran which, nor on
the shots read before it.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.attribution import AttributionConfig, attribute
from service.attribution.infer import shutdown_pool
from service.mat.trace import ShotTrace
from service.simulator.hidden_mats import table_shots

BUDGET = AttributionConfig(workers=1, broad_rollouts=64, refine_rounds=2, refine_rollouts=32, seed=5)


def reading(trace: ShotTrace, workers: int) -> dict[str, Any]:
    result = attribute(trace, AttributionConfig(**{**BUDGET.__dict__, "workers": workers}))
    answer = result.to_json()
    answer.pop("elapsed_s")
    return answer


def crowded_shots() -> list[ShotTrace]:
    """The first shots of a hidden table with 30-piece rooms: enough pieces at rest, asleep and awake, for a
    model's history to move a rollout (it did, before the blocks: three of four shots read differently)."""
    return [shot.trace for shot in table_shots(389, 0, 4, pieces=30, laws="impulse")]


@pytest.fixture
def pool_stopped_after() -> Any:
    yield
    shutdown_pool()


@pytest.mark.usefixtures("pool_stopped_after")
def test_one_worker_and_two_read_crowded_shots_alike_to_the_last_decimal() -> None:
    for trace in crowded_shots():
        in_process = reading(trace, workers=1)
        assert in_process["candidates"], "the shot must have readings to compare"
        assert reading(trace, workers=2) == in_process
        assert reading(trace, workers=2) == in_process  # the workers now hold the earlier blocks' history


def test_a_shot_reads_the_same_after_other_shots_as_first() -> None:
    first, *others = crowded_shots()
    alone = reading(first, workers=1)
    for other in others:
        reading(other, workers=1)
    assert reading(first, workers=1) == alone
