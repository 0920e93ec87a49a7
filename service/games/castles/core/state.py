"""The state of a Catacombs & Castles 2E game: two sides with Health Pools, characters with charged cards.

Immutable, like the 3E ``GameState``; ``to_json`` is the canonical one-line form and ``public_view`` the
published snapshot (docs/state.md, "Catacombs & Castles 2E"). Heroes and bosses have no health of their own:
damage takes Health Tokens from their side's pool. Warriors have their own health (one).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from service.rules.codec import decode_dataclass, encode
from service.rules.decisions import Pending
from service.rules.evolve import evolve

MODES = ("team", "one-versus-one", "boss", "boss-versus-boss")
BOSS_MODES = ("boss", "boss-versus-boss")
FULL_ARMOUR = 2  # a Full Power Armour Token is flipped after one use and may be used once more
HALF_ARMOUR = 1


@dataclass(frozen=True)
class Side:
    id: str
    team: str  # "castle" | "catacomb"
    controls: str  # "heroes" | "boss"
    health: int  # Health Tokens in the pool
    starting_health: int
    reinforcements: int = 0


@dataclass(frozen=True)
class Fighter:
    """A hero, boss or warrior. ``charges`` holds the Health Tokens on each of its cards, by card id."""

    id: str
    name: str
    side: str
    kind: str  # "hero" | "boss" | "warrior"
    card: str
    role: str | None = None
    on_mat: bool = True  # a warrior in reserve, or removed after damage, is off the playmat
    health: int | None = None  # warriors only
    armour: tuple[int, ...] = ()  # uses left per Armour Token: 2 full, 1 half (or a flipped full)
    charges: tuple[tuple[str, int], ...] = ()
    form: str | None = None  # bosses
    trapped: bool = False  # under a net or web piece (the optional variant)
    attributes: tuple[str, ...] = ()

    def tokens_on(self, card: str) -> int:
        return dict(self.charges).get(card, 0)

    def with_tokens(self, card: str, tokens: int) -> Fighter:
        charges = dict(self.charges)
        charges[card] = tokens
        return evolve(self, charges=tuple(sorted(charges.items())))

    def has(self, attribute: str) -> bool:
        return attribute in self.attributes


@dataclass(frozen=True)
class Planned:
    """One shot still to come in the turn: who performs it and with which piece."""

    shot: str
    actor: str  # the character performing (a teammate in a Team Action, a summoned warrior, a climber)
    piece: str  # the piece flicked: the actor's, or an enemy's (vortex, grapple and shuriken rushes)
    group: int = 0  # shots of one shot sequence share a group; the Chain Rule and Elastic work per group
    elastic: bool = False
    damaging: bool = True  # the first two flicks of a lightning shot inflict nothing
    added: str = ""  # why the rules added it ("vortex", "grapple", "shuriken", "retry", "climber", ...)
    transfers: tuple[str, ...] | None = None  # the card's own transfer icons
    target: str | None = None  # a target shot's retry keeps its declared target
    alt: int = -1  # 1E Team icon: which of the card's Or-alternatives this shot belongs to (-1: none)


@dataclass(frozen=True)
class Hit:
    """Damage waiting to be resolved (an Armour Token decision or a transfer may come first)."""

    attacker: str
    target: str
    amount: int
    shot: str
    transfers: tuple[str, ...]
    armour_asked: bool = False
    # 1E: what the shot does once the damage is taken (an Armour Token nullifies it with the damage)
    then: tuple[Planned, ...] = ()
    effect: str = ""  # "trap" (net / web) | "return" (temporal shift)


@dataclass(frozen=True)
class Obstacle:
    """1E Setting Up The Obstacles: one wooden obstacle as a team placed it on an Obstacle Location icon."""

    piece: str  # "cube" | "slab" | "cylinder"
    quadrant: int  # 1-4: the game board's quadrants, numbered as the table sees fit
    team: str  # the team that placed it
    orientation: str = "vertical"  # a cylinder stands upright; a cube or a slab may lie horizontal


@dataclass(frozen=True)
class CastlesTurn:
    character: str
    source: str  # "sequence" or the id of the card performed
    label: str
    queue: tuple[Planned, ...]
    last_damaged: tuple[tuple[int, str], ...] = ()  # per group: the target damaged last (the Chain Rule)
    hits: tuple[Hit, ...] = ()
    initiator_uncharged: bool = False  # 1E Team Actions: the initiator's cards take no tokens this turn
    shield: str | None = None  # 1E Shields: the shield disc this sequence lifted, put back when it ends

    def candidates(self) -> tuple[Planned, ...]:
        """The next shot, or under an Elastic connector any shot of the same sequence; added shots first.
        With Or-alternatives still open in a group (1E Team icon), the first shot of each alternative."""
        if not self.queue:
            return ()
        head = self.queue[0]
        if head.alt >= 0 and not head.added:
            firsts: dict[int, Planned] = {}
            for p in self.queue:
                if p.group == head.group and p.alt >= 0 and not p.added:
                    firsts.setdefault(p.alt, p)
            return tuple(firsts.values())
        if not head.elastic or head.added:
            return (head,)
        return tuple(p for p in self.queue if p.group == head.group and p.elastic and not p.added)

    def last_damaged_in(self, group: int) -> str | None:
        return dict(self.last_damaged).get(group)


@dataclass(frozen=True)
class CastlesState:
    ruleset: str
    mode: str
    phase: str  # "battle" | "game_over"
    sides: tuple[Side, Side]
    characters: tuple[Fighter, ...]
    side_to_move: str
    first_side: str
    round: int = 1
    acted: tuple[str, ...] = ()  # characters who have taken their turn this round
    side_turn_acted: tuple[str, ...] = ()  # characters who acted in the current side's turn
    warrior_bonus: str | None = None  # Team Mode: this side may still perform one warrior's sequence
    first_strike: bool = True  # the First Strike Rule still applies (RULINGS.md 9)
    turns_taken: int = 0
    turn: CastlesTurn | None = None
    pending: Pending | None = None
    decisions_made: int = 0
    outcome: str | None = None  # the winning side's id
    net_variant: bool = False
    rules_variant: str = "A"
    rng: int = 0
    charging: bool = True  # 1E Boss Mode: Ability cards are not charged (captured tokens are discarded)
    placed: tuple[str, ...] = ()  # 1E Egg Shot: warriors placed this turn, who may not act in it
    reinforcing: tuple[str, ...] = ()  # 1E Reinforcements: new warriors, who act before the others
    shields: tuple[str, ...] = ()  # 1E Shields: the shield discs on the game board ("castle-shield", ...)
    obstacles: tuple[Obstacle, ...] = ()  # 1E Setting Up The Obstacles, in the order they were placed

    # -- lookups ------------------------------------------------------------------------------------
    def find(self, character_id: str) -> Fighter | None:
        return next((c for c in self.characters if c.id == character_id), None)

    def character(self, character_id: str) -> Fighter:
        found = self.find(character_id)
        if found is None:
            raise KeyError(character_id)
        return found

    def side(self, side_id: str) -> Side:
        return next(s for s in self.sides if s.id == side_id)

    def other_side(self, side_id: str) -> str:
        return self.sides[1].id if self.sides[0].id == side_id else self.sides[0].id

    def members(self, side_id: str, *kinds: str) -> tuple[Fighter, ...]:
        return tuple(c for c in self.characters if c.side == side_id and (not kinds or c.kind in kinds))

    def with_character(self, c: Fighter) -> CastlesState:
        return evolve(self, characters=tuple(c if x.id == c.id else x for x in self.characters))

    def with_side(self, side: Side) -> CastlesState:
        sides = tuple(side if s.id == side.id else s for s in self.sides)
        return evolve(self, sides=(sides[0], sides[1]))

    # -- the canonical line and the published snapshot ---------------------------------------------
    def to_json(self) -> str:
        return json.dumps(encode(self), sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_json(text: str) -> CastlesState:
        return decode_dataclass(CastlesState, json.loads(text))

    def expected_shot(self) -> dict[str, Any] | None:
        if self.turn is None or not self.turn.queue or self.pending is not None:
            return None
        head = self.turn.queue[0]
        return {
            "character": head.actor,
            "piece": head.piece,
            "shot": head.shot,
            "index": 0,
            "actor": head.actor,
            "any_of": [p.shot for p in self.turn.candidates()],
            # Every piece whose flick would be an expected shot now: a Team Action's heroes in any order, a
            # grabbed enemy (the mat reads whichever of them moved).
            "pieces": list(dict.fromkeys(p.piece for p in self.turn.candidates())),
            "added": head.added or None,
            "damaging": head.damaging,
        }

    def public_view(self) -> dict[str, Any]:
        turn: dict[str, Any] | None = None
        if self.phase == "battle":
            turn = {
                "side": self.side_to_move,
                "character": self.turn.character if self.turn else None,
                "declared": self.turn.label if self.turn else None,
                "acted": list(self.acted),
                "warrior_bonus": self.warrior_bonus,
            }
        pending = None
        if self.pending is not None:
            p = self.pending
            pending = {
                "id": p.id,
                "kind": p.kind,
                "character": p.character,
                "prompt": p.prompt,
                "options": [{"id": o.id, "label": o.label} for o in p.options],
            }
        return {
            "ruleset": self.ruleset,
            "mode": self.mode,
            "phase": self.phase,
            "room": None,
            "round": self.round,
            "turn": turn,
            "expected_shot": self.expected_shot(),
            "first_strike": self.first_strike,
            "sides": [
                {
                    "id": s.id,
                    "team": s.team,
                    "controls": s.controls,
                    "health": s.health,
                    "starting_health": s.starting_health,
                    "reinforcements": s.reinforcements,
                }
                for s in self.sides
            ],
            "characters": [_character_view(c, self.side(c.side)) for c in self.characters],
            "shields": list(self.shields),
            "obstacles": [
                {"piece": o.piece, "quadrant": o.quadrant, "team": o.team, "orientation": o.orientation}
                for o in self.obstacles
            ],
            "gold": None,
            "pending": pending,
            "outcome": self.outcome,
        }


def _character_view(c: Fighter, side: Side) -> dict[str, Any]:
    """A hero's or boss's ``health`` is its side's Health Pool (what the LED tracker beside its cards shows);
    a warrior's is its own single point. ``charges`` counts the tokens on its cards, ``cards`` by card."""
    own = c.kind == "warrior"
    return {
        "id": c.id,
        "name": c.name,
        "side": c.side,
        "kind": c.kind,
        "card": c.card,
        "role": c.role,
        "on_mat": c.on_mat,
        "alive": c.on_mat,
        "health": (c.health if c.on_mat else 0) if own else side.health,
        "max_health": 1 if own else side.starting_health,
        "pool": None if own else side.id,
        "armour": ["full" if uses == FULL_ARMOUR else "half" for uses in c.armour],
        "charges": sum(n for _, n in c.charges),
        "cards": dict(c.charges),
        "form": c.form,
        "trapped": c.trapped,
        "attributes": list(c.attributes),
        "status": ["trapped"] if c.trapped else [],
    }
