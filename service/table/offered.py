"""What may be declared now, one entry per character and Or-alternative, as the cards draw them: what the
game's table behaviour offers (service/games/<game>/table.py)."""

from __future__ import annotations

from typing import Any

from service.rules import RuleSet
from service.table.games import TableState, table_game


def offered_actions(rules: RuleSet[TableState, object], state: TableState) -> list[dict[str, Any]]:
    return table_game(rules.name).actions(rules, state) or []
