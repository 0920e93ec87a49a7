"""``smartmat bench attribution --referee``: hidden tables played with a simulated referee who makes mistakes,
and without one, in the same run (docs/attribution.md, "Learning from the referee")."""

from __future__ import annotations

import json
import random

import pytest

from service.bench.referee import referee_answer
from service.cli import main

pytestmark = pytest.mark.timeout(240)


def test_the_simulated_referee_answers_the_truth_or_slips_in_a_referee_s_ways() -> None:
    truth, pieces = frozenset({"orc-1"}), ["hero-1", "orc-1", "orc-2", "orc-3"]
    rng = random.Random(3)
    assert all(referee_answer(truth, pieces, "hero-1", rng, 0.0) == truth for _ in range(50))
    slips = [referee_answer(truth, pieces, "hero-1", rng, 1.0) for _ in range(200)]
    assert truth not in slips
    assert None in slips  # no answer
    assert frozenset() in slips  # a hit dropped
    added = [s for s in slips if s is not None and len(s) == 2]
    assert added and all(truth < s and "hero-1" not in s for s in added)  # a piece added, never the flicker


def test_bench_with_a_referee_reports_both_plays_of_the_same_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["bench", "attribution", "--referee", "--tables", "1", "--per-table", "3", "--workers", "1"]
    assert main([*args, "--mistakes", "0", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    with_referee, without = report["with the referee"], report["without"]
    assert with_referee["first"]["shots"] == without["first"]["shots"] == 3
    assert with_referee["rest"]["shots"] == 0  # all three are among the table's first 20
    # A new table holds its first shots (its calibration has not settled), and every one was answered.
    assert with_referee["answers"] == {"right": 3, "wrong": 0, "none": 0}
    assert without["answers"] == {"right": 0, "wrong": 0, "none": 0}
    (learnt,) = report["learnt"]
    assert (
        learnt["with"]["referee"]["labelled_shots"] == 3
        and learnt["without"]["referee"]["labelled_shots"] == 0
    )
    assert set(report["ratio_with_to_without"]) >= {"auto_coverage", "auto_precision", "top1_accuracy"}
