"""Loads and validates the physical description of a table: the mat, its sensors and the pieces' sizes.

Files live in ``content/hardware/`` (mat and sensor configurations) and ``content/<ruleset>/pieces.yaml``.
Every error names the file and the key that is wrong, so a broken content file is fixed in one look.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

CONTENT_DIR = Path(__file__).resolve().parents[2] / "content"
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


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentFileError(path, "(file)", f"cannot read: {exc.strerror or exc}") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ContentFileError(path, "(file)", f"not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise ContentFileError(path, "(top level)", "expected a mapping")
    return data


def _section(path: Path, data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise ContentFileError(path, key, "missing or not a mapping")
    return value


def _number(
    path: Path,
    section: dict[str, Any],
    dotted: str,
    *,
    low: float = 0.0,
    high: float = math.inf,
    allow_low: bool = False,
) -> float:
    key = dotted.rsplit(".", 1)[-1]
    if key not in section:
        raise ContentFileError(path, dotted, "missing")
    value = section[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ContentFileError(path, dotted, f"expected a number, got {value!r}")
    too_low = value < low if allow_low else value <= low
    if too_low or value > high or not math.isfinite(value):
        bound = f">= {low}" if allow_low else f"> {low}"
        raise ContentFileError(path, dotted, f"{value!r} out of range (must be {bound} and <= {high})")
    return float(value)


def load_mat(path: Path | None = None) -> MatConfig:
    path = path or HARDWARE_DIR / "mat.yaml"
    data = _read_yaml(path)
    mat, walls, surface = (_section(path, data, k) for k in ("mat", "walls", "surface"))
    obstacles = []
    raw_obstacles = data.get("obstacles", [])
    if not isinstance(raw_obstacles, list):
        raise ContentFileError(path, "obstacles", "expected a list")
    width = _number(path, mat, "mat.width_mm")
    height = _number(path, mat, "mat.height_mm")
    for i, item in enumerate(raw_obstacles):
        where = f"obstacles[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise ContentFileError(path, where, "expected {id, x_mm, y_mm}")
        x = _number(path, item, f"{where}.x_mm", low=0.0, high=width, allow_low=True)
        y = _number(path, item, f"{where}.y_mm", low=0.0, high=height, allow_low=True)
        obstacles.append(ObstacleSpot(item["id"], x, y))
    return MatConfig(
        width_mm=width,
        height_mm=height,
        wall_gap_mm=_number(path, walls, "walls.gap_mm"),
        wall_restitution=_number(path, walls, "walls.restitution", high=1.0),
        sliding_friction=_number(path, surface, "surface.sliding_friction", high=2.0),
        friction_variation=_number(path, surface, "surface.friction_variation", high=0.5, allow_low=True),
        off_mat_friction=_number(path, surface, "surface.off_mat_friction", high=2.0),
        obstacles=tuple(obstacles),
    )


def load_sensor_config(name_or_path: str | Path = "reference") -> SensorConfig:
    """A sensor configuration by name (``reference``, ``cheaper``, ``noisier``) or by file path."""
    if isinstance(name_or_path, str) and name_or_path in SENSOR_CONFIG_NAMES:
        path = HARDWARE_DIR / f"sensors-{name_or_path}.yaml"
    else:
        path = Path(name_or_path)
    data = _read_yaml(path)
    nfc, piezo = _section(path, data, "nfc"), _section(path, data, "piezo")
    layout = piezo.get("layout")
    if layout not in PIEZO_LAYOUTS:
        raise ContentFileError(path, "piezo.layout", f"{layout!r} is not one of {', '.join(PIEZO_LAYOUTS)}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ContentFileError(path, "name", "missing or not a string")
    return SensorConfig(
        name=name,
        nfc=NfcConfig(
            pitch_mm=_number(path, nfc, "nfc.pitch_mm"),
            read_range_mm=_number(path, nfc, "nfc.read_range_mm"),
            rssi_at_zero=_number(path, nfc, "nfc.rssi_at_zero", low=-127, high=127),
            rssi_per_mm=_number(path, nfc, "nfc.rssi_per_mm"),
            rssi_noise=_number(path, nfc, "nfc.rssi_noise", allow_low=True),
            scan_time_per_cell_us=int(_number(path, nfc, "nfc.scan_time_per_cell_us")),
            missed_read=_number(path, nfc, "nfc.missed_read", high=1.0, allow_low=True),
            cell_dropout=_number(path, nfc, "nfc.cell_dropout", high=1.0, allow_low=True),
            position_sigma_mm=_number(path, nfc, "nfc.position_sigma_mm"),
        ),
        piezo=PiezoConfig(
            layout=layout,
            timing_jitter_us=_number(path, piezo, "piezo.timing_jitter_us", allow_low=True),
            wave_speed_mm_per_us=_number(path, piezo, "piezo.wave_speed_mm_per_us"),
            amplitude_falloff_mm=_number(path, piezo, "piezo.amplitude_falloff_mm"),
            disc_disc_coupling=_number(path, piezo, "piezo.disc_disc_coupling", high=1.0),
            detection_threshold=_number(path, piezo, "piezo.detection_threshold", allow_low=True),
            false_triggers_per_s=_number(path, piezo, "piezo.false_triggers_per_s", allow_low=True),
            impulse_scale=_number(path, piezo, "piezo.impulse_scale"),
        ),
        camera=_camera(path, data),
    )


def _camera(path: Path, data: dict[str, Any]) -> CameraConfig | None:
    if "camera" not in data:
        return None
    camera = _section(path, data, "camera")
    return CameraConfig(
        fps=_number(path, camera, "camera.fps", low=10.0, high=2000.0),
        position_sigma_mm=_number(path, camera, "camera.position_sigma_mm", high=20.0),
        motion_threshold_mm=_number(path, camera, "camera.motion_threshold_mm", high=50.0),
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
    path = path or CONTENT_DIR / "catacombs-3e" / "pieces.yaml"
    data = _read_yaml(path)
    pieces = _section(path, data, "pieces")
    classes = {}
    for name, entry in pieces.items():
        where = f"pieces.{name}"
        if not isinstance(entry, dict):
            raise ContentFileError(path, where, "expected a mapping")
        unverified = bool(entry.get("unverified", False))
        source = entry.get("source", "")
        if unverified and not (isinstance(source, str) and source.strip()):
            raise ContentFileError(
                path, f"{where}.source", "an unverified value must say where it comes from"
            )
        classes[str(name)] = PieceClass(
            name=str(name),
            radius_mm=_number(path, entry, f"{where}.radius_mm", high=100.0),
            mass_g=_number(path, entry, f"{where}.mass_g", high=500.0),
            covers=bool(entry.get("covers", False)),
            unverified=unverified,
            source=str(source),
        )
    if not classes:
        raise ContentFileError(path, "pieces", "no piece classes defined")
    return classes
