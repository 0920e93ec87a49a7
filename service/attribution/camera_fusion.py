"""An overhead camera's reading of a shot weighed together with the physics posterior (docs/attribution.md,
"An overhead camera").

The physics posterior (what the piezos heard, where the scans found the pieces) is the prior; each piece's
camera reading (camera.py) is the likelihood of the frames. A hit set the physics never proposed can still
win when the frames show it, from a small floor. The shot is applied without the referee when the weighed
top set is sure enough; the camera sees the touches themselves, so the physics gates that stand in for not
seeing them (a soft touch, a near miss, an unsettled mat calibration) give way to the frames.
"""

from __future__ import annotations

import dataclasses
import itertools

from service.mat.trace import ShotTrace

from .camera import (
    DOUBT_HIGH,
    DOUBT_LOW,
    FAR_MM,
    SURE_YES,
    TouchReading,
    flicked_disc_lost,
    frame_facts,
)
from .camera_quality import (
    SWAP_DOUBT_RATE,
    CameraQuality,
    ScanCheck,
    check_against_scans,
    near_after,
)
from .model import COVER_KINDS
from .reading import Candidate

CAMERA_AUTO_THRESHOLD = 0.99  # or the caller's threshold, when that is higher
PHYSICS_FLOOR = 0.02  # the share a hit set gets from the physics posterior when no rollout produced it
NOT_NEAR = 1e-4  # the frames' likelihood of a touch on a piece the flicked disc never came near
ALTERNATIVES_FROM = 4  # the least certain readings whose flips make new hit sets
# Reasons that hold whatever the camera saw: the shot's record itself is incomplete.
KEPT_REASONS = ("the flicked disc was not seen before the shot",)
IDENTITY_DOUBT = 0.5  # a piece whose name the camera may have mixed up: its reading is in real doubt
SWAP_NEAR_MM = FAR_MM  # after a pass, a disc of the pair this near a piece (edges) may have touched it
# Until the table knows its camera (camera_quality.KNOWN_AFTER_SHOTS), the frames apply a shot only where the
# physics also puts the same reading first with at least this share: a poor camera that has not shown what
# it misses (a fast missile's touch lost in the blur between frames) applies fewer shots, never wrong ones.
UNPROVEN_PHYSICS_SHARE = 0.8


def fuse_camera(
    trace: ShotTrace,
    candidates: list[Candidate],
    reasons: tuple[str, ...],
    auto_apply_threshold: float = 0.0,
    quality: CameraQuality | None = None,
) -> tuple[list[Candidate], bool, tuple[str, ...]]:
    """The candidates re-weighed by the frames, whether to apply the top one, and why not in words.
    ``quality``: what the table has learnt of its camera (camera_quality.py); None: nothing yet."""
    quality = quality or CameraQuality()
    camera = trace.camera
    if camera is None or camera.track(trace.declaration.flicked) is None:
        blind = "the camera did not follow the flicked disc"
        return candidates, False, (*reasons, blind)
    if flicked_disc_lost(trace):
        # What it touched after the camera lost it is the piezos' and the scans' to say, as without a camera.
        return candidates, not reasons, reasons
    noise, _ = frame_facts(trace)
    check = check_against_scans(trace, quality, noise)
    flicked = trace.declaration.flicked
    mixed = _identity_doubts(check, quality)
    if mixed.get(flicked, (0.0, ""))[0] >= 1.0:
        # The scan contradicts where the camera ended the flicked disc: it followed another disc for part
        # of the shot, so what it saw is not the flicked disc's, and the shot is read as without a camera.
        doubt = f"the camera may have mixed up {flicked} with another disc: {mixed[flicked][1]}"
        return candidates, not reasons, (*reasons, doubt) if reasons else ()
    readings = quality.readings(trace)
    # A certain mix-up outweighs a possible one.
    readings = _weighed_by_identity(readings, swap_doubts(trace, check, quality, readings) | mixed)
    covers = {p.piece for p in trace.pieces if p.kind in COVER_KINDS}
    physics = {c.direct_hits: c for c in candidates}
    sets = dict(physics)
    for direct in _camera_sets(readings):
        if direct not in sets:
            sets[direct] = _candidate_for(trace, direct, candidates[0])
    weights = {}
    for direct, candidate in sets.items():
        prior = PHYSICS_FLOOR + (candidate.probability if direct in physics else 0.0)
        weights[direct] = prior * _frames_likelihood(direct, readings, covers)
    total = sum(weights.values())
    if total <= 0:
        return candidates, False, (*reasons, "the camera's frames fit no hit set")
    fused = sorted(
        (dataclasses.replace(c, probability=weights[d] / total) for d, c in sets.items()),
        key=lambda c: -c.probability,
    )
    top = fused[0]
    kept = tuple(r for r in reasons if r in KEPT_REASONS)
    # Where the frames lean one way without being sure, the physics alone decides whether the shot can go
    # without the referee, as it would without a camera: its gates stand in for what nobody saw; unless the
    # table knows its camera and the referee has not found its confident readings wrong (a lean then stands
    # as sure). Where they are in real doubt, the referee decides.
    leans = quality.leans_trusted
    settled = {
        p: r.sure or (leans and not DOUBT_LOW < r.probability < DOUBT_HIGH) for p, r in readings.items()
    }
    doubts = tuple(
        f"the camera cannot tell whether {piece} was touched: {r.evidence}"
        for piece, r in sorted(readings.items())
        if not settled[piece]
    )
    unsure = not all(settled.values())
    doubtful = any(DOUBT_LOW < r.probability < DOUBT_HIGH for r in readings.values())
    threshold = max(CAMERA_AUTO_THRESHOLD, auto_apply_threshold)
    auto = top.probability >= threshold and not kept and not (unsure and reasons) and not doubtful
    if auto and not quality.known and (unbacked := _unbacked(top, physics)):
        return fused, False, (unbacked,)
    if auto:
        return fused, True, ()
    gates = tuple(r for r in reasons if r not in kept) if unsure else ()
    why = kept + doubts + gates
    return fused, False, why or (f"the top reading, with the camera, has only {top.probability:.1%}",)


