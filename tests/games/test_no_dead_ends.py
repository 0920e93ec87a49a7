"""No dead ends, in any game: long random legal games of every rule set and mode (hypothesis).

After every action of a game played from the shipped content, or from a random position reached in it, the
game has ended or some action is legal; the state round-trips through the game log, its canonical form and
(Catacombs 3E) the position format; health stays within bounds, gold, Poison cards and Health Tokens are
conserved and no piece is in two places (``tests/games/no_dead_ends.py``). A bounded number of games per rule
set here; ``benchmarks/no_dead_ends.py`` plays many more (docs/rules-api.md, "No dead ends").
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.no_dead_ends import play_game, scenarios, valid_setup

SCENARIOS = scenarios()
# Games per rule set: a 3E game (positions checked after every action) takes about a second, a Castles game
# a tenth of one; the whole file stays within a minute on one core.
GAMES = {name: 3 if name.startswith("catacombs-") else 10 for name in SCENARIOS}
ACTIONS = 300  # per game at most (benchmarks/no_dead_ends.py plays 400)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_game_ends_or_offers_a_legal_action(name: str) -> None:
    @settings(
        max_examples=GAMES[name],
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
    )
    @given(seed=st.integers(0, 2**31 - 1), from_position=st.booleans())
    def games(seed: int, from_position: bool) -> None:
        setup = valid_setup(SCENARIOS[name], random.Random(seed))
        play_game(setup, seed, max_actions=ACTIONS, from_position=from_position)

    games()


def test_the_driver_finds_a_round_that_cannot_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """The property can fail: a hand-broken rule set whose monsters have no sequence to declare (yet must act
    before the round ends) is caught as a dead end."""
    from service.games.catacombs.third_edition.ruleset import Catacombs3E
    from tests.games.no_dead_ends import DeadEnd

    original = Catacombs3E.hero_sequences

    def no_monster_sequences(self: Catacombs3E, state: Any, c: Any) -> Any:
        return () if c.kind == "monster" else original(self, state, c)

    monkeypatch.setattr(Catacombs3E, "hero_sequences", no_monster_sequences)
    setup = {
        "ruleset": "catacombs-3e",
        "heroes": ["xoric", "varesh", "roosan", "elani"],
        "lord": "vasesak-the-sorcerer",
        "rooms": ["the-outer-bailey", "catacomb-lords-lair"],
        "seed": 1,
    }
    with pytest.raises(DeadEnd, match="no legal action"):
        play_game(setup, 1)
