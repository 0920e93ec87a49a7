"""Hidden tables played with a referee: does a table that learns from its referee's answers need them less?

Each hidden table (constants drawn from wide ranges the model is not told, hidden.py) is played twice in the
same run, shot by shot in play order, from wide priors:

* **with the referee** — every shot the table holds is answered by a simulated referee who knows what
  happened but makes mistakes (``MISTAKE_RATE``: a piece added or dropped, or no answer), and the table
  learns from each answer before the next shot, exactly as ``smartmat attribute … --learn --referee -``;
* **without** — the same shots, learning from each shot's own evidence only.

The figures are read after each table's first ``WARM_UP`` shots (the goals), and for those shots apart.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from service.attribution.calibration import TableCalibration, wide_priors
from service.attribution.config import AttributionConfig
from service.attribution.infer import Attribution, attribute
from service.attribution.learning import learn_from_shot
from service.attribution.reliability import reason_key
from service.bench.attribution import Case, Outcome, _pct, summarise
from service.simulator.hidden_mats import hidden_table, table_shots
from service.simulator.registered import unregistered_touches
from service.simulator.sensors import SensorModel

WITH, WITHOUT = "with the referee", "without"
WARM_UP = 20
MISTAKE_RATE = 0.04


def referee_answer(
    truth: frozenset[str], pieces: Sequence[str], flicked: str, rng: random.Random, mistakes: float
) -> frozenset[str] | None:
    """What a referee who saw the shot says: the truth, or now and then a slip (a piece added or dropped,
    or no answer)."""
    if rng.random() >= mistakes:
        return truth
    slip = rng.choice(("add", "drop", "none"))
    others = sorted(set(pieces) - truth - {flicked})
    if slip == "none":
        return None
    if slip == "drop" and truth:
        return truth - {rng.choice(sorted(truth))}
    return truth | {rng.choice(others)} if others else truth


@dataclass
class Row:
    table: int
    shot: int
    outcome: Outcome
    answered: str = "-"  # right | wrong | none | - (applied, not asked)
    held_for: frozenset[str] = frozenset()  # the reasons' keys (reliability.py), empty when applied


@dataclass
class RefereeBenchResult:
    tables: int
    shots_per_table: int
    mistakes: float
    rows: dict[str, list[Row]] = field(default_factory=dict)
    unregistered: set[tuple[int, int]] = field(default_factory=set)
    learnt: list[dict[str, Any]] = field(default_factory=list)
    wall_s: float = 0.0

    def report(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tables": self.tables,
            "shots_per_table": self.shots_per_table,
            "referee_mistake_rate": self.mistakes,
            "warm_up": WARM_UP,
            "wall_s": round(self.wall_s, 1),
        }
        for name, rows in self.rows.items():
            late = [r for r in rows if r.shot >= WARM_UP]
            entry: dict[str, Any] = {
                "first": _brief(summarise([r.outcome for r in rows if r.shot < WARM_UP])),
                "rest": _brief(summarise([r.outcome for r in late])),
                "rest_2plus_hits": _brief(summarise([r.outcome for r in late if len(r.outcome.truth) >= 2])),
                "rest_all_registered": _brief(
                    summarise([r.outcome for r in late if (r.table, r.shot) not in self.unregistered])
                ),
                "rest_a_touch_unregistered": _brief(
                    summarise([r.outcome for r in late if (r.table, r.shot) in self.unregistered])
                ),
                "by_table": {
                    str(k): {
                        "first": _brief(
                            summarise([r.outcome for r in rows if r.table == k and r.shot < WARM_UP])
                        ),
                        "rest": _brief(summarise([r.outcome for r in late if r.table == k])),
                    }
                    for k in sorted({r.table for r in rows})
                },
                "coverage_by_tens": _coverage_by_tens(rows),
                "answers": {a: sum(r.answered == a for r in rows) for a in ("right", "wrong", "none")},
                "held_after_warm_up": _held_by_reason(late),
            }
            out[name] = entry
        base, learnt = out.get(WITHOUT), out.get(WITH)
        if base and learnt:
            out["ratio_with_to_without"] = {
                key: _ratio(learnt["rest"].get(key), base["rest"].get(key))
                for key in (
                    "auto_coverage",
                    "auto_precision",
                    "top1_accuracy",
                    "top3_accuracy",
                    "latency_p95_s",
                )
            }
        out["learnt"] = self.learnt
        return out


def _held_by_reason(rows: list[Row]) -> dict[str, dict[str, Any]]:
    """For each reason shots were held for: how many, how many held for it alone, and how often the reading
    put first was right (what applying them would have cost), most frequent first."""
    out: dict[str, dict[str, Any]] = {}
    held = [r for r in rows if not r.outcome.auto]
    for key in sorted({k for r in held for k in r.held_for}):
        mine = [r for r in held if key in r.held_for]
        alone = [r for r in mine if r.held_for == {key}]
        out[key] = {
            "shots": len(mine),
            "share_of_shots": round(len(mine) / len(rows), 3),
            "top1_right": round(sum(r.outcome.ranked[0] == r.outcome.truth for r in mine) / len(mine), 3),
            "alone": len(alone),
            "alone_top1_right": (
                round(sum(r.outcome.ranked[0] == r.outcome.truth for r in alone) / len(alone), 3)
                if alone
                else None
            ),
        }
    return dict(sorted(out.items(), key=lambda item: -item[1]["shots"]))


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a is not None and b else None


def _brief(s: dict[str, Any]) -> dict[str, Any]:
    keys = ("shots", "top1_accuracy", "top3_accuracy", "auto_precision", "auto_coverage", "latency_p95_s")
    return {k: s.get(k) for k in keys}


def _coverage_by_tens(rows: list[Row]) -> list[float | None]:
    """The share of shots applied, by each table's shots 1-10, 11-20, …: the coverage curve."""
    last = max((r.shot for r in rows), default=-1)
    out: list[float | None] = []
    for start in range(0, last + 1, 10):
        inside = [r.outcome.auto for r in rows if start <= r.shot < start + 10]
        out.append(round(sum(inside) / len(inside), 3) if inside else None)
    return out


