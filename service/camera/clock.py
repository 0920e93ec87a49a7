"""The camera's clock against the board's: contacts that both the piezos and the frames date.

A disc that is struck sets off at the moment of the contact: the board's piezos hear it on the board's clock,
and the frames show the disc leave its place on the camera's (the flicked disc too, when the finger's click is
heard). One shot gives a few such moments on each side without saying which matches which; the offset that
pairs a camera moment with a board impact in the most shots is the offset between the clocks, and how far
those pairs scatter says how well it is known.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from service.camera.frames import SLIDE_DECELERATION, FrameResult

AGREE_US = 4000.0  # two shots agree on the offset when their pairs are this close (frames are 8 ms apart)
# How well the offset is known (docs/camera.md, "clock"): one shot dates a set-off only to within a
# millisecond or two (four moving frames 8-17 ms apart, followed back to zero), and a median of a handful of
# shots whose spread happens to be tight says little of it, so one shot's scatter is never taken as less than
# ``SHOT_SCATTER_FLOOR_US``. Beyond it, what no number of shots averages away (1 σ, ``SYSTEMATIC_US``): the
# piezos hear a contact up to 1 ms late (the wave's travel, the rise: σ 0.3 ms about a 0.5 ms lag nobody
# subtracts), a rolling shutter's readout is known only from its data sheet (3-6 ms against 4 ms told, at the
# disc's row: σ about 0.4 ms), and the set-off's own dating may lean one way (about 0.5 ms): together 1 ms.
SHOT_SCATTER_FLOOR_US = 1500.0
SYSTEMATIC_US = 1000.0
KEEP_SHOTS = 40  # the latest shots the offset is solved from (a camera restarted on a new clock moves it)
ONSET_MM = 3.0  # the disc counts as moving once this far from its place
FIT_FRAMES = 4  # moving frames whose distance, extrapolated back to zero, dates the set-off
HOME_FRAMES = 5  # still frames that fix its place first


def motion_onset_us(results: Sequence[FrameResult], piece: str) -> float | None:
    """When ``piece`` set off (camera clock, µs): its distance from its resting place over the first moving
    frames, extrapolated back to zero. None: it was not seen still and then moving."""
    # A disc's first moving places are of the moment its row was exposed: the tracker knew no velocity yet
    # to bring them to the frame's time.
    seen = [(r.t_us + r.row_delay_us.get(piece, 0.0), r.places[piece]) for r in results if piece in r.places]
    for i in range(HOME_FRAMES, len(seen)):
        home_pts = [p for _, p in seen[i - HOME_FRAMES : i]]
        hx = statistics.fmean(x for x, _ in home_pts)
        hy = statistics.fmean(y for _, y in home_pts)
        if math.dist(seen[i][1], (hx, hy)) < ONSET_MM:
            continue
        moving = [(t, math.dist(p, (hx, hy))) for t, p in seen[i : i + FIT_FRAMES]]
        if any(b - a < 0.5 for (_, a), (_, b) in zip(moving, moving[1:], strict=False)):
            continue  # not leaving its place: a finger over it, a blob cut in two, a jolt
        if len(moving) < 2:
            return seen[i][0]
        onset = _set_off(moving)
        if onset is None:
            return seen[i][0]
        return min(max(onset, seen[i - 1][0]), seen[i][0])
    return None


def _set_off(moving: list[tuple[float, float]]) -> float | None:
    """When a disc sliding away with these (time µs, distance mm) points left distance zero: a straight
    line through them, bent by the mat's friction slowing the disc, followed back."""
    onset: float | None = None
    for _ in range(4):
        points = [
            (t, d + (0.0 if onset is None else 0.5 * SLIDE_DECELERATION * ((t - onset) / 1e6) ** 2))
            for t, d in moving
        ]
        mt = statistics.fmean(t for t, _ in points)
        md = statistics.fmean(d for _, d in points)
        sxx = sum((t - mt) ** 2 for t, _ in points)
        slope = sum((t - mt) * (d - md) for t, d in points) / sxx if sxx else 0.0
        if slope <= 0:
            return None
        onset = mt - md / slope
    return onset


def onsets_us(results: Sequence[FrameResult]) -> dict[str, float]:
    """Every disc that set off in these frames, and when (camera clock)."""
    pieces = sorted({p for r in results for p in r.places})
    found = {p: motion_onset_us(results, p) for p in pieces}
    return {p: t for p, t in found.items() if t is not None}


