"""``smartmat content check``: an organiser checks their corrections before a tournament."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.cli import main


def test_check_prints_a_summary_of_the_shipped_content(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "check"]) == 0
    out = capsys.readouterr().out
    assert "content catacombs-3e: OK" in out
    assert re.search(r"monsters\s+26\n", out)
    assert re.search(r"battle rooms\s+28\n", out)
    assert "HeroCard xoric: starting_health" in out  # stand-ins are listed for the organiser to confirm


def test_check_names_the_problem_of_a_broken_overlay_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "rooms.yaml").write_text(
        "rooms:\n  the-barracks:\n    quadrants:\n"
        "      level_1: [{kind: specific, monster: orcc, count: 4}]\n"
    )
    (tmp_path / "heroes.yaml").write_text("heroes:\n  xoric: {starting_health: -1}\n")
    assert main(["content", "check", "--overlay", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    # Cross-references (the unknown 'orcc') are checked once every file is valid on its own.
    assert "content check failed: 1 problem(s)" in out
    assert f"{tmp_path / 'heroes.yaml'}: xoric.starting_health: expected at least 1, found -1" in out


def test_check_accepts_a_good_overlay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "heroes.yaml").write_text(
        "heroes:\n  xoric:\n    starting_health: 9\n"
        "    source: the Hero Rules card\n    unverified_fields: {}\n"
    )
    assert main(["content", "check", "--overlay", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "HeroCard xoric" not in out
    assert str(tmp_path / "heroes.yaml") in out


def test_hardware_files_with_a_non_numeric_measurement_are_reported(tmp_path: Path) -> None:
    from service.content.hardware import check_hardware

    (tmp_path / "mat.yaml").write_text(
        "mat:\n  width_mm: 860\n  height_mm: wide\nobstacles:\n  - {x_mm: 3, y_mm: 4.5}\n"
    )
    (tmp_path / "sensors.yaml").write_text("nfc: {pitch_mm: 25\n")
    problems = [str(p) for p in check_hardware(tmp_path, label_root="hw")]
    assert problems[0] == "hw/mat.yaml: mat.height_mm: 'wide' is not a number"
    assert problems[1].startswith("hw/sensors.yaml: invalid YAML: line 2")
    assert len(problems) == 2


def test_the_shipped_hardware_files_pass() -> None:
    from service.content.hardware import check_hardware
    from service.content.reading import CONTENT_ROOT

    assert check_hardware(CONTENT_ROOT / "hardware") == []
