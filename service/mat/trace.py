"""The shot trace: one shot's sensor record, as the sensing layer hands it to attribution.

Dataclasses of docs/architecture.md §2 and their JSON Lines form (one trace per line, documented in
docs/trace-format.md). Reading rejects anything malformed with a :class:`TraceFormatError` that names the line
and the key, and never guesses a missing value.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, TextIO

from jsonschema.protocols import Validator

from service.common import schema_check
from service.mat.camera_trace import CameraRecord, camera_from_json, camera_to_json

TRACE_FORMAT_VERSION = 1
SIDES = ("heroes", "overseer", "neutral")


class TraceFormatError(ValueError):
    """A trace line that cannot be read; says which line and which key."""


@dataclass(frozen=True)
class PieceSpec:
    piece: str
    radius_mm: float
    mass_g: float
    kind: str  # hero | monster | lord | ranged | obstacle | ice | shield | ...
    side: str  # heroes | overseer | neutral
    shadow: bool = False  # shadow monsters die only when a direct hit pushes them off the mat


@dataclass(frozen=True)
class SeenPiece:
    piece: str
    x_mm: float
    y_mm: float
    sigma_mm: float


@dataclass(frozen=True)
class Scan:
    t_us: int
    pieces: tuple[SeenPiece, ...]

    def by_piece(self) -> dict[str, SeenPiece]:
        return {p.piece: p for p in self.pieces}


@dataclass(frozen=True)
class ImpactRecord:
    sensor_id: int
    t_us: int
    amplitude: float


@dataclass(frozen=True)
class WallSegment:
    """The inner face of one straight stretch of wall: a side with a gap is two, an open side none."""

    x1_mm: float
    y1_mm: float
    x2_mm: float
    y2_mm: float


@dataclass(frozen=True)
class FixedObstacle:
    """A fixed, untagged obstacle: a circle (``radius_mm``) or a convex polygon (``points``, anticlockwise).

    A box at any angle (a Castles wall) is read into its four corners; tagged, movable obstacles are ordinary
    pieces of kind ``obstacle``.
    """

    shape: str  # circle | polygon
    x_mm: float  # centre (of the circle, or of the polygon's corners)
    y_mm: float
    radius_mm: float = 0.0
    points: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class MatGeometry:
    width_mm: float
    height_mm: float
    wall_gap_mm: float
    sensors: tuple[tuple[int, float, float], ...]
    obstacles: tuple[FixedObstacle, ...] = ()
    # None: the classic closed rectangle of walls ``wall_gap_mm`` outside the mat on all four sides.
    walls: tuple[WallSegment, ...] | None = None
    # The piezos' report threshold (ADC counts) as the board states it; None: the reference board's.
    piezo_threshold: float | None = None

    def wall_segments(self) -> tuple[WallSegment, ...]:
        if self.walls is not None:
            return self.walls
        # The classic wall system: 20 mm walls centred ``wall_gap_mm`` outside the mat, so their inner faces
        # (what a segment here describes) stand 10 mm closer.
        g, w, h = self.wall_gap_mm - 10.0, self.width_mm, self.height_mm
        c = [(-g, -g), (w + g, -g), (w + g, h + g), (-g, h + g)]
        return tuple(WallSegment(*c[i], *c[(i + 1) % 4]) for i in range(4))


def box_corners(
    x_mm: float, y_mm: float, width_mm: float, height_mm: float, angle_deg: float
) -> tuple[tuple[float, float], ...]:
    """Corners (anticlockwise) of a ``width × height`` box centred at (x, y) and turned by ``angle_deg``."""
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    hw, hh = width_mm / 2, height_mm / 2
    return tuple(
        (x_mm + dx * ca - dy * sa, y_mm + dx * sa + dy * ca)
        for dx, dy in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))
    )


@dataclass(frozen=True)
class Declaration:
    flicked: str
    shot: str  # rush | melee | missile | fireball | ...
    shooter: str | None = None  # the character behind a ranged shot


@dataclass(frozen=True)
class ShotTrace:
    mat: MatGeometry
    pieces: tuple[PieceSpec, ...]
    pre: Scan
    declaration: Declaration
    impacts: tuple[ImpactRecord, ...]
    post: Scan
    meta: dict[str, Any] = field(default_factory=dict, compare=False)  # table, shot number: for people
    camera: CameraRecord | None = None  # an overhead camera's view of the shot, where the mat has one

    def spec(self, piece: str) -> PieceSpec:
        for spec in self.pieces:
            if spec.piece == piece:
                return spec
        raise KeyError(piece)


def obstacle_to_json(o: FixedObstacle) -> dict[str, Any]:
    if o.shape == "circle":
        return {"shape": "circle", "x_mm": o.x_mm, "y_mm": o.y_mm, "radius_mm": o.radius_mm}
    return {"shape": "polygon", "points": [[x, y] for x, y in o.points]}


def trace_to_json(trace: ShotTrace) -> dict[str, Any]:
    def seen(p: SeenPiece) -> dict[str, Any]:
        return {"piece": p.piece, "x_mm": p.x_mm, "y_mm": p.y_mm, "sigma_mm": p.sigma_mm}

    def scan(s: Scan) -> dict[str, Any]:
        return {"t_us": s.t_us, "pieces": [seen(p) for p in s.pieces]}

    return {
        "v": TRACE_FORMAT_VERSION,
        "mat": {
            "width_mm": trace.mat.width_mm,
            "height_mm": trace.mat.height_mm,
            "wall_gap_mm": trace.mat.wall_gap_mm,
            "sensors": [{"id": i, "x_mm": x, "y_mm": y} for i, x, y in trace.mat.sensors],
            "obstacles": [obstacle_to_json(o) for o in trace.mat.obstacles],
            **(
                {"walls": [[w.x1_mm, w.y1_mm, w.x2_mm, w.y2_mm] for w in trace.mat.walls]}
                if trace.mat.walls is not None
                else {}
            ),
            **(
                {"piezo_threshold": trace.mat.piezo_threshold}
                if trace.mat.piezo_threshold is not None
                else {}
            ),
        },
        "pieces": [
            {
                "piece": p.piece,
                "radius_mm": p.radius_mm,
                "mass_g": p.mass_g,
                "kind": p.kind,
                "side": p.side,
                **({"shadow": True} if p.shadow else {}),
            }
            for p in trace.pieces
        ],
        "pre": scan(trace.pre),
        "declaration": {
            "flicked": trace.declaration.flicked,
            "shot": trace.declaration.shot,
            "shooter": trace.declaration.shooter,
        },
        "impacts": [
            {"sensor_id": i.sensor_id, "t_us": i.t_us, "amplitude": i.amplitude} for i in trace.impacts
        ],
        "post": scan(trace.post),
        **({"camera": camera_to_json(trace.camera)} if trace.camera is not None else {}),
        **({"meta": trace.meta} if trace.meta else {}),
    }


@cache
def _trace_schema() -> Validator:
    """The trace line's shape (service/mat/schemas/trace.schema.json), built once: it is on the hot path."""
    return schema_check.validator("service.mat.schemas", "trace")