@dataclass(frozen=True)
class ClockOffset:
    """The camera's clock against the board's (camera − board, µs), from one offset per shot."""

    offset_us: float
    shots: int  # shots it rests on
    scatter_us: float | None  # one shot's scatter (1 σ, from the median absolute deviation); None under 3
    uncertainty_us: float | None  # how well ``offset_us`` is known (1 σ); None under 3 shots

    def describe(self) -> str:
        if self.uncertainty_us is None or self.scatter_us is None:
            return (
                f"camera = board {self.offset_us / 1000:+.1f} ms, from {self.shots} shots: "
                "not yet known how well"
            )
        return (
            f"camera = board {self.offset_us / 1000:+.2f} ms ± {self.uncertainty_us / 1000:.2f} ms "
            f"(from {self.shots} shots; one shot scatters {self.scatter_us / 1000:.2f} ms)"
        )


def offset_from_shots(per_shot_us: Sequence[float]) -> ClockOffset | None:
    """The one estimate of a camera's clock offset, wherever it is measured (the table's camera feed here,
    the table's calibration in service/attribution/camera_quality.py): the median of the latest
    ``KEEP_SHOTS`` shots' own offsets, and how well it is known (1 σ): the median's own scatter combined
    with what no number of shots averages away (``SYSTEMATIC_US``). None before two shots."""
    shots = list(per_shot_us)[-KEEP_SHOTS:]
    if len(shots) < 2:
        return None
    offset = statistics.median(shots)
    if len(shots) < 3:
        return ClockOffset(offset, len(shots), None, None)
    spread = 1.4826 * statistics.median(abs(s - offset) for s in shots)
    # The median's own σ: √(π/2) times the mean's.
    scatter = 1.2533 * max(spread, SHOT_SCATTER_FLOOR_US) / math.sqrt(len(shots))
    return ClockOffset(offset, len(shots), spread, math.hypot(scatter, SYSTEMATIC_US))


class ClockSync:
    def __init__(self) -> None:
        self.shots: list[tuple[list[float], list[float]]] = []  # (camera moments, board impacts) per shot
        self.offset_us: float | None = None
        self.pairs_us: list[float] = []  # each agreeing shot's own offset
        self.estimate: ClockOffset | None = None

    def add_shot(self, camera_us: Sequence[float], board_us: Sequence[float]) -> None:
        if camera_us and board_us:
            self.shots = [*self.shots[-(KEEP_SHOTS - 1) :], (list(camera_us), list(board_us))]
            self._solve()

    def _solve(self) -> None:
        candidates = sorted({c - b for cams, boards in self.shots for c in cams for b in boards})
        best: tuple[int, float] = (0, 0.0)
        for offset in candidates:
            agreeing = sum(1 for cams, boards in self.shots if _nearest(cams, boards, offset) <= AGREE_US)
            if agreeing > best[0]:
                best = (agreeing, offset)
        guess = best[1]
        pairs = []
        for cams, boards in self.shots:
            d = [c - b for c in cams for b in boards]
            nearest = min(d, key=lambda x: abs(x - guess))
            if abs(nearest - guess) <= AGREE_US:
                pairs.append(nearest)
        self.pairs_us = pairs
        self.estimate = offset_from_shots(pairs)
        self.offset_us = None if self.estimate is None else self.estimate.offset_us

    def spread_us(self) -> float | None:
        """One shot's scatter (1 σ, from the median absolute deviation)."""
        return None if self.estimate is None else self.estimate.scatter_us

    def uncertainty_us(self) -> float | None:
        """How well the offset is known (1 σ; offset_from_shots)."""
        return None if self.estimate is None else self.estimate.uncertainty_us

    def to_board(self, camera_us: float) -> float:
        if self.offset_us is None:
            raise ValueError("the camera's clock is not synchronised yet: fewer than two shots agree")
        return camera_us - self.offset_us

    def describe(self) -> str:
        if self.estimate is None:
            return f"not synchronised: {len(self.shots)} shot(s) seen by both, fewer than two agree yet"
        return f"{self.estimate.describe()}; {len(self.pairs_us)} of {len(self.shots)} shots agree"


def _nearest(cams: list[float], boards: list[float], offset: float) -> float:
    return min(abs(c - b - offset) for c in cams for b in boards)
