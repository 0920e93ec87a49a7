"""Special Room cards: Althea the Healer, Amaranth Inn, Izchak the Merchant, Alewife Tavern
(catacombs-3e-reference.txt: Special Room Cards). "All gold coins spent by the heroes is returned to the
treasury"; "Players may pool their gold coins". A special room an expansion brings (the Cavern of Soloth's
Altar of Soloth, composed into Catacombs 3E) is an ``ExpansionRoom`` in the rule set's ``expansion_rooms``:
its services are bought here the same way, and it says what they do."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import allies, card_play, table_draws
from service.games.catacombs.flow import events as E
from service.games.catacombs.flow.cards import UnknownCardError
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.state import Character, GameState, Option, Pending
from service.games.catacombs.flow.table_draws import TAVERN_BAG as TAVERN_BAG  # the decks the rooms draw from
from service.games.catacombs.flow.table_draws import unused_heroes as unused_heroes
from service.games.catacombs.flow.tx import FlowRules, Tx
from service.rules import rng
from service.rules.errors import (
    CardNotPlayableError,
    IllegalActionError,
    NotEnoughGoldError,
    UnknownCharacterError,
    WrongPhaseError,
)
from service.rules.evolve import evolve

HEALER = cite("Special Room Cards: Althea The Healer")
INN = cite("Special Room Cards: Amaranth Inn")
MERCHANT = cite("Special Room Cards: Izchak the Merchant")
TAVERN = cite("Special Room Cards: Alewife Tavern")
RULES = {"healer": HEALER, "inn": INN, "merchant": MERCHANT, "tavern": TAVERN}

MARKET_SIZE = 6
CELLAR_ITEMS = ("vaiels-urn", "healing-salve", "raisthrims-potion", "cloak-of-invisibility")
# The reward table, top to bottom; a winner may take any reward lower than the one drawn.
TAVERN_REWARDS: tuple[tuple[str, ...], ...] = (
    ("full_health", "cure_all_poison"),
    ("choose_item",),
    ("blind_item",),
    ("gain_health", "cure_one_poison"),
    ("gain_gold",),
)
REWARD_LABELS = {
    "full_health": "full health for the hero and their ally",
    "cure_all_poison": "cure all Poison cards",
    "choose_item": "choose an Item card from the deck",
    "blind_item": "draw an Item card blindly",
    "gain_health": "gain 1 health",
    "cure_one_poison": "cure 1 Poison card",
    "gain_gold": "gain 1 gold",
}


@dataclass(frozen=True)
class ExpansionRoom:
    """A special room an expansion brings: the rule it cites, its services and their prices, why a service
    cannot be bought now (or None), a price of its own for a purchase (or None: the listed one), what a
    bought service does, and the rules behind the decisions it asks (by decision kind)."""

    rule: str
    services: Mapping[str, int]
    why_not: Callable[[GameState, A.UseService, Character | None], str | None]
    own_price: Callable[[FlowRules, GameState, A.UseService], int | None]
    apply: Callable[[FlowRules, Tx, A.UseService, Character], None]
    decisions: Mapping[str, str]


class RoomRules(FlowRules, Protocol):
    """A rule set as its special rooms see it: the flow's, with the rooms its expansions bring."""

    @property
    def expansion_rooms(self) -> Mapping[str, ExpansionRoom]: ...


def services(rules: RoomRules) -> dict[str, dict[str, int]]:
    """Service name -> cost, by special room kind."""
    s = rules.settings
    return {
        "healer": {"free_cure": 0, "heal": 3, "cure_poison": 2, "resurrect": 10},
        "inn": {"sleep": s.inn_sleep_cost, "cellar": 8, "meal": 10},
        "merchant": {"peek": s.merchant_peek_cost, "buy": 0, "map": 2},
        "tavern": {"bet": 2},
        **{kind: dict(room.services) for kind, room in rules.expansion_rooms.items()},
    }


