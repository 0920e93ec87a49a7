"""Each disc's camera marker is enrolled with the disc (``smartmat enrol markers``), kept in its set file when
the tags are enrolled again, and read by the camera with the disc's size and colour (docs/setup.md,
docs/camera.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from firmware_bridge.messages import Capabilities, ReaderGrid, ScanDone, TagSeen
from service.camera.layout import KIND_COLOURS, DiscLook
from service.cli import main
from service.enrolment.desk import EnrolmentDesk
from service.enrolment.markers import MarkerShowing
from service.mat.geometry import load_piece_classes
from service.sensing.tags import RegisteredPiece, TableConfigError, TagRegistry
from service.table.disc_looks import looks_of_set, read_camera_discs
from service.table.disc_sets import load_set, save_set

DISCS = [
    RegisteredPiece("hero-1", bytes.fromhex("04a1b2c3d4e5f6"), "hero"),
    RegisteredPiece("orc-1", bytes.fromhex("04a1b2c3d4e5f7"), "monster-medium"),
    RegisteredPiece("orc-2", bytes.fromhex("04a1b2c3d4e5f8"), "monster-medium"),
]
CLASSES = load_piece_classes()


def _enrol(set_file: Path, markers: str) -> int:
    return main(["enrol", "markers", "--set", str(set_file), "--markers", markers])


def test_the_referee_records_each_discs_marker_lists_them_and_takes_one_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_file = save_set(tmp_path / "box-1.yaml", "box-1", DISCS)
    assert _enrol(set_file, "hero-1=12,orc-1=13") == 0
    assert load_set(set_file).markers == {"hero-1": 12, "orc-1": 13}
    assert capsys.readouterr().out.splitlines()[-1] == (
        "set box-1: 2 of 3 discs have a marker; found by colour and size only: orc-2"
    )
    # Two discs swap their markers in one go; the tags are untouched.
    assert _enrol(set_file, "hero-1=13,orc-1=12,orc-2=40") == 0
    assert load_set(set_file).markers == {"hero-1": 13, "orc-1": 12, "orc-2": 40}
    assert load_set(set_file).registry.pieces == tuple(DISCS)
    assert _enrol(set_file, "orc-2=none") == 0
    capsys.readouterr()
    assert main(["enrol", "markers", "--set", str(set_file)]) == 0  # without --markers: the list
    assert capsys.readouterr().out.splitlines() == [
        "  hero-1                   marker 13",
        "  orc-1                    marker 12",
        "set box-1: 2 of 3 discs have a marker; found by colour and size only: orc-2",
    ]


@pytest.mark.parametrize(
    ("markers", "refusal"),
    [
        ("goblin-1=20", "--markers: goblin-1 is not in set box-1 ({file}): enrol the disc's tag first"),
        ("orc-2=3", "--markers: orc-2=3: marker 3 is one of the mat's fiducials (0-7)"),
        ("orc-2=0", "--markers: orc-2=0: marker 0 is one of the mat's fiducials (0-7)"),
        (
            "orc-2=12",
            "--markers: orc-2=12: marker 12 is hero-1's already (give hero-1 another marker, or hero-1=none)",
        ),
        (
            "orc-1=30,orc-2=30",
            "--markers: orc-2=30: marker 30 is orc-1's already (give orc-1 another marker, or orc-1=none)",
        ),
        ("orc-2=100", "--markers: orc-2=100: marker 100 is outside the camera's dictionary (a disc's "),
        ("orc-2:14", "--markers: 'orc-2:14' is not a disc and its marker, like hero-1=12 (or hero-1=none)"),
        ("orc-2=14,orc-2=15", "--markers: orc-2 is given twice"),
        (",", "--markers: no disc given (hero-1=12,orc-1=13)"),
    ],
)
def test_a_marker_the_set_cannot_keep_is_refused_in_words_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], markers: str, refusal: str
) -> None:
    set_file = save_set(tmp_path / "box-1.yaml", "box-1", DISCS, {"hero-1": 12})
    before = set_file.read_text()
    assert _enrol(set_file, markers) == 1
    assert capsys.readouterr().err.startswith("smartmat enrol: " + refusal.format(file=set_file))
    assert set_file.read_text() == before


def test_markers_need_an_enrolled_set_and_the_mat_modes_need_the_serial_port(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "box-9.yaml"
    assert _enrol(missing, "hero-1=12") == 1
    assert capsys.readouterr().err == (
        f"smartmat enrol: {missing}: no such set file: enrol the discs' tags first (smartmat enrol tap)\n"
    )
    assert main(["enrol", "tap", "--set", str(missing)]) == 1
    assert capsys.readouterr().err == "smartmat enrol: tap: --serial is needed (the mat's serial port)\n"


@pytest.mark.parametrize(
    ("markers", "refusal"),
    [
        ({"hero-1": 5}, "markers.hero-1: 5 is one of the mat's fiducials (0-7)"),
        ({"hero-1": 12, "orc-1": 12}, "markers.orc-1: 12 is hero-1's already"),
        ({"goblin-1": 12}, "markers.goblin-1: not a disc of this set"),
        ({"hero-1": "twelve"}, "markers.hero-1: expected an ArUco marker id 8-99"),
        ({"hero-1": 120}, "markers.hero-1: expected an ArUco marker id 8-99"),
    ],
)
def test_a_set_file_with_a_marker_it_cannot_keep_is_refused_naming_file_and_key(
    tmp_path: Path, markers: dict[str, object], refusal: str
) -> None:
    path = save_set(tmp_path / "box-1.yaml", "box-1", DISCS)
    data = yaml.safe_load(path.read_text()) | {"markers": markers}
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(TableConfigError) as refused:
        load_set(path)
    assert str(refused.value).startswith(f"{path}: {refusal}"), str(refused.value)


def test_enrolling_the_tags_again_from_the_set_up_page_keeps_the_markers(tmp_path: Path) -> None:
    """The markers are on the discs' tops, not under them: tapping the discs' tags on again keeps each
    disc's marker, also while only some of the discs are tapped."""
    sets = tmp_path / "sets"
    save_set(sets / "box-1.yaml", "box-1", DISCS[:2], {"hero-1": 12, "orc-1": 13})
    desk = EnrolmentDesk(TagRegistry(DISCS[:2]), sets)
    desk.capabilities = Capabilities("1.0", 1, ReaderGrid(8, 6, 60.0, (30.0, 30.0)), (), 480.0, 360.0, ())
    desk.command("enrol_start", {"set": "box-1"})

    def scan(scan_id: int, *uids: str) -> None:
        for uid in uids:
            desk.on_message(TagSeen(scan_id, 2, 2, bytes.fromhex(uid), -40))
        desk.on_message(ScanDone(scan_id, 1000 * scan_id, 48))

    scan(1)  # the empty mat
    scan(2, "04000000000001")  # hero-1's disc, its tag replaced
    assert load_set(sets / "box-1.yaml").markers == {"hero-1": 12}
    scan(3, "04000000000001", "04000000000002")
    stored = load_set(sets / "box-1.yaml")
    assert [e.uid.hex() for e in stored.registry.pieces] == ["04000000000001", "04000000000002"]
    assert stored.markers == {"hero-1": 12, "orc-1": 13}


