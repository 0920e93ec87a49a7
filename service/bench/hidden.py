"""The honest attribution benchmark: tables whose physics and piezos the model is never told.

Each table's constants are drawn from wide ranges (service/simulator/hidden_mats.py: sound speed
0.3–1.0 mm/µs, friction 0.25–0.50 with ±20 % per piece, restitutions, piezo lags and gains, walls with gaps
or an open side, boxes).
Its shots are played in order, as at a real table, and every method reads them in that order:

* **self-calibrating** — wide priors, learning from each shot's own evidence after attributing it
  (exactly ``smartmat attribute TRACES --table CAL.json --learn``);
* **built-in constants** — the model's own constants taken as known, nothing learnt (the shipped settings
  before self-calibration); the baseline the others are compared with, measured in the same run;
* **moved_enemies** — every enemy that moved was hit directly.

Figures, not assertions: see docs/attribution.md. ``smartmat bench attribution`` prints them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from service.attribution.baselines import moved_enemies
from service.attribution.calibration import TableCalibration, wide_priors
from service.attribution.config import AttributionConfig
from service.attribution.infer import Attribution, attribute
from service.attribution.learning import learn_from_shot
from service.bench.attribution import Case, Outcome, _pct, score_case, summarise
from service.simulator.hidden_mats import hidden_table, table_shots
from service.simulator.registered import unregistered_touches
from service.simulator.sensors import SensorModel

SELF = "self-calibrating"
BUILT_IN = "built-in constants"
METHODS = (SELF, BUILT_IN, "moved_enemies")
# Shots by how many pieces were truly hit directly, each band reported apart.
HIT_BANDS: tuple[tuple[str, Callable[[int], bool]], ...] = (
    ("0", lambda n: n == 0),
    ("1", lambda n: n == 1),
    ("2+", lambda n: n >= 2),
)
# Shots whose every direct touch the sensors registered, and those with one no reader of them could be sure
# of (service/simulator/registered.py): what the sensors, not the code, cost.
REGISTERED, UNREGISTERED = "all registered", "a touch unregistered"


@dataclass
class HiddenBenchResult:
    tables: int
    shots_per_table: int
    outcomes: dict[str, list[tuple[int, int, Outcome]]] = field(default_factory=dict)  # (table, shot, …)
    calibrations: list[dict[str, Any]] = field(default_factory=list)  # each table's learnt vs hidden
    unregistered: set[tuple[int, int]] = field(default_factory=set)  # (table, shot) with a touch unregistered
    wall_s: float = 0.0

    def report(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tables": self.tables,
            "shots_per_table": self.shots_per_table,
            "wall_s": round(self.wall_s, 1),
        }
        half = self.shots_per_table // 2
        for name, rows in self.outcomes.items():
            everything = [o for _, _, o in rows]
            entry = summarise(everything)
            entry["early"] = _brief(summarise([o for _, i, o in rows if i < half]))
            entry["late"] = _brief(summarise([o for _, i, o in rows if i >= half]))
            entry["by_hits"] = {
                label: _brief(summarise([o for o in everything if test(len(o.truth))]))
                for label, test in HIT_BANDS
            }
            entry["by_registration"] = {
                REGISTERED: _brief(summarise([o for k, i, o in rows if (k, i) not in self.unregistered])),
                UNREGISTERED: _brief(summarise([o for k, i, o in rows if (k, i) in self.unregistered])),
            }
            out[name] = entry
        base = out.get(BUILT_IN)
        if base:
            for name in self.outcomes:
                out[name]["ratio_to_built_in"] = {
                    key: (round(out[name][key] / base[key], 3) if base.get(key) else None)
                    for key in ("top1_accuracy", "top3_accuracy", "auto_coverage")
                }
        out["calibrations"] = self.calibrations
        return out


def _brief(s: dict[str, Any]) -> dict[str, Any]:
    keys = ("shots", "top1_accuracy", "top3_accuracy", "auto_precision", "auto_coverage")
    return {k: s.get(k) for k in keys}


def run_hidden_benchmark(
    tables: int,
    shots: int,
    seed: int,
    config: AttributionConfig,
    *,
    pieces: Sequence[int] = (10, 20, 30),
    progress: Callable[[int, int], None] | None = None,
    sensors: str = "reference",
    laws: str = "shared",
) -> HiddenBenchResult:
    result = HiddenBenchResult(tables, shots, {name: [] for name in METHODS})
    started = time.perf_counter()
    done = 0
    for k in range(tables):
        cal: TableCalibration = wide_priors(f"hidden-{k}")
        table = hidden_table(seed, k, sensors, laws)
        hearing = SensorModel(table.sensors, table.mat, truth=table.piezo_truth)  # for the report only
        for i, shot in enumerate(table_shots(seed, k, shots, pieces, sensors, laws)):
            if unregistered_touches(shot.truth, shot.trace.pre, shot.trace.post, hearing):
                result.unregistered.add((k, i))
            case = Case(i, "reference", len(shot.trace.pieces), shot)
            learning_config = replace(config, table=cal)
            outcome, attribution = _scored(case, partial(attribute, config=learning_config))
            result.outcomes[SELF].append((k, i, outcome))
            cal = learn_from_shot(cal, shot.trace, attribution, config.evidence)  # its own evidence only
            result.outcomes[BUILT_IN].append((k, i, _scored(case, lambda trace: attribute(trace, config))[0]))
            result.outcomes["moved_enemies"].append((k, i, score_case(case, moved_enemies)))
            done += 1
            if progress:
                progress(done, tables * shots)
        hidden = table.describe()
        result.calibrations.append(
            {
                "table": k,
                "learnt": cal.summary(),
                "hidden_sound_speed_m_per_s": round(1000 * hidden["wave_speed_mm_per_us"]),
                "hidden_sliding_friction": round(hidden["sliding_friction"], 3),
                "walls": hidden.get("walls_layout"),
                "engine": hidden["engine"],
            }
        )
    result.wall_s = time.perf_counter() - started
    return result


def _scored(case: Case, method: Callable[[Any], Attribution]) -> tuple[Outcome, Attribution]:
    """The benchmark's outcome of one method on one shot, and the attribution itself (to learn from)."""
    kept: list[Attribution] = []

    def keep(trace: Any) -> Attribution:
        kept.append(method(trace))
        return kept[-1]

    return score_case(case, keep), kept[0]


