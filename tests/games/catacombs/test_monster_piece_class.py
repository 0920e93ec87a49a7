"""A Monster card's printed disc size names the piece class its discs are, read through the game's definition
(``monster_piece_class``) before any disc is bound (service/table/bindings.py)."""

from __future__ import annotations

from service.games import definition_of


def test_third_editions_printed_sizes_name_the_piece_class() -> None:
    """catacombs-3e-reference.txt: Monster Vulnerabilities: the vermin are "extra small in size" (Sewer Rats,
    Armoured Beetles, Pit Vipers, Vampire Bats); the Gelatinous Cube is a piece of its own."""
    reader = definition_of("catacombs-3e").monster_piece_class
    assert reader is not None
    size_of = reader()
    assert size_of("sewer-rat") == "monster-extra-small"
    assert size_of("gelatinous-cube") == "gelatinous-cube"
    assert size_of("no-such-monster") is None


def test_a_game_whose_cards_print_no_size_reads_none() -> None:
    assert definition_of("catacombs-1e").monster_piece_class is None
    assert definition_of("catacombs-and-castles-2e").monster_piece_class is None
