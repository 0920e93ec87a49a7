"""Cuts the stream of scans and impacts into shots: rest → motion → rest.

A shot starts with an impact, or with a scan in which a piece has moved further than a hand placing a ranged
piece would move it. It ends when no impact has come for ``quiet_s`` and ``rest_scans`` consecutive scans
agree (nothing still sliding). Pieces missing from a rest scan keep their last position for a few scans, since
a single missed read is common; a piece missing after a shot is reported missing (it may have left the mat).

Pure: no I/O and no clock; the caller passes the host's monotonic time with each call.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field

from firmware_bridge.messages import Button, Impact, ReaderGrid, ScanDone, TagSeen
from service.mat.trace import ImpactRecord, Scan, SeenPiece

from .locate import NfcCalibration, locate
from .tags import TagRegistry


@dataclass(frozen=True)
class SegmenterSettings:
    quiet_s: float = 0.35  # no impact for this long before we look for rest
    rest_scans: int = 2  # consecutive agreeing scans that mean "everything stopped"
    rest_tolerance_mm: float = 6.0  # two scans agree when no piece differs by more than this …
    rest_noise_factor: float = 3.5  # … or by more than this many of its two reads' combined noise …
    rest_tolerance_cap_mm: float = 25.0  # … but a move this large is motion however poorly the piece is read
    placement_limit_mm: float = 30.0  # a move at rest smaller than this, with no impact, is a hand placement
    missed_scans_kept: int = 3  # a piece unseen at rest keeps its position for this many scans
    motion_timeout_s: float = 8.0  # a shot that never comes to rest is closed anyway (and flagged)


class Phase(enum.Enum):
    REST = "rest"
    MOTION = "motion"


@dataclass(frozen=True)
class BoardUpdated:
    scan: Scan  # every piece believed to be on the mat, at rest


@dataclass(frozen=True)
class MotionStarted:
    t_us: int


@dataclass(frozen=True)
class ShotObserved:
    pre: Scan
    impacts: tuple[ImpactRecord, ...]
    post: Scan
    timed_out: bool = False


@dataclass(frozen=True)
class ScanWanted:
    """The segmenter needs a fresh scan (the caller sends ScanRequest to the device)."""


@dataclass(frozen=True)
class ButtonPressed:
    button_id: int


SensingEvent = BoardUpdated | MotionStarted | ShotObserved | ScanWanted | ButtonPressed


@dataclass
class _Motion:
    started_host_s: float
    pre: Scan
    impacts: list[ImpactRecord] = field(default_factory=list)
    last_activity_s: float = 0.0
    agreeing: list[Scan] = field(default_factory=list)
    scan_asked: bool = False
    force_end: bool = False


class ShotSegmenter:
    def __init__(
        self,
        grid: ReaderGrid,
        registry: TagRegistry,
        calibration: NfcCalibration | None = None,
        settings: SegmenterSettings | None = None,
    ) -> None:
        self.grid = grid
        self.registry = registry
        self.calibration = calibration or NfcCalibration()
        self.settings = settings or SegmenterSettings()
        self._reads: dict[int, list[TagSeen]] = {}
        self._rest: dict[str, SeenPiece] = {}
        self._rest_t_us = 0
        self._unseen: dict[str, int] = {}
        self._motion: _Motion | None = None

    @property
    def phase(self) -> Phase:
        return Phase.MOTION if self._motion else Phase.REST

    @property
    def rest_scan(self) -> Scan:
        return Scan(self._rest_t_us, tuple(sorted(self._rest.values(), key=lambda p: p.piece)))

    def end_shot_now(self, host_s: float) -> list[SensingEvent]:
        """The "shot done" button: stop waiting for quiet and take the next scan as the rest scan."""
        if self._motion is None:
            return []
        self._motion.force_end = True
        self._motion.scan_asked = True
        return [ScanWanted()]

    def on_message(self, message: object, host_s: float) -> list[SensingEvent]:
        if isinstance(message, TagSeen):
            self._reads.setdefault(message.scan_id, []).append(message)
            return []
        if isinstance(message, ScanDone):
            reads = self._reads.pop(message.scan_id, [])
            # Reads of scans that never finished (a reboot, a lost frame) are dropped, not merged.
            self._reads = {k: v for k, v in self._reads.items() if k > message.scan_id}
            seen = locate(reads, self.grid, self.registry, self.calibration)
            return self._on_scan(Scan(message.t_us, tuple(seen[p] for p in sorted(seen))), host_s)
        if isinstance(message, Impact):
            return self._on_impact(message, host_s)
        if isinstance(message, Button):
            return [ButtonPressed(message.button_id)] if message.pressed else []
        return []

    def tick(self, host_s: float) -> list[SensingEvent]:
        """Call regularly: asks for a scan once the mat has been quiet long enough."""
        motion = self._motion
        if motion is None or motion.scan_asked:
            return []
        quiet_for = host_s - motion.last_activity_s
        if (
            quiet_for >= self.settings.quiet_s
            or host_s - motion.started_host_s >= self.settings.motion_timeout_s
        ):
            motion.scan_asked = True
            return [ScanWanted()]
        return []

    # ----------------------------------------------------------------------------------------------

    def _on_impact(self, impact: Impact, host_s: float) -> list[SensingEvent]:
        record = ImpactRecord(impact.sensor_id, impact.t_us, float(impact.amplitude))
        events: list[SensingEvent] = []
        if self._motion is None:
            self._motion = _Motion(started_host_s=host_s, pre=self.rest_scan)
            events.append(MotionStarted(impact.t_us))
        self._motion.impacts.append(record)
        self._motion.last_activity_s = host_s
        self._motion.agreeing.clear()
        self._motion.scan_asked = False
        return events

    def _on_scan(self, scan: Scan, host_s: float) -> list[SensingEvent]:
        if self._motion is None:
            moved = self._largest_move(scan)
            if moved is not None and moved > self.settings.placement_limit_mm:
                # Something slid far with no impact heard: a soft shot. The rest scan before it is "pre".
                self._motion = _Motion(started_host_s=host_s, pre=self.rest_scan, last_activity_s=host_s)
                self._motion.agreeing.append(scan)
                return [MotionStarted(scan.t_us)]
            self._merge_rest(scan)
            return [BoardUpdated(self.rest_scan)]
        return self._on_scan_in_motion(scan, host_s)

    def _on_scan_in_motion(self, scan: Scan, host_s: float) -> list[SensingEvent]:
        motion = self._motion
        assert motion is not None
        last_impact = motion.impacts[-1].t_us if motion.impacts else 0
        if scan.t_us <= last_impact:
            return []  # started before the last impact: pieces may still have been moving
        timed_out = host_s - motion.started_host_s >= self.settings.motion_timeout_s
        if motion.agreeing and not _agree(motion.agreeing[-1], scan, self.settings):
            motion.agreeing.clear()
        motion.agreeing.append(scan)
        if len(motion.agreeing) >= self.settings.rest_scans or motion.force_end or timed_out:
            self._motion = None
            post = _combine(motion.agreeing)
            self._rest = {p.piece: p for p in post.pieces}
            self._rest_t_us = post.t_us
            self._unseen.clear()
            shot = ShotObserved(motion.pre, tuple(motion.impacts), post, timed_out=timed_out)
            return [shot, BoardUpdated(self.rest_scan)]
        return [ScanWanted()]

    def _largest_move(self, scan: Scan) -> float | None:
        largest = None
        for piece in scan.pieces:
            before = self._rest.get(piece.piece)
            if before is not None:
                d = math.hypot(piece.x_mm - before.x_mm, piece.y_mm - before.y_mm)
                largest = d if largest is None else max(largest, d)
        return largest

    def _merge_rest(self, scan: Scan) -> None:
        seen = {p.piece: p for p in scan.pieces}
        for piece in list(self._rest):
            if piece in seen:
                continue
            self._unseen[piece] = self._unseen.get(piece, 0) + 1
            if self._unseen[piece] > self.settings.missed_scans_kept:
                del self._rest[piece]  # lifted off the mat (a dead monster, a spent missile)
                del self._unseen[piece]
        for piece, where in seen.items():
            self._unseen.pop(piece, None)
            self._rest[piece] = where
        self._rest_t_us = scan.t_us


def _agree(a: Scan, b: Scan, settings: SegmenterSettings) -> bool:
    """Whether nothing moved between two scans, as far as each piece's reads can tell.

    A disc at the mat's edge is read by one antenna, to 12–25 mm (docs/sensor-model.md); judged against a
    flat few millimetres, two reads of it at rest disagree more often than not, and the shot waited for
    agreement until the motion timeout. So each piece is judged against its own reads' noise: the
    difference of two reads with per-axis sigmas σ₁ and σ₂ is Rayleigh-distributed with scale √(σ₁²+σ₂²),
    which exceeds 3.5 times that scale once in 450 pairs.
    """
    first = a.by_piece()
    for piece in b.pieces:
        other = first.get(piece.piece)
        if other is None:
            continue
        noise = settings.rest_noise_factor * math.hypot(piece.sigma_mm, other.sigma_mm)
        tolerance = max(settings.rest_tolerance_mm, min(noise, settings.rest_tolerance_cap_mm))
        if math.hypot(piece.x_mm - other.x_mm, piece.y_mm - other.y_mm) > tolerance:
            return False
    return True


def _combine(scans: list[Scan]) -> Scan:
    """One rest scan from scans that agree: a piece missed by one read is taken from another."""
    by_piece: dict[str, list[SeenPiece]] = {}
    for scan in scans:
        for piece in scan.pieces:
            by_piece.setdefault(piece.piece, []).append(piece)
    combined = []
    for piece_id, seen in sorted(by_piece.items()):
        n = len(seen)
        combined.append(
            SeenPiece(
                piece_id,
                round(sum(p.x_mm for p in seen) / n, 2),
                round(sum(p.y_mm for p in seen) / n, 2),
                min(p.sigma_mm for p in seen) / math.sqrt(n),
            )
        )
    return Scan(scans[-1].t_us, tuple(combined))
