"""Catacombs Third Edition: the primary rule set.

``Catacombs3E`` is the Catacombs game both editions share (``flow.game.CatacombsGame``: rooms, monsters,
battle, resolution over ``CatacombsFlow``) with the third edition's own rules: stun, teleport and the
Gelatinous Cube's sequences, Monster Vulnerabilities, summon shots, the Lord's Lair and how each side wins.
The expansions a 3E game may include are composed in beside it, silent unless the content brings them:
the Castles heroes, Dark Spells and Castles playmat (``expansions.castles_heroes.CastlesHeroes3E``, after
the game in the method order, so each of its overrides wraps the flow's own step) and the Altar of Soloth
(``expansions.soloth_altar``, a special room's service). Catacombs 1E is a sibling over the same game
(``first_edition/``); Catacombs & Castles has no rooms or per-hero health and subclasses the game-neutral
``RuleSet`` directly (``service/games/castles/``).
"""

from __future__ import annotations

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import events as E
from service.games.catacombs.flow import modifiers, pieces
from service.games.catacombs.flow.expansion import FlowExpansion
from service.games.catacombs.flow.game import CatacombsGame
from service.games.catacombs.flow.shots import Sequence, Shot
from service.games.catacombs.flow.state import (
    DEVOURED,
    FROZEN,
    HEROES,
    STUNNED,
    TELEPORTED,
    Character,
    GameState,
    Pending,
)
from service.games.catacombs.flow.tx import Tx
from service.games.catacombs.third_edition.expansions import castles_integration as integration3e
from service.games.catacombs.third_edition.expansions import soloth_altar as altar
from service.games.catacombs.third_edition.expansions.castles_heroes import CastlesHeroes3E
from service.games.catacombs.third_edition.expansions.castles_in_flow import CastlesInTheFlow
from service.rules.evolve import evolve

TREASURY = 42 + 10 * 5  # Components: 42 gold coins and 10 platinum coins worth 5 gold each


