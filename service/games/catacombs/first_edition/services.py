"""The special rooms of Catacombs 1E: the Merchant and the Healer (catacombs-1e-rules-italian.txt: Carte
Stanze Speciali). Gold is counted in hundreds, as the gold cards are.

- Il mercante: six Equipment cards revealed (the Item deck shuffled); ``buy`` (``target`` the hero, ``item``);
  the Merchant's special price, half rounded up, for at most two items a visit: the first two bought (the
  heroes choose the order of their purchases, docs/rulings.md). An item only for the heroes its card names.
- Il guaritore: ``restoring_touch`` (300 gold, one health point, never above the starting level) and
  ``resurrection`` (1000 gold, a dead hero back with two health points, its gold and items).
Heroes may pool their gold: ``payment`` lists ``[hero, gold]`` pairs, else the target pays, then the others.
"""

from __future__ import annotations

from typing import Protocol

from service.games.catacombs.first_edition.cards import Catacombs1ECards
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import events as E
from service.games.catacombs.flow import special_rooms
from service.games.catacombs.flow.cards import UnknownCardError
from service.games.catacombs.flow.state import Character, GameState
from service.games.catacombs.flow.tx import FlowRules, Tx
from service.rules.errors import (
    CardNotPlayableError,
    IllegalActionError,
    UnknownCharacterError,
    WrongPhaseError,
)
from service.rules.evolve import evolve

MANUAL = "catacombs-1e-rules-italian.txt"
MERCHANT = f"{MANUAL}: Il mercante"
HEALER = f"{MANUAL}: Il guaritore"
SERVICES = {"merchant": {"buy": 0}, "healer": {"restoring_touch": 300, "resurrection": 1000}}
MARKET_SIZE = 6
DISCOUNTED = 2
RESURRECTION_HEALTH = 2


class FirstEditionRules(FlowRules, Protocol):
    """``Catacombs1E`` as its special rooms see it: the Catacombs flow reading the first edition's cards."""

    @property
    def content(self) -> Catacombs1ECards: ...


def services_of(state: GameState) -> dict[str, int]:
    return SERVICES.get(state.room_kind or "", {})


def price(rules: FirstEditionRules, state: GameState, action: A.UseService) -> int:
    if action.service != "buy":
        return services_of(state)[action.service]
    try:
        cost = rules.content.card("item", action.item or "").cost
    except UnknownCardError as exc:
        raise CardNotPlayableError(str(exc), MERCHANT) from None
    if cost is None:
        raise CardNotPlayableError(
            f"the price of {action.item} is not known (add it with an overlay)", MERCHANT
        )
    bought = MARKET_SIZE - len(state.market)
    # "un prezzo speciale (la metà, arrotondando per eccesso) al massimo per due oggetti"; gold cards are
    # hundreds, so half is rounded up to the next hundred.
    return -(-cost // 200) * 100 if bought < DISCOUNTED else cost


def check(rules: FirstEditionRules, state: GameState, action: A.UseService) -> None:
    offered = services_of(state)
    if state.phase != "special_room" or not offered:
        raise WrongPhaseError(
            "services are bought from the Merchant or the Healer", f"{MANUAL}: Carte Stanze Speciali"
        )
    rule = MERCHANT if state.room_kind == "merchant" else HEALER
    if action.service not in offered:
        raise IllegalActionError(f"{state.room_name} offers {sorted(offered)}, not {action.service!r}", rule)
    target = state.find(action.target or "")
    if target is None or target.kind != "hero":
        raise UnknownCharacterError(f"{action.service} needs a target hero, got {action.target!r}", rule)
    if action.service == "buy":
        _check_buy(rules, state, action, target)
    elif action.service == "restoring_touch":
        if not target.alive:
            raise IllegalActionError(f"{target.name} is dead: only a Resurrection helps", HEALER)
        if target.health >= target.max_health:
            raise IllegalActionError(f"{target.name} is at the starting level already", HEALER)
    elif target.alive:
        raise IllegalActionError(f"{target.name} is alive: a Resurrection is for a dead hero", HEALER)
    try:
        special_rooms.payers(state, action, price(rules, state, action))
    except IllegalActionError as exc:
        # The pooled payment is this room's rule ("Come con il Mercante, i giocatori possono scambiarsi oro").
        raise type(exc)(exc.reason, rule) from None
    if action.payment == () and sum(h.gold for h in state.heroes) < price(rules, state, action):
        raise IllegalActionError("the heroes do not have that much gold together", rule)


def _check_buy(rules: FirstEditionRules, state: GameState, action: A.UseService, hero: Character) -> None:
    if action.item is None or action.item not in state.market:
        raise CardNotPlayableError(f"{action.item!r} is not among the six revealed Equipment cards", MERCHANT)
    if not hero.alive:
        raise IllegalActionError(f"{hero.name} is dead", MERCHANT)
    allowed = rules.content.hero_cards.get(action.item, ())
    if allowed and hero.card not in allowed:
        raise CardNotPlayableError(
            f"{action.item} can be used only by {', '.join(allowed)}", f"{MANUAL}: Equipaggiamento"
        )


def apply(rules: FirstEditionRules, tx: Tx, action: A.UseService) -> None:
    cost = price(rules, tx.state, action)
    for hero_id, amount in special_rooms.payers(tx.state, action, cost):
        tx.return_gold(tx.char(hero_id), amount)
    hero = tx.char(action.target or "")
    if action.service == "buy":
        market = list(tx.state.market)
        market.remove(action.item or "")
        tx.state = evolve(tx.state, market=tuple(market))
        special_rooms.give_item(rules, tx, hero, action.item or "")
    elif action.service == "restoring_touch":
        tx.heal(hero, 1)  # Tocco rigenerante: one health point, never above the starting level
    else:
        tx.update(evolve(hero, alive=True, health=RESURRECTION_HEALTH, returns_next_room=False))
        tx.emit(
            E.HeroReturned(f"The Healer brings {hero.name} back with 2 health", hero.id, RESURRECTION_HEALTH)
        )
