"""The monsters a battle room brings: Specific and Mercenary icons, the Monster Metre, the Lord, Antients,
shared pieces and the Monster Pool's limits (catacombs-3e-reference.txt: Game Phases: The Setup Phase;
Monster Cards; Catacomb Lord's Lair), and the heroes who return for a new room. Composed into the game both
editions share (``flow.game.CatacombsGame``); an edition overrides a step (``place_lord``, ``summon``)."""

from __future__ import annotations

from service.games.catacombs.flow import events as E
from service.games.catacombs.flow import table_draws
from service.games.catacombs.flow.cards import MonsterCard
from service.games.catacombs.flow.ruleset import CatacombsFlow
from service.games.catacombs.flow.state import (
    OVERSEER,
    Character,
    GameState,
    Option,
    Pending,
)
from service.games.catacombs.flow.tx import Tx
from service.rules import rng
from service.rules.evolve import evolve

PIECE_KINDS = ("monster", "fire_wall")  # characters standing on a piece from the Monster Pool


class MonsterPlacement(CatacombsFlow):
    """Who stands in a battle room when its Setup Phase begins."""

    def return_dead_heroes(self, tx: Tx) -> None:
        """Hero Death (basic): back in the Setup Phase of the next room with half health (RULINGS.md 3)."""
        for c in tx.state.characters:
            if c.kind == "hero" and not c.alive and c.returns_next_room:
                health = (
                    max(1, c.max_health // 2)
                    if self.settings.return_with_half_starting_health
                    else c.max_health
                )
                tx.update(evolve(c, alive=True, health=health, returns_next_room=False))
                tx.emit(E.HeroReturned(f"{c.name} returns to life with {health} health", c.id, health))
            elif c.kind == "familiar" and not c.in_room:
                # Familiars return "in the Setup Phase of the next room", while their hero holds the Item
                # card (a dead hero's Items went back to the deck under the basic Hero Death rule).
                owner = tx.state.find(c.owner or "")
                if owner is not None and owner.alive and c.card in owner.items:
                    tx.update(evolve(c, in_room=True, alive=True, health=c.max_health))

    def place_monsters(self, tx: Tx, card: MonsterCard, count: int) -> None:
        """Specific / Mercenary icons: that many pieces, no more than the Monster Pool holds (hard limit)."""
        # A fire wall is its Fire Spirit's piece flipped over: it keeps its number (Fire Walls).
        existing = [c for c in tx.state.characters if c.card == card.id and c.kind in PIECE_KINDS]
        holder = self.piece_in_use_by(tx.state, card)
        if holder is not None and count > 0:
            tx.emit(
                E.MonsterCardDiscarded(
                    f"{card.name} cannot be placed: its piece is in use as {holder.name}", card.id, holder.id
                )
            )
        count = min(count, self.pieces_available(tx.state, card))
        for n in range(count):
            number = len(existing) + n + 1
            monster = Character(
                id=f"monster-{card.id}-{number}",
                name=f"{card.name} {number}",
                side=OVERSEER,
                kind="monster",
                card=card.id,
                health=card.health or 1,
                max_health=card.health or 1,
                shot_sequences=card.shot_sequences,
                nullifies=card.nullifies,
                reflects=card.reflects,
                reward_gold=card.reward_gold,
                family=card.family,
                level=card.level,
                shadow=card.shadow,
                small=card.small,
                ordered_by_round=card.ordered_by_round,
            )
            tx.state = evolve(tx.state, characters=(*tx.state.characters, monster))
            tx.emit(
                E.MonsterPlaced(f"{monster.name} is placed in the Monster Start Zone", monster.id, card.id)
            )

    def piece_in_use_by(self, state: GameState, card: MonsterCard) -> Character | None:
        """The monster on the playmat whose piece ``card`` would need: Room Cards: Monster Metre Icons (the
        Swordmaster Ghoul and the Crypt Spider "both share the same piece"). smartmat ruling (docs/rulings.md,
        "Shared pieces"): while any piece of one is on the playmat (alive, in this room), the other cannot be
        placed, whatever the piece counts; the sharing holds when either card names the other."""
        held = {m for discs in state.held_discs().values() for m in discs}
        for c in state.characters:
            if c.kind != "monster" or c.card == card.id:
                continue
            if not (c.in_room and c.alive) and c.id not in held:
                continue
            if (
                c.card in card.shares_pieces_with
                or card.id in self.content.monster(c.card).shares_pieces_with
            ):
                return c
        return None

    def pieces_available(self, state: GameState, card: MonsterCard) -> int:
        """Pieces of ``card`` left in the Monster Pool (Supply limits are hard limits; shared pieces)."""
        if self.piece_in_use_by(state, card) is not None:
            return 0
        # A fire wall still holds its Fire Spirit's piece "for the remainder of the room" (Fire Walls); a
        # destroyed monster's disc stays on its slayer's board until the Resolution Phase (or that hero's
        # death) returns it.
        return max(0, card.pieces - state.pieces_out_of_pool(card.id))

    def place_antient(self, tx: Tx, card: MonsterCard) -> None:
        """Antients: invulnerable, persisting for the rest of the room, loyal to no side."""
        antient = Character(
            id=f"antient-{card.id}",
            name=card.name,
            side="neutral",
            kind="antient",
            card=card.id,
            health=card.health or 1,
            max_health=card.health or 1,
            shot_sequences=card.shot_sequences,
        )
        if tx.state.find(antient.id) is None:
            tx.state = evolve(tx.state, characters=(*tx.state.characters, antient))
            tx.emit(E.MonsterPlaced(f"{card.name} is summoned", antient.id, card.id))

    def place_lord(self, tx: Tx) -> None:
        """Catacomb Lord's Lair: the Setup card gives health and minions."""
        card = self.content.lord(tx.state.lord)
        lord_id = self.lord_character_id(card.name)
        lord = tx.state.find(lord_id)
        if lord is None:
            lord = Character(
                id=lord_id,
                name=card.name,
                side=OVERSEER,
                kind="lord",
                card=card.id,
                health=card.starting_health,
                max_health=card.starting_health,
                shot_sequences=card.shot_sequences,
            )
            tx.state = evolve(tx.state, characters=(*tx.state.characters, lord))
        tx.emit(E.MonsterPlaced(f"{card.name} awaits in the Lair", lord_id, card.id))
        for monster_id, count in card.minions:
            self.place_monsters(tx, self.content.monster(monster_id), count)

    def metre_deck(self, state: GameState, level: int) -> list[MonsterCard]:
        """The Monster cards with this level of Monster Metre on the back, less those already in the room."""
        taken = {c.card for c in state.room_monsters}
        return [
            m for m in self.content.monsters() if m.level == level and m.id not in taken and not m.antient
        ]

    def ask_monster_metre(self, tx: Tx) -> None:
        queue = tx.state.monster_metre_queue
        if not queue:
            return
        level = queue[0]
        # A chosen pick is offered only where a piece is free: smartmat ruling "Shared pieces" (the Overseer
        # cannot choose the Swordmaster Ghoul while the Crypt Spider holds their piece).
        choices = [
            (m, n) for m in self.metre_deck(tx.state, level) if (n := self.pieces_available(tx.state, m))
        ]
        if not choices:
            tx.emit(
                E.MonsterCardDiscarded(
                    f"Monster Metre level {level}: no level {level} monster has a piece left", "", ""
                )
            )
            tx.state = evolve(tx.state, monster_metre_queue=queue[1:])
            self.ask_monster_metre(tx)
            return
        # "The usual answer ... is all of them": the plain id places every piece; "<id>:<n>" places fewer.
        options = tuple(Option(m.id, f"{m.name} (all {n})") for m, n in choices)
        options += tuple(Option(f"{m.id}:{k}", f"{m.name} x{k}") for m, n in choices for k in range(1, n))
        options += (Option("random", "draw at random"),)
        tx.ask(
            "choose_monster",
            None,
            f"Monster Metre: choose a level {level} monster",
            options,
            context=(str(level),),
        )

    def decide_choose_monster(self, tx: Tx, pending: Pending, option: str) -> None:
        """Room Cards: Monster Metre Icons (chosen, or drawn at random from the level's Monster cards)."""
        level = int(pending.context[0])
        if option == "random":
            option = self.draw_metre_card(tx, level)
        monster, _, count = option.partition(":")
        card = self.content.monster(monster)
        self.place_monsters(tx, card, int(count) if count else card.pieces)
        tx.emit(E.MonsterPlaced(f"Monster Metre level {level}: {card.name}", card.id, card.id))
        tx.state = evolve(tx.state, monster_metre_queue=tx.state.monster_metre_queue[1:])
        self.ask_monster_metre(tx)

    def draw_metre_card(self, tx: Tx, level: int) -> str:
        """Room Cards: Monster Metre Icons, at random: "shuffle all the Monster cards with a level two Monster
        Metre on the back and reveal the top card". A card whose piece is in use (the Swordmaster Ghoul after
        the Crypt Spider was placed): "discard the Monster card and draw another one"."""
        deck = self.metre_deck(tx.state, level)
        while True:

            def seeded() -> str:
                state, index = rng.below(tx.state.rng, len(deck))
                tx.state = evolve(tx.state, rng=state)
                return deck[index].id

            drawn = table_draws.take(tx, "monster_metre", [m.id for m in deck], seeded, f" (level {level})")
            card = next(m for m in deck if m.id == drawn)
            deck.remove(card)
            holder = self.piece_in_use_by(tx.state, card)
            if holder is None and self.pieces_available(tx.state, card) > 0:
                return card.id
            reason = f"its piece is in use as {holder.name}" if holder else "no piece is left"
            tx.emit(
                E.MonsterCardDiscarded(
                    f"{card.name} is drawn, but {reason}: the card is discarded and another drawn",
                    card.id,
                    holder.id if holder else "",
                )
            )
