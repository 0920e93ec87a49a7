"""``smartmat attribute TRACE`` and ``smartmat bench attribution``."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from typing import Any

from .calibration import CalibrationFileError, load_calibration, save_calibration
from .infer import AttributionConfig, attribute, shutdown_pool
from .learning import learn_from_shot
from .trace import SeenPiece, TraceFormatError, read_traces

log = logging.getLogger(__name__)


def register_cli(subparsers: Any) -> None:
    attr = subparsers.add_parser("attribute", help="who hit whom in recorded shot traces (JSON Lines)")
    attr.add_argument("trace", help="a shot trace file (docs/trace-format.md), one shot per line")
    attr.add_argument("--json", action="store_true", help="print one JSON object per shot")
    attr.add_argument(
        "--threshold",
        type=float,
        default=AttributionConfig.auto_apply_threshold,
        help="top probability at or above which the result is applied without the referee",
    )
    attr.add_argument("--workers", type=int, default=0, help="rollout processes (0: one per core)")
    attr.add_argument("--seed", type=int, default=0)
    attr.add_argument(
        "--table",
        metavar="CAL.json",
        help="the table's calibration file (docs/calibration.md); a missing file means wide priors. "
        "Without --table the model's built-in constants are taken as known",
    )
    attr.add_argument(
        "--learn",
        action="store_true",
        help="with --table: learn from each shot's own evidence after attributing it, in file order, "
        "and save the calibration after every shot",
    )
    attr.set_defaults(func=_attribute)

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
        choices=("reference", "cheaper", "noisier", "proposed"),
        help="hidden mats: the sensors every table has (default: reference); --own-constants: only this "
        "configuration (default: all three in turn)",
    )
    b.add_argument(
        "--laws",
        choices=("shared", "varied"),
        default="shared",
        help="hidden mats: varied draws the sensor and contact laws too (how loudness falls with distance, "
        "rise time, heavy-tailed timing, spin), not only their constants",
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
    b.set_defaults(func=_bench)


def _attribute(args: argparse.Namespace) -> int:
    if args.learn and not args.table:
        print("error: --learn needs --table CAL.json (where the learnt calibration is kept)", file=sys.stderr)
        return 2
    table = None
    if args.table:
        try:
            table = load_calibration(args.table)
        except CalibrationFileError as exc:
            log.error("cannot read %s: %s", args.table, exc)
            print(f"error: {exc}", file=sys.stderr)
            return 2
    try:
        traces = list(read_traces(args.trace))
    except (OSError, TraceFormatError) as exc:
        log.error("cannot read %s: %s", args.trace, exc)
        print(f"error: {exc}", file=sys.stderr)
        return 2
    last_seen: dict[str, SeenPiece] = {}  # where each disc was last seen, for a pre-scan that missed one
    try:
        for trace in traces:
            config = AttributionConfig(
                auto_apply_threshold=args.threshold, workers=args.workers, seed=args.seed, table=table
            )
            result = attribute(trace, config, last_seen=last_seen.get(trace.declaration.flicked))
            last_seen.update(trace.pre.by_piece())
            last_seen.update(trace.post.by_piece())
            if args.learn and table is not None:
                table = learn_from_shot(table, trace, result, config.evidence)
                save_calibration(table, args.table)
            if args.json:
                print(json.dumps(result.to_json()), flush=True)
            else:
                verdict = "apply" if result.auto_apply else "ask the referee: " + "; ".join(result.reasons)
                print(f"{result.flicked}: {verdict} ({result.rollouts} rollouts, {result.elapsed_s:.2f} s)")
                for c in result.candidates[:5]:
                    hits = ", ".join(sorted(c.direct_hits)) or "nothing"
                    pushed = ", ".join(sorted(c.pushed)) or "-"
                    print(f"  {c.probability:6.1%}  hit {hits}; pushed {pushed}")
    finally:
        shutdown_pool()
    if table is not None and not args.json:
        summary = table.summary()
        print(
            f"calibration {table.digest}: {table.shots} shots, sound {summary['sound_speed_m_per_s']} m/s "
            f"(±{summary['sound_speed_uncertainty']:.1%}), "
            + (
                "settled" if summary["settled"] else "not settled: " + "; ".join(summary["unsettled_because"])
            ),
            file=sys.stderr,
        )
    return 0


def _bench(args: argparse.Namespace) -> int:
    from .bench import format_table, run_benchmark  # the benchmark pulls in the simulated mat

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
    from .bench_hidden import format_hidden, run_hidden_benchmark

    def progress(done: int, total: int) -> None:
        if done % 10 == 0 or done == total:
            print(f"  {done}/{total} shots", file=sys.stderr, flush=True)

    pieces = (args.pieces,) if args.pieces else (10, 20, 30)
    config = AttributionConfig(
        workers=args.workers, temperature=args.temperature, auto_apply_threshold=args.threshold
    )
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
