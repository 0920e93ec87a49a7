"""``smartmat attribute`` and ``smartmat bench attribution`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main
from service.mat.trace import write_traces
from service.simulator.shot_lab import ShotLab


def test_attribute_prints_ranked_candidates_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = ShotLab(seed=41)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    path = tmp_path / "shot.jsonl"
    with path.open("w") as out:
        write_traces([table.shoot("hero-xoric", 0.0, 1400).trace], out)
    assert main(["attribute", str(path), "--json", "--workers", "1", "--seed", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["flicked"] == "hero-xoric"
    assert result["candidates"][0]["direct_hits"] == ["orc-1"]
    assert result["candidates"][0]["probability"] > 0.9
    assert result["auto_apply"] is (result["candidates"][0]["probability"] >= result["threshold"])
    assert result["candidates"][0]["path"][0][1] == pytest.approx(150, abs=10)


def test_attribute_refuses_a_broken_trace_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "shot.jsonl"
    empty = {"v": 1, "mat": {}, "pieces": [], "pre": {}, "declaration": {}, "impacts": [], "post": {}}
    path.write_text(json.dumps(empty) + "\n")
    assert main(["attribute", str(path), "--workers", "1"]) == 2
    assert "shot.jsonl:1: declaration.flicked: missing" in capsys.readouterr().err


def test_bench_prints_the_documented_figures_per_method(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "attribution", "--own-constants", "--shots", "2", "--seed", "5", "--workers", "1"]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["shots"] == 2
    for method in ("smartmat", "moved_enemies", "nominal_best_fit"):
        figures = report[method]
        for key in ("top1_accuracy", "top3_accuracy", "auto_coverage", "latency_p50_s", "latency_p95_s"):
            assert 0.0 <= figures[key] <= (1.0 if "accuracy" in key or "coverage" in key else 60.0)
        assert "auto_precision" in figures


def test_bench_on_hidden_mats_of_another_physics_engine(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "attribution", "--laws", "impulse", "--tables", "1", "--per-table", "2"]
    args += ["--workers", "1"]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tables"] == 1 and report["self-calibrating"]["shots"] == 2
    (table,) = report["calibrations"]
    assert table["engine"] == "impulse"  # the truth came from impulse_world.py, not from pymunk
    assert 0.0 <= report["self-calibrating"]["top1_accuracy"] <= 1.0
    # Every shot is either one whose touches the sensors all registered, or one with a touch they did not.
    split = report["self-calibrating"]["by_registration"]
    assert split["all registered"]["shots"] + split["a touch unregistered"]["shots"] == 2
