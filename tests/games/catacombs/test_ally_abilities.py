"""The recruiter chooses an ally's Ability cards (catacombs-3e-reference.txt: Advanced Concepts: Allies:
"Allies start with one less of their total Ability cards (minimum one). The player recruiting the ally
chooses which Ability card(s) the ally will use")."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex, HeroCard
from service.rules.errors import BadDecisionError
from service.rules.evolve import evolve
from tests.helpers import sample_content as sample
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript

PARTY = ("xoric", "roosan", "elani", "varesh")


def inn_with(recruit: HeroCard) -> RulesScript:
    """The Inn, with ``recruit`` the only unused Hero Portrait card (so the random draw finds it)."""
    heroes = [h for h in sample.HEROES if h.id in PARTY] + [recruit]
    content = CardIndex(heroes, sample.MONSTERS, sample.ROOMS, sample.LORDS, sample.POISON_DECK, sample.CARDS)
    table = catacombs_3e(["amaranth-inn", "zothas-gatehouse"], heroes=PARTY, content=content)
    table.do(A.EnterRoom())
    table.edit("hero-elani", gold=10)
    table.do(A.UseService("meal", target="hero-elani"))
    return table


MARORG = evolve(
    next(h for h in sample.HEROES if h.id == "marorg"), abilities=("elven-arrow", "fireball", "fireball")
)


def test_the_recruiter_chooses_which_ability_cards_the_ally_keeps() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Allies (Ability Cards: one less, chosen)."""
    table = inn_with(MARORG)
    ally = table.state.character("ally-marorg")
    assert ally.abilities == ()
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_ally_ability"
    assert pending.character == "hero-elani"  # the recruiting hero's player decides
    assert [(o.id, o.label) for o in pending.options] == [
        ("elven-arrow", "Elven Arrow"),
        ("fireball", "Fireball"),
    ]
    assert table.state.public_view()["pending"]["kind"] == "choose_ally_ability"
    table.do(A.Decide(pending.id, "fireball"))
    second = table.state.pending
    assert second is not None and second.kind == "choose_ally_ability"
    assert {o.id for o in second.options} == {"elven-arrow", "fireball"}  # the second Fireball is still there
    with pytest.raises(BadDecisionError) as refused:
        table.do(A.Decide(second.id, "feathers-of-fury"))
    assert refused.value.rule == "catacombs-3e-reference.txt: Advanced Concepts: Allies"
    table.do(A.Decide(second.id, "elven-arrow"))
    assert table.state.pending is None
    assert table.state.character("ally-marorg").abilities == ("fireball", "elven-arrow")  # 3 - 1 = 2 cards
    # The chosen cards are the ally's to play.
    table.enter_battle()
    table.do(A.PlayCard("ally-marorg", "elven-arrow"))
    shot = table.state.expected_shot()
    assert shot is not None and shot["shot"] == "missile"


def test_both_copies_of_one_card_may_be_kept() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Allies (the recruiter chooses which Ability cards)."""
    table = inn_with(MARORG)
    for _ in range(2):
        assert table.state.pending is not None
        table.do(A.Decide(table.state.pending.id, "fireball"))
    assert table.state.pending is None
    assert table.state.character("ally-marorg").abilities == ("fireball", "fireball")


def test_copies_of_a_single_card_leave_nothing_to_choose() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Allies (Oleira's two Elven Arrows: "she will only start
    with one of these cards")."""
    oleira = next(h for h in sample.HEROES if h.id == "oleira")
    table = inn_with(oleira)
    assert table.state.pending is None
    assert table.state.character("ally-oleira").abilities == ("elven-arrow",)
    assert "Oleira the Elf takes the Elven Arrow Ability card" in table.texts()


def test_a_spell_caster_ally_chooses_its_ability_then_its_two_spells() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Allies (Ability Cards; Spell Cards: "any two")."""
    caster = evolve(MARORG, abilities=("fireball", "elven-arrow"), spell_caster=True)
    table = inn_with(caster)
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_ally_ability"
    table.do(A.Decide(pending.id, "elven-arrow"))  # two cards: one is kept
    for spell in ("heal", "drain-energy"):
        pending = table.state.pending
        assert pending is not None and pending.kind == "choose_ally_spell"
        table.do(A.Decide(pending.id, spell))
    ally = table.state.character("ally-marorg")
    assert (ally.abilities, ally.spells, table.state.pending) == (
        ("elven-arrow",),
        ("heal", "drain-energy"),
        None,
    )
