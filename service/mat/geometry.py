"""Loads and validates the physical description of a table: the mat, its sensors and the pieces' sizes.

Files live in ``content/hardware/`` (mat and sensor configurations), ``content/pieces.yaml`` (the common piece
classes) and ``content/<ruleset>/pieces.yaml`` (a game's own).
Every error names the file and the key that is wrong, so a broken content file is fixed in one look.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from service.common import schema_check

CONTENT_DIR = Path(__file__).resolve().parents[2] / "content"
COMMON_PIECES = CONTENT_DIR / "pieces.yaml"
"""The piece classes every table knows (obstacles, the boxes' common disc sizes), whatever its game."""
HARDWARE_DIR = CONTENT_DIR / "hardware"
SENSOR_CONFIG_NAMES = ("reference", "cheaper", "noisier", "proposed", "contact", "camera")
PIEZO_LAYOUTS = ("corners", "corners-and-midpoints", "grid-3x3")


class ContentFileError(ValueError):
    """A content file is missing, unreadable or has a wrong value; the message names file and key."""

    def __init__(self, path: Path | str, key: str, problem: str) -> None:
        super().__init__(f"{path}: {key}: {problem}")
        self.path = str(path)
        self.key = key


@dataclass(frozen=True)
class PieceClass:
    name: str
    radius_mm: float
    mass_g: float
    covers: bool = False  # sits on top of another piece (ice) rather than on the mat
    unverified: bool = False
    source: str = ""


@dataclass(frozen=True)
class ObstacleSpot:
    id: str
    x_mm: float
    y_mm: float


@dataclass(frozen=True)
class MatConfig:
    width_mm: float
    height_mm: float
    wall_gap_mm: float
    wall_restitution: float
    sliding_friction: float
    friction_variation: float
    off_mat_friction: float
    obstacles: tuple[ObstacleSpot, ...]


@dataclass(frozen=True)
class NfcConfig:
    pitch_mm: float
    read_range_mm: float
    rssi_at_zero: float
    rssi_per_mm: float
    rssi_noise: float
    scan_time_per_cell_us: int
    missed_read: float
    cell_dropout: float
    position_sigma_mm: float  # effective per-axis noise of a centroid estimate from three or more antennas


@dataclass(frozen=True)
class PiezoConfig:
    layout: str
    timing_jitter_us: float
    wave_speed_mm_per_us: float
    amplitude_falloff_mm: float
    disc_disc_coupling: float
    detection_threshold: float
    false_triggers_per_s: float
    impulse_scale: float


@dataclass(frozen=True)
class CameraConfig:
    """An overhead camera with a tracker (a sensor study: docs/sensor-model.md, "Overhead camera")."""

    fps: float
    position_sigma_mm: float  # per axis, per frame, as the camera's maker states it
    motion_threshold_mm: float  # the tracker reports a piece's path once it has moved this far


@dataclass(frozen=True)
class SensorConfig:
    name: str
    nfc: NfcConfig
    piezo: PiezoConfig
    camera: CameraConfig | None = None

    def grid_shape(self, mat: MatConfig) -> tuple[int, int]:
        """Columns and rows of NFC antennas covering the mat, centred on it."""
        return (
            max(1, math.floor(mat.width_mm / self.nfc.pitch_mm)),
            max(1, math.floor(mat.height_mm / self.nfc.pitch_mm)),
        )

    def grid_origin(self, mat: MatConfig) -> tuple[float, float]:
        cols, rows = self.grid_shape(mat)
        pitch = self.nfc.pitch_mm
        return ((mat.width_mm - (cols - 1) * pitch) / 2, (mat.height_mm - (rows - 1) * pitch) / 2)

    def piezo_positions(self, mat: MatConfig) -> tuple[tuple[int, float, float], ...]:
        """(sensor id, x, y) of each piezo; they sit on the mat's edge, under the wall gap."""
        w, h = mat.width_mm, mat.height_mm
        corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        if self.piezo.layout == "corners":
            spots = corners
        elif self.piezo.layout == "corners-and-midpoints":
            spots = corners + [(w / 2, 0.0), (w, h / 2), (w / 2, h), (0.0, h / 2)]
        else:  # grid-3x3: corners, midpoints and one under the middle of the mat
            spots = corners + [(w / 2, 0.0), (w, h / 2), (w / 2, h), (0.0, h / 2), (w / 2, h / 2)]
        return tuple((i, x, y) for i, (x, y) in enumerate(spots))


def _read_yaml(path: Path, schema: str) -> dict[str, Any]:
    """A hardware or pieces file, checked against ``service/mat/schemas/<schema>.schema.json``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentFileError(path, "(file)", f"cannot read: {exc.strerror or exc}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ContentFileError(path, "(file)", f"not valid YAML: {exc}") from exc
    found = schema_check.first_problem(
        schema_check.validator("service.mat.schemas", schema), data, top="(top level)"
    )
    if found is not None:
        raise ContentFileError(path, *found)
    checked: dict[str, Any] = data
    return checked


def load_mat(path: Path | None = None) -> MatConfig:
    """The playmat (service/mat/schemas/hardware_mat.schema.json); that its obstacles stand on the mat is
    checked after the schema."""
    path = path or HARDWARE_DIR / "mat.yaml"
    data = _read_yaml(path, "hardware_mat")
    mat, walls, surface = data["mat"], data["walls"], data["surface"]
    width, height = float(mat["width_mm"]), float(mat["height_mm"])
    obstacles = []
    for i, item in enumerate(data.get("obstacles", [])):
        for axis, size in (("x_mm", width), ("y_mm", height)):
            if item[axis] > size:
                raise ContentFileError(
                    path, f"obstacles[{i}].{axis}", f"{item[axis]!r} is off the mat (0-{size:g})"
                )
        obstacles.append(ObstacleSpot(item["id"], float(item["x_mm"]), float(item["y_mm"])))
    return MatConfig(
        width_mm=width,
        height_mm=height,
        wall_gap_mm=float(walls["gap_mm"]),
        wall_restitution=float(walls["restitution"]),
        sliding_friction=float(surface["sliding_friction"]),
        friction_variation=float(surface["friction_variation"]),
        off_mat_friction=float(surface["off_mat_friction"]),
        obstacles=tuple(obstacles),
    )


def load_sensor_config(name_or_path: str | Path = "reference") -> SensorConfig:
    """A sensor configuration by name (``reference``, ``cheaper``, ``noisier``) or by file path; its shape is
    service/mat/schemas/sensors.schema.json."""
    if isinstance(name_or_path, str) and name_or_path in SENSOR_CONFIG_NAMES:
        path = HARDWARE_DIR / f"sensors-{name_or_path}.yaml"
    else:
        path = Path(name_or_path)
    data = _read_yaml(path, "sensors")
    nfc, piezo, camera = data["nfc"], data["piezo"], data.get("camera")

    def numbers(section: dict[str, Any], kind: type[Any]) -> Any:
        fields = {name for name in kind.__dataclass_fields__ if name != "layout"}
        return {name: float(section[name]) for name in fields}

    nfc_fields = numbers(nfc, NfcConfig) | {"scan_time_per_cell_us": int(nfc["scan_time_per_cell_us"])}
    return SensorConfig(
        name=data["name"],
        nfc=NfcConfig(**nfc_fields),
        piezo=PiezoConfig(layout=piezo["layout"], **numbers(piezo, PiezoConfig)),
        camera=None if camera is None else CameraConfig(**numbers(camera, CameraConfig)),
    )


RANGED_CLASS_PREFIXES = ("ranged", "castles-ranged-")  # pieces put down beside a shooter and flicked


def is_ranged_class(piece_class: str) -> bool:
    """Whether discs of this class are ranged pieces (a 3E missile, a Castles fireball piece, ...)."""
    return piece_class == "ranged" or piece_class.startswith(RANGED_CLASS_PREFIXES[1])


def piece_classes_for(piece_sets: Sequence[str]) -> dict[str, PieceClass]:
    """The piece classes a table may use: the common classes (obstacles, and every box's common sizes),
    plus each of ``piece_sets``' ``content/<set>/pieces.yaml`` that exists (a game's ``piece_sets``,
    service.table.games.piece_classes)."""
    classes = load_piece_classes()
    for piece_set in piece_sets:
        own = CONTENT_DIR / piece_set / "pieces.yaml"
        if own.exists():
            classes.update(load_piece_classes(own))
    return classes


def load_piece_classes(path: Path | None = None) -> dict[str, PieceClass]:
    """The disc sizes of ``path``, by default the common classes (``content/pieces.yaml``), as
    service/mat/schemas/pieces.schema.json says; an unverified size must say where it comes from."""
    path = path or COMMON_PIECES
    classes = {}
    for name, entry in _read_yaml(path, "pieces")["pieces"].items():
        unverified, source = entry.get("unverified", False), entry.get("source", "")
        if unverified and not source.strip():
            raise ContentFileError(
                path, f"pieces.{name}.source", "an unverified value must say where it comes from"
            )
        classes[str(name)] = PieceClass(
            name=str(name),
            radius_mm=float(entry["radius_mm"]),
            mass_g=float(entry["mass_g"]),
            covers=entry.get("covers", False),
            unverified=unverified,
            source=source,
        )
    return classes
