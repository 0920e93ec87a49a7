"""What a Catacombs campaign scores of a table's game, read from its published state (docs/state.md)."""

from __future__ import annotations

from service.games import party_progress
from service.games.catacombs.campaign import party_gold, rooms_cleared
from service.games.definition import PartyProgress


def test_a_partys_gold_counts_a_catacomb_heros_own_gold() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Team Catacomb Heroes: the published
    gold.party leaves out the gold a Catacomb hero may not pool; what the party carried still counts it."""
    heroes = [
        {"id": "hero-xoric", "kind": "hero", "gold": 4},
        {"id": "hero-hakoru", "kind": "hero", "gold": 3},  # a Team Catacomb hero: its gold is its own
    ]
    monster = {"id": "monster-orc-1", "kind": "monster", "gold": 2}  # only the heroes' gold counts
    assert party_gold({"gold": {"party": 4}, "characters": [*heroes, monster]}) == 7
    assert party_gold({"gold": {"party": 5}}) == 5
    assert party_gold({"gold": None, "characters": []}) == 0


def test_a_room_counts_once_its_battle_is_won() -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb: a room is cleared when its battle is
    won (the resolution phase), and the last room when the heroes win the game."""
    assert rooms_cleared({"room": {"index": 2}, "phase": "battle"}) == 2
    assert rooms_cleared({"room": {"index": 2}, "phase": "resolution"}) == 3
    assert rooms_cleared({"room": {"index": 4}, "phase": "game_over", "outcome": "heroes"}) == 5
    assert rooms_cleared({"room": None, "phase": "setup"}) == 0


def test_the_registry_reads_a_state_by_the_game_its_ruleset_names() -> None:
    state = {"room": {"index": 1}, "phase": "resolution", "gold": {"party": 6}}
    assert party_progress({**state, "ruleset": "catacombs-3e"}) == PartyProgress(rooms_cleared=2, gold=6)
    assert party_progress({**state, "ruleset": "catacombs-1e"}) == PartyProgress(rooms_cleared=2, gold=6)
    # A game that keeps no party scores nothing in a campaign, nor does a state of a game this build lacks.
    assert party_progress({**state, "ruleset": "catacombs-and-castles-2e"}) == PartyProgress()
    assert party_progress({**state, "ruleset": "chess"}) == PartyProgress()
