"""The Team Mode Quick Start Tutorial of the 1E manual, played move by move on the 1E rule set."""

from __future__ import annotations

from service.games.castles.core import events as CE
from service.rules import actions as A
from tests.helpers.game_setups import tutorial

ICE_CARD = "castle-target-acquired"


def test_the_quick_start_tutorial_as_jen_and_sam_play_it() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Mode Quick Start Tutorial (Team Mode Tutorial Setup)"""
    t = tutorial()
    # Team Mode Tutorial Setup: eight Health Tokens each, one Armour Token per hero; on the Castle side the
    # Catacomb team goes first.
    assert (t.pool("castle"), t.pool("catacomb")) == (8, 8)
    assert t.state.side_to_move == "catacomb"
    assert all(t.armour(c.id) == (2,) for c in t.state.characters if c.kind == "hero")

    # 1. The Assassin: a Rush shot, then a Shuriken shot that ricochets and misses.
    t.declare("hero-hakoru", 0)
    t.shot("hero-hakoru", "rush")
    t.shot("hero-hakoru", "shuriken")
    assert t.state.side_to_move == "castle" and "hero-hakoru" in t.state.acted

    # 2. The Mage Princess' Ice shot hits the Assassin; Jen keeps her Armour Token; the token goes onto
    # Target Acquired! (a power transfer); then her Rush shot.
    t.declare("hero-delilah", 0)
    t.shot("hero-delilah", "ice", "hero-hakoru")
    t.answer("take")
    t.answer(f"power:{ICE_CARD}")
    t.shot("hero-delilah", "rush")
    assert t.pool("catacomb") == 7 and t.tokens("hero-delilah", ICE_CARD) == 1

    # 3. The Marauder's Claw shot hits the Mage Princess: Sam flips her Armour Token; no damage, and the
    # claw's secondary effect is nullified.
    t.declare("hero-formilus", 0)
    t.shot("hero-formilus", "claw", "hero-delilah")
    t.answer("block")
    assert t.armour("hero-delilah") == (1,) and t.pool("castle") == 8
    assert t.state.turn is not None and [p.shot for p in t.state.turn.queue] == ["rush"]
    t.shot("hero-formilus", "rush")

    # 4. The Huntress' Longbow hits the Marauder; an assist transfer charges the Mage Princess' card.
    t.declare("hero-larra", 0)
    t.shot("hero-larra", "rush")
    t.shot("hero-larra", "longbow", "hero-formilus")
    t.answer("take")
    t.answer(f"assist:hero-delilah:{ICE_CARD}")
    assert t.tokens("hero-delilah", ICE_CARD) == 2 and t.pool("catacomb") == 6

    # 5. The Queen of Storms misses with her Fireball, then rushes.
    t.declare("hero-cahreliss", 0)
    t.shot("hero-cahreliss", "fireball")
    t.shot("hero-cahreliss", "rush")
    assert t.state.acted == ("hero-delilah", "hero-larra")  # Team Catacomb's portraits are upright again

    # 6. The Ranger's Claw hits the Marauder: a health transfer flips the token into Team Castle's pool.
    t.declare("hero-kethyst", 0)
    t.shot("hero-kethyst", "claw", "hero-formilus")
    t.answer("take")
    t.answer("health")
    # A Grab would move the Marauder beside him and rush it; the tutorial forgoes that shot.
    assert t.state.turn is not None and t.state.turn.queue[0].piece == "hero-formilus"
    t.do(A.SkipShot("hero-kethyst"))
    t.shot("hero-kethyst", "rush")
    assert (t.pool("castle"), t.pool("catacomb")) == (9, 5)
    assert t.state.acted == ()  # every hero on both teams has acted: all portraits reset

    # 7. The Queen of Storms (last of her team before, first now) webs the Huntress, who is trapped.
    t.declare("hero-cahreliss", 1)
    t.shot("hero-cahreliss", "web", "hero-larra")
    t.answer("take")
    t.answer("power:catacomb-embrace-the-flames")
    assert t.state.character("hero-larra").trapped and t.pool("castle") == 8

    # 8. Sam cannot use the Huntress; the Ranger's Claw rescues her and his Rush knocks the web disc off.
    assert not t.rules.is_legal(t.state, A.DeclareAction("hero-larra", 0))
    t.declare("hero-kethyst", 0)
    t.shot("hero-kethyst", "claw", "hero-larra")
    t.shot("hero-kethyst", "rush", knocked_off=("hero-larra",))
    assert not t.state.character("hero-larra").trapped and t.pool("castle") == 8

    # 9. The Assassin's Shuriken hits the Ranger and the Huntress: an Armour Token for each.
    t.declare("hero-hakoru", 0)
    t.shot("hero-hakoru", "rush")
    t.shot("hero-hakoru", "shuriken", "hero-kethyst", "hero-larra")
    t.answer("block")
    t.answer("block")
    assert t.armour("hero-kethyst") == (1,) and t.armour("hero-larra") == (1,) and t.pool("castle") == 8

    # 10. Target Acquired!: two tokens discarded; every hero, the Ranger first, performs a Target Ice or Claw.
    t.do("perform_card", "hero-delilah", ICE_CARD, order=("hero-kethyst", "hero-delilah", "hero-larra"))
    assert t.tokens("hero-delilah", ICE_CARD) == 0
    t.shot("hero-kethyst", "target_ice", "hero-formilus", target="hero-formilus")
    t.answer("take")
    t.answer("power:castle-join-the-charge")
    assert t.tokens("hero-kethyst", "castle-join-the-charge") == 1 and t.pool("catacomb") == 4
    t.shot("hero-delilah", "claw", "hero-cahreliss")
    t.answer("block")
    t.shot("hero-larra", "target_ice", "hero-hakoru", target="hero-hakoru")
    t.answer("block")
    # Only the Mage Princess' portrait is rotated after the Team Action.
    assert t.state.turn is None and "hero-delilah" in t.state.acted
    assert "hero-larra" not in t.state.acted
    assert any(isinstance(e, CE.CardPerformed) for e in t.events)