def run_referee_benchmark(
    tables: int,
    shots: int,
    seed: int,
    config: AttributionConfig,
    *,
    pieces: Sequence[int] = (10, 20, 30),
    sensors: str = "reference",
    laws: str = "shared",
    mistakes: float = MISTAKE_RATE,
    progress: Callable[[int, int], None] | None = None,
) -> RefereeBenchResult:
    result = RefereeBenchResult(tables, shots, mistakes, {WITH: [], WITHOUT: []})
    started = time.perf_counter()
    done = 0
    for k in range(tables):
        learnt: dict[str, TableCalibration] = {
            WITH: wide_priors(f"hidden-{k}"),
            WITHOUT: wide_priors(f"hidden-{k}"),
        }
        table = hidden_table(seed, k, sensors, laws)
        hearing = SensorModel(table.sensors, table.mat, truth=table.piezo_truth)  # for the report only
        rng = random.Random(f"referee {seed} {k}")
        for i, shot in enumerate(table_shots(seed, k, shots, pieces, sensors, laws)):
            if unregistered_touches(shot.truth, shot.trace.pre, shot.trace.post, hearing):
                result.unregistered.add((k, i))
            case = Case(i, sensors, len(shot.trace.pieces), shot)
            truth = frozenset(shot.truth.direct_hits)
            for name in (WITH, WITHOUT):
                cal = learnt[name]
                began = time.perf_counter()
                attribution = attribute(shot.trace, replace(config, table=cal))
                outcome = _outcome(case, attribution, time.perf_counter() - began)
                answer, answered = None, "-"
                if name == WITH and not attribution.auto_apply:
                    flicked = shot.trace.declaration.flicked
                    answer = referee_answer(
                        truth, [p.piece for p in shot.trace.pieces], flicked, rng, mistakes
                    )
                    answered = "none" if answer is None else ("right" if answer == truth else "wrong")
                learnt[name] = learn_from_shot(
                    cal,
                    shot.trace,
                    attribution,
                    config.evidence,
                    answer=answer,
                    answered_nothing=answered == "none",
                )
                keys = frozenset(reason_key(r) for r in attribution.reasons)
                result.rows[name].append(Row(k, i, outcome, answered, keys))
            done += 1
            if progress:
                progress(done, tables * shots)
        hidden = table.describe()
        result.learnt.append(
            {
                "table": k,
                "with": learnt[WITH].summary(),
                "without": learnt[WITHOUT].summary(),
                "hidden_sliding_friction": round(hidden["sliding_friction"], 3),
                # In the model's terms (its nominal loudness of a disc-on-disc touch), for the report only;
                # comparable where the hidden mat's loudness law is the model's (--laws shared).
                "hidden_disc_loudness_x": round(
                    hidden["amplitude_scale"]
                    * hidden["disc_disc_coupling"]
                    / config.evidence.disc_disc_coupling,
                    3,
                ),
                "hidden_wall_loudness_x": round(hidden["amplitude_scale"], 3),
                "hidden_friction_x": round(hidden["sliding_friction"] / config.model.sliding_friction, 3),
                "hidden_sound_speed_m_per_s": round(1000 * hidden["wave_speed_mm_per_us"]),
            }
        )
    result.wall_s = time.perf_counter() - started
    return result


