"""Castles heroes in a Catacombs 3E party, Dark Spells, the Castles playmat and the Castles shots' turns.

catacombs-and-castles-2e-manual.md: Catacombs 3E Integration. ``CastlesHeroes3E`` is composed into
``Catacombs3E`` beside the shared Catacombs game (``class Catacombs3E(CatacombsGame, CastlesHeroes3E)``: its
overrides wrap the flow's own steps, after the game's); each asks ``integration3e`` whether the game
includes the Castles cards and otherwise leaves 3E as it is. Catacombs 1E does not include it.
Team Catacomb heroes: shots never suppressed, no corrosion (in
``modifiers``), no pooled gold, lodging paid each for itself, the Inn's chosen Catacomb ally for 15 gold.
Dark spells: who may cast them, and their price. The Castles playmat: the heroes choose their Start Zone.
The Castles shots: the target melee's target, the lightning's three flicks, the net and web's trap; and the
flying attribute's Move to Rune (the other Hero Attributes act where damage is dealt: ``integration3e``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import allies, card_play, shot_resolution, special_rooms, table_draws
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.ruleset import CatacombsFlow
from service.games.catacombs.flow.shots import Sequence, Shot
from service.games.catacombs.flow.state import Character, GameState, Option, Pending, PlannedShot
from service.games.catacombs.flow.tx import Tx
from service.games.catacombs.third_edition.expansions import castles_integration as integration3e
from service.games.catacombs.third_edition.expansions import castles_shots as castles_shots3e
from service.games.catacombs.third_edition.expansions.castles_integration import (
    CATACOMB_HEROES,
    DARK_SPELLS,
    PLAYMATS,
    is_catacomb_hero,
)
from service.games.catacombs.third_edition.expansions.castles_shots import TRAPPED
from service.rules import events as E
from service.rules import rng
from service.rules.errors import (
    CardNotPlayableError,
    IllegalActionError,
    NotEnoughGoldError,
    UnexpectedShotError,
)
from service.rules.evolve import evolve

INN = special_rooms.INN
PENDING_RULES = {
    "choose_start_zone": PLAYMATS,
    "dark_spell_price": DARK_SPELLS,
    "choose_catacomb_ally": CATACOMB_HEROES,
}
CATACOMB_ALLY = "catacomb_ally"  # the Inn's service: 15 gold, then choose an unused Catacomb hero


class CastlesHeroes3E(CatacombsFlow):
    """The Catacombs 3E Integration rules, composed into ``Catacombs3E``; silent unless the content is an
    ``IntegratedContent``."""

    def rule_for_pending(self, state: GameState) -> str:
        kind = state.pending.kind if state.pending else ""
        return PENDING_RULES.get(kind) or super().rule_for_pending(state)

    # == Team Catacomb heroes: shots that cannot be suppressed ===================================
    def plan(self, state: GameState, c: Character, shot: Shot, position: int) -> PlannedShot:
        """Team Catacomb Heroes: "their shots cannot be suppressed" (nor their modifiers removed)."""
        if is_catacomb_hero(self.content, c):
            return PlannedShot(shot, c.id, position)
        return super().plan(state, c, shot, position)

    # == Castles shots =============================================================================
    def start_sequence(self, tx: Tx, c: Character, sequence: Sequence, source: str = "rules") -> None:
        super().start_sequence(tx, c, sequence, source)
        fly_at_the_end(tx, c)

    def can_act(self, state: GameState, c: Character) -> bool:
        # Net and Web (variant): "The trapped character may not take their turn".
        return super().can_act(state, c) and not c.has(TRAPPED)

    def _check_resolve_shot(self, state: GameState, action: A.ResolveShot) -> None:
        super()._check_resolve_shot(state, action)
        turn = state.turn
        planned = shot_resolution.planned_for(turn, action) if turn else None
        if planned is not None and planned.shot.kind == "target_melee" and action.target is None:
            raise UnexpectedShotError("a target melee shot needs its declared target", integration3e.SHOTS)

    def _do_resolve_shot(self, tx: Tx, action: A.ResolveShot) -> None:
        castles_shots3e.free_trapped(tx, action.knocked_off)
        turn = tx.state.turn
        assert turn is not None
        planned = shot_resolution.planned_for(turn, action)
        assert planned is not None
        if castles_shots3e.lightning_flick(tx, planned):
            tx.after_change()
            return
        super()._do_resolve_shot(tx, action)

    # == Dark Spell cards ==========================================================================
    def _check_play_card(self, state: GameState, action: A.PlayCard) -> None:
        super()._check_play_card(state, action)
        c = state.character(action.character)
        card = self.content.card(card_play.card_kind(c, action), action.card)
        why_not = integration3e.why_not_cast(self.content, c, card)
        if why_not is not None:
            raise CardNotPlayableError(why_not, DARK_SPELLS)

    def _do_play_card(self, tx: Tx, action: A.PlayCard) -> None:
        c = tx.char(action.character)
        card = self.content.card(card_play.card_kind(c, action), action.card)
        if not integration3e.is_dark(self.content, card):
            super()._do_play_card(tx, action)
            fly_at_the_end(tx, c)
            return
        options = dark_spell_prices(c)
        if len(options) == 1:
            pay_for_dark_spell(tx, c, card.id, options[0].id)
            super()._do_play_card(tx, action)
            fly_at_the_end(tx, c)
            return
        # Dark Spell Cards: "the hero must either: pay one gold or deduct one health (to a minimum of one)";
        # the choice is made as the card is played, before its shots (docs/rulings.md).
        tx.ask(
            "dark_spell_price",
            c.id,
            f"{c.name} casts the dark spell {card.name}: pay one gold or lose one health?",
            options,
            context=(
                card.id,
                card.kind,
                "" if action.alternative is None else str(action.alternative),
                "1" if action.rush_first else "",
            ),
        )

    def decide_dark_spell_price(self, tx: Tx, pending: Pending, option: str) -> None:
        card, kind, alternative, rush_first = pending.context
        c = tx.char(pending.character or "")
        pay_for_dark_spell(tx, c, card, option)
        play = A.PlayCard(c.id, card, int(alternative) if alternative else None, bool(rush_first), kind)
        super()._do_play_card(tx, play)
        fly_at_the_end(tx, c)

    # == the Castles playmat =======================================================================
    def perform(self, state: GameState, action: A.Action) -> tuple[GameState, list[E.Event]]:
        zones = integration3e.start_zones(self.content, getattr(action, "playmat", None))
        if isinstance(action, A.EnterRoom) and zones and state.room_index + 1 < len(state.room_deck):
            # Catacombs & Castles Playmat(s): "The heroic forces choose their Start Zone, the Overseer player
            # uses the other one": asked before the room is set up on it.
            tx = Tx(state, self)
            tx.ask(
                "choose_start_zone",
                None,
                f"The heroes choose their Start Zone on the {action.playmat} playmat",
                tuple(Option(z, z) for z in zones),
                context=(action.playmat or "",),
            )
            return tx.state, tx.events
        state, events = super().perform(state, action)
        if state.phase != "battle" and any(c.has(TRAPPED) for c in state.characters):
            # The Battle Phase: pieces such as obstacles and shields "are removed from the playmat": the nets.
            state = evolve(state, characters=tuple(c.without_status(TRAPPED) for c in state.characters))
        return state, events

    def decide_choose_start_zone(self, tx: Tx, pending: Pending, option: str) -> None:
        playmat = pending.context[0]
        other = [z for z in integration3e.start_zones(self.content, playmat) if z != option]
        overseer = other[0] if other else option
        tx.emit(
            integration3e.StartZoneChosen(
                f"The heroes start from {option}; the Overseer uses {overseer} ({PLAYMATS})",
                playmat,
                option,
                overseer,
            )
        )
        self._do_enter_room(tx, A.EnterRoom(playmat))

    def _do_enter_room(self, tx: Tx, action: A.EnterRoom) -> None:
        """The rule set's own way into the next room (``Catacombs3E`` gives it)."""
        raise NotImplementedError

    # == special rooms: no pooled gold, lodging, the Catacomb ally =================================
    def choices(self, state: GameState) -> list[A.Action]:
        found = super().choices(state)
        if (
            integration3e.facts_of(self.content) is not None
            and state.room_kind == "inn"
            and not state.pending
        ):
            found += [
                a
                for a in (A.UseService(CATACOMB_ALLY, target=h.id) for h in state.heroes)
                if self.is_legal(state, a)
            ]
        return found

    def _check_use_service(self, state: GameState, action: A.UseService) -> None:
        if integration3e.facts_of(self.content) is None:
            super()._check_use_service(state, action)
            return
        if action.service == CATACOMB_ALLY:
            check_catacomb_ally(self, state, action)
            return
        if action.service == "meal" and state.room_kind == "inn" and not regular_unused_heroes(self, state):
            raise IllegalActionError("no unused regular Hero Portrait card is left to draw", INN)
        if state.phase == "special_room" and action.service in special_rooms.services(self).get(
            state.room_kind or "", {}
        ):
            plan = catacomb_payers(self.content, state, action, special_rooms.price(self, state, action))
            action = replace(action, payment=plan) if plan else action
        super()._check_use_service(state, action)

    def _do_use_service(self, tx: Tx, action: A.UseService) -> None:
        if integration3e.facts_of(self.content) is None:
            super()._do_use_service(tx, action)
            return
        if action.service == CATACOMB_ALLY:
            pay(tx, catacomb_payers(self.content, tx.state, action, integration3e.CATACOMB_ALLY_COST))
            options = tuple(
                Option(h, self.content.hero(h).name) for h in unused_catacomb_heroes(self, tx.state)
            )
            tx.ask(
                "choose_catacomb_ally",
                action.target,
                "Which unused Catacomb hero joins as an ally?",
                options,
                context=(action.target or "",),
            )
            return
        plan = catacomb_payers(self.content, tx.state, action, special_rooms.price(self, tx.state, action))
        if action.service in ("sleep", "cellar", "meal"):
            pay(tx, plan)
            served = served_heroes(self, tx.state, action)
            if action.service == "sleep":
                for hero in served:  # RULINGS.md 6 for the party; each Catacomb hero its own lodging
                    tx.heal(hero, 1, may_exceed=True)
            elif action.service == "cellar":
                special_rooms.stock_from_cellar(self, tx, served)
            else:
                pool = regular_unused_heroes(self, tx.state)
                drawn = table_draws.take(tx, "allies", pool, _seeded_draw(tx, pool))
                recruit(self, tx, tx.char(action.target or ""), drawn)
            return
        super()._do_use_service(tx, replace(action, payment=plan))

    def decide_choose_catacomb_ally(self, tx: Tx, pending: Pending, option: str) -> None:
        recruit(self, tx, tx.char(pending.context[0]), option)


