"""A real board's faults laid over hidden-set traces: what each one changes, and what it leaves alone."""

from __future__ import annotations

import importlib.util
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from service.mat.trace import read_traces
from service.simulator.trace_faults import (
    DROPPED_SHARE,
    HAND_MOVE_MM,
    MAT_OFFSET_MM,
    SPURIOUS_AMPLITUDE,
    SPURIOUS_WINDOW_US,
    with_faults,
)

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "attribution_hidden.py"


def _benchmark() -> Any:
    spec = importlib.util.spec_from_file_location("attribution_hidden", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _set(tmp_path: Path, name: str, faults: tuple[str, ...]) -> tuple[list[dict[str, Any]], str]:
    out = tmp_path / name
    _benchmark().write_hidden_set(out, tables=1, shots=12, seed=5, pieces=[10], faults=faults)
    traces = [json.loads(line) for line in (out / "table-0.trace.jsonl").read_text().splitlines()]
    return traces, (out / "table-0.truth.jsonl").read_text()


def _impact_key(impact: dict[str, Any]) -> tuple[int, int, float]:
    return impact["sensor_id"], impact["t_us"], impact["amplitude"]


def test_faulty_traces_hold_the_same_shots_and_each_fault_changes_only_its_own_part(tmp_path: Path) -> None:
    clean, clean_truth = _set(tmp_path, "clean", ())
    faulty, faulty_truth = _set(tmp_path, "faulty", ("dropped", "spurious", "mat-offset"))
    assert faulty_truth == clean_truth  # the truth is the shots', never the faults'
    dropped = added = 0
    for before, after in zip(clean, faulty, strict=True):
        assert after["declaration"] == before["declaration"] and after["pieces"] == before["pieces"]
        kept = {_impact_key(i) for i in before["impacts"]}
        now = [_impact_key(i) for i in after["impacts"]]
        strays = [i for i in after["impacts"] if _impact_key(i) not in kept]
        dropped += len(kept - set(now))
        added += len(strays)
        times = [i["t_us"] for i in before["impacts"]]
        for stray in strays:  # one piezo, just over the threshold, during or just after the shot
            assert SPURIOUS_AMPLITUDE[0] <= stray["amplitude"] <= SPURIOUS_AMPLITUDE[1]
            assert min(times) <= stray["t_us"] <= max(times) + SPURIOUS_WINDOW_US
        assert [i["t_us"] for i in after["impacts"]] == sorted(i["t_us"] for i in after["impacts"])
        for scan in ("pre", "post"):  # the mat lies off the grid by the same amount in both scans
            for was, read in zip(before[scan]["pieces"], after[scan]["pieces"], strict=True):
                assert read["x_mm"] == pytest.approx(was["x_mm"] + MAT_OFFSET_MM[0])
                assert read["y_mm"] == pytest.approx(was["y_mm"] + MAT_OFFSET_MM[1])
    total = sum(len(t["impacts"]) for t in clean)
    assert 0 < dropped < 3 * DROPPED_SHARE * total
    assert added > 0
    # What was written still reads as traces.
    assert len(list(read_traces(tmp_path / "faulty" / "table-0.trace.jsonl"))) == 12


def test_scan_noise_blurs_the_reads_after_the_shot_and_not_before() -> None:
    trace = {
        "mat": {"sensors": [{"id": 0, "x_mm": 0.0, "y_mm": 0.0}]},
        "impacts": [],
        "pre": {"t_us": 0, "pieces": [{"piece": "a", "x_mm": 100.0, "y_mm": 100.0, "sigma_mm": 3.0}]},
        "post": {"t_us": 9, "pieces": [{"piece": "a", "x_mm": 150.0, "y_mm": 100.0, "sigma_mm": 3.0}]},
    }
    moved = [with_faults(trace, ["scan-noise"], random.Random(i)) for i in range(50)]
    assert all(m["pre"] == trace["pre"] for m in moved)
    shifts = [m["post"]["pieces"][0]["x_mm"] - 150.0 for m in moved]
    assert 1.0 < (sum(s * s for s in shifts) / len(shifts)) ** 0.5 < 3.5
    assert trace["post"]["pieces"][0]["x_mm"] == 150.0  # the original is not changed


def test_a_hand_moves_one_piece_that_was_not_flicked_and_nothing_else() -> None:
    pieces = [
        {"piece": p, "x_mm": 100.0 * (i + 1), "y_mm": 200.0, "sigma_mm": 3.0} for i, p in enumerate("abc")
    ]
    trace = {
        "mat": {"sensors": [{"id": 0, "x_mm": 0.0, "y_mm": 0.0}]},
        "declaration": {"flicked": "a"},
        "impacts": [{"sensor_id": 0, "t_us": 5, "amplitude": 50.0}],
        "pre": {"t_us": 0, "pieces": [dict(p) for p in pieces]},
        "post": {"t_us": 9, "pieces": [dict(p) for p in pieces]},
    }
    touched = 0
    for seed in range(40):
        after = with_faults(trace, ["hand"], random.Random(seed))
        assert after["pre"] == trace["pre"] and after["impacts"] == trace["impacts"]
        moves = {
            p["piece"]: math.hypot(p["x_mm"] - q["x_mm"], p["y_mm"] - q["y_mm"])
            for p, q in zip(after["post"]["pieces"], pieces, strict=True)
        }
        assert moves["a"] == 0.0  # never the flicked disc
        moved = [m for m in moves.values() if m > 0]
        assert len(moved) <= 1
        for m in moved:
            assert HAND_MOVE_MM[0] - 1e-9 <= m <= HAND_MOVE_MM[1] + 1e-9
        touched += len(moved)
    assert 0 < touched < 40


def test_an_unknown_fault_is_named() -> None:
    with pytest.raises(ValueError, match="wobble"):
        with_faults(
            {"impacts": [], "pre": {"pieces": []}, "post": {"pieces": []}}, ["wobble"], random.Random()
        )
    with pytest.raises(SystemExit):
        _benchmark().main(["--out", "unused", "--faults", "dropped,wobble"])
