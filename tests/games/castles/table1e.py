"""A Catacombs & Castles 1E game played through the rules, as a table would: declare, flick, answer."""

from __future__ import annotations

from functools import cache
from typing import Any

from service.games.castles.adapter import castles_cards
from service.games.castles.content import load_castles_content
from service.games.castles.core import actions as A
from service.games.castles.core.cards import CastlesCards
from service.games.castles.core.state import CastlesState
from service.games.castles.first_edition.ruleset import CastlesFirstEdition
from service.rules.events import Event

MANUAL = "catacombs-and-castles-1e-manual.txt"
SAM = {"team": "castle", "heroes": ["larra", "kethyst", "delilah"]}  # the tutorial's Team Castle
JEN = {"team": "catacomb", "heroes": ["hakoru", "formilus", "cahreliss"]}  # and Team Catacomb


@cache
def shipped_cards() -> CastlesCards:
    return castles_cards(load_castles_content("catacombs-and-castles-1e"))


class Table1E:
    def __init__(self, setup: dict[str, Any], cards: CastlesCards | None = None) -> None:
        self.rules = CastlesFirstEdition(cards or shipped_cards())
        self.state: CastlesState = self.rules.new_game_from_setup(
            {"ruleset": "catacombs-and-castles-1e", **setup}
        )
        self.events: list[Event] = []

    def do(self, action: A.Action) -> list[Event]:
        self.state, events = self.rules.apply(self.state, action)
        self.events += events
        return events

    def declare(self, character: str, alternative: int | None = 0) -> None:
        self.do(A.DeclareAction(character, alternative))

    def card(self, character: str, card: str, **extra: Any) -> None:
        self.do(A.PerformCard(character, card, **extra))

    def shot(self, character: str, shot: str, *hits: str, **extra: Any) -> list[Event]:
        return self.do(A.ResolveShot(character, shot, direct_hits=hits, **extra))

    def answer(self, option: str) -> None:
        assert self.state.pending is not None, "no decision is pending"
        self.do(A.Decide(self.state.pending.id, option))

    def end(self, character: str) -> None:
        self.do(A.EndTurn(character))

    def pool(self, side: str) -> int:
        return self.state.side(side).health

    def tokens(self, character: str, card: str) -> int:
        return self.state.character(character).tokens_on(card)

    def armour(self, character: str) -> tuple[int, ...]:
        return self.state.character(character).armour


def tutorial(**extra: Any) -> Table1E:
    """Team Mode Tutorial Setup: Sam's Team Castle against Jen's Team Catacomb, on the Castle side."""
    return Table1E({"mode": "team", "board_side": "castle", "sides": [SAM, JEN], **extra})


def boss_game(**extra: Any) -> Table1E:
    """Boss Mode: three Catacomb heroes against Sothemir the Castle Lord."""
    lord = {"team": "castle", "boss": "sothemir", "warriors": ["royal-archer", "watch-guard", "querling"]}
    return Table1E({"mode": "boss", "sides": [{"team": "catacomb", "heroes": JEN["heroes"]}, lord], **extra})