def fly_at_the_end(tx: Tx, c: Character) -> None:
    """Flying (catacombs-and-castles-2e-manual.md: Attributes; "the same in Catacombs 3E"): "an optional Move
    to Rune at the end of their shot sequence", their ability's too. It may be skipped like any shot; the rune
    it started from is the players' to remember."""
    turn = tx.state.turn
    if turn is None or turn.character != c.id or not integration3e.has(tx.rules.content, c, "flying"):
        return
    if any(p.shot.kind == "move_to_rune" for p in turn.queue):
        return
    tx.set_turn(evolve(turn, queue=(*turn.queue, PlannedShot(Shot("move_to_rune"), c.id, len(turn.queue)))))


# == gold ==========================================================================================
def catacomb_payers(
    content: object, state: GameState, action: A.UseService, cost: int
) -> tuple[tuple[str, int], ...]:
    """Team Catacomb Heroes: "Catacomb heroes cannot pool their gold with any other heroes (including other
    Catacomb heroes)". A Catacomb hero pays alone, for itself or its ally; the others pool as in 3E."""
    if cost == 0:
        return ()
    heroes = {h.id: h for h in state.heroes}
    if action.payment:
        catacomb = [hid for hid, _ in action.payment if _catacomb_payer(content, heroes.get(hid))]
        if catacomb and len(action.payment) > 1:
            raise NotEnoughGoldError(
                "a Catacomb hero's gold cannot be pooled with other heroes", CATACOMB_HEROES
            )
        return tuple(action.payment)
    served = state.find(action.target or "")
    owner = state.find(served.owner or "") if served is not None and served.kind == "ally" else served
    if owner is not None and _catacomb_payer(content, owner):
        if owner.gold < cost:
            raise NotEnoughGoldError(
                f"{owner.name} pays alone (a Catacomb hero) and holds {owner.gold} gold; it costs {cost}",
                CATACOMB_HEROES,
            )
        return ((owner.id, cost),)
    order = [h for h in state.heroes if owner is not None and h.id == owner.id]
    order += [h for h in state.heroes if not _catacomb_payer(content, h) and h not in order]
    plan, due = [], cost
    for hero in order:
        paid = min(due, hero.gold)
        if paid:
            plan.append((hero.id, paid))
            due -= paid
    if due:
        raise NotEnoughGoldError(
            f"the heroes who pool their gold hold {cost - due}; {action.service} costs {cost} "
            "(Catacomb heroes pay only for themselves)",
            CATACOMB_HEROES,
        )
    return tuple(plan)


