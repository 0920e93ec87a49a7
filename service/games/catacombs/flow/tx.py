"""Applying one legal action: a short-lived builder that swaps in new immutable states and collects events.

Nothing here is visible outside ``RuleSet.apply``: callers only ever see the finished state. This is the
bottom of the Catacombs rules: ``card_play``, ``modifiers``, ``shot_resolution``, ``special_rooms`` and the
rule sets build on it, and it imports none of them. What it needs of a rule set it reads through
``FlowRules``, which ``CatacombsFlow`` satisfies.
"""

from __future__ import annotations

from typing import Protocol

from service.games.catacombs.flow import events as E
from service.games.catacombs.flow.cards import Content, UnknownCardError
from service.games.catacombs.flow.expansion import FlowExpansion
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.shots import ICON_SHOTS, Sequence, Shot
from service.games.catacombs.flow.state import (
    DEVOURED,
    HEROES,
    OVERSEER,
    RECKLESS,
    Character,
    GameState,
    Option,
    Pending,
    PlannedShot,
    Turn,
)
from service.rules import rng
from service.rules.evolve import evolve


class FlowRules(Protocol):
    """A Catacombs rule set as the transaction and the rule helpers see it (``CatacombsFlow`` is one)."""

    @property
    def content(self) -> Content: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def expansion(self) -> FlowExpansion: ...

    def hero_character_id(self, hero_name: str) -> str: ...

    def hero_sequences(self, state: GameState, hero: Character) -> tuple[Sequence, ...]: ...

    def start_sequence(self, tx: Tx, c: Character, sequence: Sequence, source: str = "rules") -> None: ...

    def plan(self, state: GameState, c: Character, shot: Shot, position: int) -> PlannedShot: ...

    def shot_damage(self, state: GameState, attacker: Character, target: Character, shot: Shot) -> int: ...

    def after_hits(self, tx: Tx, attacker: Character, shot: Shot, damaged: tuple[str, ...]) -> None: ...

    def summon(self, tx: Tx, summoner: Character, card: str) -> None: ...

    def keeps_destroyed_disc(self, state: GameState) -> bool: ...

    def with_permanent_items(self, hero: Character) -> Character: ...

    def has_post_combo(self, state: GameState, character: Character) -> bool: ...

    def lone_hero(self, state: GameState, hero: Character) -> bool: ...

    def can_act(self, state: GameState, c: Character) -> bool: ...

    def actors(self, state: GameState) -> tuple[Character, ...]: ...

    def turn_ended(self, tx: Tx, turn: Turn, character: Character) -> None: ...

    def end_of_round(self, tx: Tx) -> None: ...

    def overseer_has_won(self, state: GameState) -> bool: ...

    def heroes_have_won(self, state: GameState) -> bool: ...

    def room_is_clear(self, state: GameState) -> bool: ...

    def end_battle(self, tx: Tx) -> None: ...