class Catacombs3E(CatacombsGame, CastlesHeroes3E):
    name = "catacombs-3e"
    expansion_rooms = {"altar": altar.ROOM}  # the Cavern of Soloth's Altar, with the soloth expansion
    gold_in_box = TREASURY  # the Treasury of a new game (the box's coins)

    @property
    def expansion(self) -> FlowExpansion:
        """The Castles heroes and shots (the castles expansion) in the shared flow."""
        return CastlesInTheFlow(self.content)

    def summon(self, tx: Tx, summoner: Character, card_id: str) -> None:
        """Summon Shot: placed beside the summoner, the newcomer performs a melee shot and then its full
        sequence (its first alternative); then the summoner's sequence continues. Monsters must be available
        in the Monster Pool."""
        card = self.content.monster(card_id)
        before = {c.id for c in tx.state.characters}
        if card.antient:
            self.place_antient(tx, card)
        else:
            self.place_monsters(tx, card, 1)
        new = [c for c in tx.state.characters if c.id not in before]
        if not new:
            tx.emit(
                E.HitIgnored(
                    f"No {card.name} is left in the Monster Pool to summon",
                    summoner.id,
                    summoner.id,
                    "the Monster Pool is empty",
                )
            )
            return
        summoned = new[0]
        shots = (Shot("melee"), *(summoned.shot_sequences[0].shots if summoned.shot_sequences else ()))
        planned = tuple(evolve(self.plan(tx.state, summoned, shot, -1), actor=summoned.id) for shot in shots)
        turn = tx.state.turn
        if turn is not None:
            tx.set_turn(evolve(turn, queue=(*planned, *turn.queue)))
        # The summoned monster has used its turn for this round.
        tx.state = evolve(tx.state, acted=(*tx.state.acted, summoned.id))

    # == turn hooks ===============================================================================
    def hero_sequences(self, state: GameState, hero: Character) -> tuple[Sequence, ...]:
        if hero.has(TELEPORTED):
            # Teleport Shots: back at the edge of the playmat with a single melee shot.
            return (Sequence((Shot("melee"),)),)
        if hero.has(STUNNED) and not self.lone_hero(state, hero):
            # Stun Shot Modifier: a stunned hero may only perform a single rush shot.
            return (Sequence((Shot("rush"),)),)
        if hero.ordered_by_round and hero.shot_sequences:
            # The Gelatinous Cube Monster: a different sequence each round, restarting after the last.
            return (hero.shot_sequences[(state.round - 1) % len(hero.shot_sequences)],)
        return hero.shot_sequences

    def perform(self, state: GameState, action: A.Action) -> tuple[GameState, list[E.Event]]:
        state, events = super().perform(state, action)
        # Whatever killed it (a shot, poison, a referee's correction), a dead owner's shield leaves the mat.
        return pieces.without_shields_of_the_dead(state, events)

    def shot_damage(self, state: GameState, attacker: Character, target: Character, shot: Shot) -> int:
        damage = shot.base_damage
        if self.vulnerable(attacker, target, shot) and (
            (target.family == "dungeon" and shot.kind == "missile")
            or (target.family == "undead" and shot.kind == "fireball")
        ):
            damage += 1  # Monster Vulnerabilities: treated as having the critical modifier
        # catacombs-and-castles-2e-manual.md: Hero Attributes (heat resistant, toughness), Castles cards only.
        return integration3e.attribute_damage(
            self.content, target, shot.kind, shot.modifier is not None, damage
        )

    def vulnerable(self, attacker: Character, target: Character, shot: Shot) -> bool:
        """Monster Vulnerabilities (optional rule): unmodified shots from the Heroic Forces only."""
        return (
            self.settings.monster_vulnerabilities
            and attacker.side == HEROES
            and target.kind == "monster"
            and shot.modifier is None
        )

    def after_hits(self, tx: Tx, attacker: Character, shot: Shot, damaged: tuple[str, ...]) -> None:
        """Monster Vulnerabilities: mythological monsters regenerate the hero's melee; extra small vermin
        flee in fear from melee and missiles (unless they fear-shoot themselves)."""
        targets = [tx.char(t) for t in damaged]
        if any(
            self.vulnerable(attacker, t, shot) and t.family == "mythological" and shot.kind == "melee"
            for t in targets
        ):
            tx.regenerate(attacker)
        frightened = [
            t
            for t in targets
            if self.vulnerable(attacker, t, shot)
            and t.family == "vermin"
            and t.small
            and shot.kind in ("melee", "missile")
            and t.alive
            and not any(s.modifier == "fear" for seq in t.shot_sequences for s in seq.shots)
        ]
        if frightened:
            modifiers.offer_modifier(
                tx,
                attacker,
                Shot(shot.kind, "fear"),
                tuple(t.id for t in frightened),
                tuple(t.id for t in frightened),
            )

    def end_of_round(self, tx: Tx) -> None:
        """Hook: end-of-round effects (none in the base 3E game beyond what cards add)."""

    def keeps_destroyed_disc(self, state: GameState) -> bool:
        """Catacomb Lord's Lair, Important Note: "Monsters destroyed during the encounter with the Catacomb
        Lord are returned to the Monster Pool" (not onto the hero's board)."""
        return state.room_kind != "lair"

    # == ends of rooms and games ==================================================================
    def overseer_has_won(self, state: GameState) -> bool:
        """Winning the Game: all four heroes killed and/or unable to take an action (e.g. devoured). A frozen
        hero is unable too (Ice Shot: "While frozen, a character cannot take any actions")."""
        return all(not h.alive or h.has(DEVOURED) or h.has(FROZEN) for h in state.heroes)

    def room_is_clear(self, state: GameState) -> bool:
        """The Battle Phase: all monsters destroyed, frozen or a combination of the two."""
        if state.room_kind == "lair":
            return False
        monsters = [c for c in state.room_monsters if c.kind == "monster"]
        return all(not m.alive or m.has(FROZEN) for m in monsters) and not any(
            m.alive and m.has(TELEPORTED) for m in monsters
        )

    def decide_altar_card(self, tx: Tx, pending: Pending, option: str) -> None:
        altar.decide_card(self, tx, pending, option)
