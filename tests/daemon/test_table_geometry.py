"""A table file describes its playmat's walls and fixed obstacles, and the daemon's shot traces carry them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from service.mat.trace import WallSegment
from service.sensing.tags import TableConfigError
from service.table.config import SHIPPED_TABLES, load_table
from tests.helpers.game_script import GameScript

WITH_A_GAP = """
mat:
  walls: [[-50, -50, 910, -50], [910, -50, 910, 660], [910, 660, 520, 660], [340, 660, -50, 660]]
  obstacles: [{shape: box, x_mm: 430, y_mm: 305, width_mm: 180, height_mm: 25, angle_deg: 30}]
"""


def table_file(tmp_path: Path, extra: str) -> Path:
    path = tmp_path / "t.yaml"
    path.write_text((SHIPPED_TABLES / "demo.yaml").read_text() + extra)
    return path


def test_a_table_with_a_gap_in_its_walls_and_a_castles_wall(tmp_path: Path) -> None:
    table = load_table(table_file(tmp_path, WITH_A_GAP))
    assert table.walls is not None and len(table.walls) == 4
    assert table.walls[2] == WallSegment(910, 660, 520, 660)  # the top side stops at the gap
    (box,) = table.obstacles
    assert box.shape == "polygon" and len(box.points) == 4
    assert load_table().walls is None  # the demo table: the classic closed walls


def test_a_broken_mat_description_names_the_file_and_key(tmp_path: Path) -> None:
    path = table_file(tmp_path, "\nmat:\n  walls: [[0, 0, 0.2, 0]]\n")
    with pytest.raises(TableConfigError, match=r"t\.yaml: mat\.walls\[0\]: a wall segment must be"):
        load_table(path)
    path = table_file(tmp_path, "\nmat:\n  obstacles: [{shape: star, x_mm: 1, y_mm: 2}]\n")
    shapes = r"expected 'circle' or 'box' or 'polygon', got 'star'"
    with pytest.raises(TableConfigError, match=rf"t\.yaml: mat\.obstacles\[0\]\.shape: {shapes}"):
        load_table(path)


def test_the_daemon_models_the_table_files_mat(tmp_path: Path) -> None:
    described = load_table(table_file(tmp_path, WITH_A_GAP))
    table = GameScript()
    table.daemon.table = replace(table.daemon.table, walls=described.walls, obstacles=described.obstacles)
    mat = table.daemon.mat_geometry()
    assert mat.walls == described.walls
    assert mat.obstacles == described.obstacles
    assert len(mat.sensors) == 4  # the fake board's own piezos, from its HELLO
