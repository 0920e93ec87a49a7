"""`smartmat camera watch` started with the enrolled disc set: each disc is named by the marker that
`smartmat enrol markers` recorded for it, on rendered frames of the simulated mat (docs/camera.md,
docs/setup.md)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from service.cli import main  # noqa: E402
from service.sensing.tags import RegisteredPiece  # noqa: E402
from service.table.disc_sets import save_set  # noqa: E402

# Where `smartmat camera render` lays its room out (service/simulator/camera_cli.py), and its classes.
ROOM = {"hero-1": (200, 300), "orc-1": (420, 310), "orc-2": (560, 200), "troll-1": (650, 450)}
CLASSES = {"hero-1": "hero", "orc-1": "monster-medium", "orc-2": "monster-medium", "troll-1": "monster-large"}


def _watch(
    clip: Path, discs: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, dict[str, list[float]], str]:
    """Exit code, the first frame's places and the health report of a set-up check on three frames."""
    capsys.readouterr()
    code = main(
        ["camera", "watch", "--source", f"dir:{clip}", "--discs", str(discs), "--check"] + ["--frames", "3"]
    )
    captured = capsys.readouterr()
    first: dict[str, list[float]] = json.loads(captured.out.splitlines()[0])["places"]
    return code, first, captured.err


@pytest.mark.slow
def test_the_camera_started_with_the_enrolled_set_names_each_disc_by_its_enrolled_marker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clip, rendered_discs = tmp_path / "clip", tmp_path / "discs.yaml"
    assert (
        main(
            ["camera", "render", "--out", f"dir:{clip}", "--discs-out", str(rendered_discs)]
            + ["--shots", "1"]
        )
        == 0
    )
    # The renderer printed markers 10-13 on the discs' tops in name order; the referee enrols them.
    tags = [
        RegisteredPiece(piece, bytes([4, 0, 0, 0, 0, 0, i]), CLASSES[piece]) for i, piece in enumerate(ROOM)
    ]
    set_file = save_set(tmp_path / "sets" / "box-1.yaml", "box-1", tags)
    assert (
        main(
            ["enrol", "markers", "--set", str(set_file), "--markers"]
            + ["hero-1=10,orc-1=11,orc-2=12,troll-1=13"]
        )
        == 0
    )

    code, places, health = _watch(clip, set_file, capsys)
    assert code == 0 and "every disc seen" in health
    assert set(places) == set(ROOM)
    for piece, (x, y) in ROOM.items():
        assert math.dist(places[piece], (x, y)) < 4.0, (piece, places[piece])
    # The old discs file still works, and says the same.
    assert _watch(clip, rendered_discs, capsys)[:2] == (0, places)

    # The two orcs look alike (one colour, one size): only their markers tell them apart. Enrolled the other
    # way round, each is named where the other stands.
    assert main(["enrol", "markers", "--set", str(set_file), "--markers", "orc-1=12,orc-2=11"]) == 0
    code, swapped, _ = _watch(clip, set_file, capsys)
    assert code == 0
    assert math.dist(swapped["orc-1"], ROOM["orc-2"]) < 4.0
    assert math.dist(swapped["orc-2"], ROOM["orc-1"]) < 4.0

    # A disc enrolled in the set that is not on the mat fails the set-up check, by name.
    lord = RegisteredPiece("lord-1", bytes.fromhex("04000000000009"), "lord")
    save_set(
        set_file,
        "box-1",
        [*tags, lord],
        {"hero-1": 10, "orc-1": 11, "orc-2": 12, "troll-1": 13, "lord-1": 40},
    )
    code, _, health = _watch(clip, set_file, capsys)
    assert code == 1 and "discs never seen: lord-1" in health


def test_the_camera_commands_refuse_a_set_they_cannot_use_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd = [RegisteredPiece("tree-1", bytes.fromhex("04000000000001"), "tree")]
    set_file = save_set(tmp_path / "odd.yaml", "odd", odd)
    refusal = f"smartmat camera: {set_file}: tags[0].class: 'tree' is no game's piece class"
    for command in (["watch"], ["run", "--table-id", "table-1"]):
        assert main(["camera", *command, "--source", f"dir:{tmp_path}", "--discs", str(set_file)]) == 2
        assert capsys.readouterr().err.startswith(refusal)


@pytest.mark.slow
def test_the_camera_reads_each_discs_marker_as_the_referee_shows_the_discs_one_at_a_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from service.camera.capture import Frame, write_directory
    from service.camera.layout import KIND_COLOURS, DiscLook, MatLayout
    from service.mat.geometry import load_mat
    from service.simulator.camera_render import CameraRenderer, RenderSettings
    from service.table.disc_sets import load_set

    mat = load_mat()
    looks = {
        "hero-1": DiscLook("hero-1", 19.0, KIND_COLOURS["hero"], 21),
        "orc-1": DiscLook("orc-1", 16.0, KIND_COLOURS["monster"], 22),
        "stray-1": DiscLook("stray-1", 19.0, KIND_COLOURS["lord"], 30),  # another set's, there from the start
    }
    places = {"hero-1": (300.0, 300.0), "orc-1": (450.0, 250.0), "stray-1": (600.0, 400.0)}
    renderer = CameraRenderer(
        MatLayout(mat.width_mm, mat.height_mm), looks, RenderSettings(width=960, height=720, seed=3)
    )
    # What lies in view, frame by frame: the stray disc, then hero-1's disc put down, then orc-1's beside it.
    script = [{"stray-1"}] * 2 + [{"stray-1", "hero-1"}] * 4 + [{"stray-1", "hero-1", "orc-1"}] * 4
    frames = []
    for i, shown in enumerate(script):
        in_view = {p: places[p] for p in shown}
        image, _ = renderer.draw(lambda _t: in_view, [], i / 60)  # noqa: B023  (drawn at once)
        frames.append(Frame(i, i * 16_667, image))
    write_directory(tmp_path / "clip", frames)
    tags = [
        RegisteredPiece("hero-1", bytes.fromhex("04000000000001"), "hero"),
        RegisteredPiece("orc-1", bytes.fromhex("04000000000002"), "monster-medium"),
    ]
    set_file = save_set(tmp_path / "box-1.yaml", "box-1", tags)
    source = f"dir:{tmp_path / 'clip'}"
    assert main(["enrol", "markers", "--set", str(set_file), "--source", source]) == 0
    assert load_set(set_file).markers == {"hero-1": 21, "orc-1": 22}
    assert capsys.readouterr().out.splitlines() == [
        "show the marker of hero-1's disc to the camera",
        "! marker 30 was in view before enrolment began; it is left out: take it away to show it",
        "  marker 21 is now hero-1",
        "show the marker of orc-1's disc to the camera",
        "  marker 22 is now orc-1",
        "  hero-1                   marker 21",
        "  orc-1                    marker 22",
        "set box-1: 2 of 2 discs have a marker",
    ]