def _fail(where: str, key: str, problem: str) -> TraceFormatError:
    return TraceFormatError(f"{where}: {key}: {problem}")


def _wall(data: list[float], path: str, where: str) -> WallSegment:
    x1, y1, x2, y2 = (float(v) for v in data)
    if math.hypot(x2 - x1, y2 - y1) < 1.0:
        raise _fail(where, path, "a wall segment must be at least 1 mm long")
    return WallSegment(x1, y1, x2, y2)


def _obstacle(d: dict[str, Any], path: str, where: str) -> FixedObstacle:
    """One fixed obstacle the schema has let through: its shape, then what the schema cannot say."""
    shape = d.get("shape")
    if shape is None:  # the first form: a seen, untagged obstacle disc
        return FixedObstacle("circle", float(d["x_mm"]), float(d["y_mm"]), float(d.get("radius_mm", 20.0)))
    if shape == "circle":
        return FixedObstacle("circle", float(d["x_mm"]), float(d["y_mm"]), float(d["radius_mm"]))
    if shape == "box":
        x, y = float(d["x_mm"]), float(d["y_mm"])
        corners = box_corners(x, y, d["width_mm"], d["height_mm"], float(d.get("angle_deg", 0.0)))
        return FixedObstacle("polygon", x, y, 0.0, corners)
    points = tuple((float(x), float(y)) for x, y in d["points"])
    if len(points) < 3:
        raise _fail(where, f"{path}.points", "a polygon needs at least three points")
    area = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))
    if abs(area) < 1.0:
        raise _fail(where, f"{path}.points", "the polygon has no area")
    if area < 0:
        points = points[::-1]
    cx = sum(x for x, _ in points) / len(points)
    cy = sum(y for _, y in points) / len(points)
    return FixedObstacle("polygon", cx, cy, 0.0, points)