class Tx:
    def __init__(self, state: GameState, rules: FlowRules) -> None:
        self.state = state
        self.rules = rules
        self.events: list[E.Event] = []

    # -- small edits ------------------------------------------------------------------------------
    def emit(self, event: E.Event) -> None:
        self.events.append(event)

    def update(self, c: Character) -> None:
        self.state = self.state.with_character(c)

    def char(self, character_id: str) -> Character:
        return self.state.character(character_id)

    def set_turn(self, turn: Turn | None) -> None:
        self.state = evolve(self.state, turn=turn)

    def ask(
        self,
        kind: str,
        character: str | None,
        prompt: str,
        options: tuple[Option, ...],
        shot: Shot | None = None,
        context: tuple[str, ...] = (),
    ) -> None:
        n = self.state.decisions_made + 1
        pending = Pending(f"d{n}", kind, character, prompt, options, shot, context)
        self.state = evolve(self.state, pending=pending, decisions_made=n)
        self.emit(E.DecisionRequired(prompt, pending.id, kind))

    def ask_alternative(self, c: Character, sequences: tuple[Sequence, ...]) -> None:
        options = tuple(Option(str(i), s.label) for i, s in enumerate(sequences))
        self.ask("choose_alternative", c.id, f"Which shot sequence does {c.name} perform?", options)

    # -- gold ------------------------------------------------------------------------------------
    def pay_from_treasury(self, hero: Character, amount: int) -> int:
        """The supply is a hard limit: an empty Treasury pays nothing (Game Phases: The Setup Phase)."""
        paid = min(amount, self.state.treasury)
        if paid <= 0:
            return 0
        self.state = evolve(self.state, treasury=self.state.treasury - paid)
        hero = self.char(hero.id)
        self.update(evolve(hero, gold=hero.gold + paid))
        self.emit(E.GoldChanged(f"{hero.name} collects {paid} gold", hero.id, paid, hero.gold + paid))
        return paid

    def return_gold(self, hero: Character, amount: int) -> None:
        amount = min(amount, hero.gold)
        if amount <= 0:
            return
        self.state = evolve(self.state, treasury=self.state.treasury + amount)
        self.update(evolve(hero, gold=hero.gold - amount))
        self.emit(
            E.GoldChanged(
                f"{hero.name} returns {amount} gold to the Treasury", hero.id, -amount, hero.gold - amount
            )
        )

    def damage(self, target: Character, amount: int, by: Character | None, what: str) -> None:
        target = self.char(target.id)
        if not target.alive or amount <= 0 or target.kind == "antient":
            # Antients "cannot be damaged or destroyed", not even by a point reflected back at them.
            return
        health = max(0, target.health - amount)
        self.update(evolve(target, health=health))
        source = f"{by.name}'s {what}" if by else what
        self.emit(
            E.Damaged(
                f"{source} hits {target.name} ({amount} damage)",
                target.id,
                by.id if by else "",
                amount,
                health,
            )
        )
        if health == 0:
            self.kill(self.char(target.id), by, what)
        elif target.kind == "monster" and target.max_health == 2 and health == 1:
            self.emit(E.MonsterFlipped(f"{target.name} is flipped to its damaged side", target.id, True))

    def heal(self, c: Character, amount: int, may_exceed: bool = False) -> None:
        c = self.char(c.id)
        if not c.alive:
            return  # Healing Damage restores a living character; only a resurrection brings back the dead
        cap = c.health + amount if may_exceed else max(c.max_health, c.health)
        health = min(c.health + amount, cap)
        if health <= c.health:
            return
        self.update(evolve(c, health=health))
        self.emit(
            E.Healed(
                f"{c.name} recovers {health - c.health} health ({health})", c.id, health - c.health, health
            )
        )
        if c.flipped and health == 2:
            self.emit(E.MonsterFlipped(f"{c.name} is flipped back to its normal side", c.id, False))

    def regenerate(self, attacker: Character) -> None:
        # Regeneration: "Only one point of health is restored even if multiple targets are damaged."
        self.heal(attacker, 1)

    def kill(self, c: Character, by: Character | None, cause: str) -> None:
        if c.kind == "ally":
            # Allies: "When dead, Allies are out of the game and cannot be resurrected."
            self.update(evolve(c, alive=False, health=0, status=(), in_room=False, poison=()))
            self.emit(E.HeroDied(f"{c.name} dies and leaves the game ({cause})", c.id, cause))
            # Allies "follow the same rules as heroes": their Poison cards go back into the deck (Hero Death).
            self.return_poison(c.poison)
        elif c.kind == "hero":
            self.hero_dies(c, cause)
        elif c.kind == "familiar":
            self.update(evolve(c, alive=False, health=0, in_room=False))
            self.emit(E.Destroyed(f"{c.name} is removed until the next room", c.id, by.id if by else None))
        else:
            self.destroy(c, by)

    def destroy(self, c: Character, by: Character | None) -> None:
        """A monster or Lord reaches zero health. Its disc goes to the hero who destroyed it (gold later)."""
        self.update(evolve(c, alive=False, health=0, status=(), destroyed_by=by.id if by else None))
        self.emit(
            E.Destroyed(
                f"{c.name} is destroyed" + (f" by {by.name}" if by else ""), c.id, by.id if by else None
            )
        )
        if c.kind == "lord" and by is not None:
            return
        earner = self.gold_earner(by)
        if earner is not None and c.kind == "monster" and self.rules.keeps_destroyed_disc(self.state):
            # The disc waits on the hero's board, out of the Monster Pool, until the Resolution Phase pays
            # for it and returns it (or until that hero dies).
            self.update(evolve(earner, trophies=(*earner.trophies, c.id)))
        self.release_devoured_by(c)

    def gold_earner(self, by: Character | None) -> Character | None:
        """Heroes earn gold; allies earn it for their hero; familiars earn nothing (Items: Familiars)."""
        if by is None:
            return None
        if by.kind == "hero":
            return self.char(by.id)
        if by.kind == "ally" and by.owner:
            return self.char(by.owner)
        return None

    def release_devoured_by(self, monster: Character) -> None:
        for c in self.state.characters:
            if c.has(DEVOURED) and c.devoured_by == monster.id:
                self.update(evolve(c.without_status(DEVOURED), devoured_by=None))
                self.emit(E.StatusChanged(f"{c.name} escapes from {monster.name}", c.id, DEVOURED, False))

    def hero_dies(self, hero: Character, cause: str) -> None:
        """catacombs-3e-reference.txt: Hero Death."""
        basic = not self.state.settings.advanced_hero_death
        poison = hero.poison
        gold = hero.gold
        discs = tuple(m for m in hero.trophies if not self.char(m).alive)
        # Basic rule: "All Item and Poison cards are shuffled back into their respective decks"; the
        # Advanced rule keeps the Items ("The dead hero retains their Item cards").
        lost_items = hero.items if basic else ()
        hero = evolve(
            hero,
            alive=False,
            health=0,
            status=tuple(s for s in hero.status if s == RECKLESS),
            poison=(),
            trophies=(),
            gold=0,
            returns_next_room=basic,
            items=() if basic else hero.items,
            face_down=tuple(f for f in hero.face_down if not (basic and f.startswith("item:"))),
        )
        self.update(hero)
        self.emit(E.HeroDied(f"{hero.name} dies ({cause})", hero.id, cause))
        if discs:  # "any monsters they have killed are returned to the Monster Pool"
            text = f"{hero.name}'s {len(discs)} monster disc(s) return to the Monster Pool"
            self.emit(E.DiscsReturned(text, hero.id, discs))
        if gold:
            self.state = evolve(self.state, treasury=self.state.treasury + gold)
            self.emit(E.GoldChanged(f"{hero.name}'s {gold} gold returns to the Treasury", hero.id, -gold, 0))
        self.return_poison(poison)
        if lost_items:
            state, deck = rng.shuffled(self.state.rng, (*self.state.item_deck, *lost_items))
            self.state = evolve(self.state, rng=state, item_deck=deck)
            for item in dict.fromkeys(lost_items):
                # A permanent Item's Nullifies / Reflects boxes went back to the deck with the card.
                self.remove_item_from_play(self.char(hero.id), item)
        for c in self.state.characters:
            if c.kind == "familiar" and c.owner == hero.id and c.in_room:
                # The familiar's piece leaves the playmat; without its Item card it does not come back.
                gone = c.card in lost_items
                self.update(
                    evolve(c, in_room=False, alive=c.alive and not gone, health=0 if gone else c.health)
                )
        self.pass_allies_of(hero)

    def return_poison(self, cards: tuple[int, ...]) -> None:
        """Poison cards of the dead are "shuffled back into their respective decks" (Hero Death)."""
        if cards:
            state, deck = rng.shuffled(self.state.rng, (*self.state.poison_deck, *cards))
            self.state = evolve(self.state, rng=state, poison_deck=deck)

    def remove_item_from_play(self, hero: Character, item: str) -> None:
        """An Item card left the game: "Any pieces associated with the removed card on the playmat are also
        removed" (a familiar does not come back without its card), and a permanent card's Nullifies /
        Reflects boxes no longer protect its former holder."""
        if item in hero.items:
            return  # another copy is still held
        try:
            card = self.rules.content.card("item", item)
            base = self.rules.content.hero(hero.card)
        except UnknownCardError:
            return
        hero = evolve(
            hero,
            face_down=tuple(f for f in hero.face_down if f != f"item:{item}"),
            nullifies=base.nullifies,
            reflects=base.reflects,
        )
        self.update(self.rules.with_permanent_items(hero))
        for c in self.state.characters:
            if c.kind == "familiar" and c.owner == hero.id and c.card == card.id and c.in_room:
                # Off the playmat like a destroyed familiar (no health left; a new room's Setup Phase
                # brings it back at full health while its hero holds the card).
                self.update(evolve(c, alive=False, health=0, in_room=False))
                self.emit(E.Destroyed(f"{c.name} leaves the playmat with its Item card", c.id, None))

    def pass_allies_of(self, dead: Character) -> None:
        """Allies: control passes to the hero with the lowest current health, then least gold, then fewest
        items; a tie that remains is the players' decision."""
        for ally in self.state.characters:
            if ally.kind != "ally" or ally.owner != dead.id or not ally.alive:
                continue
            living = [h for h in self.state.heroes if h.alive]
            if not living:
                continue
            key = min((h.health, h.gold, len(h.items)) for h in living)
            tied = [h for h in living if (h.health, h.gold, len(h.items)) == key]
            if len(tied) == 1:
                self.give_ally(ally, tied[0].id)
            else:
                self.ask(
                    "choose_ally_controller",
                    None,
                    f"Who controls {ally.name} now?",
                    tuple(Option(h.id, h.name) for h in tied),
                    context=(ally.id,),
                )

    def give_ally(self, ally: Character, hero_id: str) -> None:
        self.update(evolve(self.char(ally.id), owner=hero_id))
        self.emit(
            E.StatusChanged(f"{self.char(hero_id).name} now controls {ally.name}", ally.id, "ally", True)
        )

    # -- decisions -------------------------------------------------------------------------------
    def decide(self, option: str) -> None:
        pending = self.state.pending
        assert pending is not None
        self.state = evolve(self.state, pending=None)
        self.emit(E.DecisionMade(f"Decision {pending.id}: {option}", pending.id, option))
        if pending.kind == "choose_alternative":
            c = self.char(pending.character or "")
            sequences = self.rules.hero_sequences(self.state, c)
            self.set_turn(None)
            self.rules.start_sequence(self, c, sequences[int(option)])
            return
        if pending.kind == "transform" and option == "yes":
            c = self.char(pending.character or "")
            self.update(evolve(c, kind="fire_wall", name=f"Fire wall ({c.name})"))
            self.emit(E.StatusChanged(f"{c.name} transforms into a fire wall", c.id, "fire_wall", True))
        elif pending.kind == "choose_refresh":
            self.refresh(pending.context[0], option)
        elif pending.kind == "choose_ally_controller":
            self.give_ally(self.char(pending.context[0]), option)
        else:
            # The other decisions belong to the rules built on this core (modifiers, cards, rooms): the rule
            # set answers them with its ``decide_<kind>`` methods.
            handler = getattr(self.rules, f"decide_{pending.kind}", None)
            if handler is not None:
                handler(self, pending, option)
        self.after_change()

    # -- turn flow -------------------------------------------------------------------------------
    def skip_shot(self) -> None:
        turn = self.state.turn
        assert turn is not None
        planned = turn.queue[0]
        self.set_turn(evolve(turn, queue=turn.queue[1:], last_damaged=()))
        self.emit(
            E.ShotSkipped(
                f"{self.char(turn.character).name} skips the {planned.shot.label}",
                turn.character,
                planned.shot.label,
            )
        )
        self.finish_turn_if_done()

    def run_icons(self) -> None:
        """Refresh Ability / Refresh Item icons in a sequence act at once: one used card is flipped face up
        (catacombs-3e-reference.txt: Refreshing Ability or Item Cards; only once-per-room Items)."""
        turn = self.state.turn
        while (
            turn is not None
            and turn.queue
            and turn.queue[0].shot.kind in ICON_SHOTS
            and self.state.pending is None
        ):
            icon = turn.queue[0]
            self.set_turn(evolve(turn, queue=turn.queue[1:]))
            c = self.char(icon.actor or turn.character)
            kind = "ability" if icon.shot.kind == "refresh_ability" else "item"
            used = tuple(dict.fromkeys(f for f in c.face_down if f.startswith(kind + ":")))
            if used:
                self.ask(
                    "choose_refresh",
                    c.id,
                    f"Which card does {c.name} refresh?",
                    tuple(Option(f, f.partition(":")[2]) for f in used),
                    context=(c.id,),
                )
            turn = self.state.turn

    def refresh(self, character_id: str, face_down: str) -> None:
        c = self.char(character_id)
        cards = list(c.face_down)
        cards.remove(face_down)
        self.update(evolve(c, face_down=tuple(cards)))
        self.emit(
            E.StatusChanged(f"{c.name} refreshes {face_down.partition(':')[2]}", c.id, "refreshed", True)
        )

    def finish_turn_if_done(self) -> None:
        self.run_icons()
        turn = self.state.turn
        if turn is None or turn.queue or self.state.pending is not None or self.state.phase != "battle":
            return
        if turn.stage == "pre":
            # Combo Items: the hero's normal action follows the pre-Combo item immediately.
            self.set_turn(evolve(turn, stage="await_main"))
            return
        if turn.stage in ("await_main", "await_post"):
            return
        c = self.char(turn.character)
        if (
            turn.stage == "main"
            and not turn.combo_used
            and c.alive
            and self.rules.has_post_combo(self.state, c)
        ):
            self.set_turn(evolve(turn, stage="await_post"))
            return
        self.end_turn()

    def end_turn(self) -> None:
        turn = self.state.turn
        assert turn is not None
        c = self.char(turn.character)
        self.set_turn(None)
        self.state = evolve(self.state, acted=(*self.state.acted, c.id))
        self.emit(E.TurnEnded(f"{c.name}'s turn ends", c.id))
        self.rules.turn_ended(self, turn, c)
        self.advance()

    def advance(self) -> None:
        """Heroes (any order), then each monster; then a new round (Battle Phase: Turn Order)."""
        if self.state.phase != "battle" or self.state.outcome is not None:
            return
        if self.rules.actors(self.state):
            return
        if self.state.side == HEROES:
            antients = {c.id for c in self.state.characters if c.kind == "antient"}
            self.state = evolve(
                self.state, side=OVERSEER, acted=tuple(a for a in self.state.acted if a not in antients)
            )
            self.emit(E.SideToAct("The Overseer takes a turn for each monster", OVERSEER))
            if self.rules.actors(self.state):
                return
        self.state = evolve(self.state, side=HEROES, acted=(), round=self.state.round + 1)
        self.emit(E.RoundStarted(f"Round {self.state.round} begins", self.state.round))
        self.rules.end_of_round(self)
        if not self.rules.actors(self.state) and any(
            self.rules.can_act(evolve(self.state, side=OVERSEER), c) for c in self.state.characters
        ):
            self.advance()

    def after_change(self) -> None:
        """After anything that changes health: is the game or the room over? Is the turn done?"""
        if self.state.phase != "battle":
            return
        if self.rules.overseer_has_won(self.state):
            self.state = evolve(self.state, outcome=OVERSEER, phase="game_over", turn=None, pending=None)
            self.emit(E.GameOver("The Overseer wins: no hero can act", OVERSEER))
            return
        if self.rules.heroes_have_won(self.state):
            self.state = evolve(self.state, outcome=HEROES, phase="game_over", turn=None, pending=None)
            self.emit(E.GameOver("The heroes win: the Catacomb Lord is destroyed", HEROES))
            return
        if self.rules.room_is_clear(self.state):
            self.rules.end_battle(self)
            return
        turn = self.state.turn
        if turn is not None and not self.char(turn.character).alive and self.state.pending is None:
            self.end_turn()
            return
        self.finish_turn_if_done()


__all__ = ["FlowRules", "Tx"]