def _unbacked(top: Candidate, physics: dict[frozenset[str], Candidate]) -> str:
    """Why a camera the table has not yet measured may not apply its reading alone (empty: the physics
    backs it)."""
    backing = physics.get(top.direct_hits)
    share = backing.probability if backing is not None else 0.0
    if share >= UNPROVEN_PHYSICS_SHARE:
        return ""
    return f"the camera is new to this table and the piezos and scans give its reading only {share:.0%}"


def _identity_doubts(check: ScanCheck, quality: CameraQuality) -> dict[str, tuple[float, str]]:
    """Pieces whose camera end the scan contradicts: a certain mix-up, and why in words."""
    return {
        piece: (1.0, f"the camera ended it {off:.0f} mm from where the mat's scan found it")
        for piece, off in check.disagreeing.items()
    }


def _weighed_by_identity(
    readings: dict[str, TouchReading], mixed: dict[str, tuple[float, str]]
) -> dict[str, TouchReading]:
    """Each reading weighed by the chance that the camera gave its piece (or the flicked disc) another
    disc's name: a certain mix-up is a real doubt; a possible one is right with the camera's names, a coin
    toss with swapped ones."""
    weighed = dict(readings)
    for piece, reading in readings.items():
        chance, words = mixed.get(piece) or (0.0, "")
        if chance >= 1.0:
            weighed[piece] = TouchReading(piece, IDENTITY_DOUBT, f"the camera may have mixed it up: {words}")
        elif chance > 0.0:
            p = (1.0 - chance) * reading.probability + chance * IDENTITY_DOUBT
            weighed[piece] = TouchReading(piece, p, f"{reading.evidence} (unless {words}: {chance:.0%})")
    return weighed


def swap_doubts(
    trace: ShotTrace, check: ScanCheck, quality: CameraQuality, readings: dict[str, TouchReading]
) -> dict[str, tuple[float, str]]:
    """Readings a swap nobody could see may have misled, each as likely as the table's camera swaps names
    (until it has shown it keeps them, one in ten), and why in words.

    A tracker swaps two discs' names where they pass close, so only the frames from the pass on can be
    mislabelled: a reading whose evidence ends before it, or that no disc of the pair came near after it,
    stands as read; so does whether the two discs of the pair touched each other, whatever their names."""
    if quality.swap_rate <= SWAP_DOUBT_RATE or trace.camera is None:
        return {}
    flicked = trace.declaration.flicked
    radius = {p.piece: p.radius_mm for p in trace.pieces}
    doubts: dict[str, tuple[float, str]] = {}
    for a, b in check.unseen_swaps:
        start = check.pass_frames.get((min(a, b), max(a, b)), 0)
        words = f"{a} and {b} passed close and the scans cannot tell them apart"
        for piece, reading in readings.items():
            if piece in doubts or (flicked not in (a, b) and piece not in (a, b)):
                continue
            if (
                reading.striker == flicked
                and reading.probability >= SURE_YES
                and (reading.until or start) < start
            ):
                continue  # struck before the pass, when the names were still right
            if {a, b} == {flicked, piece} and reading.sure:
                continue
            movers, others = ((a, b), (piece,)) if flicked in (a, b) else ((flicked,), (a, b))
            if near_after(trace.camera, radius, movers, others, start, SWAP_NEAR_MM):
                doubts[piece] = (quality.swap_rate, words)
    return doubts


def _frames_likelihood(direct: frozenset[str], readings: dict[str, TouchReading], covers: set[str]) -> float:
    likelihood = 1.0
    for piece, reading in readings.items():
        likelihood *= reading.probability if piece in direct else 1.0 - reading.probability
    for piece in direct - readings.keys():
        if piece not in covers:
            likelihood *= NOT_NEAR
    return likelihood


def _camera_sets(readings: dict[str, TouchReading]) -> list[frozenset[str]]:
    """The frames' likeliest set and those that flip its least certain readings."""
    likeliest = frozenset(p for p, r in readings.items() if r.probability > 0.5)
    doubtful = sorted(readings, key=lambda p: abs(readings[p].probability - 0.5))[:ALTERNATIVES_FROM]
    doubtful = [p for p in doubtful if not readings[p].sure]
    sets = [likeliest]
    for n in range(1, len(doubtful) + 1):
        for flipped in itertools.combinations(doubtful, n):
            sets.append(likeliest ^ frozenset(flipped))
    return sets


def _candidate_for(trace: ShotTrace, direct: frozenset[str], like: Candidate) -> Candidate:
    """A hit set the rollouts never produced: what was pushed is what the likeliest reading moved and this
    set does not hit."""
    shadows = {p.piece for p in trace.pieces if p.shadow}
    return dataclasses.replace(
        like,
        direct_hits=direct,
        pushed=(like.pushed | like.direct_hits) - direct,
        # 3E reference, Shadow Monsters: destroyed only when a direct hit pushes them off the playmat
        shadow_destroyed=like.left_mat & shadows & direct,
        probability=0.0,
        raw_probability=0.0,
    )
