"""Attribution on hidden mats: shot traces from tables whose physics and piezos the model is not told.

Each table's constants are drawn from wide ranges (service/simulator/hidden_mats.py): friction,
restitutions, the speed of sound in the mat, every piezo channel's lag and gain, walls with gaps or an open
side, boxes on the mat. Its shots are played in order, as at a real table. Nothing here uses the model's
constants.

Write a set (one directory; K counts from 0):

    .venv/bin/python benchmarks/attribution_hidden.py --out hidden-set [--tables 6] [--shots 40] [--seed 1]
        [--pieces 10,20,30] [--faults dropped,spurious,scan-noise,mat-offset,hand]

    hidden-set/table-K.trace.jsonl   the traces, one per line, ``meta`` = {"table": K, "shot": i} only
    hidden-set/table-K.truth.jsonl   {"shot": i, "direct_hits": [...], "pushed": [...], "unregistered": [...]}
                                     per line; ``unregistered``: direct hits no piezo heard and the scans did
                                     not see move (service/simulator/registered.py)
    hidden-set/constants.json        each table's hidden constants, and the ranges they were drawn from

Attribute each trace file (``smartmat attribute hidden-set/table-K.trace.jsonl --json >
hidden-set/table-K.out.jsonl``), then score: ``.venv/bin/python benchmarks/attribution_hidden.py --score
hidden-set`` prints top-1, top-3, auto-apply precision and coverage for the first and second half of each
table's shots, overall, by the number of true direct hits, and apart for the shots whose every direct touch
the sensors registered and those with a touch they did not (what no reader of these sensors can be sure of).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from service.attribution.reliability import reason_key
from service.mat.geometry import SENSOR_CONFIG_NAMES
from service.mat.trace import trace_to_json
from service.simulator.camera import CAMERA_QUALITY_NAMES
from service.simulator.hidden_mats import drawn_ranges, hidden_table, table_shots
from service.simulator.registered import unregistered_touches
from service.simulator.sensors import SensorModel
from service.simulator.trace_faults import FAULTS, check_faults, with_faults


def write_hidden_set(
    out: Path,
    *,
    tables: int,
    shots: int,
    seed: int,
    pieces: Sequence[int],
    sensors: str = "reference",
    laws: str = "shared",
    faults: Sequence[str] = (),
    camera: str = "study",
) -> None:
    out.mkdir(parents=True, exist_ok=True)
    described = []
    for k in range(tables):
        table = hidden_table(seed, k, sensors, laws, camera)
        described.append({"table": k, **table.describe()})
        # Noise-free hearing with the table's hidden piezos: only for the report, never for the traces.
        hearing = SensorModel(table.sensors, table.mat, truth=table.piezo_truth)
        with (
            open(out / f"table-{k}.trace.jsonl", "w", encoding="utf-8") as traces,
            open(out / f"table-{k}.truth.jsonl", "w", encoding="utf-8") as truths,
        ):
            for i, shot in enumerate(table_shots(seed, k, shots, pieces, sensors, laws, camera)):
                # The trace file gets only what the sensors recorded, and where it sits in the set.
                trace = trace_to_json(shot.trace) | {"meta": {"table": k, "shot": i}}
                if faults:
                    # Seeded by the shot, so a set with faults holds the same shots as the set without.
                    trace = with_faults(trace, faults, random.Random(f"faults {seed} {k} {i}"))
                traces.write(json.dumps(trace, separators=(",", ":")) + "\n")
                truth = {
                    "shot": i,
                    "direct_hits": sorted(shot.truth.direct_hits),
                    "pushed": sorted(shot.truth.pushed),
                    "unregistered": unregistered_touches(
                        shot.truth, shot.trace.pre, shot.trace.post, hearing
                    ),
                }
                if shot.trace.camera is not None:
                    # The tracker's label swaps, to tell which answers a swap misled (never for reading).
                    truth["camera_swaps"] = [list(s) for s in shot.truth.camera_swaps]
                truths.write(json.dumps(truth) + "\n")
    constants = {
        "seed": seed,
        "shots_per_table": shots,
        "pieces": list(pieces),
        "sensors": sensors,
        "laws": laws,
        "faults": list(faults),
        "camera": camera if sensors == "camera" else None,
        "ranges": drawn_ranges(),
        "tables": described,
    }
    (out / "constants.json").write_text(json.dumps(constants, indent=1) + "\n", encoding="utf-8")


# ---- scoring the answers of ``smartmat attribute --json`` ----
def _read_lines(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _figures(rows: list[tuple[bool, bool, bool]]) -> str:
    """rows: (top-1 right, truth in top 3, auto-applied) per shot."""
    n = len(rows)
    if n == 0:
        return f"{0:>6}"
    top1 = sum(r[0] for r in rows) / n
    top3 = sum(r[1] for r in rows) / n
    auto = [r for r in rows if r[2]]
    precision = f"{sum(r[0] for r in auto) / len(auto):.1%}" if auto else "–"
    wrong = f"{sum(not r[0] for r in auto)}/{len(auto)}"
    return f"{n:>6} {top1:>7.1%} {top3:>7.1%} {precision:>10} {len(auto) / n:>9.1%} {wrong:>9}"


WARM_UP = 20  # the goals are read after each table's first shots


def held_strata(held: list[tuple[bool, frozenset[str]]], shots: int) -> None:
    """What holds the shots back: per reason key (reliability.reason_key), the held shots, their share of
    all shots after the warm-up, how often the first reading was right, and the shots held for it alone."""
    print(f"after {WARM_UP}, held shots by reason (shots, share, first reading right, held for it alone):")
    keys = sorted({k for _, ks in held for k in ks}, key=lambda k: -sum(k in ks for _, ks in held))
    for key in keys:
        rows = [right for right, ks in held if key in ks]
        alone = [right for right, ks in held if ks == {key}]
        print(
            f"  {key:24} {len(rows):>5} {len(rows) / shots:>7.1%} {sum(rows) / len(rows):>7.1%}"
            f" {len(alone):>5} ({sum(alone)} right)"
        )


STATED_BANDS = (0.95, 0.9, 0.8, 0.5, 0.0)


def score(results: Path, outputs: str = "out") -> int:
    groups: dict[str, list[tuple[bool, bool, bool]]] = {}
    bands: dict[float, list[tuple[bool, bool, bool]]] = {}  # the first reading's stated probability
    curve: dict[int, list[bool]] = {}  # applied, by ten shots of play
    elapsed: dict[str, list[float]] = {}
    held: list[tuple[bool, frozenset[str]]] = []  # after the warm-up: (first reading right, reason keys)
    truth_files = sorted(results.glob("table-*.truth.jsonl"), key=lambda p: int(p.name.split(".")[0][6:]))
    scored = 0
    for truth_path in truth_files:
        table = truth_path.name.split(".")[0]
        out_path = results / f"{table}.{outputs}.jsonl"
        if not out_path.exists():
            print(f"{out_path}: missing, {table} not scored", file=sys.stderr)
            continue
        truths, answers = _read_lines(truth_path), _read_lines(out_path)
        if len(truths) != len(answers):
            print(f"{out_path}: {len(answers)} answers for {len(truths)} shots", file=sys.stderr)
            return 2
        scored += 1
        for i, (truth, answer) in enumerate(zip(truths, answers, strict=True)):
            actual = frozenset(truth["direct_hits"])
            ranked = [frozenset(c["direct_hits"]) for c in answer.get("candidates", [])]
            row = (bool(ranked) and ranked[0] == actual, actual in ranked[:3], bool(answer.get("auto_apply")))
            half = "first half" if i < len(truths) / 2 else "second half"
            hits = {0: "0 direct hits", 1: "1 direct hit"}.get(len(actual), "2+ direct hits")
            groups_of_shot = ["overall", half, f"{table} {half}", hits]
            registered = ""
            if "unregistered" in truth:  # sets written before the key have no such split
                registered = "a touch unregistered" if truth["unregistered"] else "all registered"
                groups_of_shot.append(registered)
            warm = f"first {WARM_UP}" if i < WARM_UP else f"after {WARM_UP}"
            groups_of_shot += [warm, f"{table} {warm}"]
            if i >= WARM_UP:
                groups_of_shot += [f"{warm}, {hits}"] + ([f"{warm}, {registered}"] if registered else [])
                if truth.get("pushed"):
                    groups_of_shot.append(f"{warm}, a piece pushed")
                stated = float(answer["candidates"][0].get("probability", 0.0)) if ranked else 0.0
                band = next(b for b in STATED_BANDS if stated >= b)
                bands.setdefault(band, []).append(row)
                if not row[2]:
                    held.append((row[0], frozenset(reason_key(r) for r in answer.get("reasons", []))))
            if truth.get("camera_swaps"):
                groups_of_shot.append("camera swapped labels")
            for group in groups_of_shot:
                groups.setdefault(group, []).append(row)
            elapsed.setdefault(warm, []).append(float(answer.get("elapsed_s") or 0.0))
            curve.setdefault(i // 10, []).append(row[2])
    if not scored:
        print(f"{results}: no table-K.out.jsonl next to a table-K.truth.jsonl", file=sys.stderr)
        return 2
    print(f"{'':36} {'shots':>6} {'top-1':>7} {'top-3':>7} {'auto prec':>10} {'auto cov':>9} {'wrong':>9}")
    order = ["overall", "first half", "second half", "0 direct hits", "1 direct hit", "2+ direct hits"]
    order += ["all registered", "a touch unregistered", f"first {WARM_UP}", f"after {WARM_UP}"]
    order += [f"after {WARM_UP}, {g}" for g in ("0 direct hits", "1 direct hit", "2+ direct hits")]
    order += [f"after {WARM_UP}, {g}" for g in ("all registered", "a touch unregistered", "a piece pushed")]
    order += ["camera swapped labels"]
    order += sorted((g for g in groups if g.startswith("table-")), key=lambda g: (int(g.split()[0][6:]), g))
    for group in order:
        if group in groups:
            print(f"{group:36} {_figures(groups[group])}")
    # How far the stated probability can be trusted: the first reading's observed accuracy by its band.
    print(f"after {WARM_UP}, by the first reading's stated probability (top-1 observed; applied share):")
    for band in STATED_BANDS:
        if band in bands:
            print(f"  stated >= {band:4.0%}{'':21} {_figures(bands[band])}")
    held_strata(held, len(groups.get(f"after {WARM_UP}", [])) or 1)
    print(
        "applied share by ten shots of play: "
        + ", ".join(f"{10 * k + 1}-{10 * k + 10} {sum(v) / len(v):.1%}" for k, v in sorted(curve.items()))
    )
    for part, values in sorted(elapsed.items()):
        values.sort()
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        print(f"attribution time per shot, {part}: p50 {values[len(values) // 2]:.2f} s, p95 {p95:.2f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="write a hidden set into this directory")
    parser.add_argument("--score", type=Path, metavar="RESULTS_DIR", help="score table-K.out.jsonl files")
    parser.add_argument(
        "--outputs",
        default="out",
        help="with --score: which answers to score, table-K.OUTPUTS.jsonl (default out; noref.out for the "
        "tables benchmarks/referee_driver.py --without read again without a referee)",
    )
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--shots", type=int, default=40, help="shots per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pieces",
        default="10,20,30",
        help="pieces per room, or a comma-separated list to draw each room's from (default 10,20,30)",
    )
    parser.add_argument(
        "--sensors",
        default="reference",
        choices=SENSOR_CONFIG_NAMES,
        help="the sensors every table has (default: reference; another to weigh a sensor change)",
    )
    parser.add_argument(
        "--laws",
        default="shared",
        choices=("shared", "varied", "impulse"),
        help="varied: the sensor and contact laws differ from the model's too, not only their constants",
    )
    parser.add_argument(
        "--camera",
        default="study",
        choices=CAMERA_QUALITY_NAMES,
        help="with --sensors camera: the camera's quality (study: the sensor study's camera; typical and "
        "poor add exposure blur, lens bias, identity swaps, clock error and lower frame rates)",
    )
    parser.add_argument(
        "--faults",
        default="",
        help="faults of a real board laid over the traces, comma-separated, from: "
        + ", ".join(FAULTS)
        + " (service/simulator/trace_faults.py)",
    )
    args = parser.parse_args(argv)
    try:
        faults = check_faults(args.faults.split(","))
    except ValueError as exc:
        parser.error(str(exc))
    if args.score is not None:
        return score(args.score, args.outputs)
    if args.out is None:
        parser.error("give --out DIR to write a set or --score DIR to score one")
    pieces = [int(p) for p in args.pieces.split(",") if p.strip()]
    write_hidden_set(
        args.out,
        tables=args.tables,
        shots=args.shots,
        seed=args.seed,
        pieces=pieces,
        sensors=args.sensors,
        laws=args.laws,
        faults=faults,
        camera=args.camera,
    )
    print(f"{args.tables} tables x {args.shots} shots written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
