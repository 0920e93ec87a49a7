"""How far a table's overhead camera deserves trust, measured from its own frames and from how its tracks
agree with the piezos and the NFC scans (docs/attribution.md, "How far the camera is trusted").

A camera's data sheet says little about the camera over a given mat: its lens bends the mat by a few
millimetres, differently in each corner; its exposure smears a moving disc; its tracker may give two
look-alike discs each other's names after they pass close; its clock is not the board's. So each table
learns its camera from play, like the rest of its calibration, and only from what any table has:

* noise: each shot's own frames (camera.py measures it from the paths' second differences);
* lens bias across the mat: where the camera puts a piece at rest against where the NFC grid found it, by
  region of the mat; how much it changes from region to region says how far off the camera may be about
  two neighbouring discs, which is what a touch is judged by;
* identity: a track whose end disagrees with where the post-shot scan found that disc is a swap (or a track
  gone wrong); their rate, per close pass of two discs, says how likely an unseen swap is;
* lost frames: frames missing inside a track;
* clock: a struck piece's set-off on the camera's clock against the heard contact's time on the board's.

The readings are weighed by it (camera_fusion.py): wider where the camera is worse, a piece whose identity
is in doubt sent to the referee. Until a table has seen enough shots, the priors below stand for a camera
that has proved nothing beyond its frames.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from service.camera.clock import KEEP_SHOTS, offset_from_shots
from service.mat.camera_trace import CameraRecord
from service.mat.trace import SeenPiece, ShotTrace

from .acoustics import HeardEvent
from .camera import DOUBT_HIGH, DOUBT_LOW, TouchReading, camera_touches, frame_facts
from .camera_paths import segment_distance

REGION_COLS, REGION_ROWS = 4, 3  # the mat divided for the lens bias
# Before the table knows better: a lens may bend the mat this much per mm across it (3 mm over 100 mm)...
PRIOR_LENS_GRADIENT = 0.03
MIN_LENS_GRADIENT = 0.004  # ... and no lens is assumed flatter than this
MIN_REGION_SAMPLES = 30  # a region's mean bias is used once it rests on this many pieces
# Identity: close passes of two discs, and how often the scans showed a swap after one. The prior is one
# swap in ten passes: a camera must show it keeps names before an unseen swap is ruled out.
PRIOR_SWAPS, PRIOR_PASSES = 1.0, 10.0
SWAP_DOUBT_RATE = 0.01  # above this chance of a swap nobody could see, the pieces' readings are in doubt
CLOSE_PASS_MM = 20.0  # edges this close, one of the two moving: a tracker may mix the two up
SCAN_GATE_SIGMAS = 4.0  # a camera end this far (in σ of the two places) from the scan's disagrees
SCAN_GATE_FLOOR_MM = 6.0
CLOCK_WINDOW_US = 20_000.0  # a heard contact within this of a set-off may be that set-off
KNOWN_AFTER_SHOTS = 10  # shots before the camera's measured quality replaces the priors
LENS_SPAN_MM = 40.0  # two discs that touch stand about this far apart: the lens bias may differ over it
NOISE_FLOOR_SHARE = 0.75  # a shot's noise is taken as at least this share of the table's camera's
# A known camera's leaning readings stand as sure ones while the referee's answers contradict no more than one
# in this many of its confident readings (a referee's own slips included: they only ever take trust away).
LEAN_TRUST_ANSWERS = 20


@dataclass(frozen=True)
class RegionStats:
    n: int = 0
    sum_x: float = 0.0  # camera − scan, mm
    sum_y: float = 0.0

    def mean(self) -> tuple[float, float] | None:
        return None if self.n < MIN_REGION_SAMPLES else (self.sum_x / self.n, self.sum_y / self.n)


def _no_regions() -> tuple[RegionStats, ...]:
    return tuple(RegionStats() for _ in range(REGION_COLS * REGION_ROWS))


@dataclass(frozen=True)
class CameraQuality:
    """What a table has learnt about its camera, with the counts each figure rests on."""

    shots: int = 0
    noise_sum_mm: float = 0.0  # each shot's measured noise, summed
    noise_max_mm: float = 0.0
    frames_expected: int = 0  # frames inside tracks (from a track's first to its last)
    frames_lost: int = 0  # ... that were missing
    passes: int = 0  # close passes of two discs
    swaps: int = 0  # tracks whose end the post-shot scan contradicted
    ends_checked: int = 0
    # each shot's own camera − board clock offset (its set-offs matched to heard contacts), the latest kept
    clock_shots_us: tuple[float, ...] = ()
    # the camera's confident readings (sure or leaning) of shots the referee answered, and how many of them
    # the answer contradicted
    readings_answered: int = 0
    readings_contradicted: int = 0
    regions: tuple[RegionStats, ...] = field(default_factory=_no_regions)

    @property
    def known(self) -> bool:
        return self.shots >= KNOWN_AFTER_SHOTS

    @property
    def noise_mm(self) -> float | None:
        return self.noise_sum_mm / self.shots if self.shots else None

    @property
    def lost_share(self) -> float | None:
        return self.frames_lost / self.frames_expected if self.frames_expected else None

    @property
    def swap_rate(self) -> float:
        """Chance that a close pass of two discs swaps their names (a Beta posterior's mean)."""
        return (self.swaps + PRIOR_SWAPS) / (self.passes + PRIOR_PASSES)

    def clock_offset_us(self) -> tuple[float, float] | None:
        """(camera − board clock offset, its uncertainty), both µs; None until measured (one estimate, made
        by service/camera/clock.py, here and on the table's camera feed)."""
        estimate = offset_from_shots(self.clock_shots_us)
        if estimate is None or estimate.uncertainty_us is None:
            return None
        return estimate.offset_us, estimate.uncertainty_us

    def readings(self, trace: ShotTrace) -> dict[str, TouchReading]:
        """The shot's camera readings (camera.py) as far as this camera is known: a gap between two discs
        judged with the lens's change over a touch added to its uncertainty, and a shot's noise never taken
        as less than ``NOISE_FLOOR_SHARE`` of the camera's."""
        floor = NOISE_FLOOR_SHARE * self.noise_mm if self.known and self.noise_mm else 0.0
        return camera_touches(trace, self.lens_gradient() * LENS_SPAN_MM, floor)

    @property
    def leans_trusted(self) -> bool:
        """Whether the camera's leaning readings may stand as sure ones: once the table knows its camera
        (noise, lens, lost frames measured, so a reading's odds are its own), as long as the referee's
        answers have contradicted no more than one in ``LEAN_TRUST_ANSWERS`` of its confident readings."""
        return self.known and self.readings_contradicted * LEAN_TRUST_ANSWERS <= self.readings_answered

    def lens_gradient(self) -> float:
        """How much the camera's bias may change per mm across the mat: the largest change between two
        neighbouring regions the table has measured, or the prior until it has (never below a floor)."""
        if not self.known:
            return PRIOR_LENS_GRADIENT
        means = [r.mean() for r in self.regions]
        steps = []
        for i, m in enumerate(means):
            col, row = i % REGION_COLS, i // REGION_COLS
            for j in ([i + 1] if col + 1 < REGION_COLS else []) + (
                [i + REGION_COLS] if row + 1 < REGION_ROWS else []
            ):
                other = means[j]
                if m is not None and other is not None:
                    steps.append(math.dist(m, other))
        if len(steps) < 3:
            return PRIOR_LENS_GRADIENT
        # Region centres are a quarter to a third of the mat apart; the NFC grid's noise in each region's
        # mean is allowed for by taking the largest step, not the typical one.
        return max(MIN_LENS_GRADIENT, max(steps) / REGION_SPACING_MM)

    def to_json(self) -> dict[str, Any]:
        offset = self.clock_offset_us()
        return {
            "shots": self.shots,
            "noise_sum_mm": round(self.noise_sum_mm, 4),
            "noise_max_mm": round(self.noise_max_mm, 4),
            "frames_expected": self.frames_expected,
            "frames_lost": self.frames_lost,
            "passes": self.passes,
            "swaps": self.swaps,
            "ends_checked": self.ends_checked,
            "readings_answered": self.readings_answered,
            "readings_contradicted": self.readings_contradicted,
            "clock": {"shots_us": [round(v, 1) for v in self.clock_shots_us]},
            "regions": [[r.n, round(r.sum_x, 3), round(r.sum_y, 3)] for r in self.regions],
            "summary": {
                "noise_mm": None if self.noise_mm is None else round(self.noise_mm, 3),
                "lost_frames": None if self.lost_share is None else round(self.lost_share, 4),
                "swap_rate_per_close_pass": round(self.swap_rate, 4),
                "clock_offset_us": None if offset is None else [round(offset[0]), round(offset[1])],
                "lens_gradient_mm_per_m": round(1000 * self.lens_gradient(), 2),
                "known": self.known,
            },
        }


REGION_SPACING_MM = 200.0  # roughly the distance between neighbouring region centres on the reference mat


def camera_quality_from_json(data: Any, fail: Callable[[str, str], Exception]) -> CameraQuality:
    """A calibration file's ``camera``, whose shape the file's schema has checked
    (service/attribution/schemas/calibration.schema.json); absent (files written before the key) means nothing
    learnt yet, and so does each absent count. The regions, when given, must be this build's."""
    if data is None:
        return CameraQuality()
    clock = data.get("clock", {})
    regions = _no_regions()
    if "regions" in data:
        if len(data["regions"]) != len(regions):
            raise fail("camera.regions", f"expected {len(regions)} [n, sum_x_mm, sum_y_mm] triples")
        regions = tuple(RegionStats(n, float(x), float(y)) for n, x, y in data["regions"])
    return CameraQuality(
        shots=data.get("shots", 0),
        noise_sum_mm=float(data.get("noise_sum_mm", 0.0)),
        noise_max_mm=float(data.get("noise_max_mm", 0.0)),
        frames_expected=data.get("frames_expected", 0),
        frames_lost=data.get("frames_lost", 0),
        passes=data.get("passes", 0),
        swaps=data.get("swaps", 0),
        ends_checked=data.get("ends_checked", 0),
        readings_answered=data.get("readings_answered", 0),
        readings_contradicted=data.get("readings_contradicted", 0),
        # A file written before ``shots_us`` kept sums, which the median cannot use: measured again.
        clock_shots_us=tuple(float(v) for v in clock.get("shots_us", ())),
        regions=regions,
    )


# ---- one shot against the scans ----
@dataclass(frozen=True)
class ScanCheck:
    """A shot's camera against its NFC scans."""

    disagreeing: dict[str, float]  # piece → mm its camera end lies from the post-shot scan's place
    checked: int  # camera ends compared
    passes: tuple[tuple[str, str], ...]  # close passes of two discs the camera saw
    unseen_swaps: tuple[tuple[str, str], ...]  # ... after which a swap would fit the scans as well
    residuals: tuple[tuple[float, float, float, float], ...]  # (x, y, camera − scan dx, dy) of pieces at rest
    # the frame each close pass began (edges first within ``CLOSE_PASS_MM``): a swap there mislabels only
    # the frames from then on
    pass_frames: dict[tuple[str, str], int] = field(default_factory=dict)


def region_of(x: float, y: float, width: float, height: float) -> int:
    col = min(REGION_COLS - 1, max(0, int(x / max(width, 1.0) * REGION_COLS)))
    row = min(REGION_ROWS - 1, max(0, int(y / max(height, 1.0) * REGION_ROWS)))
    return row * REGION_COLS + col


def check_against_scans(trace: ShotTrace, quality: CameraQuality, sigma_mm: float) -> ScanCheck:
    camera = trace.camera
    if camera is None:
        return ScanCheck({}, 0, (), (), ())
    mat = trace.mat
    post, pre = trace.post.by_piece(), trace.pre.by_piece()
    ends = camera_ends(camera)

    def corrected(x: float, y: float) -> tuple[float, float]:
        bias = quality.regions[region_of(x, y, mat.width_mm, mat.height_mm)].mean() if quality.known else None
        return (x, y) if bias is None else (x - bias[0], y - bias[1])

    def gate(scan: SeenPiece) -> float:
        lens = 0.0 if quality.known else PRIOR_LENS_GRADIENT * 100.0
        return SCAN_GATE_FLOOR_MM + SCAN_GATE_SIGMAS * math.sqrt(scan.sigma_mm**2 + sigma_mm**2 + lens**2)

    disagreeing, checked = {}, 0
    for piece, end in ends.items():
        scan = post.get(piece)
        if scan is None:
            continue  # off the mat, or a read the grid missed: nothing to compare
        checked += 1
        off = math.dist(corrected(*end), (scan.x_mm, scan.y_mm))
        if off > gate(scan):
            disagreeing[piece] = off
    residuals = []
    for piece, x, y in camera.still:
        for scans in (pre, post):
            scan = scans.get(piece)
            if scan is not None:
                residuals.append((scan.x_mm, scan.y_mm, x - scan.x_mm, y - scan.y_mm))
    pass_frames = close_pass_frames(trace)
    passes = sorted(pass_frames)
    unseen = []
    for a, b in passes:
        if a in disagreeing or b in disagreeing:
            continue
        # Swapped names put each disc where the camera ended the other: a scan that found either disc
        # away from the other's camera end rules the swap out (a disc off the mat is in no scan).
        ruled_out = False
        for piece, other in ((a, b), (b, a)):
            scan, other_end = post.get(piece), ends.get(other)
            if scan is not None and other_end is not None:
                ruled_out |= math.dist(corrected(*other_end), (scan.x_mm, scan.y_mm)) > gate(scan)
        if not ruled_out:
            unseen.append((a, b))
    return ScanCheck(disagreeing, checked, tuple(passes), tuple(unseen), tuple(residuals), pass_frames)


def camera_ends(camera: CameraRecord) -> dict[str, tuple[float, float]]:
    """Where the camera last saw each piece: a track's last frame if the track runs to the shot's end (a
    track lost before that says nothing about where the piece ended), or a still piece's place."""
    ends = {piece: (x, y) for piece, x, y in camera.still}
    for track in camera.tracks:
        k, x, y = track.points[-1]
        if k >= camera.frames - 1:
            ends[track.piece] = (x, y)
    return ends


def close_passes(trace: ShotTrace) -> list[tuple[str, str]]:
    """Pairs of discs whose edges the camera saw within ``CLOSE_PASS_MM`` of each other while one moved."""
    return sorted(close_pass_frames(trace))


def close_pass_frames(trace: ShotTrace) -> dict[tuple[str, str], int]:
    """Each close pass of two discs (``close_passes``) and the first frame the camera saw them that close."""
    camera = trace.camera
    if camera is None:
        return {}
    radius = {p.piece: p.radius_mm for p in trace.pieces}
    tracks = {t.piece: {k: (x, y) for k, x, y in t.points} for t in camera.tracks}
    still = {p: (x, y) for p, x, y in camera.still}
    found: dict[tuple[str, str], int] = {}
    for a, points in tracks.items():
        frames = sorted(points)
        for k in frames[1:]:
            here = points[k]
            for b in radius.keys() & (tracks.keys() | still.keys()):
                pair = (min(a, b), max(a, b))
                if b == a or found.get(pair, k + 1) <= k:
                    continue
                there = still.get(b) or tracks.get(b, {}).get(k)
                if there is None:
                    continue
                if math.dist(here, there) - radius[a] - radius[b] <= CLOSE_PASS_MM:
                    found[pair] = k
    return found


def near_after(
    camera: CameraRecord,
    radius: dict[str, float],
    movers: tuple[str, ...],
    others: tuple[str, ...],
    start: int,
    gap_mm: float,
) -> bool:
    """Whether a disc of ``movers`` came within ``gap_mm`` (edges) of one of ``others`` from frame ``start``
    on: each mover's way between two frames it was seen, against each other's places in and around them."""
    tracks = {t.piece: {k: (x, y) for k, x, y in t.points} for t in camera.tracks}
    still = {p: (x, y) for p, x, y in camera.still}
    for m in movers:
        points = tracks.get(m)
        if points is None:
            continue  # at rest throughout: it touched nothing it was not touched by
        frames = sorted(points)
        for j, k in zip(frames, frames[1:], strict=False):
            if k < start:
                continue
            for o in others:
                if o == m or o not in radius or m not in radius:
                    continue
                near = (
                    [still[o]]
                    if o in still
                    else [p for f, p in tracks.get(o, {}).items() if j - 2 <= f <= k + 2]
                )
                reach = radius[m] + radius[o] + gap_mm
                if any(segment_distance(q, points[j], points[k]) <= reach for q in near):
                    return True
    return False


def lost_frames(camera: CameraRecord) -> tuple[int, int]:
    """(frames expected inside tracks, frames missing): between a track's first moving frame and its last."""
    expected = lost = 0
    for track in camera.tracks:
        frames = [k for k, _, _ in track.points if k > 0]
        if len(frames) >= 2:
            span = frames[-1] - frames[0] + 1
            expected += span
            lost += span - len(frames)
    return expected, lost


def clock_samples(
    trace: ShotTrace, set_offs: dict[str, float], events: tuple[HeardEvent, ...]
) -> list[float]:
    """Camera time − board time of each set-off the board heard: a piece that set off at that moment, at
    that place, and a contact heard there then (the nearest placed one within the window)."""
    camera = trace.camera
    if camera is None:
        return []
    placed = [e for e in events if e.x_mm is not None and e.y_mm is not None]
    homes = {t.piece: (t.points[0][1], t.points[0][2]) for t in camera.tracks if t.points[0][0] == 0}
    samples = []
    for piece, t_frames in set_offs.items():
        home = homes.get(piece)
        if home is None:
            continue
        at_us = camera.start_us + t_frames * 1e6 / camera.fps
        near = [
            e
            for e in placed
            if math.dist(home, (e.x_mm, e.y_mm)) <= 3.0 * e.sigma_mm + 40.0  # type: ignore[arg-type]
            and abs(at_us - e.t_us) <= CLOCK_WINDOW_US
        ]
        if len(near) == 1:  # two candidates: which one it was is a guess
            samples.append(at_us - near[0].t_us)
    return samples


def learn_camera(quality: CameraQuality, trace: ShotTrace, events: tuple[HeardEvent, ...]) -> CameraQuality:
    """The table's camera quality after one more shot (its frames, its scans, its heard contacts)."""
    camera = trace.camera
    if camera is None:
        return quality
    noise_mm, set_offs = frame_facts(trace)
    check = check_against_scans(trace, quality, noise_mm)
    expected, lost = lost_frames(camera)
    regions = list(quality.regions)
    for x, y, dx, dy in check.residuals:
        i = region_of(x, y, trace.mat.width_mm, trace.mat.height_mm)
        r = regions[i]
        regions[i] = RegionStats(r.n + 1, r.sum_x + dx, r.sum_y + dy)
    clock = clock_samples(trace, set_offs, events)
    clock_shots = quality.clock_shots_us
    if clock:
        clock_shots = (*clock_shots, statistics.median(clock))[-KEEP_SHOTS:]
    swapped = (len(check.disagreeing) + 1) // 2  # a swap puts two ends wrong; a lost track one
    return replace(
        quality,
        shots=quality.shots + 1,
        noise_sum_mm=quality.noise_sum_mm + noise_mm,
        noise_max_mm=max(quality.noise_max_mm, noise_mm),
        frames_expected=quality.frames_expected + expected,
        frames_lost=quality.frames_lost + lost,
        passes=quality.passes + max(len(check.passes), swapped),
        swaps=quality.swaps + swapped,
        ends_checked=quality.ends_checked + check.checked,
        clock_shots_us=clock_shots,
        regions=tuple(regions),
    )


def learn_from_referee(quality: CameraQuality, trace: ShotTrace, answer: frozenset[str]) -> CameraQuality:
    """The table's camera after the referee answered one of its shots: each confident reading (sure or
    leaning, camera.py) the answer agrees or disagrees with. The answer is a label, not the truth: a referee's
    slip counts against the camera, which only ever makes it more careful."""
    if trace.camera is None:
        return quality
    readings = quality.readings(trace)
    confident = [r for r in readings.values() if not DOUBT_LOW < r.probability < DOUBT_HIGH]
    wrong = sum((r.probability >= 0.5) != (r.piece in answer) for r in confident)
    return replace(
        quality,
        readings_answered=quality.readings_answered + len(confident),
        readings_contradicted=quality.readings_contradicted + wrong,
    )
