"""A table's configuration file: its id, rule set, registered discs, sensor calibration and game setup.

``content/tables/demo.yaml`` is the shipped example; organisers copy it and list their own discs' UIDs.
Errors name the file and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema.protocols import Validator

from service.common import schema_check
from service.games import DEFAULT_RULESET, definition_of, definitions
from service.mat.trace import FixedObstacle, TraceFormatError, WallSegment, parse_walls_and_obstacles
from service.publish.topics import TopicError, check_id
from service.sensing.locate import NfcCalibration
from service.sensing.tags import TableConfigError, TagRegistry, parse_registry, read_table_yaml
from service.table.disc_sets import load_set

SHIPPED_TABLES = Path(__file__).resolve().parents[2] / "content" / "tables"


@dataclass(frozen=True)
class GameSetup:
    heroes: tuple[str, ...]
    lord: str
    seed: int
    rooms: tuple[str, ...] | None = None  # a fixed room deck (None: the rules' random layout)
    # The cards: "shipped" (content/, with the organiser's overlay). A table file can name no other; the tests
    # put their hand-made set here ("sample", registered only under the tests).
    content: str = "shipped"
    # Catacombs & Castles: the mode played (team, one-versus-one, boss, boss-versus-boss) and, for each mode
    # the table can play, its setup fields (sides, first, game_length, ...: docs/game-log.md).
    mode: str | None = None
    modes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # Catacombs 3E: the table's settings (the fields of the rule set's settings_type, for Catacombs
    # service.games.catacombs.flow.settings.Settings, e.g. physical_decks: true for a table that draws real
    # cards), written into every game's setup record.
    settings: Mapping[str, Any] = field(default_factory=dict)
    # Catacombs 3E: the shipped expansions the game plays with (soloth; castles: the Castles heroes, Dark
    # Spells and playmat, catacombs-and-castles-2e-manual.md: Catacombs 3E Integration), into every setup.
    expansions: tuple[str, ...] = ()
    # The table file's game section as written (its shape is the game's own table_game schema): what a game
    # outside the fields above reads of it (its TableBehaviour's setup_payload).
    fields: Mapping[str, Any] = field(default_factory=dict)


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


def _table_schema(data: Any, where: str) -> Validator:
    """The table file's schema with, as its ``game``, the section schema of the game its ``ruleset`` names
    (each game ships its own: service/games/<game>/schemas/); a ruleset that is not text is left to the
    table schema to refuse."""
    ruleset = data.get("ruleset", DEFAULT_RULESET) if isinstance(data, dict) else None
    sections: tuple[tuple[str, str, str], ...] = ()
    if isinstance(ruleset, str):
        try:
            package, name = definition_of(ruleset).table_game_schema
        except ValueError as exc:
            raise TableConfigError(f"{where}: ruleset: {exc}") from None
        sections = (("game", package, name),)
    return schema_check.validator(
        "service.table.schemas",
        "table",
        refs=("service.mat.schemas", "service.sensing.schemas"),
        sections=sections,
    )


def load_table(path: Path | str | None = None) -> TableConfig:
    """The table file's shape is service/table/schemas/table.schema.json; what a schema cannot say (the id's
    spelling, the mode among the modes listed, walls that exist) is checked after it."""
    path = Path(path) if path else SHIPPED_TABLES / "demo.yaml"
    if not path.exists() and not path.suffix:
        path = SHIPPED_TABLES / f"{path}.yaml"
    data = read_table_yaml(path)
    where = str(path)
    schema_check.check(_table_schema(data, where), data, where, TableConfigError)
    try:
        check_id(data["table"], "table id")
    except TopicError as exc:
        raise TableConfigError(f"{where}: table: {exc}") from None
    calibration = NfcCalibration(**{k: float(v) for k, v in (data.get("calibration") or {}).items()})
    game = data["game"]
    ruleset = str(data.get("ruleset", DEFAULT_RULESET))
    if ruleset in _rulesets_with_modes():
        setup = _castles_game(game, f"{where}: game")
    else:
        # The game's section schema has required what its game needs; a game may read more (``fields``).
        rooms = game.get("rooms")
        setup = GameSetup(
            heroes=tuple(game.get("heroes") or ()),
            lord=str(game.get("lord", "")),
            seed=int(game.get("seed", 0)),
            rooms=tuple(rooms) if rooms else None,
            settings=dict(game.get("settings") or {}),
            expansions=tuple(game.get("expansions") or ()),
            fields=dict(game),
        )
    try:
        walls, obstacles = parse_walls_and_obstacles(data.get("mat") or {}, where)
    except TraceFormatError as exc:  # the mat is described as a trace describes it, and refused alike
        raise TableConfigError(str(exc)) from None
    return TableConfig(
        walls=walls,
        obstacles=obstacles,
        path=path,
        table=data["table"],
        ruleset=ruleset,
        sensors=str(data.get("sensors", "reference")),
        calibration=calibration,
        game=setup,
        registry=_registry(data, path),
    )


def _castles_game(game: dict[str, Any], where: str) -> GameSetup:
    """A Catacombs & Castles table's games: ``modes`` maps each mode to its setup, ``mode`` picks one."""
    modes: dict[str, dict[str, Any]] = game["modes"]
    for name, fields in modes.items():
        reserved = sorted({"ruleset", "mode", "seed"} & set(fields))
        if reserved:
            raise TableConfigError(f"{where}.modes.{name}: {', '.join(reserved)} are set by the table itself")
    mode = str(game.get("mode", "team"))
    if mode not in modes:
        raise TableConfigError(f"{where}.mode: {mode!r} is not one of the modes listed ({sorted(modes)})")
    return GameSetup(
        heroes=(),
        lord="",
        seed=game["seed"],
        mode=mode,
        modes={str(name): dict(fields) for name, fields in modes.items()},
        fields=dict(game),
    )