def _walls_and_obstacles(
    data: dict[str, Any], where: str, root: str
) -> tuple[tuple[WallSegment, ...] | None, tuple[FixedObstacle, ...]]:
    walls = None
    if "walls" in data:
        walls = tuple(_wall(w, f"{root}walls[{i}]", where) for i, w in enumerate(data["walls"]))
    obstacles = tuple(
        _obstacle(o, f"{root}obstacles[{i}]", where) for i, o in enumerate(data.get("obstacles", ()))
    )
    return walls, obstacles


def _scan(d: dict[str, Any]) -> Scan:
    pieces = tuple(
        SeenPiece(p["piece"], float(p["x_mm"]), float(p["y_mm"]), float(p["sigma_mm"])) for p in d["pieces"]
    )
    return Scan(d["t_us"], pieces)


def _mat_geometry(mat: dict[str, Any], where: str) -> MatGeometry:
    walls, obstacles = _walls_and_obstacles(mat, where, "mat.")
    threshold = mat.get("piezo_threshold")
    return MatGeometry(
        width_mm=float(mat["width_mm"]),
        height_mm=float(mat["height_mm"]),
        wall_gap_mm=float(mat["wall_gap_mm"]),
        sensors=tuple((s["id"], float(s["x_mm"]), float(s["y_mm"])) for s in mat["sensors"]),
        obstacles=obstacles,
        walls=walls,
        piezo_threshold=None if threshold is None else float(threshold),
    )


def trace_from_json(data: Any, where: str = "trace") -> ShotTrace:
    """A trace from one decoded line: its version, its shape (the schema), then what the schema cannot say
    (piece ids once each, scans and declaration naming listed pieces, walls and polygons that exist)."""
    if isinstance(data, dict) and data.get("v", TRACE_FORMAT_VERSION) != TRACE_FORMAT_VERSION:
        raise _fail(
            where,
            "v",
            f"unsupported trace format version {data['v']!r} (this build reads {TRACE_FORMAT_VERSION})",
        )
    problem = schema_check.problem(_trace_schema(), data, top="(line)")
    if problem is not None:
        raise TraceFormatError(f"{where}: {problem}")
    pieces = tuple(
        PieceSpec(
            p["piece"],
            float(p["radius_mm"]),
            float(p["mass_g"]),
            p["kind"],
            p["side"],
            p.get("shadow", False),
        )
        for p in data["pieces"]
    )
    names = {p.piece for p in pieces}
    if len(names) != len(pieces):
        raise _fail(where, "pieces", "a piece id appears twice")
    decl = data["declaration"]
    declaration = Declaration(decl["flicked"], decl["shot"], decl.get("shooter"))
    if declaration.flicked not in names:
        raise _fail(where, "declaration.flicked", f"{declaration.flicked!r} is not one of the trace's pieces")
    pre, post = _scan(data["pre"]), _scan(data["post"])
    for label, scan in (("pre", pre), ("post", post)):
        for i, seen in enumerate(scan.pieces):
            if seen.piece not in names:
                raise _fail(where, f"{label}.pieces[{i}].piece", f"unknown piece {seen.piece!r}")
    # A flicked piece the pre-scan missed is not a format error: attribution sends such a shot to the
    # referee with that reason (docs/attribution.md).
    camera = None
    if "camera" in data:
        camera = camera_from_json(data["camera"], names, lambda key, problem: _fail(where, key, problem))
    impacts = tuple(ImpactRecord(i["sensor_id"], i["t_us"], float(i["amplitude"])) for i in data["impacts"])
    meta = data.get("meta", {})
    geometry = _mat_geometry(data["mat"], where)
    return ShotTrace(
        geometry, pieces, pre, declaration, impacts, post, meta if isinstance(meta, dict) else {}, camera
    )


