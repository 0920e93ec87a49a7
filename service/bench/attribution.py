"""The attribution benchmark: simulated shots with known truth, scored for smartmat and two baselines.

Shots vary crowding (5-30 pieces), flick speed (0.5-3 m/s, or the players' own choice), shot type (melee,
rush, missile from a placed ranged piece) and sensor configuration (reference, cheaper, noisier); some rooms
have a frozen monster (an ice piece on top) or a shadow monster. The goals are read on the subset at the
reference configuration with 30 pieces. Figures, not assertions: see docs/attribution.md.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from service.attribution.baselines import enemies_of, moved_enemies, nominal_best_fit
from service.attribution.infer import Attribution, AttributionConfig, attribute
from service.mat.geometry import MatConfig
from service.simulator.shot_lab import ShotLab, SimulatedShot, populate_room, random_shot

CROWDING = (5, 10, 20, 30)
SENSORS = ("reference", "cheaper", "noisier")
CALIBRATION_BINS = ((0.0, 0.5), (0.5, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 1.01))


@dataclass
class Case:
    index: int
    sensors: str
    pieces: int
    shot: SimulatedShot


@dataclass
class Outcome:
    case: Case
    truth: frozenset[str]
    truth_pushed: frozenset[str]
    ranked: list[frozenset[str]]
    top_probability: float
    auto: bool
    pushed: frozenset[str]
    latency_s: float


def make_case(
    index: int,
    seed: int,
    sensors: str | None = None,
    pieces: int | None = None,
    mat: MatConfig | None = None,
) -> Case:
    """One benchmark shot; ``mat`` replaces the ground-truth mat (benchmarks/attribution_mismatch.py)."""
    rng = random.Random(seed * 1_000_003 + index)
    sensors = sensors or SENSORS[index % len(SENSORS)]
    pieces = pieces or CROWDING[(index // len(SENSORS)) % len(CROWDING)]
    table = ShotLab(seed=seed * 7919 + index, sensor_config=sensors, mat=mat)
    monsters = populate_room(
        table, rng, pieces, frozen=1 if rng.random() < 0.15 else 0, shadows=1 if rng.random() < 0.1 else 0
    )
    speed_range = (500.0, 3000.0) if rng.random() < 0.5 else None
    return Case(index, sensors, pieces, random_shot(table, rng, monsters, speed_range=speed_range))


def score_case(case: Case, method: Callable[[Any], Attribution]) -> Outcome:
    trace, truth = case.shot.trace, case.shot.truth
    started = time.perf_counter()
    result = method(trace)
    latency = time.perf_counter() - started
    return Outcome(
        case,
        frozenset(truth.direct_hits),
        frozenset(truth.pushed),
        [c.direct_hits for c in result.candidates],
        result.candidates[0].probability,
        result.auto_apply,
        result.candidates[0].pushed,
        latency,
    )


def summarise(outcomes: list[Outcome]) -> dict[str, Any]:
    n = len(outcomes)
    if n == 0:
        return {"shots": 0}
    top1 = sum(o.ranked[0] == o.truth for o in outcomes) / n
    top3 = sum(o.truth in o.ranked[:3] for o in outcomes) / n
    auto = [o for o in outcomes if o.auto]
    latencies = sorted(o.latency_s for o in outcomes)
    counts = {"direct": [0, 0, 0], "pushed": [0, 0, 0]}  # true positive, predicted, actual
    for o in outcomes:
        for label, predicted, actual in (
            ("direct", o.ranked[0], o.truth),
            ("pushed", o.pushed, o.truth_pushed),
        ):
            counts[label][0] += len(predicted & actual)
            counts[label][1] += len(predicted)
            counts[label][2] += len(actual)
    calibration = []
    for low, high in CALIBRATION_BINS:
        inside = [o for o in outcomes if low <= o.top_probability < high]
        if inside:
            calibration.append(
                {
                    "bin": f"{low:.2f}-{min(high, 1.0):.2f}",
                    "shots": len(inside),
                    "mean_probability": round(statistics.mean(o.top_probability for o in inside), 3),
                    "accuracy": round(sum(o.ranked[0] == o.truth for o in inside) / len(inside), 3),
                }
            )
    return {
        "shots": n,
        "top1_accuracy": round(top1, 4),
        "top3_accuracy": round(top3, 4),
        "enemy_top1_accuracy": round(
            sum(o.ranked[0] & _enemies(o) == o.truth & _enemies(o) for o in outcomes) / n, 4
        ),
        "auto_precision": round(sum(o.ranked[0] == o.truth for o in auto) / len(auto), 4) if auto else None,
        "auto_coverage": round(len(auto) / n, 4),
        "latency_p50_s": round(_percentile(latencies, 0.5), 3),
        "latency_p95_s": round(_percentile(latencies, 0.95), 3),
        "direct_precision": _ratio(counts["direct"][0], counts["direct"][1]),
        "direct_recall": _ratio(counts["direct"][0], counts["direct"][2]),
        "pushed_precision": _ratio(counts["pushed"][0], counts["pushed"][1]),
        "pushed_recall": _ratio(counts["pushed"][0], counts["pushed"][2]),
        "calibration": calibration,
    }


def _enemies(o: Outcome) -> set[str]:
    return enemies_of(o.case.shot.trace, o.case.shot.trace.declaration.flicked)


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    return values[min(len(values) - 1, int(q * len(values)))]


@dataclass
class BenchResult:
    outcomes: dict[str, list[Outcome]] = field(default_factory=dict)
    wall_s: float = 0.0

    def report(self) -> dict[str, Any]:
        def goal_subset(os: list[Outcome]) -> list[Outcome]:
            return [o for o in os if o.case.sensors == "reference" and o.case.pieces == 30]

        out: dict[str, Any] = {
            "shots": len(next(iter(self.outcomes.values()), [])),
            "wall_s": round(self.wall_s, 1),
        }
        for name, outcomes in self.outcomes.items():
            entry = summarise(outcomes)
            entry["goal_subset"] = summarise(goal_subset(outcomes))
            entry["by_sensors"] = {
                s: summarise([o for o in outcomes if o.case.sensors == s])["top1_accuracy"]
                for s in sorted({o.case.sensors for o in outcomes})
            }
            entry["by_pieces"] = {
                str(p): summarise([o for o in outcomes if o.case.pieces == p])["top1_accuracy"]
                for p in CROWDING
                if any(o.case.pieces == p for o in outcomes)
            }
            out[name] = entry
        return out


def run_benchmark(
    shots: int,
    seed: int,
    config: AttributionConfig | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
    sensors: str | None = None,
    pieces: int | None = None,
) -> BenchResult:
    config = config or AttributionConfig(workers=0)
    methods: dict[str, Callable[[Any], Attribution]] = {
        "smartmat": lambda trace: attribute(trace, config),
        "moved_enemies": moved_enemies,
        "nominal_best_fit": lambda trace: nominal_best_fit(trace, config),
    }
    result = BenchResult({name: [] for name in methods})
    started = time.perf_counter()
    for i in range(shots):
        case = make_case(i, seed, sensors, pieces)
        for name, method in methods.items():
            result.outcomes[name].append(score_case(case, method))
        if progress:
            progress(i + 1, shots)
    result.wall_s = time.perf_counter() - started
    return result


def format_table(report: dict[str, Any]) -> str:
    methods = [k for k, v in report.items() if isinstance(v, dict)]
    lines = [f"attribution benchmark: {report['shots']} shots in {report['wall_s']} s"]
    for scope, title in (
        (None, "all shots"),
        ("goal_subset", "reference sensors, 30-piece rooms (the goals)"),
    ):
        lines.append("")
        lines.append(f"{title}")
        header = (
            f"{'method':<18}{'shots':>6}{'top-1':>8}{'top-3':>8}{'enemy':>8}{'auto prec':>11}{'auto cov':>10}"
        )
        header += f"{'p50 s':>8}{'p95 s':>8}{'dir P':>7}{'dir R':>7}{'push P':>8}{'push R':>8}"
        lines.append(header)
        for name in methods:
            e = report[name] if scope is None else report[name][scope]
            if not e.get("shots"):
                continue
            lines.append(
                f"{name:<18}{e['shots']:>6}{_pct(e['top1_accuracy']):>8}{_pct(e['top3_accuracy']):>8}"
                f"{_pct(e['enemy_top1_accuracy']):>8}{_pct(e['auto_precision']):>11}{_pct(e['auto_coverage']):>10}"
                f"{e['latency_p50_s']:>8.2f}{e['latency_p95_s']:>8.2f}{_pct(e['direct_precision']):>7}"
                f"{_pct(e['direct_recall']):>7}{_pct(e['pushed_precision']):>8}{_pct(e['pushed_recall']):>8}"
            )
    lines.append("")
    lines.append("smartmat calibration (top candidate's probability against how often it was right)")
    for row in report["smartmat"]["calibration"]:
        lines.append(
            f"  p in {row['bin']}: {row['shots']:>5} shots, mean p {row['mean_probability']:.3f}, "
            f"right {row['accuracy']:.3f}"
        )
    lines.append("")
    lines.append(
        "top-1 by sensor configuration: "
        + ", ".join(
            f"{name} " + " / ".join(f"{s} {_pct(v)}" for s, v in report[name]["by_sensors"].items())
            for name in methods
        )
    )
    lines.append(
        "top-1 by pieces in the room:   "
        + ", ".join(
            f"{name} " + " / ".join(f"{p} {_pct(v)}" for p, v in report[name]["by_pieces"].items())
            for name in methods
        )
    )
    return "\n".join(lines)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"
