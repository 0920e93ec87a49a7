"""Caroms: flick angles that strike one piece and glance on to a second (for proposals.BroadProposal).

A second direct hit needs the flick lined up within a fraction of a degree, which aims at single pieces rarely
find; these aims come from the geometry of a glancing hit and from what the scans and the piezos say about
which pieces were met.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from service.mat.trace import SeenPiece, ShotTrace

from .acoustics import HeardEvent
from .config import AttributionConfig
from .model import COVER_KINDS

# Caroms (a hit glancing on to a second piece or to where the flicked disc stopped): their share of the aims,
# the spread around each, the contact points tried around the first piece, and how many kept per pair.
CAROM_SHARE_OF_AIMS = 0.15
CAROM_SIGMA = math.radians(1.5)
CAROM_STEPS = 360
CAROM_PER_PAIR = 2
CAROM_FIRST_PIECES = 6  # the surest movers only: a push through a crowd moves many
# Pairs along the flicked disc's path: a second touch soft enough to leave its piece where the scans cannot
# tell it moved makes no carom above (only moved pieces do), yet it is half of most two-hit shots the
# sampler missed. The pieces that stood within reach of the straight line from the flicked disc's start to
# its rest (the nearest few) are tried as either piece of a carom, aimed at their centres.
PAIR_SHARE_OF_AIMS = 0.07
PAIR_PATH_MARGIN_MM = 40.0
PAIR_PIECES = 4
PAIR_WEIGHT = 0.3
# Pieces where a loud touch was heard: an event heard by this many piezos (a real touch, gates.LOUD_SENSORS)
# names the place of a contact even when its piece barely moved and stood off the straight path (a bank off
# an obstacle, then the hit). The pieces that stood within reach of it (its location's uncertainty and a
# margin) join the pairs, the nearest HEARD_PIECES of them.
HEARD_SENSORS = 5
HEARD_MARGIN_MM = 30.0
HEARD_PIECES = 3
HEARD_SHARE_OF_AIMS = 0.08
HEARD_SIGMA = math.radians(0.4)


def carom_aims(
    trace: ShotTrace,
    config: AttributionConfig,
    moved: list[tuple[str, float, float, float, float, float]],
    rest: SeenPiece | None,
) -> list[tuple[float, float]]:
    """Flick angles that strike one moved piece and glance on to another moved piece, or to where the flicked
    disc came to rest: (angle, weight) pairs.

    A second hit needs the flick lined up within a fraction of a degree, which aims at single pieces rarely
    find. After a hit the flicked disc keeps its speed across the line of centres and a share
    (m − e·M)/(m + M) of its speed along it, so for each point of contact around the first piece the way on
    is known; the contact whose way on passes through the second piece's ghost-ball point (or the rest point)
    gives the flick's angle.
    """
    pre = trace.pre.by_piece()
    me = pre[trace.declaration.flicked]
    spec = trace.spec(me.piece)
    e = config.model.disc_restitution**2  # the model's discs meet at the product of their elasticities
    goals = _goals(trace, me.piece, moved, rest)  # piece, where the flicked centre must pass
    out: list[tuple[float, float]] = []
    for first, ax, ay, _, _, weight in sorted(moved, key=lambda m: -m[5])[:CAROM_FIRST_PIECES]:
        reach = trace.spec(first).radius_mm + spec.radius_mm
        k = (spec.mass_g - e * trace.spec(first).mass_g) / (spec.mass_g + trace.spec(first).mass_g)
        for second, gx, gy, w2, tolerance in goals:
            if second == first:
                continue
            runs: list[list[tuple[float, float]]] = []  # contact points, in turn, whose way on reaches it
            inside = False
            for step in range(CAROM_STEPS):
                phi = 2 * math.pi * step / CAROM_STEPS
                miss_angle = _carom(me.x_mm, me.y_mm, ax, ay, reach, k, gx, gy, phi)
                if miss_angle is None or miss_angle[0] >= tolerance:
                    inside = False
                    continue
                if not inside:
                    runs.append([])
                    inside = True
                runs[-1].append(miss_angle)
            for run in runs[:CAROM_PER_PAIR]:
                out.append((min(run)[1], min(weight, w2)))
    return out


def path_pieces(
    trace: ShotTrace, moved: Sequence[str], rest: SeenPiece | None
) -> list[tuple[str, float, float]]:
    """The pieces that stood within reach of the flicked disc's way from its start to its rest and that the
    scans do not show moving (``moved``): the nearest ``PAIR_PIECES`` of them, (piece, x, y)."""
    if rest is None:
        return []
    pre = trace.pre.by_piece()
    me = pre[trace.declaration.flicked]
    radius = trace.spec(me.piece).radius_mm
    near: list[tuple[float, str, float, float]] = []
    for piece in trace.pre.pieces:
        spec = trace.spec(piece.piece)
        if piece.piece == me.piece or piece.piece in moved or spec.kind in COVER_KINDS:
            continue
        gap = _distance_to_segment(piece.x_mm, piece.y_mm, me.x_mm, me.y_mm, rest.x_mm, rest.y_mm)
        if gap <= spec.radius_mm + radius + PAIR_PATH_MARGIN_MM:
            near.append((gap, piece.piece, piece.x_mm, piece.y_mm))
    return [(pid, x, y) for _, pid, x, y in sorted(near)[:PAIR_PIECES]]


def heard_pieces(trace: ShotTrace, events: Sequence[HeardEvent]) -> list[tuple[str, float, float]]:
    """The pieces that stood where a loud touch was heard, nearest first (moved or not)."""
    flicked = trace.declaration.flicked
    near: dict[str, tuple[float, float, float]] = {}
    for event in events:
        if event.x_mm is None or event.y_mm is None or event.sensors < HEARD_SENSORS:
            continue
        for piece in trace.pre.pieces:
            spec = trace.spec(piece.piece)
            if piece.piece == flicked or spec.kind in COVER_KINDS:
                continue
            gap = math.hypot(piece.x_mm - event.x_mm, piece.y_mm - event.y_mm) - spec.radius_mm
            reach = 2 * event.sigma_mm + HEARD_MARGIN_MM
            if gap <= reach and gap / reach < near.get(piece.piece, (math.inf, 0.0, 0.0))[0]:
                near[piece.piece] = (gap / reach, piece.x_mm, piece.y_mm)
    ranked = sorted(near.items(), key=lambda item: item[1][0])[:HEARD_PIECES]
    return [(pid, x, y) for pid, (_, x, y) in ranked]


def pair_aims(
    trace: ShotTrace,
    config: AttributionConfig,
    moved: list[tuple[str, float, float, float, float, float]],
    rest: SeenPiece | None,
) -> list[tuple[float, float]]:
    """Flick angles for two-hit shots whose one touch left no visible move: a carom off any piece along the
    path (moved or not) on to an unmoved piece along it, or off an unmoved one on to a moved one or the
    rest point. (angle, weight) pairs; the caroms between moved pieces are :func:`carom_aims`'."""
    return caroms_among(trace, config, moved, rest, path_pieces(trace, [m[0] for m in moved], rest))


