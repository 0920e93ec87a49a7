"""catacombs-and-castles-2e-manual.md: Team Mode Tutorial, played step by step (Sam: Team Castle, Jen: Team
Catacomb, Rules A cards, Team Action cards in use)."""

from __future__ import annotations

from tests.helpers.game_setups import team_game


def test_the_team_mode_tutorial_round_one() -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode Tutorial"""
    g = team_game(first="catacomb")  # "Jen wins the coin toss and goes first."
    assert g.state.side_to_move == "catacomb"
    assert (g.pool("castle"), g.pool("catacomb")) == (12, 12)

    # The Assassin: rush, then a fireball that ricochets off an obstacle and misses (First Strike anyway).
    g.turn("hero-hakoru", ("rush",), ("fireball",))
    assert g.state.side_to_move == "castle"
    assert (g.pool("castle"), g.pool("catacomb")) == (12, 12)

    # The Mage Princess: rush then missile, hitting the Assassin; the token goes on her Rules card (ability).
    g.declare("hero-delilah")
    g.shot("hero-delilah", "rush")
    g.shot("hero-delilah", "missile", "hero-hakoru")
    assert g.pool("catacomb") == 11
    assert g.state.pending is not None and g.state.pending.kind == "transfer"
    g.answer("power:delilah-ability")
    assert g.tokens("hero-delilah", "delilah-ability") == 1
    assert g.state.turn is None and g.state.side_to_move == "catacomb"

    # The Marauder: rush, then a fireball that hits the Mage Princess peeking out from cover.
    g.declare("hero-formilus")
    g.shot("hero-formilus", "rush")
    g.shot("hero-formilus", "fireball", "hero-delilah")
    g.answer("power:formilus-ability")
    assert g.pool("castle") == 11
    assert g.tokens("hero-formilus", "formilus-ability") == 1

    # The Huntress: rush, then missile hitting the Marauder behind cover; the token charges her Team Action.
    g.declare("hero-larra")
    g.shot("hero-larra", "rush")
    g.shot("hero-larra", "missile", "hero-formilus")
    g.answer("power:larra-team-action")
    assert g.pool("catacomb") == 10
    assert g.tokens("hero-larra", "larra-team-action") == 1

    # "Only the Queen of Storms has not taken a turn": rush, then a fireball that misses.
    g.turn("hero-cahreliss", ("rush",), ("fireball",))
    assert g.pool("castle") == 11

    # The Ranger: rush, then missile hitting the Queen of Storms; the token powers up "Judgement".
    g.declare("hero-kethyst")
    g.shot("hero-kethyst", "rush")
    g.shot("hero-kethyst", "missile", "hero-cahreliss")
    g.answer("power:kethyst-ability")
    assert g.tokens("hero-kethyst", "kethyst-ability") == 1
    assert (g.pool("castle"), g.pool("catacomb")) == (11, 9)

    # "Now that each hero has taken a turn, the next round begins."
    assert g.state.round == 2
    assert g.state.acted == ()
    assert g.state.side_to_move == "catacomb"
    assert g.state.outcome is None
