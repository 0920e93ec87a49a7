"""The pieces a table may bind, from its game's definition (``piece_sets``): every table has the common
classes (obstacles, every box's common sizes); a game adds its own box's sizes."""

from __future__ import annotations

from pathlib import Path

from service.mat.geometry import load_piece_classes
from service.table.games import piece_classes

CONTENT = Path(__file__).resolve().parents[2] / "content"
COMMON = set(load_piece_classes())


def own_classes(folder: str) -> set[str]:
    return set(load_piece_classes(CONTENT / folder / "pieces.yaml"))


def test_a_catacombs_3e_table_may_bind_the_castles_heroes_pieces() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Castles heroes join a 3E party with their
    own pieces, so a 3E table knows the 2E box's sizes."""
    assert set(piece_classes("catacombs-3e")) == COMMON | own_classes("catacombs-and-castles-2e")
    assert "castles-ranged-small" in piece_classes("catacombs-3e")


def test_each_castles_edition_binds_its_own_boxs_pieces() -> None:
    assert set(piece_classes("catacombs-and-castles-2e")) == COMMON | own_classes("catacombs-and-castles-2e")
    assert set(piece_classes("catacombs-and-castles-1e")) == COMMON | own_classes("catacombs-and-castles-1e")
    assert own_classes("catacombs-and-castles-1e") != own_classes("catacombs-and-castles-2e")


def test_a_game_without_pieces_of_its_own_binds_the_common_ones() -> None:
    assert set(piece_classes("catacombs-1e")) == COMMON
    assert set(piece_classes("no-such-game")) == COMMON  # no content/no-such-game/pieces.yaml
