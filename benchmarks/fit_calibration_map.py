"""Fit the map from the sampler's raw share to measured accuracy (AttributionConfig.calibration).

Reads pairs of ``table-K.out.jsonl`` (``smartmat attribute --json`` output, with ``raw_probability``) and
``table-K.truth.jsonl`` (``{"direct_hits": [...]}`` per line: from a hidden set written by
benchmarks/attribution_hidden.py, or from shots referees confirmed at a real table) in the given directories,
bins the top candidate's raw share, and prints the monotone map as Python for service/attribution/config.py.
Each bin's accuracy is (right + 1) / (shots + 2), so a bin of 60 shots all right claims 0.984, not 1: the
map never states more than its evidence supports. Then it prints, for thresholds on the mapped scale, the
precision and coverage of the shots that would be applied.

    .venv/bin/python benchmarks/fit_calibration_map.py RESULTS_DIR [...] [--check HELD_OUT_DIR ...]

With ``--check``, the fitted map is also scored on held-out results (directories after ``--check``), which
is the only honest reading of its precision.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

EDGES = (0.0, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999, 0.99999, 1.000001)


def rows(directories: list[str]) -> list[tuple[float, bool, list[str]]]:
    out = []
    for directory in directories:
        for truth_path in sorted(Path(directory).glob("table-*.truth.jsonl")):
            out_path = truth_path.with_name(truth_path.name.replace(".truth.", ".out."))
            if not out_path.exists():
                continue
            truths = [json.loads(line) for line in truth_path.read_text().splitlines() if line.strip()]
            results = [json.loads(line) for line in out_path.read_text().splitlines() if line.strip()]
            for truth, result in zip(truths, results, strict=False):
                top = result["candidates"][0]
                right = sorted(top["direct_hits"]) == sorted(truth["direct_hits"])
                out.append((float(top.get("raw_probability", top["probability"])), right, result["reasons"]))
    return out


def fit(data: list[tuple[float, bool, list[str]]]) -> list[tuple[float, float, int]]:
    points = []
    for low, high in zip(EDGES, EDGES[1:], strict=False):
        inside = [(raw, ok) for raw, ok, _ in data if low <= raw < high]
        if not inside:
            continue
        mean_raw = sum(raw for raw, _ in inside) / len(inside)
        accuracy = (sum(ok for _, ok in inside) + 1) / (len(inside) + 2)
        points.append([mean_raw, accuracy, len(inside)])
    # Pool adjacent violators: the map must not fall as the raw share rises.
    merged: list[list[float]] = []
    for p in points:
        merged.append(p)
        while len(merged) > 1 and merged[-2][1] > merged[-1][1]:
            b, a = merged.pop(), merged.pop()
            n = a[2] + b[2]
            merged.append([(a[0] * a[2] + b[0] * b[2]) / n, (a[1] * a[2] + b[1] * b[2]) / n, n])
    return [(round(x, 6), round(y, 4), int(n)) for x, y, n in merged]


def main() -> int:
    args = sys.argv[1:]
    held_out: list[str] = []
    if "--check" in args:
        at = args.index("--check")
        args, held_out = args[:at], args[at + 1 :]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    data = rows(args)
    if not data:
        print("no table-K.out.jsonl next to a table-K.truth.jsonl", file=sys.stderr)
        return 2
    table = fit(data)
    print(f"# fitted on {len(data)} shots from {', '.join(args)}")
    print("CALIBRATION: tuple[tuple[float, float], ...] = (")
    print("    (0.0, 0.0),")
    for x, y, n in table:
        print(f"    ({x}, {y}),  # {n} shots")
    print(f"    (1.0, {table[-1][1]}),")
    print(")")

    def mapped(raw: float) -> float:
        pts = [(0.0, 0.0)] + [(x, y) for x, y, _ in table] + [(1.0, table[-1][1])]
        for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
            if raw <= x1:
                return y0 + (y1 - y0) * (raw - x0) / (x1 - x0) if x1 > x0 else y1
        return pts[-1][1]

    for label, scored in (("fitted shots", data), ("held-out shots", rows(held_out) if held_out else [])):
        if not scored:
            continue
        print(f"\n{label} ({len(scored)}): threshold, applied, coverage, precision")
        print("(applied: the mapped probability reaches the threshold, nothing else gave a reason to ask)")
        for threshold in (0.9, 0.95, 0.96, 0.97, 0.98, 0.99):
            sel = [
                ok for raw, ok, reasons in scored if mapped(raw) >= threshold and _only_probability(reasons)
            ]
            if sel:
                cover, precision = len(sel) / len(scored), sum(sel) / len(sel)
                print(f"{threshold:9.3f}  {len(sel):7d}  {cover:8.1%}  {precision:9.1%}")
    return 0


def _only_probability(reasons: list[str]) -> bool:
    """The shot went to the referee, if at all, only because its probability fell short."""
    return all("sure" in r or "close" in r for r in reasons)


if __name__ == "__main__":
    sys.exit(main())
