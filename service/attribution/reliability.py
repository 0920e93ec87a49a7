"""How far a table's own referee has found its held readings right: per reason a shot was held, with a bound.

Every held shot a referee answers is a labelled example: the reading the model put first was right or it was
not. Counted per reason the shot was held for (each reason in words has a stable key, :func:`reason_key`), and
per band of the stated ``probability``, this is the table's own measure of how far each gate's doubt was
needed. A gate may let its shots through only where that measure's *lower* bound (the 5th percentile of a
Beta posterior over the share of right readings, from a flat prior) clears ``RELEASE_LOWER_BOUND``: a
handful of right answers never does, and a wrong answer pushes it back at once (docs/calibration.md).

Referees make mistakes. Counting them here only ever errs towards holding more: an answer that says the
reading was wrong counts against the gate, right or not; only a wrong answer that happens to agree with a
wrong reading counts for it, and one such answer moves a bound resting on a hundred others by a hair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

# The share of right readings a gate's labelled record must show, at its 5th percentile, before the gate
# lets a shot through: with no wrong answer that takes 98 right ones; one wrong answer, about 160.
RELEASE_LOWER_BOUND = 0.97
BOUND_QUANTILE = 0.05
# Reasons whose doubt the table's history can answer. The others (a piece or the flicked disc unseen, an
# unsettled calibration, an unreadable trace, a camera that saw otherwise) say the shot lacks evidence,
# which no count of earlier shots supplies.
RELEASABLE = frozenset(
    {
        "unsure",
        "close-readings",
        "runner-up-fit",
        "obstacle",
        "light-disc",
        "near-miss",
        "unconfirmed-touch",
        "rest-against",
    }
)
# Substrings of the reasons in gates.py and infer.py (checked by tests/attribution/test_referee_answers.py).
_KEYS: tuple[tuple[str, str], ...] = (
    ("calibration not settled", "calibration"),
    ("not a trace this reader accepts", "bad-trace"),
    ("flicked disc was not seen before", "flicked-unseen-before"),
    ("flicked disc was not seen after", "flicked-unseen-after"),
    ("not seen before the shot", "piece-unseen-before"),
    ("not seen after the shot", "piece-unseen-after"),
    ("the model's prior favours", "prior-favours"),
    ("two readings are close", "close-readings"),
    ("the best reading is only", "unsure"),
    ("fits the sensors as well", "rival-with-more-hits"),
    ("movable obstacle", "obstacle"),
    ("fits the sensors nearly as well", "runner-up-fit"),
    ("and the reading has it touch nothing", "light-disc"),
    ("hits: a shot with more than one", "several-hits"),
    ("a piece moved that no reading explains", "unexplained-move"),
    ("beside the flicked disc's path", "moved-beside-path"),
    ("passed within a few millimetres", "near-miss"),
    ("too soft for any sensor to confirm", "unconfirmed-touch"),
    ("read only roughly", "rough-read"),
    ("came to rest against", "rest-against"),
    ("loud impacts that no reading explains", "unexplained-impacts"),
    ("the best reading does not explain", "unexplained-impact"),
)
PROBABILITY_BANDS = (0.5, 0.8, 0.9, 0.95)  # stated top probability bands: <0.5, 0.5-0.8, ..., >=0.95


def reason_key(reason: str) -> str:
    """A stable short name for a reason in words ("other" for one this build does not know)."""
    for part, key in _KEYS:
        if part in reason:
            return key
    return "other"


def probability_band(probability: float) -> str:
    low = 0.0
    for edge in PROBABILITY_BANDS:
        if probability < edge:
            return f"p {low:.2f}-{edge:.2f}"
        low = edge
    return f"p {low:.2f}-1.00"


def beta_lower_bound(right: float, wrong: float, quantile: float = BOUND_QUANTILE) -> float:
    """The ``quantile`` of Beta(1 + right, 1 + wrong): the share of right readings the record supports."""
    a, b = 1.0 + right, 1.0 + wrong
    lo, hi = 0.0, 1.0
    for _ in range(60):  # bisection on the regularised incomplete beta function
        mid = (lo + hi) / 2
        if _incomplete_beta(a, b, mid) < quantile:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), by its continued fraction (Lentz), on the side where it converges."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-12:
            break
    return h


@dataclass(frozen=True)
class RefereeRecord:
    """What a table's referee answered about its held shots, kept in the calibration file."""

    labelled: int = 0  # held shots answered with a hit set
    agreed: int = 0  # ... whose answer was the reading put first
    unanswered: int = 0  # held shots the referee gave no (usable) answer for
    contradicted: int = 0  # answers the sensors contradict strongly: not learnt from beyond this record
    learnt_from: int = 0  # answers the physics and loudness were learnt from
    # (key, right, wrong): per reason key and probability band, held readings the answer found right/wrong.
    counts: tuple[tuple[str, int, int], ...] = ()

    def counted(self, key: str) -> tuple[int, int]:
        for k, right, wrong in self.counts:
            if k == key:
                return right, wrong
        return 0, 0

    def lower_bound(self, key: str) -> float:
        return beta_lower_bound(*self.counted(key))

    def releases(self, key: str) -> bool:
        return key in RELEASABLE and self.lower_bound(key) >= RELEASE_LOWER_BOUND

    def lets_through(self, reason_keys: set[str], band: str) -> bool:
        """Every reason a shot is held for is one this record has shown needless, and so is the doubt of
        its stated probability's band: then the shot is applied."""
        return (
            bool(reason_keys)
            and all(self.releases(key) for key in reason_keys)
            and self.lower_bound(band) >= RELEASE_LOWER_BOUND
        )

    def with_answer(self, keys: set[str], right: bool, *, contradicted: bool, learnt: bool) -> RefereeRecord:
        table = {k: [r, w] for k, r, w in self.counts}
        for key in keys:
            tally = table.setdefault(key, [0, 0])
            tally[0 if right else 1] += 1
        return replace(
            self,
            labelled=self.labelled + 1,
            agreed=self.agreed + int(right),
            contradicted=self.contradicted + int(contradicted),
            learnt_from=self.learnt_from + int(learnt),
            counts=tuple(sorted((k, r, w) for k, (r, w) in table.items())),
        )

    def with_no_answer(self) -> RefereeRecord:
        return replace(self, unanswered=self.unanswered + 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "labelled": self.labelled,
            "agreed": self.agreed,
            "unanswered": self.unanswered,
            "contradicted": self.contradicted,
            "learnt_from": self.learnt_from,
            "by_reason": [{"key": k, "right": r, "wrong": w} for k, r, w in self.counts],
        }

    def summary(self) -> dict[str, Any]:
        """The figures a person reads: answers, and each gate's record with its bound."""
        return {
            "labelled_shots": self.labelled,
            "answers_agreeing_with_first_reading": self.agreed,
            "unanswered": self.unanswered,
            "contradicted_by_sensors": self.contradicted,
            "gates": {
                k: {
                    "right": r,
                    "wrong": w,
                    "lower_bound": round(beta_lower_bound(r, w), 3),
                    "releases": self.releases(k),
                }
                for k, r, w in self.counts
            },
        }


def record_from_json(data: Any, fail: Any) -> RefereeRecord:
    """The ``referee`` object of a calibration file, whose shape the file's schema has checked (service/
    attribution/schemas/calibration.schema.json); ``fail(key, problem)`` makes the error to raise."""
    if data is None:  # a file written before answers were learnt from
        return RefereeRecord()
    record = RefereeRecord(
        labelled=data["labelled"],
        agreed=data["agreed"],
        unanswered=data["unanswered"],
        contradicted=data["contradicted"],
        learnt_from=data["learnt_from"],
        counts=tuple(sorted((row["key"], row["right"], row["wrong"]) for row in data.get("by_reason", []))),
    )
    if record.agreed > record.labelled:
        raise fail("referee.agreed", "more answers agreeing than answers")
    return record
