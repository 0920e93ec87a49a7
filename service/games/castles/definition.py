"""Catacombs & Castles' entries in the games registry (service.games): Second Edition and First Edition."""

from __future__ import annotations

from service.games.castles.content_check import castles_check
from service.games.castles.first_edition.ruleset import CastlesFirstEdition
from service.games.castles.loading import castles_content
from service.games.castles.second_edition.ruleset import CastlesSecondEdition
from service.games.castles.table import CastlesTable
from service.games.definition import GameDefinition

SECOND_EDITION = GameDefinition(
    ruleset=CastlesSecondEdition,
    content=castles_content,
    content_check=castles_check,
    table=CastlesTable(),
    demo_table="castles-demo",
    title="Catacombs & Castles 2E",
    piece_sets=("catacombs-and-castles-2e",),
    two_sides=True,
    table_file_modes=True,
)

FIRST_EDITION = GameDefinition(
    ruleset=CastlesFirstEdition,
    content=castles_content,
    content_check=castles_check,
    # The first edition is played with the same pieces and the same turn controller; its setup record adds
    # board_side, abilities and armour_tokens, which the table file's mode carries as they are.
    table=CastlesTable(placed_shields=True),
    demo_table="castles-1e-demo",
    title="Catacombs & Castles 1E",
    piece_sets=("catacombs-and-castles-1e",),
    two_sides=True,
    table_file_modes=True,
    wizard_sets_up=False,
    wizard_note="A First Edition Catacombs & Castles game is set up from the table file: its modes, heroes, "
    "abilities and board sides are the file's game section (smartmat run --mode picks the mode).",
)
