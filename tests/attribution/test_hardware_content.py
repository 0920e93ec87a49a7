"""The mat, sensor and piece files load, and a broken one names its file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.mat.geometry import (
    ContentFileError,
    load_mat,
    load_piece_classes,
    load_sensor_config,
)


def test_the_three_sensor_configurations_load_and_differ() -> None:
    reference, cheaper, noisier = (load_sensor_config(n) for n in ("reference", "cheaper", "noisier"))
    mat = load_mat()
    assert reference.nfc.pitch_mm == 25 and len(reference.piezo_positions(mat)) == 8
    assert reference.piezo.timing_jitter_us == 30 and reference.nfc.missed_read == 0.02
    assert cheaper.nfc.pitch_mm > reference.nfc.pitch_mm and len(cheaper.piezo_positions(mat)) == 4
    assert noisier.nfc.rssi_noise > reference.nfc.rssi_noise


def test_the_upgrades_hear_softer_touches_and_read_finer_than_the_reference() -> None:
    # docs/attribution.md, "What the sensors, not the code, cost": each upgrade is named by what it changes.
    mat = load_mat()
    reference, proposed, contact = (load_sensor_config(n) for n in ("reference", "proposed", "contact"))
    assert len(proposed.piezo_positions(mat)) == len(contact.piezo_positions(mat)) == 9
    thresholds = [c.piezo.detection_threshold for c in (reference, proposed, contact)]
    assert thresholds == sorted(thresholds, reverse=True) and len(set(thresholds)) == 3
    assert reference.nfc.pitch_mm > proposed.nfc.pitch_mm > contact.nfc.pitch_mm


def test_every_piece_class_the_game_needs_is_there_with_a_source() -> None:
    classes = load_piece_classes()
    for name in (
        "hero",
        "monster-extra-small",
        "monster-medium",
        "monster-large",
        "lord",
        "ranged",
        "shield",
        "obstacle",
        "ice",
        "gelatinous-cube",
    ):
        assert name in classes
    assert classes["monster-extra-small"].radius_mm < classes["monster-medium"].radius_mm
    assert classes["monster-medium"].radius_mm < classes["monster-large"].radius_mm
    assert all(c.source for c in classes.values() if c.unverified)
    assert classes["ice"].covers


def test_a_missing_key_names_file_and_key(tmp_path: Path) -> None:
    broken = tmp_path / "sensors-broken.yaml"
    text = (Path(__file__).resolve().parents[2] / "content/hardware/sensors-reference.yaml").read_text()
    broken.write_text(text.replace("  timing_jitter_us: 30\n", ""))
    with pytest.raises(ContentFileError, match=r"sensors-broken.yaml: piezo.timing_jitter_us: missing"):
        load_sensor_config(broken)


def test_a_wrong_value_names_file_and_key(tmp_path: Path) -> None:
    broken = tmp_path / "mat.yaml"
    text = (Path(__file__).resolve().parents[2] / "content/hardware/mat.yaml").read_text()
    broken.write_text(text.replace("width_mm: 860", "width_mm: wide"))
    refused = r"mat.yaml: mat.width_mm: expected a finite number, got 'wide'"
    with pytest.raises(ContentFileError, match=refused):
        load_mat(broken)


def test_an_unverified_size_without_a_source_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "pieces.yaml"
    broken.write_text("pieces:\n  hero:\n    radius_mm: 19\n    mass_g: 7\n    unverified: true\n")
    with pytest.raises(ContentFileError, match=r"pieces.yaml: pieces.hero.source: an unverified value"):
        load_piece_classes(broken)


def test_a_file_that_is_not_yaml_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "mat.yaml"
    broken.write_text("mat: [unclosed\n")
    with pytest.raises(ContentFileError, match=r"mat.yaml: \(file\): not valid YAML"):
        load_mat(broken)


def test_the_camera_study_is_the_reference_board_with_a_camera() -> None:
    reference, camera = load_sensor_config("reference"), load_sensor_config("camera")
    assert reference.camera is None
    assert camera.camera is not None and camera.camera.fps == 120
    assert (camera.nfc, camera.piezo) == (reference.nfc, reference.piezo)


def test_a_broken_camera_section_names_file_and_key(tmp_path: Path) -> None:
    broken = tmp_path / "sensors-cam.yaml"
    text = (Path(__file__).resolve().parents[2] / "content/hardware/sensors-camera.yaml").read_text()
    broken.write_text(text.replace("fps: 120", "fps: -5"))
    refused = r"sensors-cam.yaml: camera.fps: expected a number more than 10 and at most 2000, got -5"
    with pytest.raises(ContentFileError, match=refused):
        load_sensor_config(broken)
