"""Special Room cards (catacombs-3e-reference.txt: Special Room Cards)."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.special_rooms import tavern_level
from service.rules.errors import CardNotPlayableError, IllegalActionError, NotEnoughGoldError
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript


def visit(room: str, settings: Settings | None = None, **gold: int) -> RulesScript:
    table = catacombs_3e([room, "the-barracks"], settings=settings)
    for hero, amount in gold.items():
        table.edit(f"hero-{hero}", gold=amount)
    table.do(A.EnterRoom())
    assert table.state.phase == "special_room"
    return table


def test_althea_cures_one_poison_card_for_free_once() -> None:
    """catacombs-3e-reference.txt: Althea The Healer ("She will cure one Poison card for free")."""
    table = visit("althea-the-healer")
    table.edit("hero-elani", poison=(2, 3))
    table.do(A.UseService("free_cure", target="hero-elani"))
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "1"))
    assert table.state.character("hero-elani").poison == (2,)
    with pytest.raises(IllegalActionError, match="once"):
        table.do(A.UseService("free_cure", target="hero-elani"))


def test_althea_heals_for_three_gold_pooled_by_the_party() -> None:
    """catacombs-3e-reference.txt: Althea The Healer (Heal Hero or Ally, 3 gold; pooled gold)."""
    table = visit("althea-the-healer", xoric=2, elani=5)
    table.edit("hero-xoric", health=4)
    table.do(A.UseService("heal", target="hero-xoric"))
    assert table.health("hero-xoric") == 5
    assert (table.state.character("hero-xoric").gold, table.state.character("hero-elani").gold) == (0, 4)
    assert table.state.treasury == 92 + 3
    table.do(A.UseService("heal", target="hero-xoric", payment=(("hero-elani", 3),)))
    assert table.state.character("hero-elani").gold == 1
    with pytest.raises(NotEnoughGoldError):
        table.do(A.UseService("heal", target="hero-xoric"))


def test_althea_resurrects_a_dead_hero_with_two_health_for_ten_gold() -> None:
    """catacombs-3e-reference.txt: Althea The Healer (Resurrect Hero)."""
    table = visit("althea-the-healer", settings=Settings(advanced_hero_death=True), xoric=10)
    table.edit("hero-elani", alive=False, health=0)
    table.do(A.UseService("resurrect", target="hero-elani"))
    elani = table.state.character("hero-elani")
    assert elani.alive and elani.health == 2
    with pytest.raises(IllegalActionError):
        table.do(A.UseService("resurrect", target="hero-xoric"))


def test_a_night_at_the_inn_is_one_payment_and_may_exceed_starting_health() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn; RULINGS.md 6."""
    table = visit("amaranth-inn", xoric=8)
    table.edit("hero-roosan", alive=False, health=0)
    table.do(A.UseService("sleep"))
    assert [table.health(h) for h in ("hero-xoric", "hero-varesh", "hero-elani")] == [10, 9, 8]
    assert table.health("hero-roosan") == 0
    assert table.state.party_gold == 0


def test_the_inn_cellar_hands_out_its_items() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn ("Help the Innkeeper clear out his cellar")."""
    table = visit("amaranth-inn", xoric=8)
    table.do(A.UseService("cellar"))
    items = table.state.character("hero-xoric").items
    assert set(items) <= {"vaiels-urn", "healing-salve", "raisthrims-potion", "cloak-of-invisibility"}
    assert "healing-salve" in items


def test_izchak_reveals_six_items_sells_them_and_shows_more_for_a_coin() -> None:
    """catacombs-3e-reference.txt: Izchak the Merchant; RULINGS.md 7 (one gold to see the next card)."""
    table = visit("izchak-the-merchant", varesh=20)
    market = table.state.market
    assert len(market) == 6
    table.do(A.UseService("peek"))
    assert len(table.state.market) == 7 and table.state.character("hero-varesh").gold == 19
    buyable = next(i for i in table.state.market if i in ("healing-salve", "raisthrims-potion"))
    table.do(A.UseService("buy", target="hero-varesh", item=buyable))
    assert buyable in table.state.character("hero-varesh").items
    table.do(A.UseService("map"))
    assert table.state.public_view()["rooms_ahead"] == ["the-barracks"]


def test_izchak_refuses_a_magic_item_to_a_hero_who_is_no_spell_caster() -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions (magic items: Spell Casters only)."""
    table = visit("izchak-the-merchant", xoric=20)
    while "raven-familiar" not in table.state.market:
        table.do(A.UseService("peek", payment=(("hero-xoric", 1),)))
    with pytest.raises(CardNotPlayableError, match="Spell Casters only"):
        table.do(A.UseService("buy", target="hero-xoric", item="raven-familiar"))


