"""What the no-dead-ends property (tests/games/test_no_dead_ends.py) found besides the Antient's stall: states
the rules reached whose exported position the position format refused (docs/positions.md)."""

from __future__ import annotations

import pytest

from service.gamelog.replay import load_content
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.position import load_position, position_of
from service.rules import IllegalActionError
from tests.helpers.game_setups import catacombs_3e


@pytest.mark.parametrize("how", ["hero death", "corrosion"])
def test_a_familiar_gone_with_its_item_card_is_out_with_no_health_and_its_position_loads(how: str) -> None:
    """catacombs-3e-reference.txt: Hero Death (the basic rule returns the Items) and Corrosion Shot Modifier
    ("Any pieces associated with the removed card on the playmat are also removed"): the familiar is off
    the playmat like a destroyed one, so the exported position loads back (docs/positions.md)."""
    table = catacombs_3e(["the-barracks"], items={"varesh": ["raven-familiar"]})
    table.enter_battle()
    if how == "hero death":
        table.do(A.SetHealth("hero-varesh", 0, "test"))
    else:
        from service.games.catacombs.flow import modifiers
        from service.games.catacombs.flow.tx import Tx

        tx = Tx(table.state, table.rules)
        modifiers.corrode(tx, tx.char("hero-varesh"))
        table.state = tx.state
    raven = table.state.character("familiar-raven-familiar")
    assert (raven.alive, raven.in_room, raven.health) == (False, False, 0)
    assert load_position(table.rules, position_of(table.state)) == table.state


def test_a_lord_on_the_teleported_card_is_a_position_that_loads() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Teleport Shots ("The Battle Phase continues while monsters
    and/or Catacomb Lords are on the Teleported! card"); Catacomb Lord's Lair (Lords "cannot be frozen or
    devoured" only). The Queen of the Underworld's own teleport shot sends her to the card."""
    content = load_content({"ruleset": "catacombs-3e", "expansions": ["soloth"]})
    lord = content.lord("surlafeure-the-queen-of-the-underworld")
    alternative = next(
        i
        for i, sequence in enumerate(lord.shot_sequences)
        if any(s.kind == "teleport" for s in sequence.shots)
    )
    table = catacombs_3e(["catacomb-lords-lair"], lord=lord.id, content=content)
    table.enter_battle()
    table.side_passes()
    queen = "lord-surlafeure"
    table.declare(queen, alternative)
    while table.state.expected_shot() is not None and table.state.expected_shot()["shot"] != "teleport":
        table.do(A.SkipShot(queen))
    table.shot(queen, "teleport")
    assert "teleported" in table.state.character(queen).status
    assert load_position(table.rules, position_of(table.state)) == table.state
    frozen = position_of(table.state)
    frozen["characters"] = [
        {**c, "status": ["frozen"]} if c["id"] == queen else c for c in frozen["characters"]
    ]
    with pytest.raises(ValueError, match="cannot be frozen or devoured"):
        load_position(table.rules, frozen)


def test_two_heroes_cannot_start_with_the_one_copy_of_a_familiar() -> None:
    """catacombs-3e-reference.txt: Game Phases: The Setup Phase ("The supply of pieces and cards represent
    hard limits in the game"): the Spirit Familiar is one card, so one familiar piece; a card the box holds
    twice (the Berserker Battle Axe) may start twice."""
    shipped = load_content({"ruleset": "catacombs-3e"})
    with pytest.raises(IllegalActionError, match="no more copies of spirit-familiar") as refused:
        catacombs_3e(
            ["the-outer-bailey"],
            lord="vasesak-the-sorcerer",
            content=shipped,
            items={"elani": ["spirit-familiar"], "xoric": ["spirit-familiar"]},
        )
    assert refused.value.rule == "catacombs-3e-reference.txt: Game Phases: The Setup Phase"
    table = catacombs_3e(
        ["the-outer-bailey"],
        lord="vasesak-the-sorcerer",
        content=shipped,
        items={"xoric": ["berserker-battle-axe", "berserker-battle-axe"]},
    )
    assert table.state.character("hero-xoric").items == ("berserker-battle-axe", "berserker-battle-axe")
