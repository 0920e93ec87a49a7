"""A setup record's ``settings`` decode into its rule set's own settings class (docs/game-log.md: the setup
record; ``RuleSet.settings_type``): the Catacombs options for a Catacombs game, none for Catacombs &
Castles, whose rulebook has no such options (catacombs-and-castles-2e-manual.md: Game Overview)."""

from __future__ import annotations

import pytest

from service.gamelog.replay import SetupError, new_game_from_setup
from service.games.castles.second_edition.ruleset import CastlesSecondEdition
from service.games.catacombs.flow.settings import Settings
from service.rules.settings import RuleSettings

CASTLES = {
    "ruleset": "catacombs-and-castles-2e",
    "mode": "one-versus-one",
    "first": "castle",
    "seed": 11,
    "sides": [{"team": "castle", "heroes": ["delilah"]}, {"team": "catacomb", "heroes": ["formilus"]}],
}
CATACOMBS = {
    "ruleset": "catacombs-3e",
    "content": "shipped",
    "heroes": ["xoric", "varesh", "roosan", "elani"],
    "lord": "hmotha-the-lich-lord",
    "rooms": ["the-barracks", "althea-the-healer", "catacomb-lords-lair"],
    "seed": 2026,
}


def test_a_catacombs_setup_reads_the_catacombs_settings() -> None:
    """catacombs-3e-reference.txt: Hero Death (the advanced rule is a table setting)."""
    rules, _ = new_game_from_setup({**CATACOMBS, "settings": {"advanced_hero_death": True}})
    assert rules.settings == Settings(advanced_hero_death=True)


def test_a_castles_setup_has_no_settings_of_its_own() -> None:
    rules, _ = new_game_from_setup(CASTLES)
    assert CastlesSecondEdition.settings_type is RuleSettings
    assert type(rules.settings) is RuleSettings


def test_a_catacombs_option_in_a_castles_setup_is_refused_naming_it() -> None:
    with pytest.raises(SetupError, match="physical_decks"):
        new_game_from_setup({**CASTLES, "settings": {"physical_decks": True}})


def test_a_wrongly_typed_setting_is_refused_naming_it() -> None:
    with pytest.raises(SetupError, match="physical_decks"):
        new_game_from_setup({**CATACOMBS, "settings": {"physical_decks": "yes please"}})
