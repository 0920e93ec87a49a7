"""Items usable only by heroes of a certain starting health (catacombs-3e-reference.txt: Item Cards: Usage
Restrictions: "some items can only be used by heroes with a certain amount of health at the start of the
game"). The shipped cards carry no such values yet, so these scenarios use hand-made cards."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import ActionCard, CardIndex
from service.games.catacombs.flow.state import Option, Pending
from service.rules.errors import CardNotPlayableError
from service.rules.evolve import evolve
from tests.helpers import sample_content as sample
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import seq

# Fixture cards: a helm for the sturdy (starting health 8 or more) and a salve for the frail (7 or less).
HELM = ActionCard(
    "great-helm",
    "Great Helm",
    "item",
    "once_per_room",
    (seq("critical melee"),),
    cost=3,
    starting_health_min=8,
)
SALVE = next(c for c in sample.CARDS if c.id == "healing-salve")
FRAIL_SALVE = evolve(SALVE, starting_health_max=7)


def cards(*extra: ActionCard) -> CardIndex:
    return CardIndex(
        sample.HEROES,
        sample.MONSTERS,
        sample.ROOMS,
        sample.LORDS,
        sample.POISON_DECK,
        (*sample.CARDS, *extra),
    )


def test_an_item_for_sturdier_heroes_is_refused_in_play_and_played_by_a_sturdy_one() -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions (starting health)."""
    table = catacombs_3e(["zothas-gatehouse"], content=cards(HELM), items={"varesh": ["great-helm"]})
    table.edit("hero-elani", items=("great-helm",))  # arranged by the referee: Elani could never get it
    table.enter_battle()
    with pytest.raises(CardNotPlayableError, match="starting health of 8 or more") as refused:
        table.do(A.PlayCard("hero-elani", "great-helm"))
    assert refused.value.rule == "catacombs-3e-reference.txt: Item Cards: Usage Restrictions"
    table.do(A.PlayCard("hero-varesh", "great-helm"))
    assert table.state.expected_shot() is not None


def test_the_starting_health_counts_not_the_health_now() -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions ("at the start of the game")."""
    table = catacombs_3e(["zothas-gatehouse"], content=cards(HELM), items={"varesh": ["great-helm"]})
    table.edit("hero-varesh", health=2)
    table.edit("hero-elani", health=9, max_health=9, items=("great-helm",))
    table.enter_battle()
    table.do(A.PlayCard("hero-varesh", "great-helm"))  # wounded, but started with 8
    table.do(A.EndTurn("hero-varesh"))
    with pytest.raises(CardNotPlayableError, match=r"Elani the Thief starts with 7"):
        table.do(A.PlayCard("hero-elani", "great-helm"))


def test_a_hero_may_not_start_with_an_item_it_could_not_use() -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions; Hero Player Boards (starting Items)."""
    with pytest.raises(CardNotPlayableError, match="Great Helm"):
        catacombs_3e(["zothas-gatehouse"], content=cards(HELM), items={"elani": ["great-helm"]})


def test_izchak_sells_the_item_only_to_a_hero_who_may_use_it() -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions ("which heroes can buy and use them");
    Special Room Cards: Izchak the Merchant."""
    table = catacombs_3e(["izchak-the-merchant"], content=cards(HELM))
    table.do(A.EnterRoom())
    table.state = evolve(table.state, market=("great-helm", *table.state.market[1:]))
    table.edit("hero-elani", gold=5)
    table.edit("hero-xoric", gold=5)
    with pytest.raises(CardNotPlayableError, match="starting health of 8 or more"):
        table.do(A.UseService("buy", target="hero-elani", item="great-helm"))
    assert table.state.character("hero-elani").gold == 5
    table.do(A.UseService("buy", target="hero-xoric", item="great-helm"))
    assert "great-helm" in table.state.character("hero-xoric").items


def test_the_inn_cellar_gives_a_restricted_item_only_to_heroes_who_may_use_it() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn (the cellar) and Item Cards: Usage Restrictions;
    docs/rulings.md (an unusable cellar item stays in the deck for the next hero)."""
    table = catacombs_3e(["amaranth-inn"], content=cards(FRAIL_SALVE))
    table.do(A.EnterRoom())
    table.edit("hero-xoric", gold=8)
    table.do(A.UseService("cellar"))
    salves = {h.id: h.items.count("healing-salve") for h in table.state.heroes}
    # Xoric (9) and Varesh (8) are too sturdy; the two salves go to Roosan and Elani (7 each).
    assert salves == {"hero-xoric": 0, "hero-varesh": 0, "hero-roosan": 1, "hero-elani": 1}
    assert "raisthrims-potion" in table.state.character("hero-xoric").items


def offer_reward(table: RulesScript, *rewards: str) -> str:
    """Elani's bet has won (the bag's draw is random; the scene is arranged as a referee would)."""
    n = table.state.decisions_made + 1
    pending = Pending(
        f"d{n}",
        "choose_tavern_reward",
        "hero-elani",
        "Which reward does Elani the Thief take?",
        tuple(Option(r, r) for r in rewards),
        context=("hero-elani",),
    )
    table.state = evolve(table.state, pending=pending, decisions_made=n)
    return pending.id


def test_the_tavern_offers_and_deals_only_usable_items() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("player must take first item they can use"); Item Cards:
    Usage Restrictions."""
    table = catacombs_3e(["alewife-tavern"], content=cards(HELM))
    table.do(A.EnterRoom())
    table.state = evolve(table.state, item_deck=("great-helm", "healing-salve"))
    table.do(A.Decide(offer_reward(table, "choose_item", "blind_item"), "choose_item"))
    pending = table.state.pending
    assert pending is not None and [o.id for o in pending.options] == ["healing-salve"]
    table.do(A.Decide(pending.id, "healing-salve"))
    # A blind draw with only the helm left: Elani cannot use it, so she takes nothing.
    table.do(A.Decide(offer_reward(table, "blind_item"), "blind_item"))
    assert table.state.character("hero-elani").items == ("healing-salve",)
    assert table.state.item_deck == ("great-helm",)