def test_the_merchants_peek_price_is_a_setting() -> None:
    """RULINGS.md 7: one community list says 2 gold."""
    table = visit("izchak-the-merchant", settings=Settings(merchant_peek_cost=2), varesh=5)
    table.do(A.UseService("peek"))
    assert table.state.character("hero-varesh").gold == 3


@pytest.mark.parametrize(
    ("drawn", "level"),
    [
        (("hero", "hero", "hero"), 0),
        (("orc", "orc", "orc"), 1),
        (("hero", "hero", "orc"), 2),
        (("orc", "centaur", "fire-spirit"), 3),
        (("hero", "orc", "orc"), 4),
        (("orc", "orc", "centaur"), None),
    ],
)
def test_the_tavern_reward_table_is_read_top_to_bottom(drawn: tuple[str, ...], level: int | None) -> None:
    """catacombs-3e-reference.txt: Alewife Tavern (the table of rewards)."""
    assert tavern_level(drawn) == level


def test_a_tavern_bet_costs_two_gold_and_offers_the_reward_or_a_lower_one() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("may choose a reward that is lower on the table")."""
    table = visit("alewife-tavern", elani=20)
    rewarded = 0
    for _ in range(8):  # the seed's draws: five of the eight bets win a reward
        table.do(A.UseService("bet", target="hero-elani"))
        pending = table.state.pending
        if pending is not None:
            assert pending.options[-1].id == "gain_gold"
            table.do(A.Decide(pending.id, "gain_gold"))
            rewarded += 1
    assert rewarded == 5
    assert table.state.character("hero-elani").gold == 20 - 8 * 2 + rewarded
    assert any(e.type == "tavern_draw" for e in table.events)


def test_a_hero_with_a_discount_pays_less_at_izchaks() -> None:
    """catacombs-3e-reference.txt: Introducing the Heroes (Marorg "buys items at a discount")."""
    from service.games.catacombs.flow.cards import HeroCard
    from tests.helpers.sample_content import seq

    from .content import with_cards

    marorg = HeroCard("marorg", "Marorg the Skeleton Explorer", 8, (seq("melee"),), item_discount=1)
    table = catacombs_3e(
        ["izchak-the-merchant"],
        heroes=("marorg", "varesh", "roosan", "elani"),
        content=with_cards(heroes=[marorg]),
    )
    table.edit("hero-marorg", gold=20)
    table.do(A.EnterRoom())
    while "healing-salve" not in table.state.market:
        table.do(A.UseService("peek", target="hero-marorg"))
    gold = table.state.character("hero-marorg").gold
    table.do(A.UseService("buy", target="hero-marorg", item="healing-salve"))
    assert table.state.character("hero-marorg").gold == gold - (3 - 1)


def test_the_choices_at_izchaks_include_each_affordable_item_for_each_hero() -> None:
    """catacombs-3e-reference.txt: Izchak the Merchant ("Any player can purchase any number of the revealed
    Item cards provided they meet the requirements")."""
    table = visit("izchak-the-merchant", varesh=20)
    while "healing-salve" not in table.state.market:
        table.do(A.UseService("peek"))
    table.edit("hero-varesh", gold=3)
    buys = [a for a in table.rules.choices(table.state) if isinstance(a, A.UseService) and a.service == "buy"]
    affordable = {"healing-salve"}  # 3 gold; every other priced item costs more
    heroes = {h.id for h in table.state.heroes}  # Varesh's gold pays for any hero's purchase
    assert {(a.target, a.item) for a in buys} == {(h, i) for h in heroes for i in affordable}