def _catacomb_payer(content: object, hero: Character | None) -> bool:
    return hero is not None and is_catacomb_hero(content, hero)


def pay(tx: Tx, plan: tuple[tuple[str, int], ...]) -> None:
    for hero_id, amount in plan:
        tx.return_gold(tx.char(hero_id), amount)


def served_heroes(rules: CastlesHeroes3E, state: GameState, action: A.UseService) -> list[Character]:
    """Sleep and the cellar serve "each living hero": a Catacomb hero only when it paid for itself (its
    target), the party's payment the other heroes (docs/rulings.md)."""
    target = state.find(action.target or "")
    if target is not None and is_catacomb_hero(rules.content, target):
        return [target] if target.alive else []
    return [h for h in state.heroes if h.alive and not is_catacomb_hero(rules.content, h)]


# == allies ========================================================================================
def unused_catacomb_heroes(rules: CastlesHeroes3E, state: GameState) -> list[str]:
    facts = integration3e.facts_of(rules.content)
    teams = facts.teams if facts is not None else {}
    return [h for h in special_rooms.unused_heroes(rules, state) if teams.get(h) == "catacomb"]


def regular_unused_heroes(rules: CastlesHeroes3E, state: GameState) -> list[str]:
    """The Inn's meal draws among the unused regular heroes: Catacomb heroes are chosen for 15 gold."""
    catacomb = set(unused_catacomb_heroes(rules, state))
    return [h for h in special_rooms.unused_heroes(rules, state) if h not in catacomb]


