"""The games registry: every rule set by the name a setup record gives (docs/architecture.md, "Adding a fifth
game"), as python-chess finds a variant by name."""

from __future__ import annotations

import pytest

from service.games import GAMES, find_game, rulesets
from service.games.castles.first_edition.ruleset import CastlesFirstEdition
from service.games.castles.second_edition.ruleset import CastlesSecondEdition
from service.games.catacombs.first_edition.ruleset import Catacombs1E
from service.games.catacombs.third_edition.ruleset import Catacombs3E


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
