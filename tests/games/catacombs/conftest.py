"""A table at which a game is played: the rules, the state, and what happened last."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import Content
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.state import GameState
from service.games.catacombs.third_edition.ruleset import Catacombs3E
from service.rules.events import Event
from service.rules.evolve import evolve
from tests.helpers.sample_content import FIRST_GAME_HEROES, sample_content


class Table:
    def __init__(
        self,
        rooms: Sequence[str],
        heroes: Sequence[str] = FIRST_GAME_HEROES,
        lord: str = "hmotha-the-lich-lord",
        seed: int = 7,
        settings: Settings | None = None,
        poison_deck: tuple[int, ...] | None = None,
        items: dict[str, Sequence[str]] | None = None,
        content: Content | None = None,
        spells: dict[str, Sequence[str]] | None = None,
    ) -> None:
        if content is None:
            content = sample_content(poison_deck) if poison_deck is not None else sample_content()
        self.rules = Catacombs3E(content, settings)
        self.state: GameState = self.rules.new_game(heroes, lord, rooms, seed, items=items, spells=spells)
        self.actions: list[A.Action] = []
        self.events: list[Event] = []
        self.last: list[Event] = []

    def do(self, action: A.Action) -> list[Event]:
        self.state, self.last = self.rules.apply(self.state, action)
        self.actions.append(action)
        self.events.extend(self.last)
        return self.last

    def enter_battle(self) -> None:
        self.do(A.EnterRoom())
        self.do(A.StartBattle())

    def shot(self, character: str, shot: str, *hits: str, **kwargs: object) -> list[Event]:
        return self.do(A.ResolveShot(character, shot, direct_hits=hits, **kwargs))  # type: ignore[arg-type]

    def declare(self, character: str, alternative: int | None = None) -> list[Event]:
        return self.do(A.DeclareAction(character, alternative))

    def turn(self, character: str, *shots: tuple[str, ...], alternative: int | None = None) -> None:
        """A whole turn: declare, then each (shot, *hits); remaining shots are forfeited."""
        self.declare(character, alternative)
        for shot, *hits in shots:
            self.shot(character, shot, *hits)
        if self.state.turn is not None and self.state.turn.character == character:
            self.do(A.EndTurn(character))

    def pass_turn(self, character: str) -> None:
        # The first thing the rules let it declare (a stunned hero's lone rush names no alternative).
        self.declare(character, self.rules.declarable(self.state, self.state.character(character))[0][0])
        if self.state.turn is not None:
            self.do(A.EndTurn(character))

    def heroes_pass(self) -> None:
        """Every hero that can still act this round passes (declares and ends its turn at once)."""
        for hero in [c.id for c in self.rules.actors(self.state)]:
            self.pass_turn(hero)

    def monsters_pass(self) -> None:
        for monster in [c.id for c in self.rules.actors(self.state)]:
            self.pass_turn(monster)

    def edit(self, character: str, **changes: object) -> None:
        """Set the scene for a scenario (as a referee would arrange the table)."""
        self.state = self.state.with_character(evolve(self.state.character(character), **changes))

    def status(self, character: str) -> tuple[str, ...]:
        return self.state.character(character).status

    def health(self, character: str) -> int:
        return self.state.character(character).health

    def texts(self) -> list[str]:
        return [e.text for e in self.last]


@pytest.fixture
def barracks() -> Table:
    table = Table(["the-barracks"])
    table.enter_battle()
    return table
