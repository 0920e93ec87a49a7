"""The shipped example traces (examples/traces/) read back and are attributed to what really happened."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "traces" / "clear-shots.jsonl"


def test_every_example_trace_is_attributed_to_its_true_direct_hits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    scenes = [json.loads(line)["meta"] for line in EXAMPLES.read_text().splitlines() if line.strip()]
    assert main(["attribute", str(EXAMPLES), "--json", "--workers", "1", "--seed", "3"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(results) == len(scenes) == 4
    for scene, result in zip(scenes, results, strict=True):
        top = result["candidates"][0]
        assert top["direct_hits"] == scene["true_direct_hits"], scene["scene"]
        probabilities = [c["probability"] for c in result["candidates"]]
        assert probabilities == sorted(probabilities, reverse=True)
        assert sum(probabilities) <= 1.0 + 1e-6
