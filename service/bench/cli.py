"""``smartmat bench attribution``: shot attribution scored on simulated shots whose truth is known."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from service.attribution.infer import AttributionConfig, shutdown_pool
from service.mat.geometry import SENSOR_CONFIG_NAMES


def register_cli(subparsers: Any) -> None:
    # Several parts may add benchmarks; they share one "bench" command (see docs/architecture.md).
    bench = subparsers.choices.get("bench")
    if bench is None:
        bench = subparsers.add_parser("bench", help="benchmarks that print figures")
        bench.bench_subparsers = bench.add_subparsers(dest="benchmark", metavar="BENCHMARK")
    b = bench.bench_subparsers.add_parser(
        "attribution",
        help="shot attribution on tables whose constants it is not told (--own-constants: the old benchmark)",
    )
    b.add_argument(
        "--own-constants",
        action="store_true",
        help="the ground truth uses the model's own constants (regressions only: it flatters the model)",
    )
    b.add_argument("--tables", type=int, default=6, help="hidden tables (each with its own constants)")
    b.add_argument("--per-table", type=int, default=40, help="shots per hidden table, in play order")
    b.add_argument("--shots", type=int, default=1000, help="with --own-constants: shots")
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    b.add_argument("--workers", type=int, default=0, help="rollout processes (0: one per core)")
    b.add_argument(
        "--sensors",
        choices=SENSOR_CONFIG_NAMES,
        help="hidden mats: the sensors every table has (default: reference); --own-constants: only this "
        "configuration (default: all three in turn)",
    )
    b.add_argument(
        "--laws",
        choices=("shared", "varied", "impulse"),
        default="shared",
        help="hidden mats: varied draws the sensor and contact laws too (how loudness falls with distance, "
        "rise time, heavy-tailed timing, spin), not only their constants; impulse plays those on another "
        "physics engine (no pymunk: spinning discs, impulse contacts)",
    )
    b.add_argument(
        "--pieces", type=int, help="only rooms of this many pieces (default: 5, 10, 20, 30 in turn)"
    )
    b.add_argument(
        "--temperature",
        type=float,
        default=AttributionConfig.temperature,
        help="calibration temperature of the likelihood (docs/attribution.md)",
    )
    b.add_argument("--threshold", type=float, default=AttributionConfig.auto_apply_threshold)
    b.add_argument(
        "--referee",
        action="store_true",
        help="hidden mats: play each table with a simulated referee who answers held shots (with a few per "
        "cent of mistakes) and without one, and compare (docs/attribution.md)",
    )
    b.add_argument(
        "--mistakes",
        type=float,
        default=0.04,
        help="with --referee: the share of answers that add or drop a piece, or give none",
    )
    b.set_defaults(func=_bench)


def _bench(args: argparse.Namespace) -> int:
    from .attribution import format_table, run_benchmark  # the benchmarks pull in the simulated mat

    if not args.own_constants:
        return _bench_hidden(args)

    def progress(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            print(f"  {done}/{total} shots", file=sys.stderr, flush=True)

    try:
        result = run_benchmark(
            args.shots,
            args.seed,
            AttributionConfig(
                workers=args.workers, temperature=args.temperature, auto_apply_threshold=args.threshold
            ),
            progress=progress,
            sensors=args.sensors,
            pieces=args.pieces,
        )
    finally:
        shutdown_pool()
    report = result.report()
    print(json.dumps(report, indent=2) if args.json else format_table(report))
    return 0


def _bench_hidden(args: argparse.Namespace) -> int:
    from .hidden import format_hidden, run_hidden_benchmark

    def progress(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            print(f"  {done}/{total} shots", file=sys.stderr, flush=True)

    pieces = (args.pieces,) if args.pieces else (10, 20, 30)
    config = AttributionConfig(
        workers=args.workers, temperature=args.temperature, auto_apply_threshold=args.threshold
    )
    if args.referee:
        return _bench_referee(args, config, pieces, progress)
    try:
        result = run_hidden_benchmark(
            args.tables,
            args.per_table,
            args.seed,
            config,
            pieces=pieces,
            progress=progress,
            sensors=args.sensors or "reference",
            laws=args.laws,
        )
    finally:
        shutdown_pool()
    report = result.report()
    print(json.dumps(report, indent=2) if args.json else format_hidden(report))
    return 0


def _bench_referee(
    args: argparse.Namespace, config: AttributionConfig, pieces: tuple[int, ...], progress: Any
) -> int:
    from .referee import format_referee, run_referee_benchmark

    try:
        result = run_referee_benchmark(
            args.tables,
            args.per_table,
            args.seed,
            config,
            pieces=pieces,
            sensors=args.sensors or "reference",
            laws=args.laws,
            mistakes=args.mistakes,
            progress=progress,
        )
    finally:
        shutdown_pool()
    report = result.report()
    print(json.dumps(report, indent=2) if args.json else format_referee(report))
    return 0
