"""The daemon's side of the guided calibration: the console's commands, the taps, the file it writes.

``calibrate_start`` begins the routine (the mat's impacts are then taps, not shots), ``calibrate_skip``
passes over a point, ``calibrate_finish`` fits what was tapped and writes the table's calibration through
the daemon's ``CalibrationKeeper`` (the same file attribution reads and goes on learning into) with the
report of when and how well (report.py), ``calibrate_cancel`` stops without changing anything.

``calibrate_flicks`` then asks for the prescribed wall flicks (flicks.py): each shot the mat sees is the
routine's, not the game's; ``calibrate_skip`` passes over a spot and ``calibrate_finish`` writes the friction
and wall-bounce beliefs into the same file, and the flicks' figures into the report.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from firmware_bridge.messages import Capabilities, Impact
from service.attribution.calibration import GUIDED, save_calibration
from service.attribution.evidence import EvidenceParams
from service.attribution.learning import CalibrationKeeper
from service.mat.trace import Scan, WallSegment
from service.table.commands.catalogue import arguments_of
from service.table.config import TableConfig

from .flicks import Flick, FlickError, fit_flicks, flick_spots, read_flick
from .report import calibration_status, load_report, save_report
from .routine import GuidedRoutine
from .runs import FlickRun, TouchRun
from .taps import CalibrationRoutineError, fit_taps, tap_points
from .touches import Touch, TouchError, fit_touches, read_touch, touch_spots

log = logging.getLogger(__name__)

SCAN_EVERY_S = 0.4
TOUCH_DISC_MASS_G = 7.4
TOUCH_NEAR_MM = 60.0  # the struck disc of a prescribed touch stood this close to the marked place

COMMANDS = arguments_of("calibration")  # declared in the table's command catalogue


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
        # the prescribed flicks (or touches), while they are being made
        self.flicking: FlickRun | TouchRun | None = None
        self.radius_of: Callable[[str], float] = lambda piece: 19.0
        # The touches are made with two hero discs (docs/setup.md): a hero's nominal mass
        self.mass_of: Callable[[str], float] = lambda piece: TOUCH_DISC_MASS_G
        self._last_scan_asked = 0.0
        self.capabilities: Capabilities | None = None
        self.outcome: dict[str, Any] | None = None  # the last finish: figures, or what went wrong
        self.report = load_report(keeper.path) if keeper is not None else None

    @property
    def active(self) -> bool:
        return self.routine is not None or self.flicking is not None

    def wants_scan(self, now_s: float) -> bool:
        """While the flicks are made, the mat is scanned every SCAN_EVERY_S: the discs put on the next spot
        by hand are seen there before they are flicked (a flick's shot starts from the last scan)."""
        if self.flicking is None or now_s - self._last_scan_asked < SCAN_EVERY_S:
            return False
        self._last_scan_asked = now_s
        return True

    @property
    def taking_taps(self) -> bool:
        """While the taps are made the mat's impacts are the routine's; during the flicks the shots are."""
        return self.routine is not None

    def on_shot(self, pre: Scan, impacts: Any, post: Scan) -> None:
        """A shot the mat saw while the flicks are made: the flick at the spot asked for."""
        run = self.flicking
        if run is None or run.current is None:
            return
        if not impacts:
            return  # discs moved by hand (put on the spot for the next flick), not flicked: nothing was heard
        if isinstance(run, TouchRun):
            self._on_touch(run, pre, impacts, post)
            return
        spot = run.current
        before, after = pre.by_piece(), post.by_piece()
        standing = sorted(before.values(), key=lambda p: math.dist((p.x_mm, p.y_mm), (spot.x_mm, spot.y_mm)))
        if not standing or math.dist((standing[0].x_mm, standing[0].y_mm), (spot.x_mm, spot.y_mm)) > 60.0:
            run.last = {"spot": spot.number, "ok": False, "text": f"no disc stood on spot {spot.number}"}
            return
        struck = standing[0]
        if struck.piece not in after:
            run.last = {"spot": spot.number, "ok": False, "text": "the struck disc left the mat: flick again"}
            return
        behind = standing[1] if len(standing) > 1 else None
        rest = after[struck.piece]
        flick = Flick(
            spot,
            (struck.x_mm, struck.y_mm),
            (rest.x_mm, rest.y_mm),
            self.radius_of(struck.piece),
            tuple((i.sensor_id, i.t_us, float(i.amplitude)) for i in impacts),
            None
            if behind is None or math.dist((behind.x_mm, behind.y_mm), (struck.x_mm, struck.y_mm)) > 200
            else (behind.x_mm, behind.y_mm),
        )
        try:
            assert self.keeper is not None  # the flicks only start with a calibration file
            reading = read_flick(flick, self._sensors(), self.keeper.calibration, *self._mat_size())
        except FlickError as exc:
            run.last = {"spot": spot.number, "ok": False, "text": str(exc)}
            return
        run.flicks.append(flick)
        run.position += 1
        run.last = {
            "spot": spot.number,
            "ok": True,
            "text": f"flick {spot.number} read: friction about {0.40 * reading.friction_scale:.2f}, "
            f"wall bounce about {reading.wall_bounce:.2f}",
        }

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
        elif name == "calibrate_flicks":
            self._start_flicks()
        elif name == "calibrate_touches":
            self._start_touches()
        elif self.flicking is not None:
            if name == "calibrate_skip":
                self.flicking.position += 1
            elif name == "calibrate_cancel":
                self.flicking = None
                self.outcome = {"ok": False, "text": "flicks cancelled; nothing was changed"}
            elif isinstance(self.flicking, TouchRun):
                self._finish_touches()
            else:
                self._finish_flicks(args.get("mat_confirmed") is True)
        elif self.routine is None:
            raise CalibrationRefused("no calibration is under way: start one first")
        elif name == "calibrate_skip":
            self.routine.skip()
        elif name == "calibrate_cancel":
            self.routine = None
            self.outcome = {"ok": False, "text": "calibration cancelled; nothing was changed"}
        else:
            self._finish(args.get("mat_confirmed") is True)

    def _ready_after_taps(self, why_taps_first: str) -> None:
        """A run of prescribed flicks or touches may start: nothing else under way, the mat connected, and
        its taps made (``why_taps_first`` says what the taps give this run)."""
        if self.active:
            raise CalibrationRefused("a calibration is under way: finish or cancel it first")
        if self.keeper is None:
            raise CalibrationRefused(
                "this table reads shots with the built-in constants of the simulated mat: run it with "
                "--calibration FILE to calibrate it"
            )
        if self.capabilities is None:
            raise CalibrationRefused("the mat is not connected: plug it in first")
        if self.keeper.calibration.source != GUIDED:
            raise CalibrationRefused(f"tap the marked points first: {why_taps_first}")

    def _start_flicks(self) -> None:
        self._ready_after_taps("the flicks are timed by sound, which the taps calibrate")
        width, height = self._mat_size()
        walls = self.table.walls
        if walls is None:
            # The classic wall system: 20 mm walls centred gap_mm outside the mat; their inner faces.
            g = self.gap_mm - 10.0
            c = [(-g, -g), (width + g, -g), (width + g, height + g), (-g, height + g)]
            walls = tuple(WallSegment(*c[i], *c[(i + 1) % 4]) for i in range(4))
        try:
            spots = flick_spots(width, height, walls, self.table.obstacles)
        except FlickError as exc:
            raise CalibrationRefused(str(exc)) from None
        self.flicking = FlickRun(spots)
        self.outcome = None
        log.info("prescribed flicks started: %d to make", len(spots))

    def _start_touches(self) -> None:
        self._ready_after_taps("a touch is placed by sound and its piezos' gains, which the taps calibrate")
        self.flicking = TouchRun(touch_spots(*self._mat_size()))
        self.outcome = None
        log.info("prescribed touches started: %d to make", len(self.flicking.spots))

    def _threshold(self) -> float:
        assert self.capabilities is not None
        return self.capabilities.piezo_threshold or EvidenceParams().detection_threshold

    def _on_touch(self, run: TouchRun, pre: Scan, impacts: Any, post: Scan) -> None:
        spot = run.current
        assert spot is not None and self.keeper is not None
        before, after = pre.by_piece(), post.by_piece()
        moved = [
            p
            for p in before.values()
            if p.piece in after
            and math.dist((p.x_mm, p.y_mm), (after[p.piece].x_mm, after[p.piece].y_mm)) > 5
        ]
        # The struck disc: of the discs that moved, the one that stood on the marked place.
        near = [p for p in moved if math.dist((p.x_mm, p.y_mm), (spot.x_mm, spot.y_mm)) <= TOUCH_NEAR_MM]
        if not near:
            run.last = {
                "spot": spot.number,
                "ok": False,
                "text": f"touch {spot.number}: no disc on the marked place was moved (or it left the mat): "
                "put a disc on the place and flick a second into it",
            }
            return
        struck = min(near, key=lambda p: math.dist((p.x_mm, p.y_mm), (spot.x_mm, spot.y_mm)))
        rest = after[struck.piece]
        touch = Touch(
            spot,
            (struck.x_mm, struck.y_mm),
            (rest.x_mm, rest.y_mm),
            self.radius_of(struck.piece),
            self.mass_of(struck.piece),
            tuple((i.sensor_id, i.t_us, float(i.amplitude)) for i in impacts),
        )
        try:
            reading = read_touch(touch, self._sensors(), self.keeper.calibration, self._threshold())
        except TouchError as exc:
            run.last = {"spot": spot.number, "ok": False, "text": str(exc)}
            return
        run.readings.append(reading)
        run.position += 1
        run.last = {
            "spot": spot.number,
            "ok": True,
            "text": f"touch {spot.number} read: heard by {len(reading.heard)} of "
            f"{len(reading.heard) + len(reading.unheard)} piezos",
        }

    def _finish_touches(self) -> None:
        assert isinstance(self.flicking, TouchRun) and self.keeper is not None
        run = self.flicking
        skipped = len(run.spots) - len(run.readings)
        problems = [f"{skipped} of the {len(run.spots)} touches were skipped or not read"] if skipped else []
        try:
            fit = fit_touches(run.readings, problems, self.keeper.calibration, self._threshold())
        except TouchError as exc:
            raise CalibrationRefused(str(exc)) from None
        fit.figures["touches"] = len(run.spots)
        save_calibration(fit.calibration, self.keeper.path)
        self.keeper.calibration = fit.calibration  # the next shot is read with it
        report = self.report or {}
        figures = dict(report.get("figures") or {})
        figures["touches"] = fit.figures
        at = datetime.fromisoformat(report["at"]) if report.get("at") else self.clock()
        save_report(self.keeper.path, at, figures, self.mat_described())
        self.report = load_report(self.keeper.path)
        log.info(
            "prescribed touches written to %s: touch loudness %.2f ±%.0f%% (%d touches read)",
            self.keeper.path,
            fit.figures["touch_loudness"],
            100 * fit.figures["touch_loudness_uncertainty"],
            fit.figures["touches_read"],
        )
        self.flicking = None
        self.outcome = {"ok": True, "figures": fit.figures, "text": f"touches written to {self.keeper.path}"}

    def _finish_flicks(self, mat_confirmed: bool) -> None:
        assert isinstance(self.flicking, FlickRun) and self.keeper is not None
        if not mat_confirmed:
            raise CalibrationRefused(
                "confirm the playmat's walls, gaps and obstacles first (mat_confirmed: true)"
            )
        run = self.flicking
        try:
            fit = fit_flicks(run.flicks, self._sensors(), *self._mat_size(), self.keeper.calibration)
        except FlickError as exc:
            raise CalibrationRefused(str(exc)) from None
        skipped = len(run.spots) - len(run.flicks)
        fit.figures["flicks"] = len(run.spots)
        if skipped:
            fit.figures["advice"].insert(
                0, f"{skipped} of the {len(run.spots)} flicks were skipped or not read"
            )
        save_calibration(fit.calibration, self.keeper.path)
        self.keeper.calibration = fit.calibration
        report = self.report or {}
        figures = dict(report.get("figures") or {})
        figures["flicks"] = fit.figures
        at = datetime.fromisoformat(report["at"]) if report.get("at") else self.clock()
        save_report(self.keeper.path, at, figures, self.mat_described())
        self.report = load_report(self.keeper.path)
        log.info(
            "prescribed flicks written to %s: sliding friction %.2f, wall bounce %.2f (%d flicks read)%s",
            self.keeper.path,
            fit.figures["sliding_friction"],
            fit.figures["wall_bounce"],
            fit.figures["flicks_read"],
            "" if fit.figures["good"] else "; " + "; ".join(fit.figures["advice"]),
        )
        self.flicking = None
        self.outcome = {"ok": True, "figures": fit.figures, "text": f"flicks written to {self.keeper.path}"}

    def _sensors(self) -> tuple[tuple[int, float, float], ...]:
        assert self.capabilities is not None
        return tuple((s.id, s.x_mm, s.y_mm) for s in self.capabilities.sensors)

    def _mat_size(self) -> tuple[float, float]:
        assert self.capabilities is not None
        return self.capabilities.mat_width_mm, self.capabilities.mat_height_mm

    def _start(self, rounds: Any) -> None:
        if self.flicking is not None:
            raise CalibrationRefused("the flicks are under way: finish or cancel them first")
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
        if self.flicking is not None:
            out = {"active": True, "flicks": self.flicking.view()}
        out["status"] = calibration_status(
            self.keeper.calibration if self.keeper else None, self.report, self.clock()
        )
        out["mat"] = self.mat_described()
        if self.outcome is not None:
            out["outcome"] = self.outcome
        return out
