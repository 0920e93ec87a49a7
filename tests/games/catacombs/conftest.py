"""The battle most Catacombs tests start from (tests/helpers/game_setups.py)."""

from __future__ import annotations

import pytest

from tests.helpers.game_setups import in_the_barracks
from tests.helpers.rules_script import RulesScript


@pytest.fixture
def barracks() -> RulesScript:
    return in_the_barracks()
