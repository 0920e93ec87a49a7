"""Shots with two or more direct hits, measured apart: top-1, top-3 and how often the sampler found the true
hit set at all, on a written hidden set, each shot read with its table's calibration as it stood after the
table was read (``table-K.cal.json``, written by benchmarks/referee_driver.py), learning nothing.

Reading every such shot with one fixed calibration and several sampler seeds separates what the proposals
find from what the table had learnt by then, so two versions of the code can be compared on the same shots
(run it with PYTHONPATH at each). The set's truth is read only to score.

    .venv/bin/python benchmarks/two_hit_shots.py SET [--seeds 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from service.attribution.calibration import load_calibration
from service.attribution.config import AttributionConfig
from service.attribution.infer import attribute
from service.mat.trace import read_traces


def measure(directory: Path, seeds: int) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for truth_path in sorted(directory.glob("table-*.truth.jsonl")):
        k = truth_path.name.split(".")[0]
        truths = [json.loads(line) for line in truth_path.read_text().splitlines()]
        cal_path = directory / f"{k}.cal.json"
        table = load_calibration(cal_path) if cal_path.exists() else None
        traces = list(read_traces(directory / f"{k}.trace.jsonl"))
        for index, (trace, truth) in enumerate(zip(traces, truths, strict=True)):
            hits = frozenset(truth["direct_hits"])
            if len(hits) < 2:
                continue
            for seed in range(seeds):
                result = attribute(trace, replace(AttributionConfig(), table=table, seed=seed))
                ranked = [c.direct_hits for c in result.candidates]
                rows.append(
                    {
                        "table": k,
                        "shot": index,
                        "seed": seed,
                        "hits": len(hits),
                        "top1": ranked[0] == hits,
                        "top3": hits in ranked[:3],
                        "found": hits in ranked,
                        "applied": result.auto_apply,
                        "applied_wrong": result.auto_apply and ranked[0] != hits,
                    }
                )
    n = len(rows)

    def share(key: str) -> float | None:
        return round(sum(r[key] for r in rows) / n, 4) if n else None

    return {
        "readings": n,
        "shots": len({(r["table"], r["shot"]) for r in rows}),
        "seeds": seeds,
        "top1": share("top1"),
        "top3": share("top3"),
        "true_set_among_readings": share("found"),
        "applied": sum(r["applied"] for r in rows),
        "applied_wrong": sum(r["applied_wrong"] for r in rows),
        "rows": rows,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path, help="a directory written by attribution_hidden.py --out")
    parser.add_argument("--seeds", type=int, default=3, help="sampler seeds per shot")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = measure(args.set, args.seeds)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{result['shots']} shots with 2+ direct hits x {args.seeds} seeds: top-1 {result['top1']}, "
            f"top-3 {result['top3']}, true set among the readings {result['true_set_among_readings']}, "
            f"applied {result['applied']} (wrong {result['applied_wrong']})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