def format_hidden(report: dict[str, Any]) -> str:
    lines = [
        f"attribution on hidden mats: {report['tables']} tables x {report['shots_per_table']} shots in play "
        f"order, {report['wall_s']} s (constants drawn from wide ranges the model is not told)",
        "",
        f"{'method':<20}{'top-1':>8}{'top-3':>8}{'auto prec':>11}{'auto cov':>10}{'p50 s':>8}{'p95 s':>8}"
        f"{'top-1 / built-in':>18}",
    ]
    for name in METHODS:
        e = report.get(name)
        if not e:
            continue
        ratio = e.get("ratio_to_built_in", {}).get("top1_accuracy")
        lines.append(
            f"{name:<20}{_pct(e['top1_accuracy']):>8}{_pct(e['top3_accuracy']):>8}{_pct(e['auto_precision']):>11}"
            f"{_pct(e['auto_coverage']):>10}{e['latency_p50_s']:>8.2f}{e['latency_p95_s']:>8.2f}"
            f"{'-' if ratio is None else f'{ratio:.2f}':>18}"
        )
    lines.append("")
    lines.append("early (first half of each table's shots) against late (second half)")
    for name in (SELF, BUILT_IN):
        e = report[name]
        for part in ("early", "late"):
            p = e[part]
            lines.append(
                f"  {name:<20}{part:<6}top-1 {_pct(p['top1_accuracy']):>7}"
                f"  top-3 {_pct(p['top3_accuracy']):>7}  auto prec {_pct(p['auto_precision']):>7}"
                f"  cov {_pct(p['auto_coverage']):>7}"
            )
    lines.append("")
    lines.append("by number of true direct hits")
    for name in (SELF, BUILT_IN):
        for label, p in report[name]["by_hits"].items():
            lines.append(_group_line(name, f"{label:<3} hits:", p, top3=False))
    lines.append("")
    lines.append("shots whose every direct touch the sensors registered, and shots with one they did not")
    for name in (SELF, BUILT_IN):
        for label, p in report[name]["by_registration"].items():
            lines.append(_group_line(name, f"{label:<21}", p, top3=True))
    lines.append("")
    lines.append(f"{SELF}: stated probability against how often it was right")
    for row in report[SELF]["calibration"]:
        lines.append(
            f"  p in {row['bin']}: {row['shots']:>5} shots, mean p {row['mean_probability']:.3f}, "
            f"right {row['accuracy']:.3f}"
        )
    lines.append("")
    lines.append("what each table learnt against its hidden constants")
    for c in report["calibrations"]:
        learnt = c["learnt"]
        lines.append(
            f"  table {c['table']}: sound {learnt['sound_speed_m_per_s']} m/s (hidden "
            f"{c['hidden_sound_speed_m_per_s']}), friction x{learnt['sliding_friction_x']} of 0.40 (hidden "
            f"{c['hidden_sliding_friction']}), "
            f"{'settled' if learnt['settled'] else 'not settled'}; {c['walls']}"
        )
    return "\n".join(lines)


def _group_line(method: str, label: str, p: dict[str, Any], *, top3: bool) -> str:
    """One method's figures on one group of shots."""
    top3_figure = f"  top-3 {_pct(p['top3_accuracy']):>7}" if top3 else ""
    return (
        f"  {method:<20}{label} {p['shots']:>4} shots  top-1 {_pct(p['top1_accuracy']):>7}{top3_figure}"
        f"  auto prec {_pct(p['auto_precision']):>7}  cov {_pct(p['auto_coverage']):>7}"
    )


__all__ = ["format_hidden", "run_hidden_benchmark"]