def heard_aims(
    trace: ShotTrace,
    config: AttributionConfig,
    moved: list[tuple[str, float, float, float, float, float]],
    rest: SeenPiece | None,
    events: Sequence[HeardEvent],
) -> list[tuple[float, float]]:
    """The same caroms through the unmoved pieces that stood where a loud touch was heard: a bank off an
    obstacle the scans barely saw move, then the hit, is a second direct hit the sound names the place of."""
    heard = heard_pieces(trace, events)
    names = {pid for pid, _, _ in heard}
    return caroms_among(trace, config, [m for m in moved if m[0] not in names], rest, heard)


def caroms_among(
    trace: ShotTrace,
    config: AttributionConfig,
    moved: list[tuple[str, float, float, float, float, float]],
    rest: SeenPiece | None,
    along: list[tuple[str, float, float]],
) -> list[tuple[float, float]]:
    """Caroms off any of ``along`` (unmoved pieces) or a moved piece on to another of ``along``, a moved
    piece's ghost-ball point or the rest point, with at least one piece of ``along`` in each."""
    if not along:
        return []
    pre = trace.pre.by_piece()
    me = pre[trace.declaration.flicked]
    spec = trace.spec(me.piece)
    e = config.model.disc_restitution**2
    firsts = [(pid, x, y, PAIR_WEIGHT) for pid, x, y in along] + [
        (pid, x0, y0, w) for pid, x0, y0, _, _, w in sorted(moved, key=lambda m: -m[5])[:CAROM_FIRST_PIECES]
    ]
    goals = [(pid, x, y, PAIR_WEIGHT, trace.spec(pid).radius_mm + spec.radius_mm) for pid, x, y in along]
    unmoved = {pid for pid, _, _ in along}
    goals += _goals(trace, me.piece, moved, rest)
    out: list[tuple[float, float]] = []
    for first, ax, ay, weight in firsts:
        reach = trace.spec(first).radius_mm + spec.radius_mm
        k = (spec.mass_g - e * trace.spec(first).mass_g) / (spec.mass_g + trace.spec(first).mass_g)
        for second, gx, gy, w2, tolerance in goals:
            if second == first or (first not in unmoved and second not in unmoved):
                continue  # two moved pieces: carom_aims has them
            best: tuple[float, float] | None = None
            for step in range(CAROM_STEPS):
                found = _carom(me.x_mm, me.y_mm, ax, ay, reach, k, gx, gy, 2 * math.pi * step / CAROM_STEPS)
                if found is not None and found[0] < tolerance and (best is None or found < best):
                    best = found
            if best is not None:
                out.append((best[1], min(weight, w2)))
    return out


