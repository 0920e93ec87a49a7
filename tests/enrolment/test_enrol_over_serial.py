"""Enrolment through the mat's wire protocol: the simulated board on a pty, the host's serial link."""

from __future__ import annotations

from pathlib import Path

import yaml

from firmware_bridge.emulator.board import EmulatedMat
from firmware_bridge.transport import SerialConnection
from service.enrolment.core import MISSING_DISC, Notice, SetPiece, enrolment_from, slot_sheet
from service.enrolment.reader import ScanReader
from service.enrolment.session import check_laid_out, lay_out_group, tap_set
from service.mat.geometry import load_mat, load_piece_classes, load_sensor_config
from service.simulator.sensors import SensorModel, tag_uid
from service.simulator.source_physics import PhysicsSensorSource
from service.simulator.world import World
from service.table.config import load_table
from service.table.disc_sets import load_set

MAT = load_mat()
CLASSES = load_piece_classes()
SET = [
    SetPiece("hero-xoric", "hero"),
    SetPiece("hero-elani", "hero"),
    SetPiece("undead-1", "monster-medium", "undead"),
    SetPiece("undead-8", "monster-large", "undead"),
]


def _simulated_mat(tmp_path: Path) -> tuple[EmulatedMat, PhysicsSensorSource]:
    sensors = SensorModel(load_sensor_config("reference"), MAT, seed=5)
    source = PhysicsSensorSource(World(MAT, seed=5, perturb=False), sensors)
    return EmulatedMat(source, port_dir=tmp_path / "by-id"), source


def test_an_organiser_taps_a_box_of_discs_on_and_the_set_file_names_every_tag(tmp_path: Path) -> None:
    emulated, source = _simulated_mat(tmp_path)
    told: list[Notice] = []
    placed: list[str] = []

    def organiser_puts_down_the_next_disc(piece: str) -> None:
        label = f"box-disc-{len(placed) + 1}"  # the physical disc; its factory UID is tag_uid(label)
        with source.hands() as world:
            world.place(label, CLASSES["hero"], 150.0 + 150 * len(placed), 300.0)
        placed.append(label)

    set_file = tmp_path / "sets" / "box-1.yaml"
    with emulated, SerialConnection(str(emulated.path)) as connection:
        done = tap_set(
            ScanReader(connection),
            enrolment_from("box-1", SET),
            set_file,
            told.append,
            idle_timeout_s=20,
            on_next=organiser_puts_down_the_next_disc,
        )
    assert done
    assert [n.kind for n in told][-1] == "set_complete"
    stored = load_set(set_file)
    assert stored.name == "box-1"
    assert [(e.piece, e.uid, e.piece_class, e.family) for e in stored.registry.pieces] == [
        ("hero-xoric", tag_uid("box-disc-1"), "hero", None),
        ("hero-elani", tag_uid("box-disc-2"), "hero", None),
        ("undead-1", tag_uid("box-disc-3"), "monster-medium", "undead"),
        ("undead-8", tag_uid("box-disc-4"), "monster-large", "undead"),
    ]
    assert emulated.scan_requests >= 4  # every scan was asked for over the link


def test_a_group_laid_out_then_the_whole_set_checked_names_the_missing_disc(tmp_path: Path) -> None:
    emulated, source = _simulated_mat(tmp_path)
    set_file = tmp_path / "box-2.yaml"
    enrolment = enrolment_from("box-2", SET)
    sheet = slot_sheet([p.piece for p in SET], MAT.width_mm, MAT.height_mm)
    with source.hands() as world:
        for slot in sheet.slots:
            world.place(f"disc-{slot.number}", CLASSES["monster-medium"], slot.x_mm + 4, slot.y_mm + 3)
    told: list[Notice] = []
    with emulated, SerialConnection(str(emulated.path)) as connection:
        reader = ScanReader(connection)
        lay_out_group(reader, enrolment, sheet, set_file, told.append)
        assert enrolment.missing() == []
        registry = load_set(set_file).registry
        assert check_laid_out(reader, registry, told.append)
        with source.hands() as world:
            world.remove("disc-3")  # undead-1's disc rolled under the table
        told.clear()
        assert not check_laid_out(reader, registry, told.append)
    (missing,) = [n for n in told if n.kind == MISSING_DISC]
    assert missing.text == f"disc undead-1 (tag {tag_uid('disc-3').hex()}) is not on the mat"


def test_a_table_file_may_name_an_enrolled_set_instead_of_listing_its_tags(tmp_path: Path) -> None:
    (tmp_path / "sets").mkdir()
    set_file = tmp_path / "sets" / "box-1.yaml"
    set_file.write_text(
        yaml.safe_dump(
            {
                "format": "smartmat-disc-set",
                "v": 1,
                "set": "box-1",
                "tags": [{"piece": "hero-xoric", "uid": tag_uid("d1").hex(), "class": "hero"}],
            }
        )
    )
    table = yaml.safe_load((Path("content/tables/demo.yaml")).read_text())
    del table["tags"]
    table["tag_set"] = "sets/box-1.yaml"
    (tmp_path / "t.yaml").write_text(yaml.safe_dump(table))
    loaded = load_table(tmp_path / "t.yaml")
    assert loaded.registry.find(tag_uid("d1")).piece == "hero-xoric"
    set_file.write_text(set_file.read_text().replace("smartmat-disc-set", "something-else"))
    try:
        load_table(tmp_path / "t.yaml")
    except ValueError as exc:
        assert str(exc) == f"{set_file}: format: expected 'smartmat-disc-set', got 'something-else'"
    else:
        raise AssertionError("a broken set file was accepted")
