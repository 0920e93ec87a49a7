"""The referee corrects the cards on a hero's board (the Overseer is the final arbiter).

catacombs-3e-reference.txt: The Overseer Player ("The Overseer is the final arbiter of any disputes");
Hero Player Boards (Ability, Spell and Item cards on the board).
"""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.rules import IllegalActionError
from tests.helpers.rules_script import RulesScript


def test_the_referee_gives_a_hero_an_item_they_forgot_to_take(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Hero Player Boards — Items go on the board."""
    barracks.do(A.SetCards("hero-xoric", "items", ("healing-salve",), "bought at Izchak's, not entered"))
    assert barracks.state.character("hero-xoric").items == ("healing-salve",)
    assert "Referee sets Xoric the Barbarian's items to healing-salve" in barracks.texts()[0]


def test_taking_a_card_away_also_clears_it_from_the_face_down_pile(barracks: RulesScript) -> None:
    barracks.edit("hero-xoric", items=("healing-salve", "throwing-axe"), face_down=("throwing-axe",))
    barracks.do(A.SetCards("hero-xoric", "items", ("healing-salve",), "axe was never bought"))
    xoric = barracks.state.character("hero-xoric")
    assert xoric.items == ("healing-salve",) and xoric.face_down == ()


def test_an_unknown_card_or_kind_is_refused_and_changes_nothing(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Hero Player Boards."""
    before = barracks.state
    with pytest.raises(IllegalActionError, match="no item card 'excalibur'"):
        barracks.do(A.SetCards("hero-xoric", "items", ("excalibur",)))
    with pytest.raises(IllegalActionError, match="held as"):
        barracks.do(A.SetCards("hero-xoric", "trinkets", ()))
    assert barracks.state == before


def test_a_card_correction_is_allowed_while_a_decision_waits(barracks: RulesScript) -> None:
    """The Overseer Player: corrections never wait on the game."""
    barracks.side_passes()
    barracks.declare("monster-orc-1")  # Orc: melee Or missile → the rules ask which
    assert barracks.state.pending is not None
    barracks.do(A.SetCards("hero-varesh", "abilities", (), "ability card was lost"))
    assert barracks.state.character("hero-varesh").abilities == ()
