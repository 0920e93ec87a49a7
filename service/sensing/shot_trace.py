"""From a shot the segmenter observed to the trace attribution reads (docs/trace-format.md).

Pure: no I/O, no clock. The daemon hands in what the table knows at the moment of the shot (which disc stands
for which character, on which side, the mat's geometry) as a :class:`ShotContext`; what comes back is a
:class:`ShotTrace`, or an :class:`Unreadable` that says in words why the referee must enter the shot.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.messages import Capabilities
from service.mat.geometry import PieceClass, is_ranged_class
from service.mat.trace import (
    Declaration,
    FixedObstacle,
    MatGeometry,
    PieceSpec,
    Scan,
    ShotTrace,
    WallSegment,
)
from service.sensing.segmenter import ShotObserved
from service.sensing.tags import TagRegistry

RANGED_REACH_MM = 25.0  # 3E reference, Ranged Piece Placement: within 2.5 cm of the character
# Placement is measured by eye and positions by NFC: a ranged piece a little further off still counts.
RANGED_SLACK_MM = 10.0
DEFAULT_RADIUS_MM = 15.0  # a disc whose class the content does not define is drawn and read at this size
SILENT_MOVE_MM = 10.0  # without an impact, the flicked disc must have moved this far for a shot


@dataclass(frozen=True)
class ShotContext:
    """What the table knows about its discs at the moment of a shot, beyond the sensors."""

    registry: TagRegistry
    classes: Mapping[str, PieceClass]
    discs: Mapping[str, str]  # character id -> the disc standing for it
    sides: Mapping[str, str]  # character id -> heroes | overseer | ... (neutral when not listed)
    mat: MatGeometry
    shadows: frozenset[str] = frozenset()  # characters in the Shadow Realm (3E)
    meta: Mapping[str, Any] = field(default_factory=dict)  # for people reading the trace later

    def radius(self, piece: str) -> float:
        cls = self.classes.get(self.registry.entry(piece).piece_class)
        return cls.radius_mm if cls else DEFAULT_RADIUS_MM


@dataclass(frozen=True)
class Unreadable:
    why: str


def mat_geometry(
    caps: Capabilities,
    wall_gap_mm: float,
    obstacles: tuple[FixedObstacle, ...] = (),
    walls: tuple[WallSegment, ...] | None = None,
) -> MatGeometry:
    """The mat as attribution models it: the board's size and piezos, the table's walls and obstacles."""
    return MatGeometry(
        width_mm=caps.mat_width_mm,
        height_mm=caps.mat_height_mm,
        wall_gap_mm=wall_gap_mm,
        sensors=tuple((s.id, s.x_mm, s.y_mm) for s in caps.sensors),
        obstacles=obstacles,
        walls=walls,
        piezo_threshold=caps.piezo_threshold,
    )


def build_trace(shot: ShotObserved, expected: Mapping[str, Any], ctx: ShotContext) -> ShotTrace | Unreadable:
    flicked = flicked_piece(shot.pre, expected, ctx, shot.post)
    if flicked is None:
        return Unreadable("the mat did not see the flicked disc before the shot")
    character_of = {piece: character for character, piece in ctx.discs.items()}
    seen = {p.piece for p in shot.pre.pieces} | {p.piece for p in shot.post.pieces}
    specs = []
    for piece in sorted(seen):
        entry = ctx.registry.entry(piece)
        cls = ctx.classes.get(entry.piece_class)
        if cls is None:
            continue  # not a disc the content knows (the table file's check names it at start)
        character = character_of.get(piece)
        side = ctx.sides.get(character, "neutral") if character else "neutral"
        specs.append(
            PieceSpec(piece, cls.radius_mm, cls.mass_g, entry.piece_class, side, character in ctx.shadows)
        )
    shooter = expected["character"] if expected.get("ranged") else None
    return ShotTrace(
        mat=ctx.mat,
        pieces=tuple(specs),
        pre=shot.pre,
        declaration=Declaration(flicked, expected["shot"], shooter),
        impacts=shot.impacts,
        post=shot.post,
        meta=dict(ctx.meta),
    )


def unknown_classes(shot: ShotObserved, ctx: ShotContext) -> list[tuple[str, str]]:
    """(disc, class) of the discs in the shot whose class the content does not define."""
    seen = {p.piece for p in shot.pre.pieces} | {p.piece for p in shot.post.pieces}
    return [
        (piece, ctx.registry.entry(piece).piece_class)
        for piece in sorted(seen)
        if ctx.registry.entry(piece).piece_class not in ctx.classes
    ]


def flicked_piece_moved(shot: ShotObserved, expected: Mapping[str, Any], ctx: ShotContext) -> bool:
    """Whether the disc the shot flicks moved (or left the mat): a silent movement of other discs is hands
    on the mat, not the expected flick."""
    piece = flicked_piece(shot.pre, expected, ctx, shot.post) or ""
    before, after = shot.pre.by_piece().get(piece), shot.post.by_piece().get(piece)
    if before is None or after is None:
        return after is None and before is not None  # it left the mat
    return math.dist((before.x_mm, before.y_mm), (after.x_mm, after.y_mm)) > SILENT_MOVE_MM


def flicked_piece(
    pre: Scan, expected: Mapping[str, Any], ctx: ShotContext, post: Scan | None = None
) -> str | None:
    if expected.get("shield"):
        return _shield_piece(pre, expected, ctx)
    if not expected.get("ranged"):
        return _character_piece(pre, post, expected, ctx)
    # A ranged shot flicks a ranged piece placed within 2.5 cm of the shooter: the nearest one to it.
    where = pre.by_piece()
    shooter = ctx.discs.get(expected["character"])
    if shooter is None or shooter not in where:
        return None
    sx, sy = where[shooter].x_mm, where[shooter].y_mm
    best: tuple[float, str] | None = None
    for piece in where.values():
        if not is_ranged_class(ctx.registry.entry(piece.piece).piece_class):
            continue
        gap = math.dist((piece.x_mm, piece.y_mm), (sx, sy)) - ctx.radius(shooter) - ctx.radius(piece.piece)
        if gap <= RANGED_REACH_MM + 3 * piece.sigma_mm + RANGED_SLACK_MM and (best is None or gap < best[0]):
            best = (gap, piece.piece)
    return best[1] if best else None


def _character_piece(
    pre: Scan, post: Scan | None, expected: Mapping[str, Any], ctx: ShotContext
) -> str | None:
    """The expected piece's disc. When the rules allow others too (``pieces``: a Team Action's heroes in any
    order) and the expected one stayed put, the one of them that moved farthest (or left the mat): a disc a
    flick pushed moves as well, so the expected piece is read whenever it moved."""
    before = pre.by_piece()
    wanted = [expected["piece"], *expected.get("pieces", ())]
    discs = [d for d in dict.fromkeys(ctx.discs.get(p) for p in wanted) if d is not None and d in before]
    if len(discs) < 2 or post is None:
        return discs[0] if discs else None
    after = post.by_piece()

    def moved(disc: str) -> float:
        if disc not in after:
            return math.inf
        return math.dist((before[disc].x_mm, before[disc].y_mm), (after[disc].x_mm, after[disc].y_mm))

    head = ctx.discs.get(expected["piece"])
    if head in discs and moved(head) > SILENT_MOVE_MM:
        return head
    return max(discs, key=moved)


def _shield_piece(pre: Scan, expected: Mapping[str, Any], ctx: ShotContext) -> str | None:
    """Catacombs & Castles Shield Shots: the team's shield piece is flicked from where it lies (or from
    beside the character): the shield disc of the shooter's team seen on the mat, else any shield."""
    shields = [
        ctx.registry.entry(p.piece)
        for p in pre.pieces
        if ctx.registry.entry(p.piece).piece_class == "castles-shield"
    ]
    shields.sort(key=lambda entry: entry.family != expected.get("team"))
    return shields[0].piece if shields else None
