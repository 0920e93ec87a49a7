"""The immutable game state (our FEN): characters, room, turn, decks, RNG and pending decision."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.shots import Sequence, Shot
from service.rules.codec import OMIT_WHEN_DEFAULT, decode_dataclass, encode
from service.rules.decisions import Option as Option
from service.rules.decisions import Pending as Decision
from service.rules.evolve import evolve

HEROES = "heroes"
OVERSEER = "overseer"
NEUTRAL = "neutral"

# Statuses a character can carry (shown as cards or pieces at the table).
STUNNED = "stunned"
FROZEN = "frozen"
DEVOURED = "devoured"
TELEPORTED = "teleported"
RECKLESS = "reckless"


@dataclass(frozen=True)
class Character:
    id: str
    name: str
    side: str  # "heroes" | "overseer" | "neutral"
    kind: str  # "hero" | "ally" | "familiar" | "monster" | "lord" | "antient" | "fire_wall"
    card: str
    health: int
    max_health: int
    shot_sequences: tuple[Sequence, ...]
    alive: bool = True
    in_room: bool = True  # monsters of the current room; heroes always
    status: tuple[str, ...] = ()
    poison: tuple[int, ...] = ()  # values of the Poisoned! cards held
    gold: int = 0
    items: tuple[str, ...] = ()
    spells: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    face_down: tuple[str, ...] = ()  # once-per-room cards used in this room (refreshed at Setup)
    spell_caster: bool = False
    nullifies: tuple[Shot, ...] = ()
    reflects: tuple[Shot, ...] = ()
    # A once-per-room / once-per-game defensive card raised against the next shot resolved.
    guard_nullifies: tuple[Shot, ...] = ()
    guard_reflects: tuple[Shot, ...] = ()
    reward_gold: int = 0
    extra_gold_per_kill: int = 0
    family: str = ""
    level: int = 0
    shadow: bool = False
    small: bool = False
    ordered_by_round: bool = False
    trophies: tuple[str, ...] = ()  # monsters this hero destroyed (or froze) in the current room
    frozen_by: str | None = None
    destroyed_by: str | None = None  # the character whose shot destroyed this monster
    devoured_by: str | None = None
    owner: str | None = None  # the hero an ally or familiar belongs to
    returns_next_room: bool = False  # basic hero death: back in the next room's Setup Phase
    rage: int | None = None  # Catacombs 1E: the level on the Barbarian's rage track (None: no such track)
    # Catacombs 1E: the player who controls this hero (None: not named; then not in the canonical form).
    player: str | None = field(default=None, metadata={OMIT_WHEN_DEFAULT: True})

    @property
    def flipped(self) -> bool:
        """A two-health monster showing its damaged side (catacombs-3e-reference.txt: Tracking Health)."""
        return self.kind == "monster" and self.alive and self.max_health == 2 and self.health == 1

    @property
    def poison_total(self) -> int:
        return sum(self.poison)

    def has(self, status: str) -> bool:
        return status in self.status

    def with_status(self, status: str) -> Character:
        return self if status in self.status else evolve(self, status=(*self.status, status))

    def without_status(self, *statuses: str) -> Character:
        if not any(s in self.status for s in statuses):
            return self
        return evolve(self, status=tuple(s for s in self.status if s not in statuses))

    @property
    def on_mat(self) -> bool:
        return self.alive and self.in_room and not (self.has(DEVOURED) or self.has(TELEPORTED))


@dataclass(frozen=True)
class PlannedShot:
    shot: Shot
    piece: str  # the piece to flick: the character itself, or the target of a fear rush
    position: int  # index in the declared sequence; -1 for shots the rules add (fear rush)
    suppressed: bool = False  # the room suppresses this shot: it can only be skipped (RULINGS.md 8)
    actor: str | None = None  # who performs it when not the turn's character (a summoned monster)
    retry: bool = False  # the second flick of a target shot
    target: str | None = None  # a target shot's second flick: the Target Token stays where it was declared


@dataclass(frozen=True)
class Turn:
    character: str
    label: str  # what was declared, e.g. "melee, then rush"
    source: str  # "rules" (the Rules / Monster card) or the card played
    queue: tuple[PlannedShot, ...]
    elastic: bool = False
    # chain modifier: targets damaged by the previous shot, or hit again by it and spared
    last_damaged: tuple[str, ...] = ()
    damaged_any: bool = False
    # Combo Items: "pre" (a pre-Combo card's shots), "await_main" (its normal action is still to come),
    # "main", "await_post" (a post-Combo card may still follow), "post".
    stage: str = "main"
    combo_used: bool = False

    def candidates(self) -> tuple[PlannedShot, ...]:
        """The shots that may be resolved next: the first one, or any of them under an Elastic connector.

        A shot the rules add (position -1: the fear rush the attacker "may immediately perform", the melee
        after a runic shift) comes first even under an Elastic connector: taken or skipped, never deferred
        (catacombs-3e-shot-modifiers.txt: Fear Shot Modifier)."""
        if self.elastic and self.queue and self.queue[0].position != -1:
            return self.queue
        return self.queue[:1]


@dataclass(frozen=True)
class Pending(Decision):
    """A Catacombs decision (``kind``: "choose_alternative", "choose_modifier_target", "choose_monster", ...;
    ``context``: e.g. the targets hit or the quadrant level), about a Catacombs ``Shot`` when it has one."""

    shot: Shot | None = None


@dataclass(frozen=True)
class GameState:
    ruleset: str
    phase: str  # "setup" | "battle" | "resolution" | "special_room" | "game_over"
    characters: tuple[Character, ...]
    room_deck: tuple[str, ...]
    lord: str
    mercenary: str
    treasury: int
    poison_deck: tuple[int, ...]
    rng: int
    settings: Settings = Settings()
    room_index: int = -1
    room_id: str | None = None
    room_name: str | None = None
    room_kind: str | None = None
    suppresses: tuple[Shot, ...] = ()
    round: int = 0
    side: str = HEROES
    acted: tuple[str, ...] = ()
    turn: Turn | None = None
    pending: Pending | None = None
    decisions_made: int = 0
    outcome: str | None = None  # "heroes" | "overseer"
    monster_metre_queue: tuple[int, ...] = ()  # levels of Monster Metre icons still to be chosen
    item_deck: tuple[str, ...] = ()  # face-down Item cards, top first
    market: tuple[str, ...] = ()  # Item cards revealed at Izchak the Merchant
    map_revealed: bool = False  # a map bought from Izchak: every Room card is face up
    free_cure_used: bool = False  # Althea's one free Poison cure in this visit
    altar_offerings: int = 0  # offerings made at the Altar of Soloth in this visit (two at most)
    playmat: str | None = None  # the playmat side of the current (or last) battle room
    # The Monster Pool's supply: pieces of each Monster card in the box (card id, pieces), top level so that
    # the pool can be told from the state alone (Components; Supply limits are hard limits).
    monster_supply: tuple[tuple[str, int], ...] = ()
    shields: tuple[str, ...] = ()  # owners whose shield piece stands on the playmat (Shield Shots)
    shield_raised: tuple[str, ...] = ()  # performed a shield shot in the sequence still under way
    # Cards the referee named as drawn, per deck, not yet used by a draw
    # (service/games/catacombs/flow/table_draws.py).
    table_draws: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Heroes whose gold is their own, never pooled: Team Catacomb heroes in a 3E game with the Castles cards
    # (catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Team Catacomb Heroes). The content says
    # who they are; the state keeps it so that the public view can tell the party's poolable gold.
    pays_alone: tuple[str, ...] = ()

    # -- lookups -------------------------------------------------------------------------------------
    def character(self, character_id: str) -> Character:
        for c in self.characters:
            if c.id == character_id:
                return c
        raise KeyError(character_id)

    def find(self, character_id: str) -> Character | None:
        for c in self.characters:
            if c.id == character_id:
                return c
        return None

    def with_character(self, updated: Character) -> GameState:
        return evolve(self, characters=tuple(updated if c.id == updated.id else c for c in self.characters))

    @property
    def heroes(self) -> tuple[Character, ...]:
        return tuple(c for c in self.characters if c.kind == "hero")

    @property
    def room_monsters(self) -> tuple[Character, ...]:
        return tuple(c for c in self.characters if c.kind in ("monster", "lord") and c.in_room)

    def held_discs(self) -> dict[str, tuple[str, ...]]:
        """The destroyed monsters' discs on each hero's board, waiting for the Resolution Phase
        (catacombs-3e-reference.txt: The Resolution Phase; Hero Death)."""
        held: dict[str, tuple[str, ...]] = {}
        for c in self.characters:
            discs = tuple(m for m in c.trophies if not self.character(m).alive)
            if discs:
                held[c.id] = discs
        return held

    def pieces_out_of_pool(self, card: str) -> int:
        """Pieces of a Monster card on the playmat (a fire wall still holds its Fire Spirit's piece) or held
        on a hero's board."""
        on_mat = {
            c.id
            for c in self.characters
            if c.kind in ("monster", "fire_wall") and c.card == card and c.in_room and c.alive
        }
        held = {m for discs in self.held_discs().values() for m in discs if self.character(m).card == card}
        return len(on_mat | held)

    def monster_pool(self) -> dict[str, int]:
        """Pieces of each Monster card left in the Monster Pool."""
        return {card: max(0, n - self.pieces_out_of_pool(card)) for card, n in self.monster_supply}

    def antient_controller(self, antient: Character) -> str | None:
        """Who holds an Antient's card (catacombs-3e-reference.txt: Advanced Concepts: Antients): the player
        performing its shots; once that player's turn is over, the other side ("the Antient card is passed
        to the Overseer"); back to the heroes when the Overseer's part of the round is over. Outside the
        Battle Phase nobody."""
        if self.phase != "battle":
            return None
        turn = self.turn
        if turn is not None and (
            turn.character == antient.id or any(p.actor == antient.id for p in turn.queue)
        ):
            return self.side
        if self.side == HEROES and antient.id in self.acted:
            return OVERSEER
        return self.side

    @property
    def party_gold(self) -> int:
        """All the gold the heroes hold (what the party carries out of the catacomb)."""
        return sum(c.gold for c in self.heroes)

    @property
    def poolable_gold(self) -> int:
        """The gold the heroes may pool in a special room: not a Team Catacomb hero's, which is its own."""
        return sum(c.gold for c in self.heroes if c.id not in self.pays_alone)

    # -- the canonical text form ---------------------------------------------------------------------
    def to_json(self) -> str:
        """One canonical line: sorted keys, no spaces. ``GameState.from_json`` loads it back."""
        return json.dumps(encode(self), sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_json(text: str) -> GameState:
        return decode_dataclass(GameState, json.loads(text))

    # -- the published snapshot (docs/state.md) ------------------------------------------------------
    def expected_shot(self) -> dict[str, Any] | None:
        if self.turn is None or not self.turn.queue or self.pending is not None:
            return None
        planned = self.turn.queue[0]
        shot = planned.shot
        piece = f"ranged-{shot.kind}" if shot.ranged else planned.piece
        return {
            "character": self.turn.character,
            "actor": planned.actor or self.turn.character,
            "piece": piece,
            "shot": shot.kind,
            "modifier": shot.modifier,
            "ranged": shot.ranged,
            "index": planned.position,
            "optional": True,
            "suppressed": planned.suppressed,
            "any_of": [p.shot.kind for p in self.turn.candidates()] if self.turn.elastic else None,
        }

    def public_view(self) -> dict[str, Any]:
        turn: dict[str, Any] | None
        if self.phase == "battle":
            turn = {
                "side": self.side,
                "character": self.turn.character if self.turn else None,
                "declared": self.turn.label if self.turn else None,
                "stage": self.turn.stage if self.turn else None,
                "acted": list(self.acted),
                # The declared sequence's shots still to come (what the table will see next, in order).
                "to_come": [p.shot.label for p in self.turn.queue] if self.turn else [],
            }
        else:
            turn = None
        return {
            "ruleset": self.ruleset,
            "phase": self.phase,
            "room": None
            if self.room_id is None
            else {
                "index": self.room_index,
                "id": self.room_id,
                "name": self.room_name,
                "kind": self.room_kind,
                "suppresses": [s.label for s in self.suppresses],
            },
            "round": self.round,
            "turn": turn,
            "expected_shot": self.expected_shot(),
            "characters": [
                _character_view(c)
                for c in self.characters
                if c.kind not in ("monster", "fire_wall") or c.in_room
            ],
            # The party's poolable gold; a hero who pays alone shows its own gold (its character's "gold").
            "gold": {"party": self.poolable_gold, "treasury": self.treasury},
            "poison_deck": len(self.poison_deck),
            "market": list(self.market),
            "rooms_ahead": list(self.room_deck[self.room_index + 1 :]) if self.map_revealed else None,
            "pending": None
            if self.pending is None
            else {
                "id": self.pending.id,
                "kind": self.pending.kind,
                "character": self.pending.character,
                "prompt": self.pending.prompt,
                "options": [{"id": o.id, "label": o.label} for o in self.pending.options],
            },
            "outcome": self.outcome,
            "monster_pool": self.monster_pool(),
            "decks": "physical" if self.settings.physical_decks else "digital",
            "cards_named": {deck: list(cards) for deck, cards in self.table_draws},  # not yet drawn
            "shields": list(self.shields),
            "antients": [
                {
                    "id": c.id,
                    "controlled_by": self.antient_controller(c),
                    "acted": c.id in self.acted,
                    "has_sequence": bool(c.shot_sequences),
                }
                for c in self.characters
                if c.kind == "antient" and c.in_room
            ],
        }


def _character_view(c: Character) -> dict[str, Any]:
    return {
        "id": c.id,
        "name": c.name,
        "side": c.side,
        "kind": c.kind,
        "health": c.health,
        "max_health": c.max_health,
        "alive": c.alive,
        "status": list(c.status),
        "poison_total": c.poison_total,
        "gold": c.gold,
        "items": list(c.items),
        "spells": list(c.spells),
        "abilities": list(c.abilities),
        "face_down": list(c.face_down),
        "flipped": c.flipped,
        "on_mat": c.on_mat,
        "owner": c.owner,
        "discs": list(
            c.trophies
        ),  # destroyed monsters' discs on this hero's board until the Resolution Phase
        "poison": list(c.poison),
        # Only a hero with a rage track shows one, so the other rule sets' snapshots are as they were.
        **({"rage": c.rage} if c.rage is not None else {}),
        **({"player": c.player} if c.player is not None else {}),
    }


def name_of(state: GameState, character_id: str) -> str:
    """The character's name, for refusals (its id, quoted, when it is not in the game)."""
    found = state.find(character_id)
    return found.name if found is not None else repr(character_id)


def why_cannot_act(state: GameState, c: Character) -> str:
    """Why ``c`` may not take a turn now, in a few words (Battle Phase: Turn Order)."""
    if not c.alive:
        return "dead"
    if not c.in_room:
        return "not in this room"
    if c.id in state.acted:
        return "already acted this round"
    for status in (DEVOURED, FROZEN):
        if c.has(status):
            return status
    return f"it is the {state.side}' turn"
