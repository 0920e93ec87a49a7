"""The Altar of Soloth, the Cavern of Soloth expansion's Special Room card, in a Catacombs 3E game.

No rulebook available to the project prints it: its rules are those of the community-compiled reference data
(special-rooms.yaml: Altar of Soloth), marked unverified in the content. "Pay 5 gold to make an offering:
flip the top Item card and take it or put it on the bottom of the deck. One further offering (5 gold) may be
made for the next card, but only once." A Catacomb hero pays three coins instead of five
(catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Team Catacomb Heroes). The Altar is composed
into Catacombs 3E as an expansion room (``ROOM``, in ``Catacombs3E.expansion_rooms``): the offering is bought
as the other rooms' services are (``special_rooms``: pooled gold, paid back to the Treasury); this module
says whether one may be made, flips the card, gives it or lays it under the deck.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import card_play, special_rooms, table_draws
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.state import Character, GameState, Option, Pending
from service.games.catacombs.flow.tx import FlowRules, Tx
from service.games.catacombs.third_edition.expansions import castles_integration as integration3e
from service.rules.events import Event, register_event
from service.rules.evolve import evolve

SOURCE = "reference-data/catacombs-3e/special-rooms.yaml"
ALTAR = cite("Altar of Soloth", SOURCE)
OFFERING = "offering"  # the room's one service
OFFERING_COST = 5
OFFERINGS_PER_VISIT = 2  # an offering, and "one further offering ... but only once"
TAKE, BOTTOM = "take", "bottom"
DECISION = "altar_card"  # the pending decision: take the flipped card or put it on the bottom


@register_event
@dataclass(frozen=True, slots=True)
class AltarCardFlipped(Event):
    """An offering at the Altar flips the top Item card for the hero who made it."""

    type: ClassVar[str] = "altar_card_flipped"
    character: str
    card: str
    offering: int  # 1 for the first offering of the visit, 2 for the further one


@register_event
@dataclass(frozen=True, slots=True)
class ItemPutUnder(Event):
    """A card the hero did not take goes on the bottom of the Item deck."""

    type: ClassVar[str] = "item_put_under"
    character: str
    card: str


def why_not(state: GameState, target: Character | None) -> str | None:
    """Why no offering can be made now, or None."""
    if state.altar_offerings >= OFFERINGS_PER_VISIT:
        return "one offering and one further offering are all the Altar takes in a visit"
    if not state.item_deck:
        return "the Item deck is empty"
    if target is None or target.kind != "hero" or not target.alive:
        return "an offering is made by a living hero, who may take the card (allies cannot use items)"
    return None


def make_offering(rules: FlowRules, tx: Tx, hero: Character) -> None:
    """The offering is paid: flip the top Item card (the one the table flipped, at a physical table); the
    hero takes it or puts it on the bottom of the deck."""
    deck = tx.state.item_deck
    card = table_draws.take(tx, "items", deck, deck[0], " for the Altar of Soloth")
    rest = list(deck)
    rest.remove(card)
    offering = tx.state.altar_offerings + 1
    tx.state = evolve(tx.state, item_deck=tuple(rest), altar_offerings=offering)
    name = rules.content.card("item", card).name
    tx.emit(AltarCardFlipped(f"The Altar of Soloth turns up {name} for {hero.name}", hero.id, card, offering))
    why_not_take = why_not_taken(rules, tx.state, hero, card)
    if why_not_take is not None:
        put_under(tx, hero, card, f" ({why_not_take})")
        return
    tx.ask(
        DECISION,
        hero.id,
        f"{hero.name}'s offering turns up {name}: take it, or put it on the bottom of the Item deck?",
        (Option(TAKE, f"take {name}"), Option(BOTTOM, "put it on the bottom of the Item deck")),
        context=(hero.id, card),
    )


def why_not_taken(rules: FlowRules, state: GameState, hero: Character, card_id: str) -> str | None:
    """A hero takes only an Item card it may use (Item Cards: Usage Restrictions), as at the Merchant."""
    card = rules.content.card("item", card_id)
    why = card_play.usable_by(rules, hero, card)
    if why is not None:
        return why
    if card.familiar and any(c.kind == "familiar" and c.owner == hero.id for c in state.characters):
        return "a hero can only have one familiar item"
    return None


def put_under(tx: Tx, hero: Character, card: str, why: str = "") -> None:
    tx.state = evolve(tx.state, item_deck=(*tx.state.item_deck, card))
    tx.emit(ItemPutUnder(f"{card} goes on the bottom of the Item deck{why}", hero.id, card))


def why_not_offer(state: GameState, action: A.UseService, target: Character | None) -> str | None:
    return why_not(state, target) if action.service == OFFERING else None


def own_price(rules: FlowRules, state: GameState, action: A.UseService) -> int | None:
    """Team Catacomb Heroes: "A Catacomb hero pays three coins (instead of five)": for its own offering,
    from its own gold; another hero paying for it pays the Altar's price (docs/rulings.md)."""
    maker = state.find(action.target or "")
    if (
        action.service == OFFERING
        and maker is not None
        and integration3e.is_catacomb_hero(rules.content, maker)
        and all(hero == maker.id for hero, _ in action.payment)
    ):
        return integration3e.CATACOMB_ALTAR_COST
    return None


def offer(rules: FlowRules, tx: Tx, action: A.UseService, hero: Character) -> None:
    make_offering(rules, tx, hero)


def decide_card(rules: FlowRules, tx: Tx, pending: Pending, option: str) -> None:
    """The flipped card: the hero takes it, or it goes on the bottom of the Item deck."""
    hero_id, card = pending.context
    if option == TAKE:
        special_rooms.give_item(rules, tx, tx.char(hero_id), card)
    else:
        put_under(tx, tx.char(hero_id), card)


ROOM = special_rooms.ExpansionRoom(
    rule=ALTAR,
    services={OFFERING: OFFERING_COST},
    why_not=why_not_offer,
    own_price=own_price,
    apply=offer,
    decisions={DECISION: ALTAR},
)
"""The Altar of Soloth as Catacombs 3E composes it (``Catacombs3E.expansion_rooms["altar"]``)."""