def check_catacomb_ally(rules: CastlesHeroes3E, state: GameState, action: A.UseService) -> None:
    if state.phase != "special_room" or state.room_kind != "inn":
        raise IllegalActionError("a Catacomb hero is recruited at the Amaranth Inn", CATACOMB_HEROES)
    target = state.find(action.target or "")
    if target is None or target.kind != "hero" or not target.alive:
        raise IllegalActionError("an ally is assigned to a living hero", cite("Advanced Concepts: Allies"))
    if not unused_catacomb_heroes(rules, state):
        raise IllegalActionError("no unused Catacomb hero is left to recruit", CATACOMB_HEROES)
    plan = catacomb_payers(rules.content, state, action, integration3e.CATACOMB_ALLY_COST)
    if sum(amount for _, amount in plan) != integration3e.CATACOMB_ALLY_COST:
        raise NotEnoughGoldError(
            f"a Catacomb ally costs {integration3e.CATACOMB_ALLY_COST} gold", CATACOMB_HEROES
        )
    for hero_id, amount in plan:
        hero = state.find(hero_id)
        if hero is None or hero.gold < amount:
            raise NotEnoughGoldError(f"{hero_id} does not hold {amount} gold", CATACOMB_HEROES)


def _seeded_draw(tx: Tx, pool: list[str]) -> Callable[[], str]:
    def seeded() -> str:
        state, index = rng.below(tx.state.rng, len(pool))
        tx.state = evolve(tx.state, rng=state)
        return pool[index]

    return seeded


def recruit(rules: CastlesHeroes3E, tx: Tx, hero: Character, card_id: str) -> None:
    """The chosen Catacomb ally joins as special_rooms' Inn ally does."""
    allies.join_as_ally(rules, tx, hero, card_id)


# == dark spells ===================================================================================
def dark_spell_prices(c: Character) -> tuple[Option, ...]:
    options = [Option("gold", "pay one gold")] if c.gold > 0 else []
    options.append(Option("health", "lose one health (not below one)"))
    return tuple(options)


def pay_for_dark_spell(tx: Tx, c: Character, card: str, price: str) -> None:
    c = tx.char(c.id)
    if price == "gold":
        tx.return_gold(c, 1)
    elif c.health > 1:
        tx.update(evolve(c, health=c.health - 1))
    tx.emit(
        integration3e.DarkSpellPaid(
            f"{c.name} pays for the dark spell with one {price} ({DARK_SPELLS})", c.id, card, price
        )
    )
