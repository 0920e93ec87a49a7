"""Special rooms, allies and Antients, played through the public API as a table would.

catacombs-3e-reference.txt: Special Room Cards (Althea the Healer, Amaranth Inn, Izchak the Merchant, Alewife
Tavern), Curing Poison, Advanced Concepts: Allies and Antients; RULINGS.md 6 and 7.
"""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.settings import Settings
from service.rules.errors import IllegalActionError, NotEnoughGoldError
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript


def gold(table: RulesScript, hero: str) -> int:
    return table.state.character(hero).gold


def settle(table: RulesScript) -> None:
    """The recruiting player takes the first offered card for each of the ally's choices."""
    while table.state.pending is not None:
        table.do(A.Decide(table.state.pending.id, table.state.pending.options[0].id))


def with_ally(rooms: list[str], hero: str = "hero-xoric", **settings: object) -> tuple[RulesScript, str]:
    """A party that recruited an ally over a meal at the Amaranth Inn (the first room)."""
    table = catacombs_3e(["amaranth-inn", *rooms], settings=Settings(**settings) if settings else None)  # type: ignore[arg-type]
    table.edit(hero, gold=10)
    table.do(A.EnterRoom())
    table.do(A.UseService("meal", target=hero))
    settle(table)
    ally = next(c.id for c in table.state.characters if c.kind == "ally")
    return table, ally


def bet_until(table: RulesScript, bettor: str, reward: str, tries: int = 2000) -> None:
    """Bet at the Tavern until a draw qualifies for ``reward`` at the top of its options. Lesser wins are
    taken as the single coin at the bottom of the table."""
    for _ in range(tries):
        table.edit("hero-xoric", gold=max(gold(table, "hero-xoric"), 2))
        table.do(A.UseService("bet", target=bettor, payment=(("hero-xoric", 2),)))
        pending = table.state.pending
        if pending is None:
            continue
        if pending.options[0].id == reward:
            return
        table.do(A.Decide(pending.id, "gain_gold"))
    raise AssertionError(f"no draw qualified for {reward}")


# == Althea the Healer ================================================================================


def test_althea_heals_an_ally_one_point_per_offering_paid_by_the_heroes() -> None:
    """catacombs-3e-reference.txt: Althea The Healer ("Heal Hero or Ally, 3 gold coins: One health point is
    restored to the hero or ally"; "Multiple services can be purchased"; "Players may pool their gold");
    Allies ("cannot be healed above their starting health")."""
    table, ally = with_ally(["althea-the-healer", "the-barracks"])
    table.do(A.EnterRoom())
    table.edit(ally, health=2)
    table.edit("hero-xoric", gold=3)
    table.edit("hero-elani", gold=3)
    table.do(A.UseService("heal", target=ally, payment=(("hero-xoric", 3),)))
    table.do(A.UseService("heal", target=ally, payment=(("hero-elani", 3),)))
    assert table.health(ally) == 4
    assert (gold(table, "hero-xoric"), gold(table, "hero-elani"), gold(table, ally)) == (0, 0, 0)


def test_an_ally_cannot_pay_the_healer_and_a_payment_must_match_the_offering() -> None:
    """catacombs-3e-reference.txt: Allies ("Allies cannot earn gold"); Althea The Healer ("Cure Poison, 2 gold
    coins"); Special Room Cards ("All gold coins spent by the heroes is returned to the treasury")."""
    table = catacombs_3e(["althea-the-healer", "the-barracks"])
    table.edit("hero-elani", poison=(2, 3), gold=5)
    table.do(A.EnterRoom())
    with pytest.raises(NotEnoughGoldError):
        table.do(A.UseService("cure_poison", target="hero-elani", payment=(("hero-elani", 3),)))
    before = table.state.treasury
    table.do(A.UseService("cure_poison", target="hero-elani"))
    assert gold(table, "hero-elani") == 3 and table.state.treasury == before + 2


def test_the_free_cure_and_a_paid_cure_may_both_be_taken_and_each_removes_the_chosen_card() -> None:
    """catacombs-3e-reference.txt: Althea The Healer ("She will cure one Poison card for free"; "Cure Poison,
    2 gold coins: A hero is cured of one Poison card"); Curing Poison ("A hero may discard one Poison card of
    their choice ... shuffled back into the Poison deck")."""
    table = catacombs_3e(["althea-the-healer", "the-barracks"])
    table.edit("hero-varesh", poison=(1, 3, 2))
    table.edit("hero-xoric", gold=1)
    table.edit("hero-roosan", gold=1)
    table.do(A.EnterRoom())
    deck = len(table.state.poison_deck)
    table.do(A.UseService("free_cure", target="hero-varesh"))
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "1"))  # the card of value 3
    assert table.state.character("hero-varesh").poison == (1, 2)
    table.do(
        A.UseService("cure_poison", target="hero-varesh", payment=(("hero-xoric", 1), ("hero-roosan", 1)))
    )
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "0"))  # the card of value 1
    assert table.state.character("hero-varesh").poison == (2,)
    assert len(table.state.poison_deck) == deck + 2
    assert table.state.party_gold == 0


