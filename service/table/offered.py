"""What may be declared now, one entry per character and Or-alternative, as the cards draw them: the
Catacombs flow's, or what a game with a table adapter of its own (service/table/games.py) offers."""

from __future__ import annotations

from typing import Any, cast

from service.games.catacombs.flow.state import GameState
from service.games.catacombs.flow.tx import FlowRules
from service.rules import RuleSet
from service.table.games import table_game


def offered_actions(rules: RuleSet[Any, Any], state: GameState) -> list[dict[str, Any]]:
    offered_by_game = table_game(rules.name).actions(rules, state)
    if offered_by_game is not None:
        return offered_by_game
    if state.phase != "battle" or state.turn is not None or state.pending is not None:
        return []
    actions = []
    flow = cast(FlowRules, rules)  # the rule sets without a table adapter of their own (Catacombs)
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
