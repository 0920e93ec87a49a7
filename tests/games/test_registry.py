"""The games registry: every rule set by the name a setup record gives (docs/architecture.md, "Adding a
game"), as python-chess finds a variant by name, with what the rest of the product needs of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.games import GAMES, definition_of, definitions, find_game, rulesets
from service.games.castles.first_edition.ruleset import CastlesFirstEdition
from service.games.castles.second_edition.ruleset import CastlesSecondEdition
from service.games.catacombs.first_edition.ruleset import Catacombs1E
from service.games.catacombs.third_edition.ruleset import Catacombs3E

CONTENT = Path(__file__).resolve().parents[2] / "content"


def test_each_game_is_found_by_its_setup_name() -> None:
    assert find_game("catacombs-3e") is Catacombs3E
    assert find_game("catacombs-1e") is Catacombs1E
    assert find_game("catacombs-and-castles-2e") is CastlesSecondEdition
    assert find_game("catacombs-and-castles-1e") is CastlesFirstEdition


def test_names_are_unique_and_rulesets_lists_every_game() -> None:
    names = [game.name for game in GAMES]
    assert len(set(names)) == len(names) == 4
    assert rulesets() == {game.name: game for game in GAMES}


def test_an_unknown_name_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown rule set 'chess'") as refused:
        find_game("chess")
    assert all(game.name in str(refused.value) for game in GAMES)


def test_each_game_says_what_the_table_needs_of_it() -> None:
    """Each definition names its shipped demo table and the piece sets it adds to the common classes."""
    tables = {game.name: game.demo_table for game in definitions()}
    assert tables == {
        "catacombs-3e": "demo",
        "catacombs-and-castles-2e": "castles-demo",
        "catacombs-and-castles-1e": "castles-1e-demo",
        "catacombs-1e": "catacombs-1e-demo",
    }
    for game in definitions():
        assert (CONTENT / "tables" / f"{game.demo_table}.yaml").is_file(), game.name
    assert definition_of("catacombs-3e").piece_sets == ("catacombs-and-castles-2e",)
    assert [g.name for g in definitions() if g.two_sides] == [
        "catacombs-and-castles-2e",
        "catacombs-and-castles-1e",
    ]
    assert definition_of("catacombs-3e") is definitions()[0]  # the game a setup without ruleset plays