def test_the_camera_knows_an_enrolled_disc_by_its_marker_its_class_size_and_its_kinds_colour(
    tmp_path: Path,
) -> None:
    path = save_set(tmp_path / "box-1.yaml", "box-1", DISCS, {"hero-1": 12, "orc-2": 14})
    looks = read_camera_discs(path)
    medium = CLASSES["monster-medium"].radius_mm
    assert looks == {
        "hero-1": DiscLook("hero-1", CLASSES["hero"].radius_mm, KIND_COLOURS["hero"], 12),
        "orc-1": DiscLook("orc-1", medium, KIND_COLOURS["monster"], None),
        "orc-2": DiscLook("orc-2", medium, KIND_COLOURS["monster"], 14),
    }
    castles = [RegisteredPiece("archer-1", bytes.fromhex("04a1b2c3d4e5f9"), "castles-ranged-small")]
    archer = looks_of_set(load_set(save_set(tmp_path / "castles.yaml", "castles", castles, {"archer-1": 9})))
    assert archer["archer-1"].colour_bgr == KIND_COLOURS["ranged"] and archer["archer-1"].marker_id == 9
    odd = [RegisteredPiece("tree-1", bytes.fromhex("04a1b2c3d4e5fa"), "tree")]
    with pytest.raises(TableConfigError, match=r"odd\.yaml: tags\[0\]\.class: 'tree' is no game's piece"):
        read_camera_discs(save_set(tmp_path / "odd.yaml", "odd", odd))