# == checks ======================================================================================
def check(rules: RoomRules, state: GameState, action: A.UseService) -> None:
    kind = state.room_kind or ""
    room = rules.expansion_rooms.get(kind)
    if state.phase != "special_room" or (kind not in RULES and room is None):
        raise WrongPhaseError("services are bought in a special room", cite("Room Cards: Special Room Cards"))
    rule = room.rule if room is not None else RULES[kind]
    offered = services(rules)[kind]
    if action.service not in offered:
        raise IllegalActionError(f"{state.room_name} offers {sorted(offered)}, not {action.service!r}", rule)
    target = _target(state, action, rule)
    cost = price(rules, state, action)
    if action.service == "free_cure" and state.free_cure_used:
        raise IllegalActionError("Althea cures one Poison card for free, once", HEALER)
    if action.service in ("free_cure", "cure_poison") and (target is None or not target.poison):
        raise IllegalActionError("the hero has no Poison card to cure", HEALER)
    if action.service == "heal" and (
        target is None or not target.alive or target.kind not in ("hero", "ally")
    ):
        raise IllegalActionError("Althea heals a living hero or ally", HEALER)
    if action.service == "heal" and target is not None and target.health >= target.max_health:
        # "One health point is restored", and health never rises above the starting level (Healing Damage):
        # at that level the offering would buy nothing, as a cure does for a hero without Poison cards.
        raise IllegalActionError(f"{target.name} is already at full health", HEALER)
    if action.service == "resurrect" and (target is None or target.alive or target.kind != "hero"):
        raise IllegalActionError("Althea resurrects a dead hero (allies cannot be resurrected)", HEALER)
    if action.service == "peek" and not state.item_deck:
        raise IllegalActionError("the Item deck is empty", MERCHANT)
    if room is not None and (why := room.why_not(state, action, target)) is not None:
        raise IllegalActionError(why, room.rule)
    if action.service == "buy":
        _check_buy(rules, state, action, target)
    if action.service == "meal":
        if target is None or target.kind != "hero" or not target.alive:
            raise IllegalActionError(
                "an ally is assigned to a living hero", cite("Advanced Concepts: Allies")
            )
        if not unused_heroes(rules, state):
            raise IllegalActionError("no unused Hero Portrait card is left to recruit", INN)
    if action.service == "cellar" and not any(i in state.item_deck for i in CELLAR_ITEMS):
        raise IllegalActionError("none of the cellar's items is left in the Item deck", INN)
    payers(state, action, cost)


def _target(state: GameState, action: A.UseService, rule: str) -> Character | None:
    if action.target is None:
        if action.service in ("sleep", "cellar", "peek", "map"):
            return None
        raise IllegalActionError(f"{action.service} needs a target hero", rule)
    c = state.find(action.target)
    if c is None or c.kind not in ("hero", "ally"):
        raise UnknownCharacterError(f"no hero or ally {action.target!r}", rule)
    return c


def _check_buy(rules: FlowRules, state: GameState, action: A.UseService, target: Character | None) -> None:
    if action.item is None or action.item not in state.market:
        raise CardNotPlayableError(f"{action.item!r} is not among the revealed Item cards", MERCHANT)
    if target is None or target.kind != "hero" or not target.alive:
        raise IllegalActionError(
            "items are bought for a living hero (allies cannot use items)", cite("Advanced Concepts: Allies")
        )
    card = rules.content.card("item", action.item)
    why_not = card_play.usable_by(rules, target, card)
    if why_not is not None:
        raise CardNotPlayableError(why_not, cite("Item Cards: Usage Restrictions"))
    if card.familiar and any(c.kind == "familiar" and c.owner == target.id for c in state.characters):
        raise CardNotPlayableError("a hero can only have one familiar item", cite("Item Cards: Familiars"))


