"""Physical decks: the referee names the card the table drew; the engine's seeded draw is the digital deck.

A ``draw_cards`` action queues the cards a deck gave, in order, before the action that draws them (the
Room card before ``enter_room``, the Poison cards before the shot that poisons, ...). Every draw the rules
make takes the next named card of its deck, checked against what can still be in that deck; with no card
named, a digital table draws from its seeded deck and a physical table (``Settings.physical_decks``) refuses
the action until the referee names it. Both replay identically: the named cards are in the log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from service.games.catacombs.flow import events as E
from service.games.catacombs.flow.actions import DrawCards
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.state import GameState
from service.games.catacombs.flow.tx import FlowRules, Tx
from service.rules.errors import IllegalActionError
from service.rules.evolve import evolve

DECK_RULES = {
    "rooms": cite("Game Phases: Exploring The Catacomb"),
    "monster_metre": cite("Room Cards: Monster Metre Icons"),
    "poison": cite("Advanced Concepts: Poison Cards"),
    "items": cite("Room Cards: Izchak the Merchant"),
    "tavern": cite("Room Cards: Alewife Tavern"),
    "allies": cite("Room Cards: Amaranth Inn"),
}
DECKS = tuple(DECK_RULES)
# Alewife Tavern: all Orcs, Fire Spirits and Centaurs (four of each) and four hero pieces.
TAVERN_BAG = ("orc",) * 4 + ("fire-spirit",) * 4 + ("centaur",) * 4 + ("hero",) * 4


class CardNotInDeckError(IllegalActionError):
    """A named card that cannot be in that deck now (already drawn, never in it, or no such card)."""


class CardNotNamedError(IllegalActionError):
    """A physical table's draw that the referee has not named yet: ``deck`` and the cards it could be."""

    def __init__(self, message: str, rule: str, deck: str = "", possible: Sequence[str] = ()) -> None:
        super().__init__(message, rule)
        self.deck = deck
        self.possible = tuple(sorted(set(possible)))


def queued(state: GameState, deck: str) -> tuple[str, ...]:
    return dict(state.table_draws).get(deck, ())


def with_queue(state: GameState, deck: str, cards: tuple[str, ...]) -> GameState:
    others = tuple((d, q) for d, q in state.table_draws if d != deck)
    return evolve(state, table_draws=tuple(sorted((*others, (deck, cards)) if cards else others)))


def take(tx: Tx, deck: str, possible: Sequence[str], seeded: str | Callable[[], str], what: str = "") -> str:
    """One card from ``deck``: the next one the referee named (it must be among ``possible``), or the seeded
    draw of a digital table (``seeded``: the card on top, or how to draw it)."""
    queue = queued(tx.state, deck)
    if queue:
        card = queue[0]
        tx.state = with_queue(tx.state, deck, queue[1:])
        if card not in possible:
            raise CardNotInDeckError(
                f"{card!r} cannot be drawn from the {deck} deck now; it could be {sorted(set(possible))}",
                DECK_RULES[deck],
            )
        tx.emit(E.CardDrawn(f"The table draws {card} from the {deck} deck", deck, card, True))
        return card
    if tx.state.settings.physical_decks:
        raise CardNotNamedError(
            f"name the card the table drew from the {deck} deck{what} first (draw_cards, deck {deck!r}); "
            f"it may be one of {sorted(set(possible))}",
            DECK_RULES[deck],
            deck,
            possible,
        )
    # The seeded draw says nothing of its own: the events of what it brings (the Poison card, the Room) do.
    return seeded if isinstance(seeded, str) else seeded()


def check_draw(rules: FlowRules, state: GameState, action: DrawCards) -> None:
    """Each named card must be one that can still come from that deck, counting the cards named before it."""
    if action.deck not in DECK_RULES:
        raise CardNotInDeckError(f"unknown deck {action.deck!r}; decks: {list(DECKS)}", cite("Components"))
    if not action.cards:
        raise CardNotInDeckError(
            f"name at least one card drawn from the {action.deck} deck", DECK_RULES[action.deck]
        )
    left = list(could_be_drawn(rules, state, action.deck))
    for card in (*queued(state, action.deck), *action.cards):
        if card not in left:
            raise CardNotInDeckError(
                f"{card!r} cannot come from the {action.deck} deck now; it could be {sorted(set(left))}",
                DECK_RULES[action.deck],
            )
        if action.deck in ("rooms", "poison", "items", "tavern"):
            left.remove(card)  # one card of the deck (a Monster card or portrait is shuffled back each time)


def could_be_drawn(rules: FlowRules, state: GameState, deck: str) -> list[str]:
    """What is still in ``deck`` (a multiset; order unknown at a physical table)."""
    if deck == "rooms":
        return list(state.room_deck[state.room_index + 1 :])
    if deck == "poison":
        return [str(v) for v in state.poison_deck]
    if deck == "items":
        return list(state.item_deck)
    if deck == "tavern":
        return list(TAVERN_BAG)
    if deck == "allies":
        return unused_heroes(rules, state)
    return [m.id for m in rules.content.monsters() if m.level and not m.antient]


def unused_heroes(rules: FlowRules, state: GameState) -> list[str]:
    """The allies deck: the Hero Portrait cards nobody plays, as hero or ally (Special Room Cards: Amaranth
    Inn)."""
    used = {c.card for c in state.characters if c.kind in ("hero", "ally")}
    return sorted(h.id for h in rules.content.heroes() if h.id not in used)
