"""Every file the product reads is checked against its shipped JSON Schema (Draft 2020-12), and a broken one
is refused naming the file, the key path and what was expected: table files, enrolled disc sets, shot traces,
calibration files (version 1 read as version 2), the hub's kept bridge passwords, the guided calibration's
report (ignored, and logged, when broken), the hardware descriptions and disc sizes. The shipped examples
pass. (The camera's discs file, the LED trackers section and the commands have their own tests: tests/camera,
tests/trackers, tests/table.)"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator

from service.attribution.calibration import (
    CalibrationFileError,
    built_in_calibration,
    calibration_from_json,
    load_calibration,
    save_calibration,
    wide_priors,
)
from service.common import schema_check
from service.games import definitions
from service.guided.report import load_report, save_report
from service.hub.bridge_config import BridgeConfigError, BridgePlan, write_bundle
from service.mat.geometry import (
    CONTENT_DIR,
    HARDWARE_DIR,
    SENSOR_CONFIG_NAMES,
    ContentFileError,
    load_mat,
    load_piece_classes,
    load_sensor_config,
)
from service.mat.trace import TraceFormatError, read_traces, trace_from_json
from service.sensing.tags import RegisteredPiece, TableConfigError
from service.table.config import SHIPPED_TABLES, load_table
from service.table.disc_sets import load_set, save_set

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PACKAGES = (
    "service.table.schemas",
    "service.sensing.schemas",
    "service.mat.schemas",
    "service.attribution.schemas",
    "service.hub.schemas",
    "service.camera.schemas",
    "service.guided.schemas",
    # each game's own: the shape of a table file's game section
    *sorted({game.table_game_schema[0] for game in definitions()}),
)
EXAMPLE_TRACES = ROOT / "examples" / "traces" / "clear-shots.jsonl"


def _schemas() -> list[tuple[str, str]]:
    return [
        (package, entry.name.removesuffix(".schema.json"))
        for package in SCHEMA_PACKAGES
        for entry in resources.files(package).iterdir()
        if entry.name.endswith(".schema.json")
    ]


def test_every_shipped_schema_is_draft_2020_12_with_an_id_and_a_title() -> None:
    found = _schemas()
    assert {name for _, name in found} >= {"table", "trackers", "disc_set", "tags", "trace", "calibration"}
    for package, name in found:
        schema = schema_check.validator(package, name).schema
        Draft202012Validator.check_schema(schema)
        assert schema["$id"].endswith(f"/{name}.schema.json") and schema["title"], name


def test_the_schemas_ship_as_package_data() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"*" = ["*.yaml", "*.json"' in pyproject  # every package's *.json, schemas/ included
    for package, _ in _schemas():
        assert resources.files(package).joinpath("__init__.py").is_file(), package


# ---- table files ----


@pytest.mark.parametrize("shipped", sorted(SHIPPED_TABLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_table_file_passes(shipped: Path) -> None:
    assert load_table(shipped).table == yaml.safe_load(shipped.read_text())["table"]


def _demo() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((SHIPPED_TABLES / "demo.yaml").read_text())
    return data


def _castles() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((SHIPPED_TABLES / "castles-demo.yaml").read_text())
    return data


@pytest.mark.parametrize(
    ("broken", "refusal"),
    [
        (lambda d: d | {"seats": 4}, "t.yaml: (top): unknown key(s) seats"),
        (lambda d: {k: v for k, v in d.items() if k != "game"}, "t.yaml: game: missing"),
        (lambda d: d | {"table": 7}, "t.yaml: table: expected the table's id"),
        (lambda d: d | {"game": {**d["game"], "seed": "soon"}}, "t.yaml: game.seed: expected a whole number"),
        (lambda d: d | {"game": {**d["game"], "hero": ["x"]}}, "t.yaml: game: unknown key(s) hero"),
        (
            lambda d: d | {"game": {k: v for k, v in d["game"].items() if k != "lord"}},
            "t.yaml: game.lord: missing",
        ),
        (
            lambda d: d | {"calibration": {"rssi_floor": -50}},
            "t.yaml: calibration: unknown key(s) rssi_floor",
        ),
        (
            lambda d: d | {"calibration": {"position_sigma_mm": 0}},
            "t.yaml: calibration.position_sigma_mm: must",
        ),
        (
            lambda d: d | {"tags": d["tags"][:1] + [{"piece": "orc-1", "uid": 4}]},
            "t.yaml: tags[1].class: missing",
        ),
        (
            lambda d: d | {"tags": [{**d["tags"][0], "uid": 4112233}]},
            "t.yaml: tags[0].uid: expected 4 to 10 bytes",
        ),
        (
            lambda d: d | {"tags": [{**d["tags"][0], "piece": "Hero X"}]},
            "t.yaml: tags[0].piece: 'Hero X' must",
        ),
        (lambda d: d | {"mat": {"walls": [[0, 0, 5]]}}, "t.yaml: mat.walls[0]: expected a wall segment"),
        (lambda d: d | {"mat": {"doors": []}}, "t.yaml: mat: unknown key(s) doors"),
        (
            lambda d: d | {"trackers": [{"id": "b1", "kind": "neon"}]},
            "t.yaml: trackers[0].kind: expected 'wled'",
        ),
    ],
)
def test_a_broken_catacombs_table_file_is_refused_naming_the_file_and_key(
    tmp_path: Path, broken: Any, refusal: str
) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(broken(_demo())))
    with pytest.raises(TableConfigError) as refused:
        load_table(path)
    assert str(refused.value).startswith(f"{path.parent}/{refusal}"), str(refused.value)


@pytest.mark.parametrize(
    ("broken", "refusal"),
    [
        (lambda g: g | {"heroes": ["larra"]}, "t.yaml: game: unknown key(s) heroes"),
        (lambda g: {k: v for k, v in g.items() if k != "modes"}, "t.yaml: game.modes: missing"),
        (lambda g: g | {"modes": {"team": "castle"}}, "t.yaml: game.modes.team: expected the mode's setup"),
        (lambda g: g | {"mode": "campaign"}, "t.yaml: game.mode: 'campaign' is not one of the modes listed"),
        (
            lambda g: g | {"modes": {"team": {"seed": 3}}},
            "t.yaml: game.modes.team: seed are set by the table",
        ),
    ],
)
def test_a_broken_castles_table_file_is_refused_naming_the_file_and_key(
    tmp_path: Path, broken: Any, refusal: str
) -> None:
    data = _castles()
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(data | {"game": broken(data["game"])}))
    with pytest.raises(TableConfigError) as refused:
        load_table(path)
    assert str(refused.value).startswith(f"{path.parent}/{refusal}"), str(refused.value)


def test_a_table_file_naming_both_a_disc_set_and_tags_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(yaml.safe_dump(_demo() | {"tag_set": "sets/box-1.yaml"}))
    with pytest.raises(TableConfigError, match=r"t\.yaml: tag_set and tags: give one of them"):
        load_table(path)


# ---- disc sets ----

DISCS = [
    RegisteredPiece("hero-xoric", bytes.fromhex("04a1b2c3d4e5f6"), "hero"),
    RegisteredPiece("orc-1", bytes.fromhex("04a1b2c3d4e5f7"), "monster", "vermin"),
]


def test_an_enrolled_disc_set_reads_back_and_a_table_file_can_name_it(tmp_path: Path) -> None:
    save_set(tmp_path / "sets" / "box-1.yaml", "box-1", DISCS)
    assert load_set(tmp_path / "sets" / "box-1.yaml").registry.pieces == tuple(DISCS)
    table = {k: v for k, v in _demo().items() if k != "tags"} | {"tag_set": "sets/box-1.yaml"}
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(table))
    assert load_table(tmp_path / "t.yaml").registry.entry("orc-1").family == "vermin"


@pytest.mark.parametrize(
    ("broken", "refusal"),
    [
        (lambda d: d | {"format": "tags"}, "box-1.yaml: format: expected 'smartmat-disc-set', got 'tags'"),
        (lambda d: {k: v for k, v in d.items() if k != "set"}, "box-1.yaml: set: missing"),
        (lambda d: d | {"owner": "ada"}, "box-1.yaml: (top): unknown key(s) owner"),
        (
            lambda d: d | {"tags": [{**d["tags"][0], "colour": "red"}]},
            "box-1.yaml: tags[0]: unknown key(s) colour",
        ),
        (
            lambda d: d | {"tags": [d["tags"][0], d["tags"][0]]},
            "box-1.yaml: tags: tag 04a1b2c3d4e5f6 is registered",
        ),
    ],
)
def test_a_broken_disc_set_is_refused_naming_the_file_and_key(
    tmp_path: Path, broken: Any, refusal: str
) -> None:
    path = save_set(tmp_path / "box-1.yaml", "box-1", DISCS)
    path.write_text(yaml.safe_dump(broken(yaml.safe_load(path.read_text()))))
    with pytest.raises(TableConfigError) as refused:
        load_set(path)
    assert str(refused.value).startswith(f"{tmp_path}/{refusal}"), str(refused.value)


# ---- shot traces ----


def test_the_example_traces_pass() -> None:
    traces = list(read_traces(EXAMPLE_TRACES))
    assert len(traces) == 4 and all(t.declaration.flicked in {p.piece for p in t.pieces} for t in traces)


def _trace() -> dict[str, Any]:
    line = EXAMPLE_TRACES.read_text().splitlines()[0]
    data: dict[str, Any] = json.loads(line)
    return data


@pytest.mark.parametrize(
    ("broken", "refusal"),
    [
        (lambda d: d | {"impacts": {}}, "shots.jsonl:1: impacts: expected a list, got {}"),
        (lambda d: {k: v for k, v in d.items() if k != "declaration"}, "shots.jsonl:1: declaration: missing"),
        (
            lambda d: d | {"mat": {**d["mat"], "width_mm": -5}},
            "shots.jsonl:1: mat.width_mm: must be positive",
        ),
        (
            lambda d: d | {"impacts": [{"sensor_id": 1.5, "t_us": 1, "amplitude": 9}]},
            "impacts[0].sensor_id: expected a whole",
        ),
        (
            lambda d: d | {"pieces": [{**d["pieces"][0], "side": "castle"}]},
            "pieces[0].side: expected 'heroes'",
        ),
        (
            lambda d: d | {"pre": {**d["pre"], "t_us": float("nan")}},
            "shots.jsonl:1: pre.t_us: expected a whole number",
        ),
        (
            lambda d: d | {"mat": {**d["mat"], "obstacles": [{"shape": "box", "x_mm": 1}]}},
            "mat.obstacles[0].y_mm: missing",
        ),
        (
            lambda d: d | {"pieces": d["pieces"] + d["pieces"][:1]},
            "shots.jsonl:1: pieces: a piece id appears twice",
        ),
        (lambda d: 17, "shots.jsonl:1: (line): expected a trace object, got 17"),
    ],
)
def test_a_broken_trace_line_is_refused_naming_the_line_and_key(broken: Any, refusal: str) -> None:
    with pytest.raises(TraceFormatError) as refused:
        trace_from_json(broken(_trace()), "shots.jsonl:1")
    assert refusal in str(refused.value) and str(refused.value).startswith("shots.jsonl:1: "), str(
        refused.value
    )


def test_a_trace_keeps_unknown_keys_readable_for_later_versions_of_the_writer() -> None:
    # Traces are written by the daemon and read by attribution and the benchmarks, possibly of another build:
    # a key this build does not know is not a reason to lose the shot (docs/trace-format.md).
    trace = trace_from_json(_trace() | {"lighting": "dim"}, "shots.jsonl:1")
    assert trace.declaration.flicked == "hero-xoric"


# ---- calibration files ----


@pytest.mark.parametrize("calibration", [wide_priors("t1"), built_in_calibration()], ids=["wide", "built-in"])
def test_a_saved_calibration_reads_back_the_same(tmp_path: Path, calibration: Any) -> None:
    save_calibration(calibration, tmp_path / "CAL.json")
    assert load_calibration(tmp_path / "CAL.json").to_json() == calibration.to_json()


def test_a_version_1_calibration_file_reads_as_version_2_with_no_answers_yet(tmp_path: Path) -> None:
    written = built_in_calibration().to_json()
    version_1 = {k: v for k, v in written.items() if k != "referee"} | {"v": 1}
    (tmp_path / "OLD.json").write_text(json.dumps(version_1))
    read = load_calibration(tmp_path / "OLD.json")
    save_calibration(read, tmp_path / "NEW.json")
    migrated = json.loads((tmp_path / "NEW.json").read_text())
    assert migrated["v"] == 2 and migrated["referee"]["labelled"] == 0
    assert {k: v for k, v in migrated.items() if k not in ("v", "referee", "summary")} == {
        k: v for k, v in version_1.items() if k not in ("v", "summary")
    }


@pytest.mark.parametrize(
    ("broken", "refusal"),
    [
        (
            lambda d: d | {"shots": "many"},
            "CAL.json: shots: expected a count (a whole number, 0 or more), got 'many'",
        ),
        (lambda d: {k: v for k, v in d.items() if k != "timing"}, "CAL.json: timing: missing"),
        (lambda d: d | {"friction": {**d["friction"], "sd": 0}}, "CAL.json: friction.sd: must be positive"),
        (
            lambda d: d | {"sensors": [{"id": 0, "offset_us": 1.0, "gain_n": 0}]},
            "CAL.json: sensors[0].log_gain_sum: missing",
        ),
        (lambda d: d | {"flick_sounds": [1]}, "CAL.json: flick_sounds: expected [heard, chances], got [1]"),
        (
            lambda d: d | {"acoustic_events": [{"arrivals": [[0, 5.0]], "at": [1, 2]}]},
            "CAL.json: acoustic_events[0].at: expected null",
        ),
        (lambda d: d | {"speed_loglik": d["speed_loglik"][:3]}, "CAL.json: speed_loglik: expected"),
        (lambda d: d | {"v": 3}, "CAL.json: v: unsupported calibration version 3"),
        (lambda d: d | {"format": "other"}, "CAL.json: format: expected 'smartmat-table-calibration'"),
    ],
)
def test_a_broken_calibration_file_is_refused_naming_the_file_and_key(
    tmp_path: Path, broken: Any, refusal: str
) -> None:
    path = tmp_path / "CAL.json"
    path.write_text(json.dumps(broken(built_in_calibration().to_json())))
    with pytest.raises(CalibrationFileError) as refused:
        load_calibration(path)
    assert str(refused.value).startswith(f"{tmp_path}/{refusal}"), str(refused.value)


def test_a_calibration_from_json_without_a_file_names_its_source() -> None:
    with pytest.raises(CalibrationFileError, match=r"^calibration: \(file\): expected a JSON object"):
        calibration_from_json([])


# ---- the hub's kept bridge passwords ----


def test_kept_bridge_passwords_that_are_not_account_to_password_are_refused(tmp_path: Path) -> None:
    (tmp_path / "secrets.json").write_text(json.dumps({"hub": 1234}))
    with pytest.raises(
        BridgeConfigError, match=r"secrets\.json: hub: expected the account's password, got 1234"
    ):
        write_bundle(BridgePlan(("t1",), "hub.local"), tmp_path)


# ---- the guided calibration's report ----


def test_a_guided_report_reads_back_and_a_broken_one_is_ignored_naming_its_file_and_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    calibration = tmp_path / "CAL.json"
    at = datetime(2026, 11, 28, 19, 0, tzinfo=UTC)
    written = save_report(calibration, at, {"good": True}, {"walls": 4})
    assert load_report(calibration) == json.loads(written.read_text())
    written.write_text(json.dumps(json.loads(written.read_text()) | {"at": "yesterday"}))
    with caplog.at_level(logging.WARNING, logger="service.guided.report"):
        assert load_report(calibration) is None
    assert f"{written}: at: expected an ISO 8601 time" in caplog.text


# ---- hardware descriptions and disc sizes ----


@pytest.mark.parametrize("name", SENSOR_CONFIG_NAMES)
def test_every_shipped_sensor_description_passes(name: str) -> None:
    assert load_sensor_config(name).name == name


@pytest.mark.parametrize(
    "pieces",
    [CONTENT_DIR / "pieces.yaml", *sorted(CONTENT_DIR.glob("*/pieces.yaml"))],
    ids=lambda p: p.parent.name if p.parent != CONTENT_DIR else "common",
)
def test_every_shipped_pieces_file_passes(pieces: Path) -> None:
    assert all(c.radius_mm > 0 and c.mass_g > 0 for c in load_piece_classes(pieces).values())


@pytest.mark.parametrize(
    ("old", "new", "refusal"),
    [
        ("layout: corners-and-midpoints", "layout: ring", "piezo.layout: expected 'corners' or"),
        (
            "  missed_read: 0.02",
            "  missed_read: 2",
            "nfc.missed_read: expected a number at least 0 and at most 1",
        ),
        ("name: camera\n", "", "name: missing"),
    ],
)
def test_a_broken_sensor_description_is_refused_naming_the_file_and_key(
    tmp_path: Path, old: str, new: str, refusal: str
) -> None:
    path = tmp_path / "sensors-mine.yaml"
    path.write_text((HARDWARE_DIR / "sensors-camera.yaml").read_text().replace(old, new))
    with pytest.raises(ContentFileError) as refused:
        load_sensor_config(path)
    assert str(refused.value).startswith(f"{path}: {refusal}"), str(refused.value)


def test_an_obstacle_off_the_mat_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mat.yaml"
    path.write_text((HARDWARE_DIR / "mat.yaml").read_text().replace("x_mm: 560", "x_mm: 990"))
    with pytest.raises(
        ContentFileError, match=r"mat\.yaml: obstacles\[1\]\.x_mm: 990 is off the mat \(0-860\)"
    ):
        load_mat(path)