def price(rules: RoomRules, state: GameState, action: A.UseService) -> int:
    if action.service == "buy" and action.item is not None:
        try:
            cost = rules.content.card("item", action.item).cost
        except UnknownCardError as exc:
            raise CardNotPlayableError(str(exc), MERCHANT) from None
        if cost is None:
            raise CardNotPlayableError(
                f"the price of {action.item} is not known; an organiser can set it in a content overlay",
                MERCHANT,
            )
        buyer = state.find(action.target or "")
        if buyer is not None and buyer.kind == "hero":
            # Marorg "buys items at a discount" (the amount comes from his card data).
            cost = max(0, cost - rules.content.hero(buyer.card).item_discount)
        return cost
    room = rules.expansion_rooms.get(state.room_kind or "")
    own = room.own_price(rules, state, action) if room is not None else None
    if own is not None:
        return own
    return services(rules)[state.room_kind or ""][action.service]


def payers(state: GameState, action: A.UseService, cost: int) -> list[tuple[str, int]]:
    """Who pays what. Explicit ``payment`` must cover the cost exactly; otherwise the target pays first."""
    if action.payment:
        total = 0
        for hero_id, amount in action.payment:
            hero = state.find(hero_id)
            if hero is None or hero.kind != "hero":
                raise UnknownCharacterError(
                    f"{hero_id!r} is not a hero", RULES.get(state.room_kind or "", HEALER)
                )
            if amount < 0 or amount > hero.gold:
                raise NotEnoughGoldError(f"{hero.name} has {hero.gold} gold, not {amount}", HEALER)
            total += amount
        if total != cost:
            raise NotEnoughGoldError(f"the payment adds up to {total}, the price is {cost}", HEALER)
        return list(action.payment)
    order = [h for h in state.heroes if h.id == action.target] + [
        h for h in state.heroes if h.id != action.target
    ]
    plan, due = [], cost
    for hero in order:
        if due == 0:
            break
        paid = min(due, hero.gold)
        if paid:
            plan.append((hero.id, paid))
            due -= paid
    if due:
        raise NotEnoughGoldError(
            f"the party holds {state.party_gold} gold; {action.service} costs {cost}",
            RULES.get(state.room_kind or "", HEALER),
        )
    return plan


# == application =================================================================================
def apply(rules: RoomRules, tx: Tx, action: A.UseService) -> None:
    cost = price(rules, tx.state, action)
    for hero_id, amount in payers(tx.state, action, cost):
        tx.return_gold(tx.char(hero_id), amount)
    target = tx.state.find(action.target) if action.target else None
    room = rules.expansion_rooms.get(tx.state.room_kind or "")
    if room is not None and action.service in room.services:
        room.apply(rules, tx, action, _must(target))
        return
    handlers: dict[str, Callable[[], None]] = {
        "free_cure": lambda: _cure(tx, target, free=True),
        "cure_poison": lambda: _cure(tx, target),
        "heal": lambda: tx.heal(_must(target), 1),
        "resurrect": lambda: _resurrect(tx, _must(target)),
        "sleep": lambda: inn_sleep(tx),
        "cellar": lambda: _cellar(rules, tx),
        "meal": lambda: allies.recruit_ally(rules, tx, _must(target)),
        "peek": lambda: merchant_peek(tx),
        "buy": lambda: _buy(rules, tx, _must(target), action.item or ""),
        "map": lambda: _map(tx),
        "bet": lambda: tavern_bet(tx, _must(target)),
    }
    handlers[action.service]()


def _must(c: Character | None) -> Character:
    assert c is not None
    return c


def _cure(tx: Tx, hero: Character | None, free: bool = False) -> None:
    if free:
        tx.state = evolve(tx.state, free_cure_used=True)
    card_play.ask_poison_cure(tx, _must(hero), 1)


def _resurrect(tx: Tx, hero: Character) -> None:
    """Resurrect Hero: back to life with two health, playing from the next room."""
    tx.update(evolve(hero, alive=True, health=2, returns_next_room=False))
    tx.emit(E.HeroReturned(f"Althea brings {hero.name} back to life with 2 health", hero.id, 2))


