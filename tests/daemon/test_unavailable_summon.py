"""The expected shot says when a summon has no piece left in the Monster Pool: it can only be skipped."""

from __future__ import annotations

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import MonsterCard
from service.games.catacombs.flow.shots import Sequence, Shot
from service.table.games import table_game
from tests.games.catacombs.content import room_of, with_cards
from tests.helpers.game_setups import catacombs_3e

NECROMANCER = MonsterCard(
    "necromancer", "Necromancer", 2, "undead", 1, 1, (Sequence((Shot("summon", summons="zombie"),)),)
)


def test_a_summon_without_a_piece_is_marked_unavailable_with_its_rule() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Summon Shot ("the monster piece being summoned must be
    available from the Monster Pool")."""
    table = catacombs_3e(
        ["crypt", "the-barracks"],
        content=with_cards(
            monsters=[NECROMANCER], rooms=[room_of("crypt", ("necromancer", 1), ("zombie", 4))]
        ),
    )
    table.enter_battle()
    table.side_passes()
    table.declare("monster-necromancer-1")
    expected = table_game("catacombs-3e").expected_shot(table.rules, table.state)
    assert expected is not None and expected["shot"] == "summon"
    assert "no piece is left in the Monster Pool" in expected["unavailable"]
    assert "Summon Shot" in expected["unavailable"]
    table.do(A.SkipShot("monster-necromancer-1"))
    table.do(A.SetHealth("monster-zombie-1", 0, "crumbled"))  # no slayer: its piece goes back at once
    table.side_passes()
    table.side_passes()
    table.declare("monster-necromancer-1")
    expected = table_game("catacombs-3e").expected_shot(table.rules, table.state)
    assert expected is not None and "unavailable" not in expected
