"""One reading of a shot: which pieces the flicked disc hit, what it pushed, and how sure the model is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Candidate:
    direct_hits: frozenset[str]
    pushed: frozenset[str]
    left_mat: frozenset[str]
    probability: float
    path: tuple[tuple[float, float, float], ...]
    left_mat_at: tuple[tuple[str, float, float], ...] = ()
    covers_knocked_off: frozenset[str] = frozenset()  # ice / net / web pieces shaken off their host
    shadow_destroyed: frozenset[str] = frozenset()  # shadow monsters pushed off the mat by a direct hit
    unexplained: frozenset[str] = frozenset()  # pieces whose post-shot position even the best rollout misses
    raw_probability: float = 0.0  # the sampler's own share, before the calibration map (for refitting it)
    # How well this set's best rollout fits the sensors (its log-likelihood, no prior in it): what tells a
    # reading that fits nearly as well from one that is only less likely a priori.
    best_fit: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "direct_hits": sorted(self.direct_hits),
            "pushed": sorted(self.pushed),
            "left_mat": [
                {"piece": p, "x_mm": round(x, 1), "y_mm": round(y, 1)} for p, x, y in self.left_mat_at
            ],
            "covers_knocked_off": sorted(self.covers_knocked_off),
            "shadow_destroyed": sorted(self.shadow_destroyed),
            "unexplained": sorted(self.unexplained),
            "probability": round(self.probability, 4),
            "raw_probability": round(self.raw_probability, 6),
            "best_fit": round(self.best_fit, 2),
            "path": [[round(t, 3), round(x, 1), round(y, 1)] for t, x, y in self.path],
        }
