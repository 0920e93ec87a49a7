"""What a Catacombs & Castles table needs beyond the rules (service.games.definition.TableBehaviour): the
table file holds one setup per mode; what may be declared is each character's shot sequences and charged
cards; the expected shot says whether a ranged piece (and which size) or a shield piece is flicked, or whether
the shot is a placement with no flick at all."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from service.games.castles.core import actions as A
from service.games.loading import SetupError

REINFORCEMENT_CARD = "reinforcement"  # perform_card's card for a 1E Reinforcement Token (first_edition.py)
LIFT_NET_CARD = "lift-net"  # perform_card: lift a 1E net or web disc (castles/first_edition/pieces.py)

CASTLES_PIECE_SIZES = {
    "extra_small": "castles-ranged-extra-small",
    "small": "castles-ranged-small",
    "flat": "castles-ranged-small-flat",
    "medium": "castles-ranged-medium",
    "large": "castles-ranged-large",
}


@dataclass(frozen=True)
class CastlesTable:
    """Catacombs & Castles (2E and 1E): the table file holds one setup per mode; ``game.mode`` picks one."""

    placed_shields: bool = False
    """1E Shields: the icon puts the disc down beside the hero (no flick); 2E's shield shot flicks it."""

    def setup_payload(self, table: Any, games_so_far: int) -> dict[str, Any]:
        game = table.game
        mode = game.mode or "team"
        chosen = game.modes.get(mode)
        if chosen is None:
            raise SetupError(
                f"{table.path}: game.modes has no {mode!r} game (it has {sorted(game.modes) or 'none'})"
            )
        return {"ruleset": table.ruleset, "mode": mode, **chosen, "seed": game.seed + games_so_far}

    def actions(self, rules: Any, state: Any) -> list[dict[str, Any]]:
        """Each character's shot sequences (one entry per Or-alternative) and its fully charged cards."""
        if state.phase != "battle" or state.turn is not None or state.pending is not None:
            return []
        from service.games.castles.core.damage import cards_of

        entries: list[dict[str, Any]] = []
        for c in state.characters:
            for index, sequence in enumerate(rules.sequences(state, c)):
                if rules.is_legal(state, A.DeclareAction(c.id, index)):
                    entries.append(
                        {
                            "id": f"{c.id}:{index}",
                            "label": f"{c.name}: {_label(sequence)}",
                            "character": c.id,
                            "alternative": index,
                            "shots": _shots(sequence),
                        }
                    )
            for card in cards_of(rules.content, c):
                key = rules.card_key(c, card)
                for index, sequence in enumerate(card.sequences):
                    if rules.is_legal(state, A.PerformCard(c.id, key, alternative=index)):
                        # No "alternative" key: the turn controller sends {character, action: id}, which the
                        # table reads as perform_card (service/table/commands.py).
                        entries.append(
                            {
                                "id": f"{c.id}:{key}:{index}",
                                "label": f"{c.name}: {card.name} ({_label(sequence)})",
                                "character": c.id,
                                "card": key,
                                "card_alternative": index,
                                "shots": _shots(sequence),
                            }
                        )
            if c.kind == "boss" and rules.is_legal(state, A.PerformCard(c.id, REINFORCEMENT_CARD)):
                # Catacombs & Castles 1E, Reinforcements: the Overseer spends a token at the start of a turn.
                entries.append(
                    {
                        "id": f"{c.id}:{REINFORCEMENT_CARD}:0",
                        "label": f"{c.name}: spend a Reinforcement Token",
                        "character": c.id,
                        "card": REINFORCEMENT_CARD,
                        "card_alternative": 0,
                        "shots": [],
                    }
                )
            if c.trapped and rules.is_legal(state, A.PerformCard(c.id, LIFT_NET_CARD)):
                # Catacombs & Castles 1E, Net / Web: the attacker may lift the disc at the start of a turn.
                entries.append(
                    {
                        "id": f"{c.id}:{LIFT_NET_CARD}:0",
                        "label": f"Lift the net or web disc off {c.name}",
                        "character": c.id,
                        "card": LIFT_NET_CARD,
                        "card_alternative": 0,
                        "shots": [],
                    }
                )
        return entries

    def expected_shot(self, rules: Any, state: Any) -> dict[str, Any] | None:
        expected: dict[str, Any] | None = state.expected_shot()
        if expected is None:
            return None
        rule = rules.content.shots.get(expected["shot"])
        kind = rule.kind if rule is not None else "character"
        size = _ranged_sizes(state.ruleset).get(expected["shot"])
        expected["kind"] = kind
        expected["ranged"] = kind == "ranged"
        expected["ranged_class"] = CASTLES_PIECE_SIZES.get(size or "") if kind == "ranged" else None
        placed_shield = kind == "shield" and self.placed_shields
        expected["shield"] = kind == "shield" and not placed_shield
        # Special shots place the piece (on a rune, or two teammates swapped): nothing is flicked, so the
        # referee enters them (manual_shot) or the player skips them.
        expected["placed"] = kind == "special" or placed_shield
        expected["team"] = state.side(state.character(expected["actor"]).side).team
        return expected


def _label(sequence: Any) -> str:
    return ", then ".join(step.shot.replace("_", " ") for step in sequence) or "no shot"


def _shots(sequence: Any) -> list[dict[str, Any]]:
    return [
        {"shot": step.shot, "modifier": None, "count": 1, "connector": step.connector or "then"}
        for step in sequence
    ]


@functools.lru_cache(maxsize=4)
def _ranged_sizes(ruleset: str) -> Mapping[str, str]:
    """Shot name -> the size of its ranged piece, from the shipped shot reference (shots.yaml ``piece``)."""
    from service.games.castles.content import load_castles_content

    content = load_castles_content(ruleset)
    return {sid.replace("-", "_"): s.piece for sid, s in content.shots.items() if s.piece}