def inn_sleep(tx: Tx) -> None:
    # RULINGS.md 6: one payment for the party; each living hero gains one health, even above its start.
    for hero in tx.state.heroes:
        if hero.alive:
            tx.heal(hero, 1, may_exceed=True)


def _cellar(rules: FlowRules, tx: Tx) -> None:
    stock_from_cellar(rules, tx, [hero for hero in tx.state.heroes if hero.alive])


def stock_from_cellar(rules: FlowRules, tx: Tx, served: list[Character]) -> None:
    """Amaranth Inn: each hero served receives one of each unused cellar item from the Item deck. smartmat
    ruling (docs/rulings.md): an item the hero may not use (Item Cards: Usage Restrictions) stays in the deck
    for the next hero, and is shuffled back with the rest."""
    deck = list(tx.state.item_deck)
    for hero in served:
        gained = [
            item
            for item in CELLAR_ITEMS
            if item in deck and card_play.usable_by(rules, hero, rules.content.card("item", item)) is None
        ]
        for item in gained:
            deck.remove(item)
        tx.update(evolve(tx.char(hero.id), items=(*tx.char(hero.id).items, *gained)))
        if gained:
            tx.emit(
                E.ItemGained(f"{hero.name} takes {', '.join(gained)} from the cellar", hero.id, tuple(gained))
            )
    state, shuffled = rng.shuffled(tx.state.rng, deck)  # "Any left over items are shuffled back"
    tx.state = evolve(tx.state, rng=state, item_deck=shuffled)


def open_market(tx: Tx) -> None:
    """Izchak: shuffle the Item deck and reveal six cards."""
    state, deck = rng.shuffled(tx.state.rng, tx.state.item_deck)
    tx.state = evolve(tx.state, rng=state, item_deck=deck)
    for _ in range(min(MARKET_SIZE, len(deck))):
        draw_item(tx, " for Izchak's six cards")


def draw_item(tx: Tx, what: str = "") -> str:
    """One card from the Item deck: the one the table drew, or the top of the seeded deck."""
    deck = tx.state.item_deck
    card = table_draws.take(tx, "items", deck, deck[0], what)
    index = deck.index(card)
    tx.state = evolve(tx.state, item_deck=deck[:index] + deck[index + 1 :], market=(*tx.state.market, card))
    return card


def close_market(tx: Tx) -> None:
    if tx.state.market:
        state, deck = rng.shuffled(tx.state.rng, (*tx.state.item_deck, *tx.state.market))
        tx.state = evolve(tx.state, rng=state, item_deck=deck, market=())


def merchant_peek(tx: Tx) -> None:
    # RULINGS.md 7: the price of seeing the next card is a setting (1 gold by the rulebook).
    card = draw_item(tx, " for Izchak's next card")
    tx.emit(E.ItemGained(f"Izchak reveals {card}", "", (card,)))


def _buy(rules: FlowRules, tx: Tx, hero: Character, item: str) -> None:
    market = list(tx.state.market)
    market.remove(item)
    tx.state = evolve(tx.state, market=tuple(market))
    give_item(rules, tx, hero, item)


def give_item(rules: FlowRules, tx: Tx, hero: Character, item: str) -> None:
    hero = tx.char(hero.id)
    tx.update(evolve(hero, items=(*hero.items, item)))
    tx.emit(E.ItemGained(f"{hero.name} gains {item}", hero.id, (item,)))
    hero = rules.with_permanent_items(tx.char(hero.id))
    tx.update(hero)
    for familiar in card_play.familiar_characters(rules, hero):
        existing = tx.state.find(familiar.id)
        if existing is None:
            tx.state = evolve(tx.state, characters=(*tx.state.characters, familiar))
        elif existing.owner != hero.id and not _holds(tx.state, existing.owner, familiar.card):
            # The card came back to the deck (its hero died) and now serves its new owner.
            tx.update(familiar)


def _holds(state: GameState, hero_id: str | None, item: str) -> bool:
    hero = state.find(hero_id or "")
    return hero is not None and item in hero.items


