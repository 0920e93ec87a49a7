"""The Altar of Soloth, the Cavern of Soloth's Special Room card, in a Catacombs 3E game.

No rulebook the project holds prints the card: its rules come from the reference data
(reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth; a copy in tests/data), recorded in
docs/rulings.md ("The Altar of Soloth"). A Catacomb hero's price is the manual's
(catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Team Catacomb Heroes).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.games.catacombs.adapter import rules_content
from service.games.catacombs.content import load_content
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex, RoomCard
from service.games.catacombs.flow.layout import deal_room_deck
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.integration_adapter import integrated_content
from service.games.catacombs.third_edition.expansions.castles_integration import IntegratedContent
from service.games.catacombs.third_edition.expansions.soloth_altar import (
    ALTAR,
    AltarCardFlipped,
    ItemPutUnder,
)
from service.games.catacombs.third_edition.ruleset import Catacombs3E
from service.rules.errors import IllegalActionError, NotEnoughGoldError
from service.rules.evolve import evolve
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import CARDS, HEROES, LAYOUTS, LORDS, MONSTERS, POISON_DECK, ROOMS

from .test_castles_in_3e import CASTLES_HEROES, FACTS

ALTAR_ROOM = RoomCard(
    "altar-of-soloth", "Altar of Soloth", "altar"
)  # as content/catacombs-3e/soloth gives it
SOURCE = "reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth"
DATA = Path(__file__).resolve().parents[2] / "data"


def content(castles: bool = False) -> CardIndex | IntegratedContent:
    heroes = (*HEROES, *CASTLES_HEROES) if castles else HEROES
    base = CardIndex(heroes, MONSTERS, (*ROOMS, ALTAR_ROOM), LORDS, POISON_DECK, CARDS, LAYOUTS)
    return IntegratedContent(base, FACTS) if castles else base


def at_the_altar(
    heroes: tuple[str, ...] = ("xoric", "varesh", "roosan", "elani"),
    castles: bool = False,
    settings: Settings | None = None,
    **gold: int,
) -> RulesScript:
    table = catacombs_3e(
        ["altar-of-soloth", "the-barracks"], heroes=heroes, content=content(castles), settings=settings
    )
    for hero, amount in gold.items():
        table.edit(f"hero-{hero}", gold=amount)
    if settings is not None and settings.physical_decks:
        table.do(A.DrawCards("rooms", ("altar-of-soloth",)))
    table.do(A.EnterRoom())
    assert (table.state.phase, table.state.room_kind) == ("special_room", "altar")
    return table


def test_the_rule_cited_is_the_reference_data_entry() -> None:
    """reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth (no rulebook prints the card)."""
    assert ALTAR == SOURCE
    entry = (DATA / "reference-data" / "catacombs-3e" / "special-rooms.yaml").read_text()
    assert (
        "Pay 5 gold to make an offering: flip the top Item card and take it or put it on the bottom" in entry
    )
    assert "One further offering (5 gold) may be made for the next card, but only once." in entry


def test_an_offering_of_five_pooled_gold_flips_the_top_item_card_and_the_hero_takes_it() -> None:
    """reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth ("Pay 5 gold to make an offering: flip
    the top Item card and take it"); catacombs-3e-reference.txt: Special Room Cards (gold spent goes back to
    the Treasury; the rooms' gold may be pooled)."""
    table = at_the_altar(xoric=3, elani=2)
    top = table.state.item_deck[0]
    table.do(A.UseService("offering", target="hero-xoric"))
    flipped = [e for e in table.last if isinstance(e, AltarCardFlipped)]
    assert [(e.character, e.card, e.offering) for e in flipped] == [("hero-xoric", top, 1)]
    assert (table.state.character("hero-xoric").gold, table.state.character("hero-elani").gold) == (0, 0)
    assert table.state.treasury == 92 + 5
    pending = table.state.pending
    assert pending is not None and pending.kind == "altar_card" and pending.character == "hero-xoric"
    assert [o.id for o in pending.options] == ["take", "bottom"]
    deck = table.state.item_deck
    table.do(A.Decide(pending.id, "take"))
    assert top in table.state.character("hero-xoric").items
    assert table.state.item_deck == deck  # the flipped card left the deck when it was flipped


def test_a_refused_card_goes_on_the_bottom_of_the_item_deck() -> None:
    """reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth ("or put it on the bottom of the
    deck")."""
    table = at_the_altar(xoric=5)
    deck = table.state.item_deck
    table.do(A.UseService("offering", target="hero-xoric"))
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "bottom"))
    assert table.state.item_deck == (*deck[1:], deck[0])
    assert [e.card for e in table.last if isinstance(e, ItemPutUnder)] == [deck[0]]
    assert deck[0] not in table.state.character("hero-xoric").items


def test_one_further_offering_for_the_next_card_but_only_once() -> None:
    """reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth ("One further offering (5 gold) may be
    made for the next card, but only once"): two offerings a visit, whoever makes them (docs/rulings.md)."""
    table = at_the_altar(xoric=10, elani=5)
    for _ in range(2):
        table.do(A.UseService("offering", target="hero-xoric"))
        assert table.state.pending is not None
        table.do(A.Decide(table.state.pending.id, "bottom"))
    assert table.state.altar_offerings == 2
    with pytest.raises(IllegalActionError, match="one further offering") as refused:
        table.do(A.UseService("offering", target="hero-elani"))
    assert refused.value.rule == SOURCE
    assert A.UseService("offering", target="hero-elani") not in table.rules.choices(table.state)


