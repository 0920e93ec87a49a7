"""Settings of the attribution and the calibration of its probabilities."""

from __future__ import annotations

from dataclasses import dataclass, field

from .calibration import TableCalibration, built_in_calibration
from .evidence import EvidenceParams
from .model import ModelParams

# Fitted on `smartmat bench attribution --shots 240 --seed 1` (all sensor configurations and room sizes):
# mean raw top probability of each calibration bin against how often the top candidate was right.
CALIBRATION: tuple[tuple[float, float], ...] = (
    (0.0, 0.0),
    (0.465, 0.333),
    (0.631, 0.412),
    (0.842, 0.588),
    (0.928, 0.688),
    (0.972, 0.806),
    (0.999, 0.957),
    (1.0, 0.96),
)


def calibrate(raw: float, table: tuple[tuple[float, float], ...]) -> float:
    """Piecewise-linear map of a raw posterior probability to the accuracy measured for it."""
    if not table:
        return raw
    for (x0, y0), (x1, y1) in zip(table, table[1:], strict=False):
        if raw <= x1:
            return y0 + (y1 - y0) * (raw - x0) / (x1 - x0) if x1 > x0 else y1
    return table[-1][1]


@dataclass(frozen=True)
class AttributionConfig:
    auto_apply_threshold: float = 0.95
    workers: int = 1  # 0 means one per core
    broad_rollouts: int = 160
    refine_rounds: int = 2
    refine_rollouts: int = 96
    extra_rounds: int = 2  # finer refinement rounds for a shot the standard budget leaves unresolved
    temperature: float = 1.0
    aimed_prior_share: float = 0.5  # share of the flick-angle prior aimed at enemies
    seed: int | None = 0
    # Raw posterior → observed accuracy, measured by the benchmark (docs/attribution.md, "Calibration"):
    # the sampler's posterior is over-confident because the model is not the mat. Empty means no mapping.
    calibration: tuple[tuple[float, float], ...] = CALIBRATION
    # What the table's own shots have taught about its mat (calibration.py); None: the built-in constants,
    # as on the simulated mat of `smartmat run`.
    table: TableCalibration | None = None
    model: ModelParams = field(default_factory=ModelParams)
    evidence: EvidenceParams = field(default_factory=EvidenceParams)

    def table_calibration(self) -> TableCalibration:
        return self.table if self.table is not None else _BUILT_IN


_BUILT_IN = built_in_calibration()
