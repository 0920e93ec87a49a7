"""Catacombs' entries in the games registry (service.games): Third Edition and First Edition."""

from __future__ import annotations

from service.games.catacombs.campaign import party_progress
from service.games.catacombs.content_check import first_edition_check, third_edition_check
from service.games.catacombs.first_edition.ruleset import Catacombs1E
from service.games.catacombs.flow.position import position_of, referee_view
from service.games.catacombs.loading import (
    first_edition_content,
    third_edition_content,
    third_edition_monster_sizes,
)
from service.games.catacombs.table import CatacombsTable, party_result
from service.games.catacombs.third_edition.ruleset import Catacombs3E
from service.games.catacombs.wizard import catacombs_setup, first_edition_choices, third_edition_choices
from service.games.definition import CAMPAIGN, GameDefinition, TournamentFormat

TABLE_GAME_SCHEMA = ("service.games.catacombs.schemas", "table_game")
"""The shape of a table file's ``game`` for these rule sets."""

THIRD_EDITION = GameDefinition(
    ruleset=Catacombs3E,
    content=third_edition_content,
    content_check=third_edition_check,
    table=CatacombsTable(),
    game_result=party_result,
    demo_table="demo",
    title="Catacombs 3E",
    table_game_schema=TABLE_GAME_SCHEMA,
    # Castles heroes may join a 3E party with their own pieces (catacombs-and-castles-2e-manual.md: Catacombs
    # 3E Integration; the castles expansion): the 2E box's sizes, named castles-*.
    piece_sets=("catacombs-and-castles-2e",),
    monster_piece_class=third_edition_monster_sizes,
    wizard_choices=third_edition_choices,
    wizard_setup=catacombs_setup,
    wizard_arguments=frozenset({"heroes", "lord", "rooms", "expansions"}),
    referee_view=referee_view,
    position_of=position_of,
    corrections=(("health", "health"), ("gold", "gold"), ("card", "a card (give or take)")),
    # One party per table, ranked by the rooms it cleared and then its gold (docs/tournaments.md).
    tournament_formats=(TournamentFormat("catacombs-3e-campaign", "Catacombs 3E campaign", CAMPAIGN),),
    party_progress=party_progress,
)

FIRST_EDITION = GameDefinition(
    ruleset=Catacombs1E,
    content=first_edition_content,
    content_check=first_edition_check,
    table=CatacombsTable(),
    game_result=party_result,
    demo_table="catacombs-1e-demo",
    title="Catacombs 1E",
    table_game_schema=TABLE_GAME_SCHEMA,
    piece_sets=("catacombs-1e",),
    wizard_choices=first_edition_choices,
    wizard_setup=catacombs_setup,
    wizard_arguments=frozenset({"heroes", "lord", "rooms"}),
    # Its Monster cards print no disc size: a free disc of the family is used.
    room_services=True,
    translated_content=True,
    referee_view=referee_view,
    corrections=(
        ("health", "health"),
        ("gold", "gold"),
        ("rage", "rage (the Barbarian)"),
        ("card", "a card (give or take)"),
    ),
    party_progress=party_progress,
)