def test_markers_shown_to_the_camera_one_disc_at_a_time_are_given_in_turn_and_problems_said_once(
    tmp_path: Path,
) -> None:
    disc_set = load_set(save_set(tmp_path / "box-1.yaml", "box-1", DISCS, {"orc-2": 14}))
    showing = MarkerShowing(disc_set, ["hero-1", "orc-1"])

    def texts(*frames: set[int]) -> list[str]:
        return [n.text for seen in frames for n in showing.frame(seen)]

    # A disc of another set lies in view from the start; the mat's fiducials (0-7) are never a disc's.
    assert texts({0, 1, 2, 3, 20}) == [
        "marker 20 was in view before enrolment began; it is left out: take it away to show it"
    ]
    assert texts({0, 20, 10}, {0, 20, 10}) == []  # two frames are not enough
    assert texts({0, 20, 10}) == ["marker 10 is now hero-1"]
    assert showing.next_piece() == "orc-1"
    # orc-2's disc shown by mistake (said once), then two new discs at once: neither is given.
    assert texts({10, 14}, {10, 14}, {10, 14}) == ["marker 14 is orc-2's already"]
    assert texts({10, 11, 12}, {10, 11, 12}, {10, 11, 12}) == [
        "2 new markers at once (11, 12): show one at a time"
    ]
    assert texts({11}, {11}, set(), {11}, {11}) == []  # a frame without it starts the count again
    assert texts({11}) == ["marker 11 is now orc-1"]
    assert showing.next_piece() is None
    assert showing.markers == {"orc-2": 14, "hero-1": 10, "orc-1": 11}


def test_a_disc_shown_again_keeps_its_marker_until_it_has_a_new_one_and_gives_up_one_another_takes(
    tmp_path: Path,
) -> None:
    disc_set = load_set(save_set(tmp_path / "box-1.yaml", "box-1", DISCS, {"hero-1": 10, "orc-1": 11}))
    showing = MarkerShowing(disc_set, ["hero-1", "orc-1"])
    assert showing.markers == {"hero-1": 10, "orc-1": 11}
    showing.frame(set())
    # hero-1 now wears the marker orc-1 wore; orc-1, still to be shown, loses it.
    assert [n.text for n in (showing.frame({11}) + showing.frame({11}) + showing.frame({11}))] == [
        "marker 11 is now hero-1"
    ]
    assert showing.markers == {"hero-1": 11}
    for _ in range(3):
        showing.frame({11, 15})
    assert showing.markers == {"hero-1": 11, "orc-1": 15}


def test_laying_out_more_discs_on_the_command_line_keeps_the_markers_already_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware_bridge.emulator.board import EmulatedMat
    from service.enrolment.core import slot_sheet
    from service.mat.geometry import load_mat, load_sensor_config
    from service.simulator.sensors import SensorModel, tag_uid
    from service.simulator.source_physics import PhysicsSensorSource
    from service.simulator.world import World

    mat = load_mat()
    xoric = RegisteredPiece("hero-xoric", tag_uid("disc-x"), "hero")
    set_file = save_set(tmp_path / "box-1.yaml", "box-1", [xoric], {"hero-xoric": 12})
    source = PhysicsSensorSource(
        World(mat, seed=5, perturb=False), SensorModel(load_sensor_config("reference"), mat, seed=5)
    )
    (slot,) = slot_sheet(["hero-elani"], mat.width_mm, mat.height_mm).slots
    with source.hands() as world:
        world.place("disc-e", CLASSES["hero"], slot.x_mm + 3, slot.y_mm - 2)
    monkeypatch.setattr("builtins.input", lambda _prompt: "")
    command = ["enrol", "layout", "--set", str(set_file), "--pieces", "hero-elani"]
    with EmulatedMat(source, port_dir=tmp_path / "by-id") as emulated:
        # 1: the demo table's other discs are still to enrol
        assert main([*command, "--template", "content/tables/demo.yaml", "--serial", str(emulated.path)]) == 1
    stored = load_set(set_file)
    assert {e.piece: e.uid for e in stored.registry.pieces} == {
        "hero-xoric": tag_uid("disc-x"),
        "hero-elani": tag_uid("disc-e"),
    }
    assert stored.markers == {"hero-xoric": 12}