def test_the_altar_is_visited_anew_in_each_visit() -> None:
    """reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth (the limit is the visit's)."""
    table = catacombs_3e(
        ["altar-of-soloth", "the-barracks", "altar-of-soloth", "the-barracks"], content=content()
    )
    table.edit("hero-xoric", gold=5)
    table.do(A.EnterRoom())
    table.do(A.UseService("offering", target="hero-xoric"))
    assert table.state.altar_offerings == 1
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "bottom"))
    table.do(A.EnterRoom())
    assert table.state.altar_offerings == 0


def test_an_offering_needs_five_gold_and_a_living_hero() -> None:
    """reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth ("Pay 5 gold");
    catacombs-3e-reference.txt: Advanced Concepts: Allies (allies cannot use items)."""
    table = at_the_altar(xoric=2, elani=2)
    with pytest.raises(NotEnoughGoldError):
        table.do(A.UseService("offering", target="hero-xoric"))
    table.edit("hero-elani", gold=5, alive=False, health=0)
    with pytest.raises(IllegalActionError, match="living hero"):
        table.do(A.UseService("offering", target="hero-elani"))
    with pytest.raises(IllegalActionError, match="needs a target hero"):
        table.do(A.UseService("offering"))
    assert table.state.treasury == 92 and table.state.pending is None


def test_a_card_the_hero_may_not_use_goes_under_the_deck_at_once() -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions (as at the Merchant, a hero takes only an
    Item card it may use); reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth."""
    table = at_the_altar(xoric=5)
    magic = next(c.id for c in CARDS if c.kind == "item" and c.magic)  # Spell Casters only
    table.state = evolve(table.state, item_deck=(magic, *table.state.item_deck))
    table.do(A.UseService("offering", target="hero-xoric"))
    assert table.state.pending is None
    assert table.state.item_deck[-1] == magic and magic not in table.state.character("hero-xoric").items
    assert [e.card for e in table.last if isinstance(e, ItemPutUnder)] == [magic]


def test_a_physical_table_names_the_card_it_flipped() -> None:
    """Item cards drawn at a physical table are named (docs/rulings.md, physical decks);
    reference-data/catacombs-3e/special-rooms.yaml: Altar of Soloth."""
    table = at_the_altar(settings=Settings(physical_decks=True), xoric=5)
    with pytest.raises(IllegalActionError, match="items deck"):
        table.do(A.UseService("offering", target="hero-xoric"))
    card = sorted(table.state.item_deck)[-1]
    table.do(A.DrawCards("items", (card,)))
    table.do(A.UseService("offering", target="hero-xoric"))
    assert table.state.pending is not None and table.state.pending.context == ("hero-xoric", card)


def test_a_catacomb_hero_pays_three_coins_alone() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Team Catacomb Heroes ("A Catacomb hero
    pays three coins (instead of five) when visiting the Altar of Soloth"; "cannot pool their gold")."""
    table = at_the_altar(heroes=("xoric", "varesh", "hakoru", "edarir"), castles=True, hakoru=3, xoric=5)
    table.do(A.UseService("offering", target="hero-hakoru"))
    assert table.state.character("hero-hakoru").gold == 0
    assert table.state.character("hero-xoric").gold == 5 and table.state.treasury == 92 + 3
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "bottom"))
    table.edit("hero-edarir", gold=2)
    with pytest.raises(NotEnoughGoldError, match="pays alone"):  # Xoric's gold is not Edarir's
        table.do(A.UseService("offering", target="hero-edarir"))
    with pytest.raises(NotEnoughGoldError, match="the price is 5"):  # the three coins are Edarir's own price
        table.do(A.UseService("offering", target="hero-edarir", payment=(("hero-xoric", 3),)))
    table.do(A.UseService("offering", target="hero-xoric"))  # a regular hero pays five
    assert table.state.character("hero-xoric").gold == 0 and table.state.treasury == 92 + 3 + 5


def test_the_shipped_soloth_expansion_deals_and_plays_its_altar() -> None:
    """content/catacombs-3e/soloth/special-rooms.yaml (unverified, from the reference data); a layout's
    special slot may deal it (catacombs-3e-reference.txt: Addendum: Alternate Room Card Layouts)."""
    loaded = load_content("catacombs-3e", expansions=("soloth",))
    altar = loaded.special_rooms["altar-of-soloth"]
    assert (altar.kind, altar.costs, altar.verified) == ("altar", {"offering": 5}, False)
    shipped = rules_content(loaded)
    dealt = {deal_room_deck(shipped, ["special", "lair"], seed)[0] for seed in range(40)}
    assert "altar-of-soloth" in dealt
    assert "altar-of-soloth" not in {
        deal_room_deck(rules_content(load_content("catacombs-3e")), ["special", "lair"], seed)[0]
        for seed in range(40)
    }
    for rules in (Catacombs3E(shipped), Catacombs3E(integrated_content(
        load_content("catacombs-3e", expansions=("soloth", "castles"))
    ))):  # fmt: skip
        state = rules.new_game(
            ["xoric", "varesh", "roosan", "elani"], "hmotha-the-lich-lord", ["altar-of-soloth"], 3
        )
        state = state.with_character(evolve(state.character("hero-xoric"), gold=5))
        state, _ = rules.apply(state, A.EnterRoom())
        assert A.UseService("offering", target="hero-xoric") in rules.choices(state)
        state, _ = rules.apply(state, A.UseService("offering", target="hero-xoric"))
        assert state.pending is not None and state.pending.kind == "altar_card"