def _outcome(case: Case, result: Attribution, latency: float) -> Outcome:
    truth = case.shot.truth
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


def format_referee(report: dict[str, Any]) -> str:
    lines = [
        f"hidden mats played with a referee: {report['tables']} tables x {report['shots_per_table']} shots, "
        f"referee mistakes {report['referee_mistake_rate']:.0%} of answers, {report['wall_s']} s",
        "",
        f"{'':50}{'shots':>6}{'top-1':>8}{'top-3':>8}{'applied':>9}{'right':>8}{'p95 s':>7}",
    ]
    warm = report["warm_up"]
    for name in (WITH, WITHOUT):
        e = report[name]
        for label, key in (
            (f"first {warm} shots", "first"),
            (f"after {warm}", "rest"),
            (f"after {warm}, 2+ direct hits", "rest_2plus_hits"),
            (f"after {warm}, every touch registered", "rest_all_registered"),
            (f"after {warm}, a touch unregistered", "rest_a_touch_unregistered"),
        ):
            lines.append(_line(f"{name}: {label}", e[key]))
        lines.append("")
    ratios = report.get("ratio_with_to_without", {})
    lines.append(
        f"after {warm}, with / without: "
        + ", ".join(f"{k} {'-' if v is None else f'{v:.2f}'}" for k, v in ratios.items())
    )
    for name in (WITH, WITHOUT):
        curve = " ".join(_pct(v) for v in report[name]["coverage_by_tens"])
        lines.append(f"applied share by tens of shots, {name}: {curve}")
    lines.append(f"answers given: {report[WITH]['answers']}")
    lines.append("")
    lines.append(f"{WITH}, after {warm}: shots held, by reason (a shot may have several)")
    for key, h in report[WITH]["held_after_warm_up"].items():
        alone = "-" if h["alone_top1_right"] is None else _pct(h["alone_top1_right"])
        lines.append(
            f"  {key:<24}{h['shots']:>5} shots ({_pct(h['share_of_shots'])}), first reading right "
            f"{_pct(h['top1_right'])}; held for it alone {h['alone']:>3}, right {alone}"
        )
    lines.append("")
    lines.append("disc-on-disc loudness learnt (x the model's nominal), against the hidden mat's")
    for t in report["learnt"]:
        lines.append(
            f"  table {t['table']}: with {t['with']['disc_loudness_x']} ({t['with']['disc_loudness_shots']} "
            f"contacts), without {t['without']['disc_loudness_x']} ({t['without']['disc_loudness_shots']}), "
            f"hidden {t['hidden_disc_loudness_x']}; friction with {t['with']['sliding_friction_x']}, "
            f"without {t['without']['sliding_friction_x']}, hidden {t['hidden_friction_x']}"
        )
    lines.append("")
    lines.append("per table, after the first shots (applied share, right when applied, top-1)")
    for k, t in report[WITH]["by_table"].items():
        mine, theirs = t["rest"], report[WITHOUT]["by_table"][k]["rest"]
        lines.append(
            f"  table {k}: with {_pct(mine['auto_coverage'])} / {_pct(mine['auto_precision'])} / "
            f"{_pct(mine['top1_accuracy'])};  without {_pct(theirs['auto_coverage'])} / "
            f"{_pct(theirs['auto_precision'])} / {_pct(theirs['top1_accuracy'])}"
        )
    return "\n".join(lines)


def _line(label: str, p: dict[str, Any]) -> str:
    p95 = p.get("latency_p95_s")
    return (
        f"{label:<50}{p['shots'] or 0:>6}{_pct(p.get('top1_accuracy')):>8}{_pct(p.get('top3_accuracy')):>8}"
        f"{_pct(p.get('auto_coverage')):>9}{_pct(p.get('auto_precision')):>8}"
        f"{'-' if p95 is None else f'{p95:.2f}':>7}"
    )


__all__ = ["format_referee", "referee_answer", "run_referee_benchmark"]
