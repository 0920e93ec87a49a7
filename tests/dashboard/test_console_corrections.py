"""The console's correction form offers each game's own corrections, as its GameDefinition declares them: the
page is served with them, by rule set, and names no game of its own (docs/dashboard.md)."""

from __future__ import annotations

import html
import json
import re

from service.games import definition_of, definitions
from tests.dashboard.conftest import Referee


def served_corrections(page: str) -> dict[str, list[list[str]]]:
    match = re.search(r'id="correct-form"[^>]*data-corrections="([^"]*)"', page)
    assert match, "the correction form carries no corrections"
    found: dict[str, list[list[str]]] = json.loads(html.unescape(match.group(1)))
    return found


def test_the_console_is_served_each_games_corrections(referee: Referee) -> None:
    served = served_corrections(referee.client.get("/referee/console").get_data(as_text=True))
    assert served == {game.name: [list(c) for c in game.corrections] for game in definitions()}
    # The Barbarian's rage is First Edition's alone; a Castles side's Health Pool is set as its tokens.
    assert ["rage", "rage (the Barbarian)"] in served["catacombs-1e"]
    assert [field for field, _ in served["catacombs-3e"]] == ["health", "gold", "card"]
    assert served["catacombs-and-castles-2e"][0] == ["health", "the side's Health Tokens"]
    assert (
        definition_of("catacombs-and-castles-1e").corrections
        == definition_of("catacombs-and-castles-2e").corrections
    )
