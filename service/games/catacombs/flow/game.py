"""The Catacombs game both editions play over the turn flow: a new game, the rooms, the monsters placed,
the battle, the turn hooks the shared pieces need, and the Resolution Phase.

``CatacombsGame`` fills in ``CatacombsFlow``'s hooks the way both editions read them; each edition
subclasses it as a sibling (``third_edition.ruleset.Catacombs3E``, ``first_edition.ruleset.Catacombs1E``)
and keeps its own rules in its package: 3E's stun, teleport and Gelatinous Cube sequences, Monster
Vulnerabilities, summons and win conditions; 1E's incapacitation, rage, monster abilities and services.
The rules cited are catacombs-3e-reference.txt's unless a section names another file; where the first
edition reads a rule differently it overrides the hook (``first_edition/``).
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence as Seq
from typing import Any

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import card_play, pieces, position, special_rooms, table_draws
from service.games.catacombs.flow import events as E
from service.games.catacombs.flow.cards import HeroCard, UnknownCardError
from service.games.catacombs.flow.monsters import MonsterPlacement
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.ruleset import CatacombsFlow
from service.games.catacombs.flow.shots import Sequence
from service.games.catacombs.flow.state import (
    DEVOURED,
    FROZEN,
    HEROES,
    STUNNED,
    TELEPORTED,
    Character,
    GameState,
    Turn,
)
from service.games.catacombs.flow.tx import Tx
from service.rules import rng
from service.rules.errors import CardNotPlayableError, IllegalActionError, WrongPhaseError
from service.rules.evolve import evolve

SETUP = cite("Game Phases: The Setup Phase")


class CatacombsGame(MonsterPlacement, CatacombsFlow):
    """What Catacombs 3E and 1E share over the turn flow; an edition sets ``name`` and ``gold_in_box``."""

    gold_in_box: int  # the Treasury of a new game (the box's coins)

    # == a new game ===============================================================================
    def new_game(
        self,
        heroes: Seq[str],
        lord: str,
        rooms: Seq[str],
        seed: int,
        treasury: int | None = None,
        items: Mapping[str, Seq[str]] | None = None,
        spells: Mapping[str, Seq[str]] | None = None,
    ) -> GameState:
        """Four heroes (ids of Hero cards), the chosen Catacomb Lord and the Room deck from top to bottom.

        catacombs-3e-reference.txt: The Hero Players ("There are always four heroes chosen"); Hero Player
        Boards (all listed Ability cards; Item cards by choice; the Wizard chooses ten Spell cards).
        """
        if len(heroes) != 4 or len(set(heroes)) != 4:
            raise IllegalActionError(
                f"a game needs four different heroes, got {list(heroes)}",
                cite("The Overseer, Heroes, and Catacomb Lords: The Hero Players"),
            )
        lord_card = self.content.lord(lord)
        for room in rooms:
            self.content.room(room)
        characters = []
        for hero_id in heroes:
            card = self.content.hero(hero_id)
            characters.append(
                Character(
                    id=self.hero_character_id(card.name),
                    name=card.name,
                    side=HEROES,
                    kind="hero",
                    card=card.id,
                    health=card.starting_health,
                    max_health=card.starting_health,
                    shot_sequences=card.shot_sequences,
                    nullifies=card.nullifies,
                    reflects=card.reflects,
                    extra_gold_per_kill=card.extra_gold_per_kill,
                    items=tuple((items or {}).get(hero_id, ())),
                    spells=self.chosen_spells(card, (spells or {}).get(hero_id, ())),
                    abilities=card.abilities,
                    spell_caster=card.spell_caster,
                )
            )
            self.check_starting_items(characters[-1])
            characters[-1] = self.with_permanent_items(characters[-1])
            characters.extend(card_play.familiar_characters(self, characters[-1]))
        state = rng.seed_state(seed)
        state, poison = rng.shuffled(state, self.content.poison_deck())
        deck = list(self.content.item_deck())
        in_box = set(deck)
        for hero in characters:
            for item in hero.items:
                if item in deck:
                    deck.remove(item)  # starting items come out of the Item deck
                elif item in in_box and self.content.card("item", item).familiar:
                    # A familiar is one piece per copy of its card: two heroes cannot start with the one
                    # copy (its piece would stand beside both).
                    raise IllegalActionError(
                        f"the Item deck holds no more copies of {item} for {hero.name}",
                        cite("Game Phases: The Setup Phase"),
                    )
        state, item_deck = rng.shuffled(state, deck)
        return GameState(
            ruleset=self.name,
            phase="setup",
            characters=tuple(characters),
            room_deck=tuple(rooms),
            lord=lord_card.id,
            mercenary=lord_card.mercenary_monster,
            treasury=self.gold_in_box if treasury is None else treasury,
            poison_deck=poison,
            item_deck=item_deck,
            rng=state,
            settings=self.settings,
            monster_supply=tuple(sorted((m.id, m.pieces) for m in self.content.monsters() if not m.antient)),
            pays_alone=self.expansion.pays_alone(characters),
        )

    def new_game_from_setup(self, setup: Mapping[str, Any]) -> GameState:
        """A setup record with a ``position`` starts from it (docs/positions.md); otherwise a new game."""
        if "position" in setup:
            return position.load_position(self, setup["position"])
        return super().new_game_from_setup(setup)

    def check_starting_items(self, hero: Character) -> None:
        """Item Cards: Usage Restrictions hold for the Items a hero starts with too (Hero Player Boards)."""
        for item in hero.items:
            try:
                card = self.content.card("item", item)
            except UnknownCardError:
                continue
            why_not = card_play.usable_by(self, hero, card)
            if why_not is not None:
                raise CardNotPlayableError(why_not, cite("Item Cards: Usage Restrictions"))

    def chosen_spells(self, hero: HeroCard, spells: Seq[str]) -> tuple[str, ...]:
        if spells and not hero.spell_caster:
            raise IllegalActionError(
                f"{hero.name} is not a Spell Caster", cite("Playing Spell, Ability, or Item Cards")
            )
        if len(spells) > hero.spell_choices:
            raise IllegalActionError(
                f"{hero.name} chooses at most {hero.spell_choices} Spell cards",
                cite("The Overseer, Heroes, and Catacomb Lords: Hero Player Boards"),
            )
        for spell in spells:
            # catacombs-and-castles-2e-manual.md: Dark Spell Cards: a hero type's spells (Castles cards only).
            why_not = self.expansion.why_not_choose(hero, self.content.card("spell", spell))
            if why_not is not None:
                raise CardNotPlayableError(why_not, self.expansion.spell_choice_rule())
        return tuple(spells)

    # == rooms ====================================================================================
    def _check_enter_room(self, state: GameState, action: A.EnterRoom) -> None:
        if state.room_index >= 0 and state.phase not in ("resolution", "special_room"):
            raise WrongPhaseError(
                f"finish the {state.phase} phase first", cite("Game Phases: Exploring The Catacomb")
            )
        if state.room_index + 1 >= len(state.room_deck):
            if state.room_index < 0:
                raise WrongPhaseError("no Room cards are left", cite("Game Phases: Exploring The Catacomb"))
            return  # the last room is behind the heroes: moving on ends the game (_do_enter_room)
        room = self.content.room(state.room_deck[state.room_index + 1])
        lair_playmat = self.content.lord(state.lord).lair_playmat if room.kind == "lair" else None
        if action.playmat is not None and lair_playmat is not None and action.playmat != lair_playmat:
            raise IllegalActionError(
                f"the Lord's Setup card calls for the {lair_playmat} playmat", cite("Catacomb Lord's Lair")
            )
        if action.playmat is not None and action.playmat == state.playmat and room.kind != "lair":
            raise IllegalActionError(
                f"the {action.playmat} side was used for the last room", cite("Game Phases: The Setup Phase")
            )

    def _do_enter_room(self, tx: Tx, action: A.EnterRoom) -> None:
        index = tx.state.room_index + 1
        if index >= len(tx.state.room_deck):
            # A shortened Room deck (a demo table) with no Lair at its end: the heroes leave the catacomb
            # with every room behind them, and the game is over (docs/rulings.md, "The last Room card").
            special_rooms.close_market(tx)
            tx.state = evolve(tx.state, outcome=HEROES, phase="game_over", turn=None, pending=None)
            tx.emit(E.GameOver("The heroes have come through the last room: they win", HEROES))
            return
        # The Room card the table flipped (physical decks), or the next of the dealt deck.
        ahead = tx.state.room_deck[index:]
        flipped = table_draws.take(tx, "rooms", self.rooms_that_can_come_next(tx.state), ahead[0])
        rest = list(ahead)
        rest.remove(flipped)
        tx.state = evolve(tx.state, room_deck=(*tx.state.room_deck[:index], flipped, *rest))
        room = self.content.room(tx.state.room_deck[index])
        special_rooms.close_market(tx)
        tx.state = evolve(tx.state, free_cure_used=False, altar_offerings=0)
        if action.playmat is not None:
            tx.state = evolve(tx.state, playmat=action.playmat)
        tx.state = evolve(
            tx.state,
            room_index=index,
            room_id=room.id,
            room_name=room.name,
            room_kind=room.kind,
            suppresses=room.suppresses,
            round=0,
            acted=(),
            turn=None,
            side=HEROES,
        )
        # The previous room's monsters go back to the Monster Pool; piece numbering starts again.
        tx.state = evolve(
            tx.state,
            characters=tuple(
                c for c in tx.state.characters if c.kind not in ("monster", "fire_wall", "antient")
            ),
        )
        tx.emit(E.RoomEntered(f"The heroes enter {room.name}", room.id, room.kind))
        if room.kind in ("battle", "lair"):
            tx.state = evolve(tx.state, phase="setup")
            card_play.refresh_cards(tx)
            self.return_dead_heroes(tx)
            if room.kind == "lair":
                self.place_lord(tx)
            metre: list[int] = []
            for level in sorted(room.quadrants):
                for entry in room.quadrants[level]:
                    if entry.kind == "specific" and entry.monster:
                        self.place_monsters(tx, self.content.monster(entry.monster), entry.count)
                    elif entry.kind == "mercenary":
                        self.place_monsters(tx, self.content.monster(tx.state.mercenary), entry.count)
                    elif entry.kind == "monster_metre":
                        metre.extend([level] * entry.count)
            tx.state = evolve(tx.state, monster_metre_queue=tuple(metre))
            self.ask_monster_metre(tx)
        else:
            tx.state = evolve(tx.state, phase="special_room")
            if room.kind == "merchant":
                special_rooms.open_market(tx)

    def rooms_that_can_come_next(self, state: GameState) -> list[str]:
        """The Room cards still face down; the Lair comes last (Addendum: Alternate Room Card Layouts)."""
        ahead = list(state.room_deck[state.room_index + 1 :])
        others = [r for r in ahead if self.content.room(r).kind != "lair"]
        return others or ahead

    def _check_draw_cards(self, state: GameState, action: A.DrawCards) -> None:
        table_draws.check_draw(self, state, action)

    def _do_draw_cards(self, tx: Tx, action: A.DrawCards) -> None:
        queue = (*table_draws.queued(tx.state, action.deck), *action.cards)
        tx.state = table_draws.with_queue(tx.state, action.deck, queue)

    def check(self, state: GameState, action: A.Action) -> None:
        if isinstance(action, A.DrawCards):  # the table's draw is told whenever it happens
            if state.outcome is not None:
                raise WrongPhaseError("the game is over", cite("Game Phases: Winning the Game"))
            self._check_draw_cards(state, action)
            return
        super().check(state, action)
        if (self.settings.physical_decks or state.table_draws) and not isinstance(action, A.DrawCards):
            # A physical table's draw must be named before the action that draws: try it (nothing is kept).
            self.perform(state, action)

    def _check_start_battle(self, state: GameState, action: A.StartBattle) -> None:
        if state.phase != "setup" or state.room_index < 0:
            raise WrongPhaseError("the Battle Phase follows a battle room's Setup Phase", SETUP)

    def _do_start_battle(self, tx: Tx, action: A.StartBattle) -> None:
        tx.state = evolve(tx.state, phase="battle", round=1, side=HEROES, acted=())
        tx.emit(E.BattleStarted(f"The battle in {tx.state.room_name} begins"))
        tx.emit(E.RoundStarted("Round 1 begins", 1))
        tx.after_change()

    def declarable(self, state: GameState, c: Character) -> list[tuple[int | None, Sequence]]:
        """What ``c`` may declare this turn, each with the ``alternative`` that names it: none where the rules
        give a single sequence (stunned, back from the Teleported! card), the printed index for the Gelatinous
        Cube's round."""
        sequences = self.hero_sequences(state, c)
        if c.has(TELEPORTED) or (c.has(STUNNED) and sequences != c.shot_sequences):
            return [(None, sequences[0])]
        if c.ordered_by_round and c.shot_sequences:
            return [((state.round - 1) % len(c.shot_sequences), sequences[0])]
        return list(enumerate(sequences))

    def choices(self, state: GameState) -> list[A.Action]:
        found = [a for a in super().choices(state) if not isinstance(a, A.DeclareAction)]
        if state.phase == "battle" and state.pending is None:
            movers = [state.character(state.turn.character)] if state.turn else list(self.actors(state))
            declares: list[A.Action] = [
                A.DeclareAction(c.id, i) for c in movers for i, _ in self.declarable(state, c)
            ]
            found = [a for a in declares if self.is_legal(state, a)] + found
        return found

    def _check_declare(self, state: GameState, action: A.DeclareAction) -> None:
        pieces.check_alternative(self, state, action)
        super()._check_declare(state, pieces.forced_alternative(state, action))

    def _do_declare(self, tx: Tx, action: A.DeclareAction) -> None:
        super()._do_declare(tx, pieces.forced_alternative(tx.state, action))

    def _check_resolve_shot(self, state: GameState, action: A.ResolveShot) -> None:
        super()._check_resolve_shot(state, action)
        pieces.check_shot_record(self, state, action)

    def _do_resolve_shot(self, tx: Tx, action: A.ResolveShot) -> None:
        pieces.note_shield_shot(tx, action)
        super()._do_resolve_shot(tx, action)

    def turn_ended(self, tx: Tx, turn: Turn, character: Character) -> None:
        pieces.place_shields(tx, turn)

    def heroes_have_won(self, state: GameState) -> bool:
        lords = [c for c in state.room_monsters if c.kind == "lord"]
        return bool(lords) and all(not lord.alive for lord in lords) and any(h.alive for h in state.heroes)

    def end_battle(self, tx: Tx) -> None:
        """The Battle Phase ends; the Resolution Phase pays gold for destroyed (and frozen) monsters."""
        room = tx.state.room_name or ""
        tx.emit(E.RoomCleared(f"{room} is cleared", tx.state.room_id or ""))
        for c in tx.state.characters:
            if c.kind == "monster" and c.in_room and c.alive and c.has(FROZEN) and c.frozen_by:
                # Ice Shot: "The hero who froze a monster collects gold ... as if it had been destroyed."
                earner = tx.gold_earner(tx.state.find(c.frozen_by))
                if earner is not None:
                    tx.update(evolve(earner, trophies=(*earner.trophies, c.id)))
        # The Battle Phase: "All other pieces such as obstacles, shields, and fire walls are removed from the
        # playmat" (a fire wall's piece goes back to the Monster Pool with the others).
        for c in tx.state.characters:
            if c.kind == "fire_wall" and c.in_room:
                tx.update(evolve(c, in_room=False))
        if tx.state.shields:
            tx.emit(E.ShieldMoved("The shield pieces are removed from the playmat", "", False))
        tx.state = evolve(tx.state, shields=(), shield_raised=())
        for c in tx.state.characters:
            cleared = c.without_status(STUNNED, DEVOURED, TELEPORTED)
            if c.side == HEROES:
                # The Battle Phase: "All other pieces ... are removed from the playmat": the ice pieces too,
                # so frozen heroes are free for the next room (frozen monsters go back to the Monster Pool).
                cleared = evolve(cleared.without_status(FROZEN), frozen_by=None)
            if cleared != c:
                tx.update(evolve(cleared, devoured_by=None))
        tx.state = evolve(tx.state, phase="resolution", turn=None, acted=())
        for hero in tx.state.heroes:
            if not hero.alive or not hero.trophies:
                continue
            reward = sum(self.reward(hero, tx.char(m)) for m in hero.trophies)
            tx.pay_from_treasury(hero, reward)
            tx.update(evolve(tx.char(hero.id), trophies=()))
            discs = tuple(m for m in hero.trophies if not tx.char(m).alive)
            if discs:
                tx.emit(
                    E.DiscsReturned(
                        f"{hero.name} returns {len(discs)} monster disc(s) to the Monster Pool",
                        hero.id,
                        discs,
                    )
                )
        for c in tx.state.characters:
            if c.trophies:
                tx.update(evolve(c, trophies=()))
        # The Resolution Phase: "The monster pieces are then returned to the Monster Pool."
        for c in tx.state.characters:
            if c.kind == "monster" and c.in_room:
                tx.update(evolve(c, in_room=False))

    def reward(self, hero: Character, monster: Character) -> int:
        """The Monster card's gold, plus a hero's extra coin (Elani) "for each monster she slays": a kill by
        her ally pays her the card's gold only (Allies: "all gold transfers to the hero")."""
        slayer = monster.destroyed_by or monster.frozen_by
        return monster.reward_gold + (hero.extra_gold_per_kill if slayer == hero.id else 0)
