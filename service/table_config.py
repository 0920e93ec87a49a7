"""A table's configuration file: its id, rule set, registered discs, sensor calibration and game setup.

``content/tables/demo.yaml`` is the shipped example; organisers copy it and list their own discs' UIDs.
Errors name the file and the key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from service.attribution.trace import FixedObstacle, WallSegment, parse_walls_and_obstacles
from service.enrolment.sets import load_set
from service.publish.topics import TopicError, check_id
from service.sensing.locate import NfcCalibration
from service.sensing.tags import TableConfigError, TagRegistry, parse_registry

SHIPPED_TABLES = Path(__file__).resolve().parents[1] / "content" / "tables"


@dataclass(frozen=True)
class GameSetup:
    heroes: tuple[str, ...]
    lord: str
    seed: int
    rooms: tuple[str, ...] | None = None  # a fixed room deck (None: the rules' random layout)
    content: str = "shipped"  # "shipped" (content/, with the overlay) or "sample" (the small test set)


@dataclass(frozen=True)
class TableConfig:
    path: Path
    table: str
    ruleset: str
    sensors: str
    calibration: NfcCalibration
    game: GameSetup
    registry: TagRegistry = field(compare=False)
    # The playmat in use, when it is not the classic closed wall system (docs/trace-format.md): the walls'
    # inner faces (a gap is two segments, an open side none) and the fixed obstacles (Castles walls).
    walls: tuple[WallSegment, ...] | None = None
    obstacles: tuple[FixedObstacle, ...] = ()


def _require(data: dict[str, Any], key: str, where: str, kind: type) -> Any:
    if key not in data:
        raise TableConfigError(f"{where}.{key}: missing")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TableConfigError(f"{where}.{key}: expected {kind.__name__}, got {value!r}")
    return value


def load_table(path: Path | str | None = None) -> TableConfig:
    path = Path(path) if path else SHIPPED_TABLES / "demo.yaml"
    if not path.exists() and not path.suffix:
        path = SHIPPED_TABLES / f"{path}.yaml"
    try:
        data = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise TableConfigError(f"{path}: cannot read: {exc}") from exc
    where = str(path)
    if not isinstance(data, dict):
        raise TableConfigError(f"{where}: expected a mapping at the top")
    table = _require(data, "table", where, str)
    try:
        check_id(table, "table id")
    except TopicError as exc:
        raise TableConfigError(f"{where}: table: {exc}") from None
    calibration_data = data.get("calibration") or {}
    if not isinstance(calibration_data, dict):
        raise TableConfigError(f"{where}: calibration: expected a mapping")
    try:
        calibration = NfcCalibration(**{k: float(v) for k, v in calibration_data.items()})
    except (TypeError, ValueError) as exc:
        raise TableConfigError(f"{where}: calibration: {exc}") from None
    game = _require(data, "game", where, dict)
    heroes = _require(game, "heroes", f"{where}: game", list)
    rooms = game.get("rooms")
    setup = GameSetup(
        heroes=tuple(str(h) for h in heroes),
        lord=str(_require(game, "lord", f"{where}: game", str)),
        seed=int(_require(game, "seed", f"{where}: game", int)),
        rooms=tuple(str(r) for r in rooms) if rooms else None,
        content=str(game.get("content", "shipped")),
    )
    mat = data.get("mat") or {}
    if not isinstance(mat, dict):
        raise TableConfigError(f"{where}: mat: expected a mapping with walls and/or obstacles")
    try:
        walls, obstacles = parse_walls_and_obstacles(mat, f"{where}: mat")
    except ValueError as exc:
        raise TableConfigError(str(exc)) from None
    return TableConfig(
        walls=walls,
        obstacles=obstacles,
        path=path,
        table=table,
        ruleset=str(data.get("ruleset", "catacombs-3e")),
        sensors=str(data.get("sensors", "reference")),
        calibration=calibration,
        game=setup,
        registry=_registry(data, path),
    )


def _registry(data: dict[str, Any], path: Path) -> TagRegistry:
    """The table's discs: listed under ``tags``, or in an enrolled set file named by ``tag_set``."""
    tag_set = data.get("tag_set")
    if tag_set is None:
        return parse_registry(data.get("tags"), str(path))
    if "tags" in data:
        raise TableConfigError(f"{path}: tag_set and tags: give one of them, not both")
    if not isinstance(tag_set, str) or not tag_set:
        raise TableConfigError(f"{path}: tag_set: expected the path of a disc set file")
    set_path = Path(tag_set)
    return load_set(set_path if set_path.is_absolute() else path.parent / set_path).registry
