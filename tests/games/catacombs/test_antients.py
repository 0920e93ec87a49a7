"""Antients: who holds the card, and a round that ends whatever the card data knows.

catacombs-3e-reference.txt: Advanced Concepts: Antients — "An Antient is controlled first by the player that
summoned it. ... Once that player's turn is over, the Antient card is passed to the Overseer. Control of the
Antient passes back and forth between the Heroic Forces and the Overseer until the battle phase is finished."
"""

from __future__ import annotations

import pytest

from service.gamelog.replay import load_content
from service.games.catacombs.flow import actions as A
from service.rules.errors import CharacterCannotActError
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript

ANTIENT = "antient-liquid-antient"
ANTIENTS_RULE = "catacombs-3e-reference.txt: Advanced Concepts: Antients"


def controller(table: RulesScript) -> str | None:
    (entry,) = table.state.public_view()["antients"]
    return entry["controlled_by"]


def summon_with_the_urn(table: RulesScript) -> None:
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    assert controller(table) == "heroes"  # the summoner performs its melee and sequence


def test_the_card_passes_to_the_overseer_once_the_summoners_turn_is_over() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Antients ("Once that player's turn is over, the Antient
    card is passed to the Overseer")."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["vaiels-urn"]})
    summon_with_the_urn(table)
    table.do(A.EndTurn("hero-elani"))
    assert table.state.side == "heroes"  # the other heroes still act in this part of the round
    assert controller(table) == "overseer"
    with pytest.raises(CharacterCannotActError, match="card is with the overseer") as refused:
        table.declare(ANTIENT, 0)
    assert refused.value.rule == ANTIENTS_RULE


def test_the_overseer_performs_its_sequence_and_hands_the_card_back_when_his_turn_is_over() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Antients ("During the Overseer's turn, they control the
    Antient and perform its shot sequence against the Heroic Forces. Upon completion of the Overseer's turn,
    the Antient card is handed back to the players controlling the heroes")."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["vaiels-urn"]})
    summon_with_the_urn(table)
    table.do(A.EndTurn("hero-elani"))
    table.side_passes()
    assert table.state.side == "overseer" and controller(table) == "overseer"
    table.turn(ANTIENT, ("melee", "hero-xoric", "monster-orc-2"))  # aimed at the heroes now
    assert table.health("hero-xoric") == 8 and table.state.character("monster-orc-2").alive
    with pytest.raises(CharacterCannotActError, match="until the Overseer's turn is over") as refused:
        table.declare(ANTIENT, 0)
    assert refused.value.rule == ANTIENTS_RULE
    assert controller(table) == "overseer"
    table.side_passes()
    assert table.state.round == 2 and table.state.side == "heroes" and controller(table) == "heroes"
    table.turn(ANTIENT, ("melee", "monster-orc-2"))  # a hero player uses it against the Overseer's side
    assert not table.state.character("monster-orc-2").alive and controller(table) == "overseer"


def test_the_shipped_liquid_antient_never_stalls_the_round() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Antients; Battle Phase: Turn Order. The shipped Antient
    card carries no shot sequence (no source prints it): its controller has nothing to perform, so its part
    passes and the rounds go on (docs/rulings.md, "Antient control")."""
    table = catacombs_3e(
        ["the-outer-bailey", "catacomb-lords-lair"],
        lord="vasesak-the-sorcerer",
        items={"elani": ["vaiels-urn"]},
        content=load_content({"ruleset": "catacombs-3e"}),
    )
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    shot = table.state.expected_shot()
    assert shot is not None and shot["actor"] == ANTIENT and shot["shot"] == "melee"  # Summon Shot's melee
    table.do(A.SkipShot("hero-elani"))
    table.side_passes()
    assert table.state.side == "overseer"
    assert ANTIENT not in {c.id for c in table.rules.actors(table.state)}
    with pytest.raises(CharacterCannotActError, match="not in the card data") as refused:
        table.declare(ANTIENT)
    assert refused.value.rule == ANTIENTS_RULE
    table.side_passes()
    assert table.state.round == 2 and table.state.side == "heroes"
    assert table.state.public_view()["antients"] == [
        {"id": ANTIENT, "controlled_by": "heroes", "acted": False, "has_sequence": False}
    ]
