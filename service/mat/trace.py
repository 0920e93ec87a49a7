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
from pathlib import Path
from typing import Any, TextIO

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


class _Reader:
    """Pulls typed values out of one decoded line, naming the key path in every complaint."""

    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, key: str, problem: str) -> TraceFormatError:
        return TraceFormatError(f"{self.where}: {key}: {problem}")

    def obj(self, data: Any, key: str) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(key, "expected an object")
        return data

    def get(self, data: dict[str, Any], key: str, path: str) -> Any:
        if key not in data:
            raise self.fail(f"{path}.{key}" if path else key, "missing")
        return data[key]

    def num(self, data: dict[str, Any], key: str, path: str, *, positive: bool = False) -> float:
        value = self.get(data, key, path)
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise self.fail(f"{path}.{key}", f"expected a finite number, got {value!r}")
        if positive and value <= 0:
            raise self.fail(f"{path}.{key}", f"must be positive, got {value!r}")
        return float(value)

    def integer(self, data: dict[str, Any], key: str, path: str) -> int:
        value = self.get(data, key, path)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"{path}.{key}", f"expected an integer, got {value!r}")
        return value

    def text(self, data: dict[str, Any], key: str, path: str) -> str:
        value = self.get(data, key, path)
        if not isinstance(value, str) or not value:
            raise self.fail(f"{path}.{key}", f"expected a non-empty string, got {value!r}")
        return value

    def array(self, data: dict[str, Any], key: str, path: str) -> list[Any]:
        value = self.get(data, key, path)
        if not isinstance(value, list):
            raise self.fail(f"{path}.{key}", "expected a list")
        return value

    def seen(self, data: Any, path: str) -> SeenPiece:
        d = self.obj(data, path)
        return SeenPiece(
            self.text(d, "piece", path),
            self.num(d, "x_mm", path),
            self.num(d, "y_mm", path),
            self.num(d, "sigma_mm", path, positive=True),
        )

    def point(self, data: Any, path: str) -> tuple[float, float]:
        if not isinstance(data, list) or len(data) != 2:
            raise self.fail(path, "expected a point [x_mm, y_mm]")
        return (self.num({"x": data[0]}, "x", path), self.num({"y": data[1]}, "y", path))

    def wall(self, data: Any, path: str) -> WallSegment:
        if not isinstance(data, list) or len(data) != 4:
            raise self.fail(path, "expected a wall segment [x1_mm, y1_mm, x2_mm, y2_mm]")
        x1, y1 = self.point(data[:2], path)
        x2, y2 = self.point(data[2:], path)
        if math.hypot(x2 - x1, y2 - y1) < 1.0:
            raise self.fail(path, "a wall segment must be at least 1 mm long")
        return WallSegment(x1, y1, x2, y2)

    def obstacle(self, data: Any, path: str) -> FixedObstacle:
        d = self.obj(data, path)
        shape = d.get("shape")
        if shape is None and "piece" in d:  # the first form: a seen, untagged obstacle disc
            x, y = self.num(d, "x_mm", path), self.num(d, "y_mm", path)
            radius = self.num(d, "radius_mm", path, positive=True) if "radius_mm" in d else 20.0
            return FixedObstacle("circle", x, y, radius)
        if shape == "circle":
            x, y = self.num(d, "x_mm", path), self.num(d, "y_mm", path)
            return FixedObstacle("circle", x, y, self.num(d, "radius_mm", path, positive=True))
        if shape == "box":
            x, y = self.num(d, "x_mm", path), self.num(d, "y_mm", path)
            corners = box_corners(
                x,
                y,
                self.num(d, "width_mm", path, positive=True),
                self.num(d, "height_mm", path, positive=True),
                self.num(d, "angle_deg", path) if "angle_deg" in d else 0.0,
            )
            return FixedObstacle("polygon", x, y, 0.0, corners)
        if shape == "polygon":
            raw = self.array(d, "points", path)
            points = tuple(self.point(p, f"{path}.points[{i}]") for i, p in enumerate(raw))
            if len(points) < 3:
                raise self.fail(f"{path}.points", "a polygon needs at least three points")
            area = sum(
                x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True)
            )
            if abs(area) < 1.0:
                raise self.fail(f"{path}.points", "the polygon has no area")
            if area < 0:
                points = points[::-1]
            cx = sum(x for x, _ in points) / len(points)
            cy = sum(y for _, y in points) / len(points)
            return FixedObstacle("polygon", cx, cy, 0.0, points)
        raise self.fail(f"{path}.shape", f"expected circle, box or polygon, got {shape!r}")

    def scan(self, data: Any, path: str) -> Scan:
        d = self.obj(data, path)
        pieces = tuple(
            self.seen(p, f"{path}.pieces[{i}]") for i, p in enumerate(self.array(d, "pieces", path))
        )
        return Scan(self.integer(d, "t_us", path), pieces)

    def mat_geometry(self, mat: dict[str, Any]) -> MatGeometry:
        """The trace's ``mat``: its size, sensors, walls and fixed obstacles."""
        sensors = []
        for i, s in enumerate(self.array(mat, "sensors", "mat")):
            path = f"mat.sensors[{i}]"
            s = self.obj(s, path)
            sensors.append(
                (self.integer(s, "id", path), self.num(s, "x_mm", path), self.num(s, "y_mm", path))
            )
        walls = None
        if "walls" in mat:
            walls = tuple(
                self.wall(w, f"mat.walls[{i}]") for i, w in enumerate(self.array(mat, "walls", "mat"))
            )
        obstacles: tuple[FixedObstacle, ...] = ()
        if "obstacles" in mat:
            obstacles = tuple(
                self.obstacle(o, f"mat.obstacles[{i}]")
                for i, o in enumerate(self.array(mat, "obstacles", "mat"))
            )
        return MatGeometry(
            width_mm=self.num(mat, "width_mm", "mat", positive=True),
            height_mm=self.num(mat, "height_mm", "mat", positive=True),
            wall_gap_mm=self.num(mat, "wall_gap_mm", "mat"),
            sensors=tuple(sensors),
            obstacles=obstacles,
            walls=walls,
            piezo_threshold=(
                self.num(mat, "piezo_threshold", "mat", positive=True) if "piezo_threshold" in mat else None
            ),
        )

    def piece_spec(self, data: Any, path: str) -> PieceSpec:
        p = self.obj(data, path)
        side = self.text(p, "side", path)
        if side not in SIDES:
            raise self.fail(f"{path}.side", f"{side!r} is not one of {', '.join(SIDES)}")
        return PieceSpec(
            self.text(p, "piece", path),
            self.num(p, "radius_mm", path, positive=True),
            self.num(p, "mass_g", path, positive=True),
            self.text(p, "kind", path),
            side,
            bool(p.get("shadow", False)),
        )