def _map(tx: Tx) -> None:
    tx.state = evolve(tx.state, map_revealed=True)
    ahead = ", ".join(tx.state.room_deck[tx.state.room_index + 1 :]) or "nothing"
    tx.emit(E.RoomEntered(f"The map reveals the way ahead: {ahead}", tx.state.room_id or "", "map"))


def tavern_bet(tx: Tx, hero: Character) -> None:
    """Alewife Tavern: draw three pieces from the bag, consult the reward table top to bottom."""
    state, bag = rng.shuffled(tx.state.rng, TAVERN_BAG)
    tx.state = evolve(tx.state, rng=state)
    left, taken = list(bag), []
    for _ in range(3):
        piece = table_draws.take(tx, "tavern", left, left[0])
        left.remove(piece)
        taken.append(piece)
    drawn = tuple(taken)
    level = tavern_level(drawn)
    tx.emit(E.TavernDraw(f"{hero.name} draws {', '.join(drawn)} from the bag", hero.id, drawn))
    if level is None:
        return
    options = tuple(Option(r, REWARD_LABELS[r]) for group in TAVERN_REWARDS[level:] for r in group)
    tx.ask(
        "choose_tavern_reward", hero.id, f"Which reward does {hero.name} take?", options, context=(hero.id,)
    )


def tavern_level(drawn: tuple[str, ...]) -> int | None:
    counts = Counter(drawn)
    heroes = counts["hero"]
    if heroes == 3:
        return 0
    if len(counts) == 1:
        return 1  # three of a kind
    if heroes == 2:
        return 2
    if len(counts) == 3:
        return 3  # three different colours
    if heroes == 1:
        return 4
    return None


def decide_tavern_reward(rules: FlowRules, tx: Tx, pending: Pending, option: str) -> None:
    hero = tx.char(pending.context[0])
    if option == "full_health":
        for c in (hero, *(a for a in tx.state.characters if a.kind == "ally" and a.owner == hero.id)):
            tx.heal(c, c.max_health)
    elif option == "cure_all_poison":
        poison = hero.poison
        tx.update(evolve(hero, poison=()))
        state, deck = rng.shuffled(tx.state.rng, (*tx.state.poison_deck, *poison))
        tx.state = evolve(tx.state, rng=state, poison_deck=deck)
        tx.emit(E.StatusChanged(f"{hero.name} is cured of all poison", hero.id, "poisoned", False))
    elif option == "choose_item":
        choices = tuple(
            i
            for i in dict.fromkeys(tx.state.item_deck)
            if card_play.usable_by(rules, hero, rules.content.card("item", i)) is None
        )
        if choices:
            tx.ask(
                "choose_item",
                hero.id,
                f"Which Item card does {hero.name} take?",
                tuple(Option(i, i) for i in choices),
                context=(hero.id,),
            )
    elif option == "blind_item":
        # "Blindly draw 1 Item card (player must take first item they can use)".
        pile = list(tx.state.item_deck)
        usable = [i for i in pile if card_play.usable_by(rules, hero, rules.content.card("item", i)) is None]
        if usable:
            item = table_draws.take(tx, "items", usable, usable[0], " (the first the hero can use)")
            pile.remove(item)
            tx.state = evolve(tx.state, item_deck=tuple(pile))
            give_item(rules, tx, hero, item)
    elif option == "gain_health":
        tx.heal(hero, 1)
    elif option == "cure_one_poison" and hero.poison:
        card_play.ask_poison_cure(tx, hero, 1)
    elif option == "gain_gold":
        # Allies: "Allies cannot earn gold as all gold transfers to the hero whom the ally was assigned to".
        earner = tx.gold_earner(hero)
        if earner is not None:
            tx.pay_from_treasury(earner, 1)


def decide_item(rules: FlowRules, tx: Tx, pending: Pending, option: str) -> None:
    deck = list(tx.state.item_deck)
    deck.remove(option)
    tx.state = evolve(tx.state, item_deck=tuple(deck))
    give_item(rules, tx, tx.char(pending.context[0]), option)
