"""What the table needs to know about each rule set, beyond the rules themselves.

The daemon, the table session and the simulated table are rule-set neutral; the few things that differ from
one game to another live here, one small class per family of rule sets:

- the ``setup`` record a table file's game becomes (Catacombs: heroes, a Lord and rooms; Catacombs & Castles:
  a mode and its two sides);
- what may be declared now, as the turn controller draws it (``actions`` in the snapshot);
- the expected shot with what the mat needs to know about it: whether a ranged piece (and which size) or a
  shield piece is flicked, or whether the shot is a placement with no flick at all.

Pure: reads the rules' state and content, writes nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from service.games.castles.core import actions as A
from service.rules.errors import IllegalActionError
from service.table.config import TableConfig

REINFORCEMENT_CARD = "reinforcement"  # perform_card's card for a 1E Reinforcement Token (first_edition.py)
LIFT_NET_CARD = "lift-net"  # perform_card: lift a 1E net or web disc (castles/first_edition/pieces.py)

CASTLES_PIECE_SIZES = {
    "extra_small": "castles-ranged-extra-small",
    "small": "castles-ranged-small",
    "flat": "castles-ranged-small-flat",
    "medium": "castles-ranged-medium",
    "large": "castles-ranged-large",
}


class CatacombsTable:
    """Catacombs 3E: the table file names the heroes, the Lord and the rooms."""

    def setup_payload(self, table: TableConfig, games_so_far: int) -> dict[str, Any]:
        game = table.game
        return {
            "ruleset": table.ruleset,
            "heroes": list(game.heroes),
            "lord": game.lord,
            "rooms": list(game.rooms or ()),
            # Each game of the log draws its own dice: the table's seed, then the next, and so on.
            "seed": game.seed + games_so_far,
            "content": game.content,
            **({"settings": dict(game.settings)} if game.settings else {}),
            **({"expansions": list(game.expansions)} if game.expansions else {}),
        }

    def actions(self, rules: Any, state: Any) -> list[dict[str, Any]] | None:
        return None  # the table session's own list (TableSession._actions) is Catacombs'

    def expected_shot(self, rules: Any, state: Any) -> dict[str, Any] | None:
        expected: dict[str, Any] | None = state.expected_shot()
        if expected is not None and expected["shot"] == "summon":
            # Summon Shot: with no piece of the monster left in the Monster Pool the summon is refused and can
            # only be skipped; say so, and why, before anyone flicks.
            try:
                rules.check(state, A.ResolveShot(expected["character"], "summon"))
            except IllegalActionError as refused:
                expected["unavailable"] = str(refused)
        return expected


class CastlesTable:
    """Catacombs & Castles (2E and 1E): the table file holds one setup per mode; ``game.mode`` picks one."""

    def setup_payload(self, table: TableConfig, games_so_far: int) -> dict[str, Any]:
        game = table.game
        mode = game.mode or "team"
        chosen = game.modes.get(mode)
        if chosen is None:
            from service.gamelog.replay import SetupError

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
        # 1E Shields: the icon puts the disc down beside the hero (no flick); 2E's shield shot flicks it.
        placed_shield = kind == "shield" and state.ruleset == "catacombs-and-castles-1e"
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


_GAMES: dict[str, Any] = {
    "catacombs-and-castles-2e": CastlesTable(),
    # The first edition is played with the same pieces and the same turn controller; its setup record adds
    # board_side, abilities and armour_tokens, which the table file's mode carries as they are.
    "catacombs-and-castles-1e": CastlesTable(),
}


def table_game(ruleset: str) -> CatacombsTable | CastlesTable:
    """The table's knowledge of one rule set (Catacombs 3E for any rule set not listed)."""
    game: CatacombsTable | CastlesTable = _GAMES.get(ruleset, CatacombsTable())
    return game
