"""Catacombs & Castles' entries in the games registry (service.games): Second Edition and First Edition."""

from __future__ import annotations

from service.games.castles.content_check import castles_check
from service.games.castles.first_edition.ruleset import CastlesFirstEdition
from service.games.castles.loading import castles_content
from service.games.castles.second_edition.ruleset import CastlesSecondEdition
from service.games.castles.table import CastlesTable
from service.games.castles.wizard import (
    first_edition_choices,
    first_edition_setup,
    second_edition_choices,
    second_edition_setup,
)
from service.games.definition import SWISS, GameDefinition, TournamentFormat

TABLE_GAME_SCHEMA = ("service.games.castles.schemas", "table_game")
"""The shape of a table file's ``game`` for these rule sets."""

CORRECTIONS = (("health", "the side's Health Tokens"), ("charge", "tokens on a card"))
"""What the referee sets by hand: a side's Health Pool, the tokens on a character's card."""

SECOND_EDITION = GameDefinition(
    ruleset=CastlesSecondEdition,
    content=castles_content,
    content_check=castles_check,
    table=CastlesTable(),
    demo_table="castles-demo",
    title="Catacombs & Castles 2E",
    table_game_schema=TABLE_GAME_SCHEMA,
    piece_sets=("catacombs-and-castles-2e",),
    two_sides=True,
    table_file_modes=True,
    wizard_choices=second_edition_choices,
    wizard_setup=second_edition_setup,
    wizard_arguments=frozenset({"mode", "sides", "first", "game_length", "quick_start"}),
    corrections=CORRECTIONS,
    # Swiss events of the One versus One and the team mode (docs/tournaments.md); a match offer names the
    # mode, which a table of either edition plays from its table file.
    tournament_formats=(
        TournamentFormat("castles-1v1", "Catacombs & Castles, One versus One", SWISS, mode="one-versus-one"),
        TournamentFormat("castles-teams", "Catacombs & Castles, teams", SWISS, mode="team", teams=True),
    ),
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
    table_game_schema=TABLE_GAME_SCHEMA,
    piece_sets=("catacombs-and-castles-1e",),
    two_sides=True,
    table_file_modes=True,
    wizard_choices=first_edition_choices,
    wizard_setup=first_edition_setup,
    wizard_arguments=frozenset({"mode", "sides", "board_side", "armour_tokens"}),
    corrections=CORRECTIONS,
)
