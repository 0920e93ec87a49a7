"""A Catacombs & Castles 2E game played through the rules, as a table would: declare, flick, answer."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from service.games.castles.adapter import castles_cards
from service.games.castles.content import load_castles_content
from service.games.castles.core.cards import CastlesCards
from service.games.castles.core.state import CastlesState
from service.games.castles.second_edition.ruleset import CastlesSecondEdition
from service.games.catacombs.flow.settings import Settings
from service.rules import actions as A
from service.rules.events import Event

MANUAL = "catacombs-and-castles-2e-manual.md"
TUTORIAL_TEAMS = [
    {"team": "castle", "heroes": ["larra", "kethyst", "delilah"]},
    {"team": "catacomb", "heroes": ["hakoru", "formilus", "cahreliss"]},
]


@cache
def shipped_cards() -> CastlesCards:
    return castles_cards(load_castles_content("catacombs-and-castles-2e"))


def with_attributes(cards: CastlesCards, hero: str, *attributes: str) -> CastlesCards:
    heroes = dict(cards.heroes)
    heroes[hero] = replace(heroes[hero], attributes=attributes)
    return replace(cards, heroes=heroes)


class Table:
    def __init__(self, setup: dict[str, Any], cards: CastlesCards | None = None) -> None:
        self.rules = CastlesSecondEdition(cards or shipped_cards(), Settings())
        self.state: CastlesState = self.rules.new_game_from_setup(
            {"ruleset": "catacombs-and-castles-2e", **setup}
        )
        self.events: list[Event] = []

    def do(self, action: A.Action) -> list[Event]:
        self.state, events = self.rules.apply(self.state, action)
        self.events += events
        return events

    def declare(self, character: str, alternative: int | None = 0) -> None:
        self.do(A.DeclareAction(character, alternative))

    def shot(self, character: str, shot: str, *hits: str, **extra: Any) -> list[Event]:
        return self.do(A.ResolveShot(character, shot, direct_hits=hits, **extra))

    def answer(self, option: str) -> None:
        assert self.state.pending is not None, "no decision is pending"
        self.do(A.Decide(self.state.pending.id, option))

    def pool(self, side: str) -> int:
        return self.state.side(side).health

    def tokens(self, character: str, card: str) -> int:
        return self.state.character(character).tokens_on(card)

    def turn(self, character: str, *shots: tuple[str, ...]) -> None:
        """A whole turn: the sequence's shots in order, each with the pieces it hit."""
        self.declare(character)
        for shot, *hits in shots:
            self.shot(character, shot, *hits)
        if self.state.turn is not None and self.state.turn.character == character and not self.state.pending:
            self.do(A.EndTurn(character))


def team_game(first: str = "catacomb", **extra: Any) -> Table:
    return Table({"mode": "team", "first": first, "sides": TUTORIAL_TEAMS, **extra})
