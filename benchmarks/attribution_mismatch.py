"""Attribution when the real mat is not the mat the model assumes.

The model's physics is fixed (sliding friction 0.40, nominal wall restitution); a real mat, or another physics
simulator, will differ. This replays the same benchmark shots on ground-truth mats whose friction and wall
bounce are off by the factors below and prints smartmat's figures for each, as ratios against the nominal mat
measured in the same run. Run from the repository root:

    .venv/bin/python benchmarks/attribution_mismatch.py [--shots 40] [--seed 3] [--pieces 20]
"""

from __future__ import annotations

import argparse
import dataclasses

from service.attribution.infer import AttributionConfig, attribute
from service.bench.attribution import Outcome, make_case, score_case, summarise
from service.mat.geometry import load_mat

CONDITIONS = {
    "nominal mat": {},
    "friction x0.7": {"sliding_friction": 0.7},
    "friction x1.4": {"sliding_friction": 1.4},
    "wall bounce x0.7": {"wall_restitution": 0.7},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=40)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--pieces", type=int, default=20)
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()
    config = AttributionConfig(workers=args.workers)
    nominal = load_mat()
    figures = {}
    for name, factors in CONDITIONS.items():
        mat = dataclasses.replace(nominal, **{k: getattr(nominal, k) * f for k, f in factors.items()})
        outcomes: list[Outcome] = []
        for index in range(args.shots):
            case = make_case(index, args.seed, "reference", args.pieces, mat=mat)
            outcomes.append(score_case(case, lambda trace: attribute(trace, config)))
        figures[name] = summarise(outcomes)
    base = figures["nominal mat"]
    print(f"{args.shots} shots per mat, reference sensors, {args.pieces}-piece rooms, seed {args.seed}")
    print(
        f"{'ground-truth mat':18} {'top-1':>7} {'top-3':>7} {'auto prec':>10} {'auto cov':>9} "
        f"{'top-1 / nominal':>16}"
    )
    for name, f in figures.items():
        ratio = f["top1_accuracy"] / base["top1_accuracy"] if base["top1_accuracy"] else float("nan")
        precision = "–" if f["auto_precision"] is None else f"{f['auto_precision']:.1%}"
        print(
            f"{name:18} {f['top1_accuracy']:7.1%} {f['top3_accuracy']:7.1%} "
            f"{precision:>10} {f['auto_coverage']:9.1%} {ratio:16.2f}"
        )


if __name__ == "__main__":
    main()
