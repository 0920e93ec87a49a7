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
class MatGeometry:
    width_mm: float
    height_mm: float
    wall_gap_mm: float
    sensors: tuple[tuple[int, float, float], ...]
    obstacles: tuple[SeenPiece, ...] = ()  # fixed, untagged obstacles; tagged ones are ordinary pieces


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

    def spec(self, piece: str) -> PieceSpec:
        for spec in self.pieces:
            if spec.piece == piece:
                return spec
        raise KeyError(piece)


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
            "obstacles": [seen(p) for p in trace.mat.obstacles],
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

    def scan(self, data: Any, path: str) -> Scan:
        d = self.obj(data, path)
        pieces = tuple(
            self.seen(p, f"{path}.pieces[{i}]") for i, p in enumerate(self.array(d, "pieces", path))
        )
        return Scan(self.integer(d, "t_us", path), pieces)


def trace_from_json(data: Any, where: str = "trace") -> ShotTrace:
    r = _Reader(where)
    top = r.obj(data, "(line)")
    version = top.get("v")
    if version != TRACE_FORMAT_VERSION:
        raise r.fail(
            "v", f"unsupported trace format version {version!r} (this build reads {TRACE_FORMAT_VERSION})"
        )
    mat = r.obj(r.get(top, "mat", ""), "mat")
    sensors = []
    for i, s in enumerate(r.array(mat, "sensors", "mat")):
        path = f"mat.sensors[{i}]"
        s = r.obj(s, path)
        sensors.append((r.integer(s, "id", path), r.num(s, "x_mm", path), r.num(s, "y_mm", path)))
    geometry = MatGeometry(
        width_mm=r.num(mat, "width_mm", "mat", positive=True),
        height_mm=r.num(mat, "height_mm", "mat", positive=True),
        wall_gap_mm=r.num(mat, "wall_gap_mm", "mat"),
        sensors=tuple(sensors),
        obstacles=tuple(r.seen(o, f"mat.obstacles[{i}]") for i, o in enumerate(mat.get("obstacles", []))),
    )
    pieces = []
    for i, p in enumerate(r.array(top, "pieces", "")):
        path = f"pieces[{i}]"
        p = r.obj(p, path)
        side = r.text(p, "side", path)
        if side not in SIDES:
            raise r.fail(f"{path}.side", f"{side!r} is not one of {', '.join(SIDES)}")
        pieces.append(
            PieceSpec(
                r.text(p, "piece", path),
                r.num(p, "radius_mm", path, positive=True),
                r.num(p, "mass_g", path, positive=True),
                r.text(p, "kind", path),
                side,
                bool(p.get("shadow", False)),
            )
        )
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
    if declaration.flicked not in pre.by_piece():
        raise r.fail("pre.pieces", f"the flicked piece {declaration.flicked!r} was not seen before the shot")
    meta = top.get("meta", {})
    return ShotTrace(
        geometry,
        tuple(pieces),
        pre,
        declaration,
        tuple(impacts),
        post,
        meta if isinstance(meta, dict) else {},
    )


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
    for number, raw in enumerate(lines, start=1):
        where = f"{name}:{number}"
        try:
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as exc:
            raise TraceFormatError(f"{where}: not UTF-8 text (byte {exc.start + 1} of the line)") from None
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceFormatError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from exc
        except RecursionError:  # json gives up on deep nesting with this, not a JSONDecodeError
            raise TraceFormatError(f"{where}: not a trace (JSON nested too deeply)") from None
        yield trace_from_json(data, where)
