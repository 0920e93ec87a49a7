"""Catacombs 1E and 3E are siblings over the shared Catacombs game, not a subclass chain
(docs/architecture.md, "The house"); the Castles heroes expansion is composed into 3E only
(catacombs-and-castles-2e-manual.md: Catacombs 3E Integration, which joins the Castles cards to the third
edition)."""

from __future__ import annotations

from service.games import find_game
from service.games.catacombs.first_edition.ruleset import Catacombs1E
from service.games.catacombs.flow.game import CatacombsGame
from service.games.catacombs.flow.ruleset import CatacombsFlow
from service.games.catacombs.third_edition.expansions.castles_heroes import CastlesHeroes3E
from service.games.catacombs.third_edition.ruleset import Catacombs3E


def test_first_edition_is_not_a_kind_of_third_edition() -> None:
    assert not issubclass(Catacombs1E, Catacombs3E)
    assert not issubclass(Catacombs3E, Catacombs1E)
    assert Catacombs1E.__bases__ == (CatacombsGame,)
    assert issubclass(Catacombs3E, CatacombsGame) and issubclass(CatacombsGame, CatacombsFlow)


def test_no_third_edition_class_stands_in_the_first_editions_rules() -> None:
    third = [c.__qualname__ for c in Catacombs1E.__mro__ if ".third_edition" in c.__module__]
    assert third == []


def test_the_castles_heroes_wrap_the_flow_after_the_shared_game_in_third_edition_only() -> None:
    mro = Catacombs3E.__mro__
    assert mro.index(CatacombsGame) < mro.index(CastlesHeroes3E) < mro.index(CatacombsFlow)
    assert CastlesHeroes3E not in Catacombs1E.__mro__


def test_the_registry_finds_each_edition_by_its_own_name() -> None:
    assert find_game("catacombs-1e") is Catacombs1E
    assert find_game("catacombs-3e") is Catacombs3E
