"""What a Catacombs table needs beyond the rules (service.games.definition.TableBehaviour): the table file
names the heroes, the Lord and the rooms; what may be declared is the table session's own list; a Summon Shot
that cannot be made says so before anyone flicks. Pure: reads the rules' state, writes nothing."""

from __future__ import annotations

from typing import Any, cast

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.tx import FlowRules
from service.rules.errors import IllegalActionError


class CatacombsTable:
    """Catacombs 3E: the table file names the heroes, the Lord and the rooms."""

    def setup_payload(self, table: Any, games_so_far: int) -> dict[str, Any]:
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
        """What may be declared now, one entry per character and Or-alternative, as the cards draw them."""
        if state.phase != "battle" or state.turn is not None or state.pending is not None:
            return []
        actions = []
        flow = cast(FlowRules, rules)
        for character in flow.actors(state):
            # What the rules offer this turn, each with the alternative that names it (none for a stunned
            # hero's lone rush, the printed one for the Gelatinous Cube's round).
            declarable = getattr(rules, "declarable", None)
            if declarable is not None:
                offered = declarable(state, character)
            elif character.kind == "hero":
                offered = list(enumerate(flow.hero_sequences(state, character)))
            else:
                offered = list(enumerate(character.shot_sequences))
            for index, sequence in offered:
                connector = "elastic" if sequence.elastic else "then"
                actions.append(
                    {
                        "id": f"{character.id}:{0 if index is None else index}",
                        "label": f"{character.name}: {sequence.label}",
                        "character": character.id,
                        "alternative": index,
                        "shots": [
                            {
                                "shot": shot.kind,
                                "modifier": shot.modifier,
                                "count": shot.count,
                                "connector": connector,
                            }
                            for shot in sequence.shots
                        ],
                    }
                )
        return actions

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


def party_result(state: Any) -> dict[str, Any]:
    """How a finished Catacombs game ended, for people (docs/state.md: result): who won, the rooms the party
    cleared and the gold it carried out, the heroes still standing, one sentence."""
    entered = state.room_index + 1
    # The heroes win by destroying the Lord in its Lair or by coming through the last room; either way every
    # room they entered is behind them. A defeat happens inside a room the party did not clear.
    cleared = entered if state.outcome == "heroes" else max(0, entered - 1)
    heroes = [c for c in state.characters if c.kind == "hero"]
    alive = [c.name for c in heroes if c.alive]
    gold = state.party_gold
    rooms = f"{cleared} room{'s' if cleared != 1 else ''}"
    if state.outcome == "heroes":
        headline = "The heroes win"
        standing = f"{len(alive)} of {len(heroes)} heroes stand"
        summary = f"The party cleared {rooms} and carried out {gold} gold; {standing}."
    else:
        headline = "The Overseer wins"
        where = state.room_name or "the catacomb"
        summary = f"The party fell in {where} after clearing {rooms}, with {gold} gold."
    return {
        "winner": state.outcome,
        "headline": headline,
        "summary": summary,
        "gold": gold,
        "rooms_cleared": cleared,
        "rooms_total": len(state.room_deck),
        "heroes_standing": alive,
    }
