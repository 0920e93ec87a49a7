"""The setup record selects the Cavern of Soloth expansion (docs/game-log.md, "expansions")."""

from __future__ import annotations

import pytest

from service.gamelog.replay import SetupError, replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A

SETUP = {
    "ruleset": "catacombs-3e",
    "content": "shipped",
    "heroes": ["xoric", "varesh", "roosan", "elani"],
    "lord": "thaggu-the-orc-warchief",
    "rooms": ["the-scarewyrm-pit", "the-barracks"],
    "seed": 5,
}


def test_a_soloth_game_needs_the_expansion_named_in_its_setup() -> None:
    """catacombs-3e-reference.txt: Components (the base game's cards); content/catacombs-3e/soloth."""
    log = LogWriter()
    log.setup(SETUP)
    with pytest.raises(SetupError, match="thaggu-the-orc-warchief"):
        replay(log.records)
    log = LogWriter()
    log.setup({**SETUP, "expansions": ["soloth"]})
    log.action(A.EnterRoom())
    result = replay(log.records)
    assert result.rejected == []
    assert result.state.room_id == "the-scarewyrm-pit"


def test_expansions_must_be_a_list_of_names() -> None:
    """docs/game-log.md (setup record)."""
    log = LogWriter()
    log.setup({**SETUP, "expansions": "soloth"})
    with pytest.raises(SetupError, match="'expansions' must list expansion names"):
        replay(log.records)