def trace_from_json(data: Any, where: str = "trace") -> ShotTrace:
    r = _Reader(where)
    top = r.obj(data, "(line)")
    version = top.get("v")
    if version != TRACE_FORMAT_VERSION:
        raise r.fail(
            "v", f"unsupported trace format version {version!r} (this build reads {TRACE_FORMAT_VERSION})"
        )
    geometry = r.mat_geometry(r.obj(r.get(top, "mat", ""), "mat"))
    pieces = [r.piece_spec(p, f"pieces[{i}]") for i, p in enumerate(r.array(top, "pieces", ""))]
    names = {p.piece for p in pieces}
    if len(names) != len(pieces):
        raise r.fail("pieces", "a piece id appears twice")
    decl = r.obj(r.get(top, "declaration", ""), "declaration")
    shooter = decl.get("shooter")
    if shooter is not None and not isinstance(shooter, str):
        raise r.fail("declaration.shooter", f"expected a string or null, got {shooter!r}")
    declaration = Declaration(
        r.text(decl, "flicked", "declaration"), r.text(decl, "shot", "declaration"), shooter
    )
    if declaration.flicked not in names:
        raise r.fail("declaration.flicked", f"{declaration.flicked!r} is not one of the trace's pieces")
    impacts = []
    for i, imp in enumerate(r.array(top, "impacts", "")):
        path = f"impacts[{i}]"
        imp = r.obj(imp, path)
        impacts.append(
            ImpactRecord(
                r.integer(imp, "sensor_id", path), r.integer(imp, "t_us", path), r.num(imp, "amplitude", path)
            )
        )
    pre, post = r.scan(r.get(top, "pre", ""), "pre"), r.scan(r.get(top, "post", ""), "post")
    for label, scan in (("pre", pre), ("post", post)):
        for i, seen in enumerate(scan.pieces):
            if seen.piece not in names:
                raise r.fail(f"{label}.pieces[{i}].piece", f"unknown piece {seen.piece!r}")
    # A flicked piece the pre-scan missed is not a format error: attribution sends such a shot to the
    # referee with that reason (docs/attribution.md).
    camera = camera_from_json(top["camera"], names, r.fail) if "camera" in top else None
    meta = top.get("meta", {})
    return ShotTrace(
        geometry,
        tuple(pieces),
        pre,
        declaration,
        tuple(impacts),
        post,
        meta if isinstance(meta, dict) else {},
        camera,
    )


def parse_walls_and_obstacles(
    data: dict[str, Any], where: str
) -> tuple[tuple[WallSegment, ...] | None, tuple[FixedObstacle, ...]]:
    """The ``walls`` and ``obstacles`` of a mat description (a trace's ``mat``, or a table file's ``mat``)."""
    r = _Reader(where)
    walls = None
    if "walls" in data:
        walls = tuple(r.wall(w, f"walls[{i}]") for i, w in enumerate(r.array(data, "walls", "")))
    obstacles: tuple[FixedObstacle, ...] = ()
    if "obstacles" in data:
        obstacles = tuple(
            r.obstacle(o, f"obstacles[{i}]") for i, o in enumerate(r.array(data, "obstacles", ""))
        )
    return walls, obstacles


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