def parse_walls_and_obstacles(
    data: dict[str, Any], where: str, root: str = "mat."
) -> tuple[tuple[WallSegment, ...] | None, tuple[FixedObstacle, ...]]:
    """The ``walls`` and ``obstacles`` of a mat description whose shape its file's schema has checked (a
    table file's ``mat`` refers to this trace schema's ``walls`` and ``obstacles``)."""
    return _walls_and_obstacles(data, where, root)


def write_traces(traces: Iterable[ShotTrace], out: TextIO) -> None:
    for trace in traces:
        out.write(json.dumps(trace_to_json(trace), separators=(",", ":")) + "\n")


def read_traces(source: TextIO | Path | str) -> Iterator[ShotTrace]:
    """Yield the traces of a JSON Lines file; blank lines are skipped, a bad line raises naming its number."""
    if isinstance(source, str | Path):
        # Read as bytes so that a line that is not UTF-8 is named like any other bad line.
        with open(source, "rb") as handle:
            yield from _traces_of(handle.name, handle)
        return
    yield from _traces_of(getattr(source, "name", "trace"), source)


def _traces_of(name: str, lines: Iterable[str | bytes]) -> Iterator[ShotTrace]:
    for _, trace in _lines_of(name, lines):
        if isinstance(trace, TraceFormatError):
            raise trace
        yield trace


def read_traces_line_by_line(source: Path | str) -> Iterator[tuple[int, ShotTrace | TraceFormatError]]:
    """Each non-blank line's number and its trace, or the error that names why it is not one: a bad line
    does not stop the lines after it (a table's file read in play order loses one shot, not the rest)."""
    with open(source, "rb") as handle:
        yield from _lines_of(handle.name, handle)


def _lines_of(name: str, lines: Iterable[str | bytes]) -> Iterator[tuple[int, ShotTrace | TraceFormatError]]:
    for number, raw in enumerate(lines, start=1):
        try:
            trace = _trace_of_line(f"{name}:{number}", raw)
        except TraceFormatError as exc:
            yield number, exc
            continue
        if trace is not None:
            yield number, trace


def _trace_of_line(where: str, raw: str | bytes) -> ShotTrace | None:
    try:
        line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise TraceFormatError(f"{where}: not UTF-8 text (byte {exc.start + 1} of the line)") from None
    if not line.strip():
        return None
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        problem = exc.msg.removesuffix(" at")  # "Invalid control character at": the column follows
        raise TraceFormatError(f"{where}: not valid JSON ({problem} at column {exc.colno})") from None
    except RecursionError:  # json gives up on deep nesting with this, not a JSONDecodeError
        raise TraceFormatError(f"{where}: not a trace (JSON nested too deeply)") from None
    return trace_from_json(data, where)