def _goals(
    trace: ShotTrace,
    flicked: str,
    moved: Sequence[tuple[str, float, float, float, float, float]],
    rest: SeenPiece | None,
) -> list[tuple[str, float, float, float, float]]:
    """Where the flicked disc's centre must pass to set each moved piece off along its line (piece, x, y,
    weight, reach), and its own resting place last."""
    radius = trace.spec(flicked).radius_mm
    goals = []
    for pid, x0, y0, x1, y1, w in moved:
        d = math.hypot(x1 - x0, y1 - y0)
        reach = trace.spec(pid).radius_mm + radius
        goals.append((pid, x0 - reach * (x1 - x0) / d, y0 - reach * (y1 - y0) / d, w, reach))
    if rest is not None:
        goals.append((flicked, rest.x_mm, rest.y_mm, 1.0, radius))
    return goals


def _distance_to_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 < 1e-9 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def _carom(
    sx: float, sy: float, ax: float, ay: float, reach: float, k: float, gx: float, gy: float, phi: float
) -> tuple[float, float] | None:
    """Flicked from (sx, sy), the disc meets the piece at (ax, ay) with the line of centres at ``phi``: how
    far its way on passes from (gx, gy), and the flick's angle; None when it cannot meet it so or the goal
    lies behind."""
    nx, ny = math.cos(phi), math.sin(phi)  # from the flicked centre at contact to the piece's
    cx, cy = ax - reach * nx, ay - reach * ny
    ux, uy = cx - sx, cy - sy
    run = math.hypot(ux, uy)
    if run < 1.0:
        return None
    ux, uy = ux / run, uy / run
    along = ux * nx + uy * ny
    if along < 0.05:
        return None  # it would not reach this side of the piece
    across = -ux * ny + uy * nx
    ox, oy = -ny * across + nx * along * k, nx * across + ny * along * k
    norm = math.hypot(ox, oy)
    if norm < 1e-9 or (gx - cx) * ox + (gy - cy) * oy <= 0:
        return None
    return abs((gx - cx) * oy - (gy - cy) * ox) / norm, math.atan2(uy, ux)
