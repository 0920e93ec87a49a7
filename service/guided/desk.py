"""The daemon's side of the guided calibration: the console's commands, the taps, the file it writes.

``calibrate_start`` begins the routine (the mat's impacts are then taps, not shots), ``calibrate_skip``
passes over a point, ``calibrate_finish`` fits what was tapped and writes the table's calibration through
the daemon's ``CalibrationKeeper`` (the same file attribution reads and goes on learning into) with the
report of when and how well (report.py), ``calibrate_cancel`` stops without changing anything.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from firmware_bridge.messages import Capabilities, Impact
from service.attribution.calibration import save_calibration
from service.attribution.learning import CalibrationKeeper
from service.table_config import TableConfig

from .report import calibration_status, load_report, save_report
from .routine import GuidedRoutine
from .taps import CalibrationRoutineError, fit_taps, tap_points

log = logging.getLogger(__name__)

COMMANDS: Mapping[str, frozenset[str]] = {
    "calibrate_start": frozenset({"rounds"}),
    "calibrate_skip": frozenset(),
    "calibrate_finish": frozenset({"mat_confirmed"}),
    "calibrate_cancel": frozenset(),
}


class CalibrationRefused(ValueError):
    """A calibration command that cannot be carried out now; says why."""


class GuidedCalibrationDesk:
    def __init__(
        self,
        table: TableConfig,
        keeper: CalibrationKeeper | None,
        gap_mm: float,
        falloff_mm: float,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.table = table
        self.keeper = keeper
        self.gap_mm = gap_mm
        self.falloff_mm = falloff_mm
        self.clock = clock
        self.routine: GuidedRoutine | None = None
        self.capabilities: Capabilities | None = None
        self.outcome: dict[str, Any] | None = None  # the last finish: figures, or what went wrong
        self.report = load_report(keeper.path) if keeper is not None else None

    @property
    def active(self) -> bool:
        return self.routine is not None

    def on_impact(self, impact: Impact, now_s: float) -> None:
        if self.routine is not None:
            self.routine.on_impact(impact, now_s)

    def tick(self, now_s: float) -> bool:
        return self.routine is not None and self.routine.tick(now_s)

    def command(self, name: str, args: Mapping[str, Any]) -> None:
        unknown = sorted(set(args) - COMMANDS[name])
        if unknown:
            raise CalibrationRefused(f"{name} does not take {', '.join(map(repr, unknown))}")
        if name == "calibrate_start":
            self._start(args.get("rounds", 2))
        elif self.routine is None:
            raise CalibrationRefused("no calibration is under way: start one first")
        elif name == "calibrate_skip":
            self.routine.skip()
        elif name == "calibrate_cancel":
            self.routine = None
            self.outcome = {"ok": False, "text": "calibration cancelled; nothing was changed"}
        else:
            self._finish(args.get("mat_confirmed") is True)

    def _start(self, rounds: Any) -> None:
        if self.keeper is None:
            raise CalibrationRefused(
                "this table reads shots with the built-in constants of the simulated mat: run it with "
                "--calibration FILE to calibrate it"
            )
        if self.capabilities is None:
            raise CalibrationRefused("the mat is not connected: plug it in first")
        if type(rounds) is not int or not 1 <= rounds <= 4:
            raise CalibrationRefused(f"rounds must be a whole number from 1 to 4, got {rounds!r}")
        caps = self.capabilities
        self.routine = GuidedRoutine(tap_points(caps.mat_width_mm, caps.mat_height_mm), rounds=rounds)
        self.outcome = None
        log.info("guided calibration started: %d taps to make", self.routine.total)

    def _finish(self, mat_confirmed: bool) -> None:
        assert self.routine is not None and self.keeper is not None and self.capabilities is not None
        if not mat_confirmed:
            raise CalibrationRefused(
                "confirm the playmat's walls, gaps and obstacles first (mat_confirmed: true)"
            )
        caps = self.capabilities
        try:
            fit = fit_taps(
                self.routine.taps,
                tuple((s.id, s.x_mm, s.y_mm) for s in caps.sensors),
                caps.mat_width_mm,
                caps.mat_height_mm,
                self.gap_mm,
                self.falloff_mm,
                self.keeper.calibration,
            )
        except CalibrationRoutineError as exc:
            raise CalibrationRefused(str(exc)) from None
        calibration = fit.calibration
        save_calibration(calibration, self.keeper.path)
        self.keeper.calibration = calibration  # the next shot is read with it, and learnt into
        at = self.clock()
        save_report(self.keeper.path, at, fit.figures, self.mat_described())
        self.report = load_report(self.keeper.path)
        log.info(
            "guided calibration written to %s: sound speed %d m/s ±%.1f%%, jitter %.0f µs%s",
            self.keeper.path,
            fit.figures["sound_speed_m_per_s"],
            100 * fit.figures["sound_speed_uncertainty"],
            fit.figures["timing_jitter_us"],
            "" if fit.figures["good"] else "; " + "; ".join(fit.figures["advice"]),
        )
        self.routine = None
        self.outcome = {
            "ok": True,
            "figures": fit.figures,
            "text": f"calibration written to {self.keeper.path}",
        }

    def mat_described(self) -> dict[str, Any]:
        """The playmat the referee confirms: walls (closed or the table file's stretches) and obstacles."""
        walls = self.table.walls
        return {
            "walls": "closed wall system"
            if walls is None
            else [[w.x1_mm, w.y1_mm, w.x2_mm, w.y2_mm] for w in walls],
            "obstacles": len(self.table.obstacles),
        }

    def view(self) -> dict[str, Any]:
        """What the console shows: the routine's progress (when running), the last outcome, the status."""
        out: dict[str, Any] = self.routine.view() if self.routine is not None else {"active": False}
        out["status"] = calibration_status(
            self.keeper.calibration if self.keeper else None, self.report, self.clock()
        )
        out["mat"] = self.mat_described()
        if self.outcome is not None:
            out["outcome"] = self.outcome
        return out
