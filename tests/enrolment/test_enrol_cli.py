"""``smartmat enrol check`` as an organiser runs it, on the emulated board over its pseudo-terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge.emulator.board import EmulatedMat
from firmware_bridge.emulator.source import PlacedTag, StaticSensorSource
from service.cli import main
from service.sensing.tags import RegisteredPiece
from service.table.disc_sets import save_set

XORIC, ELANI = bytes.fromhex("04593dd141cbe5"), bytes.fromhex("041c8eaa7d26fe")


def test_check_says_every_disc_is_there_or_names_the_missing_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_file = save_set(
        tmp_path / "box-1.yaml",
        "box-1",
        [RegisteredPiece("hero-xoric", XORIC, "hero"), RegisteredPiece("hero-elani", ELANI, "hero")],
    )
    laid_out = StaticSensorSource([PlacedTag(3, 4, XORIC), PlacedTag(12, 6, ELANI)])
    with EmulatedMat(laid_out, port_dir=tmp_path / "a") as mat:
        assert main(["enrol", "check", "--serial", str(mat.path), "--set", str(set_file)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"  tag {ELANI.hex()} is hero-elani",
        f"  tag {XORIC.hex()} is hero-xoric",
        "every disc is there and known",
    ]

    one_missing = StaticSensorSource([PlacedTag(3, 4, XORIC)])
    with EmulatedMat(one_missing, port_dir=tmp_path / "b") as mat:
        assert main(["enrol", "check", "--serial", str(mat.path), "--set", str(set_file)]) == 1
    assert f"! disc hero-elani (tag {ELANI.hex()}) is not on the mat" in capsys.readouterr().out


def test_checking_a_set_file_that_does_not_exist_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with EmulatedMat(StaticSensorSource([]), port_dir=tmp_path / "a") as mat:
        assert main(["enrol", "check", "--serial", str(mat.path), "--set", str(tmp_path / "nope.yaml")]) == 1
    assert capsys.readouterr().err == f"smartmat enrol: {tmp_path / 'nope.yaml'}: no such set file to check\n"