def with_game(
    table: TableConfig,
    ruleset: str | None = None,
    mode: str | None = None,
    expansions: tuple[str, ...] = (),
) -> TableConfig:
    """The table with another mode picked (``smartmat run --mode``) or expansions added (``--expansion``); a
    rule set other than the file's is refused by name, since its discs and games are the file's."""
    from dataclasses import replace

    if ruleset is not None and ruleset != table.ruleset:
        raise TableConfigError(
            f"{table.path}: this table plays {table.ruleset}, not {ruleset} "
            f"(give a table file for {ruleset}, or leave --table out to use the shipped one)"
        )
    if expansions:
        if table.game.modes:
            raise TableConfigError(f"{table.path}: --expansion is for Catacombs 3E tables")
        added = tuple(dict.fromkeys((*table.game.expansions, *expansions)))
        table = replace(table, game=replace(table.game, expansions=added))
    if mode is None:
        return table
    if not table.game.modes:
        raise TableConfigError(
            f"{table.path}: --mode is for Catacombs & Castles tables; {table.ruleset} has none"
        )
    if mode not in table.game.modes:
        raise TableConfigError(
            f"{table.path}: game.modes has no {mode!r} game (it has {', '.join(sorted(table.game.modes))})"
        )
    return replace(table, game=replace(table.game, mode=mode))


def shipped_tables() -> dict[str, str]:
    """Rule set -> the shipped table file (``content/tables/<name>.yaml``) that plays it."""
    return {game.name: game.demo_table for game in definitions()}


def _rulesets_with_modes() -> set[str]:
    return {game.name for game in definitions() if game.table_file_modes}


def _registry(data: dict[str, Any], path: Path) -> TagRegistry:
    """The table's discs: listed under ``tags``, or in an enrolled set file named by ``tag_set``."""
    tag_set = data.get("tag_set")
    if tag_set is None:
        if "tags" not in data:
            raise TableConfigError(f"{path}: tags: missing (list the discs, or name a disc set in tag_set)")
        return parse_registry(data["tags"], str(path))
    if "tags" in data:
        raise TableConfigError(f"{path}: tag_set and tags: give one of them, not both")
    set_path = Path(tag_set)
    return load_set(set_path if set_path.is_absolute() else path.parent / set_path).registry