def test_a_resurrected_hero_may_then_be_healed_further_but_not_above_its_starting_health() -> None:
    """catacombs-3e-reference.txt: Althea The Healer ("One dead hero is brought back to life with two health
    points ... They may pay to be healed further by the Healer"); Healing Damage ("A character's health may
    not be increased beyond its starting level")."""
    table = catacombs_3e(["althea-the-healer", "the-barracks"], settings=Settings(advanced_hero_death=True))
    table.edit("hero-elani", alive=False, health=0)
    table.edit("hero-xoric", gold=10 + 3 * 6)
    table.do(A.EnterRoom())
    with pytest.raises(IllegalActionError):
        table.do(A.UseService("heal", target="hero-elani"))  # the dead are not healed
    table.do(A.UseService("resurrect", target="hero-elani"))
    for _ in range(5):
        table.do(A.UseService("heal", target="hero-elani"))
    assert table.health("hero-elani") == 7
    assert gold(table, "hero-xoric") == 3


def test_the_healers_services_are_not_sold_in_the_other_rooms() -> None:
    """catacombs-3e-reference.txt: Special Room Cards ("Each Special Room card has its own rules")."""
    for room, service in (
        ("amaranth-inn", "heal"),
        ("izchak-the-merchant", "resurrect"),
        ("alewife-tavern", "sleep"),
        ("althea-the-healer", "bet"),
    ):
        table = catacombs_3e([room, "the-barracks"])
        table.edit("hero-xoric", gold=20)
        table.do(A.EnterRoom())
        with pytest.raises(IllegalActionError):
            table.do(A.UseService(service, target="hero-xoric"))
        assert gold(table, "hero-xoric") == 20


# == Amaranth Inn ====================================================================================


def test_a_night_at_the_inn_pooled_by_two_heroes_gives_each_living_hero_one_health_but_not_the_ally() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn ("They may pool their gold"; "Pay eight gold coins and each
    living hero receives one health (in this case, they can exceed their starting health)"); RULINGS.md 6;
    Allies ("cannot be healed above their starting health")."""
    table, ally = with_ally(["amaranth-inn", "the-barracks"], advanced_hero_death=True)
    table.do(A.EnterRoom())
    table.edit(ally, health=3)
    table.edit("hero-roosan", alive=False, health=0)
    table.edit("hero-xoric", gold=5)
    table.edit("hero-elani", gold=3)
    table.do(A.UseService("sleep", payment=(("hero-xoric", 5), ("hero-elani", 3))))
    assert [table.health(h) for h in ("hero-xoric", "hero-varesh", "hero-elani", "hero-roosan")] == [
        10,
        9,
        8,
        0,
    ]
    assert table.health(ally) == 3
    assert not table.state.character("hero-roosan").alive


def test_the_inn_meal_never_draws_a_dead_heros_portrait() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn ("Shuffle all unused Hero Portrait cards together. Randomly
    draw one card: this is the ally that may be recruited")."""
    for seed in range(6):
        table = catacombs_3e(
            ["amaranth-inn", "the-barracks"],
            heroes=("xoric", "varesh", "roosan", "oleira"),
            seed=seed,
            settings=Settings(advanced_hero_death=True),
        )
        table.edit("hero-oleira", alive=False, health=0)
        table.edit("hero-xoric", gold=10)
        table.do(A.EnterRoom())
        table.do(A.UseService("meal", target="hero-xoric"))
        settle(table)
        ally = next(c for c in table.state.characters if c.kind == "ally")
        assert ally.card in ("elani", "marorg")


def test_an_ally_cannot_recruit_an_ally_of_its_own() -> None:
    """catacombs-3e-reference.txt: Allies ("One player will control the ally and assign it to assist one of
    the heroes")."""
    table, ally = with_ally(["amaranth-inn", "the-barracks"])
    table.do(A.EnterRoom())
    table.edit("hero-xoric", gold=10)
    with pytest.raises(IllegalActionError):
        table.do(A.UseService("meal", target=ally, payment=(("hero-xoric", 10),)))
    assert gold(table, "hero-xoric") == 10


# == Izchak the Merchant ===============================================================================


def test_izchak_sells_an_item_to_one_hero_paid_for_by_another() -> None:
    """catacombs-3e-reference.txt: Izchak the Merchant ("Players may pool their gold coins to assist in the
    purchase of items. The Item card is assigned to the hero")."""
    table = catacombs_3e(["izchak-the-merchant", "the-barracks"])
    table.edit("hero-roosan", gold=20)
    table.do(A.EnterRoom())
    item = next(i for i in table.state.market if i in ("healing-salve", "cloak-of-invisibility"))
    cost = table.rules.content.card("item", item).cost
    assert cost is not None
    before = table.state.treasury
    table.do(A.UseService("buy", target="hero-xoric", item=item, payment=(("hero-roosan", cost),)))
    assert item in table.state.character("hero-xoric").items
    assert item not in table.state.character("hero-roosan").items
    assert item not in table.state.market
    assert (gold(table, "hero-roosan"), table.state.treasury) == (20 - cost, before + cost)


def test_the_map_costs_two_gold_and_each_peek_one() -> None:
    """catacombs-3e-reference.txt: Izchak the Merchant ("pay one gold coins to see the next card ... no
    limit"; "a map may be purchased ... for two gold coins"); RULINGS.md 7."""
    table = catacombs_3e(["izchak-the-merchant", "the-barracks"])
    table.edit("hero-varesh", gold=4)
    table.do(A.EnterRoom())
    assert len(table.state.market) == 6
    table.do(A.UseService("peek"))
    table.do(A.UseService("peek"))
    assert len(table.state.market) == 8
    table.do(A.UseService("map"))
    assert table.state.map_revealed and gold(table, "hero-varesh") == 0


# == Alewife Tavern ===================================================================================


def test_three_heroes_restore_full_health_to_the_hero_and_its_ally_but_no_higher() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("3 Heroes: Gain full health for the chosen hero and their
    ally (if he or she has one)"); Allies ("cannot be healed above their starting health")."""
    table, ally = with_ally(["alewife-tavern", "the-barracks"])
    table.do(A.EnterRoom())
    bet_until(table, "hero-xoric", "full_health")
    table.edit("hero-xoric", health=2)
    table.edit(ally, health=1)
    table.edit("hero-elani", health=3)
    pending = table.state.pending
    assert pending is not None
    assert [o.id for o in pending.options][:2] == ["full_health", "cure_all_poison"]
    table.do(A.Decide(pending.id, "full_health"))
    assert (table.health("hero-xoric"), table.health(ally), table.health("hero-elani")) == (9, 4, 3)


def test_three_heroes_may_instead_cure_every_poison_card_of_the_hero() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("OR cure all Poison cards affecting one hero")."""
    table = catacombs_3e(["alewife-tavern", "the-barracks"])
    table.do(A.EnterRoom())
    bet_until(table, "hero-elani", "full_health")
    table.edit("hero-elani", poison=(1, 2, 2))
    deck = len(table.state.poison_deck)
    pending = table.state.pending
    assert pending is not None
    table.do(A.Decide(pending.id, "cure_all_poison"))
    assert table.state.character("hero-elani").poison == ()
    assert len(table.state.poison_deck) == deck + 3


def test_three_of_a_kind_lets_the_player_choose_an_item_they_can_use_from_the_deck() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("3 of a kind: Player chooses 1 Item card from the Item card
    deck"); Item Cards: Usage Restrictions (a magic item is for Spell Casters)."""
    table = catacombs_3e(["alewife-tavern", "the-barracks"])
    table.do(A.EnterRoom())
    bet_until(table, "hero-xoric", "choose_item")
    pending = table.state.pending
    assert pending is not None
    assert "full_health" not in [o.id for o in pending.options]
    table.do(A.Decide(pending.id, "choose_item"))
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_item"
    offered = [o.id for o in pending.options]
    assert "raven-familiar" not in offered and "healing-salve" in offered
    deck = len(table.state.item_deck)
    table.do(A.Decide(pending.id, "healing-salve"))
    assert "healing-salve" in table.state.character("hero-xoric").items
    assert len(table.state.item_deck) == deck - 1


def test_two_hero_pieces_draw_the_first_item_the_hero_can_use() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("2 Hero pieces: Blindly draw 1 Item card (player must take
    first item they can use)")."""
    table = catacombs_3e(["alewife-tavern", "the-barracks"])
    table.do(A.EnterRoom())
    bet_until(table, "hero-xoric", "blind_item")
    deck = list(table.state.item_deck)
    usable = [i for i in deck if i != "raven-familiar"]
    pending = table.state.pending
    assert pending is not None
    assert [o.id for o in pending.options][0] == "blind_item"
    table.do(A.Decide(pending.id, "blind_item"))
    assert table.state.character("hero-xoric").items == (usable[0],)
    assert len(table.state.item_deck) == len(deck) - 1


def test_three_colours_give_one_health_within_the_starting_health_or_cure_one_card() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("3 different coloured pieces: Gain 1 health point OR cure 1
    Poison card"; "Winning players may choose a reward that is lower on the table"); Healing Damage."""
    table = catacombs_3e(["alewife-tavern", "the-barracks"])
    table.do(A.EnterRoom())
    bet_until(table, "hero-roosan", "gain_health")
    pending = table.state.pending
    assert pending is not None
    assert [o.id for o in pending.options] == ["gain_health", "cure_one_poison", "gain_gold"]
    table.do(A.Decide(pending.id, "gain_health"))
    assert table.health("hero-roosan") == 7  # already at its starting health
    bet_until(table, "hero-roosan", "gain_health")
    table.edit("hero-roosan", poison=(3, 1))
    pending = table.state.pending
    assert pending is not None
    table.do(A.Decide(pending.id, "cure_one_poison"))
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "0"))  # the card of value 3
    assert table.state.character("hero-roosan").poison == (1,)


def test_a_bet_needs_two_gold_even_pooled() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("To place a bet, a player must pay two gold coins")."""
    table = catacombs_3e(["alewife-tavern", "the-barracks"])
    table.edit("hero-xoric", gold=1)
    table.do(A.EnterRoom())
    with pytest.raises(NotEnoughGoldError):
        table.do(A.UseService("bet", target="hero-xoric"))
    assert gold(table, "hero-xoric") == 1


# == Allies ============================================================================================


def test_a_tie_for_the_lowest_health_gives_the_ally_to_the_hero_with_the_least_gold() -> None:
    """catacombs-3e-reference.txt: Allies ("If two heroes are tied for lowest health, the hero who has the
    least gold of the two will control the ally")."""
    table, ally = with_ally(["the-barracks"])
    table.enter_battle()
    table.edit("hero-xoric", health=1)
    table.edit("hero-roosan", health=3, gold=4)
    table.edit("hero-elani", health=3, gold=2)
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-xoric"))
    assert not table.state.character("hero-xoric").alive
    assert table.state.character(ally).owner == "hero-elani"


def test_a_tie_on_health_and_gold_gives_the_ally_to_the_hero_with_the_fewest_items() -> None:
    """catacombs-3e-reference.txt: Allies ("If there is still a tie, the hero with the fewest items controls
    the ally")."""
    table, ally = with_ally(["the-barracks"])
    table.enter_battle()
    table.edit("hero-xoric", health=1)
    table.edit("hero-roosan", health=3, gold=2, items=("healing-salve",))
    table.edit("hero-elani", health=3, gold=2, items=())
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-xoric"))
    assert table.state.character(ally).owner == "hero-elani"


def test_the_lowest_current_health_decides_regardless_of_starting_health() -> None:
    """catacombs-3e-reference.txt: Allies ("control of the ally passes to the hero with the lowest current
    health (regardless of maximum starting health)")."""
    table, ally = with_ally(["the-barracks"])
    table.enter_battle()
    table.edit("hero-xoric", health=1)
    table.edit("hero-varesh", health=2)  # starting health 8
    table.edit("hero-elani", health=3, gold=0)  # starting health 7
    table.edit("hero-roosan", health=3, gold=0)
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-xoric"))
    assert table.state.character(ally).owner == "hero-varesh"


def test_an_ally_has_no_gold_of_its_own_even_when_a_hero_tries_to_pay_with_it() -> None:
    """catacombs-3e-reference.txt: Allies ("Allies cannot earn gold as all gold transfers to the hero");
    Althea The Healer ("Players may pool their gold coins")."""
    table, ally = with_ally(["althea-the-healer", "the-barracks"])
    table.do(A.EnterRoom())
    table.edit(ally, health=2)
    with pytest.raises(Exception):  # noqa: B017 - an ally is not a payer
        table.do(A.UseService("heal", target=ally, payment=((ally, 3),)))
    assert table.health(ally) == 2


def test_an_ally_cannot_take_an_item_reward_at_the_tavern() -> None:
    """catacombs-3e-reference.txt: Allies ("Allies cannot buy or use Item cards"); Alewife Tavern ("Blindly
    draw 1 Item card (player must take first item they can use)")."""
    table, ally = with_ally(["alewife-tavern", "the-barracks"])
    table.do(A.EnterRoom())
    bet_until(table, ally, "blind_item")
    deck = table.state.item_deck
    pending = table.state.pending
    assert pending is not None
    table.do(A.Decide(pending.id, "blind_item"))
    assert table.state.character(ally).items == ()
    assert table.state.item_deck == deck


# == Antients ==========================================================================================

ANTIENT = "antient-liquid-antient"


def summoned(items: dict[str, list[str]] | None = None, **kwargs: object) -> RulesScript:
    """Elani opens Vaiel's Urn; the Antient takes its melee and Elani ends her turn: it is now the
    Overseer's."""
    items = {"elani": ["vaiels-urn"], **(items or {})}
    table = catacombs_3e(["the-barracks", "rat-nest"], items=items, **kwargs)  # type: ignore[arg-type]
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    table.shot("hero-elani", "melee", "monster-orc-1")
    if table.state.turn is not None:
        table.do(A.EndTurn("hero-elani"))
    return table


def test_regeneration_against_an_antient_restores_nothing() -> None:
    """catacombs-3e-reference.txt: Antients ("They cannot be damaged or destroyed, therefore the regeneration
    shot modifier has no effect when used against them"); Regeneration Shot Modifier."""
    table = summoned(spells={"varesh": ["drain-energy"]})
    table.edit("hero-varesh", health=5)
    table.do(A.PlayCard("hero-varesh", "drain-energy"))
    table.shot("hero-varesh", "missile", ANTIENT)
    assert table.health("hero-varesh") == 5
    assert table.state.character(ANTIENT).alive


def test_a_poison_melee_does_not_poison_an_antient() -> None:
    """catacombs-3e-reference.txt: Antients ("immune to the effects of all shots and all shot modifiers and
    cannot, for example, be ... poisoned")."""
    table = summoned(items={"xoric": ["poisoned-knife"]})
    deck = table.state.poison_deck
    table.do(A.PlayCard("hero-xoric", "poisoned-knife"))
    table.shot("hero-xoric", "melee", ANTIENT)  # the knife's poison melee
    antient = table.state.character(ANTIENT)
    assert antient.alive and antient.poison == () and table.state.poison_deck == deck


def test_an_antient_cannot_be_teleported() -> None:
    """catacombs-3e-reference.txt: Antients ("Antients specifically cannot be teleported")."""
    table = summoned(spells={"varesh": ["teleport-hero"]})
    table.do(A.PlayCard("hero-varesh", "teleport-hero"))
    table.shot("hero-varesh", "teleport", ANTIENT)  # the shot hits it, to no effect
    assert any("no effect, antients are invulnerable" in text for text in table.texts())
    antient = table.state.character(ANTIENT)
    assert antient.on_mat and antient.status == ()


def test_an_antient_leaves_the_room_when_the_battle_phase_ends() -> None:
    """catacombs-3e-reference.txt: Antients ("This process continues until the Battle Phase is completed,
    then any Antients leave the room"; "persists for the remainder of the room")."""
    table = summoned()
    for monster in [c.id for c in table.state.room_monsters if c.alive]:
        table.edit(monster, alive=False, health=0)
    table.turn("hero-xoric", ("melee",))
    table.do(A.EnterRoom())
    table.do(A.StartBattle())
    assert ANTIENT not in [c.id for c in table.rules.actors(table.state)]
    assert table.state.find(ANTIENT) is None


def test_althea_takes_no_offering_to_heal_a_hero_already_at_full_health() -> None:
    """catacombs-3e-reference.txt: Althea The Healer ("Heal Hero or Ally, 3 gold coins: One health point is
    restored"); Healing Damage ("A character's health may not be increased beyond its starting level")."""
    table = catacombs_3e(["amaranth-inn", "althea-the-healer", "the-barracks"])
    table.edit("hero-xoric", gold=8 + 3)
    table.do(A.EnterRoom())
    table.do(A.UseService("sleep"))  # Xoric 10 of 9
    table.do(A.EnterRoom())
    for hero in ("hero-xoric", "hero-elani"):
        with pytest.raises(IllegalActionError, match="full health"):
            table.do(A.UseService("heal", target=hero))
    assert gold(table, "hero-xoric") == 3
    table.edit("hero-elani", health=6)
    table.do(A.UseService("heal", target="hero-elani"))
    assert table.health("hero-elani") == 7 and gold(table, "hero-xoric") == 0
