"""A Catacombs 1E game played through the rules as at a table: rooms, heroes' turns, the Keeper's turn."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from service.games.catacombs.content.first_edition import load_catacombs1e_content
from service.games.catacombs.first_edition.cards import Catacombs1ECards
from service.games.catacombs.first_edition.ruleset import Catacombs1E
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.state import Character, GameState
from service.rules.events import Event

MANUAL = "catacombs-1e-rules-italian.txt"
HEROES = ["barbaro", "elfo", "ladra", "mago"]


@cache
def shipped() -> Catacombs1ECards:
    return load_catacombs1e_content()


class Game:
    def __init__(
        self, rooms: list[str] | None = None, lord: str = "dragone", overlay: Path | None = None, **extra: Any
    ) -> None:
        cards = load_catacombs1e_content(overlay) if overlay else shipped()
        self.rules = Catacombs1E(cards)
        setup: dict[str, Any] = {
            "ruleset": "catacombs-1e",
            "heroes": HEROES,
            "lord": lord,
            "seed": 1,
            **extra,
        }
        if rooms:
            setup["rooms"] = rooms
        self.state: GameState = self.rules.new_game_from_setup(setup)
        self.events: list[Event] = []

    def do(self, action: A.Action) -> list[Event]:
        self.state, events = self.rules.apply(self.state, action)
        self.events += events
        return events

    def c(self, character_id: str) -> Character:
        return self.state.character(character_id)

    def enter(self) -> None:
        self.do(A.EnterRoom())

    def fight(self) -> None:
        """Exploration and preparation of the next room, then the combat begins."""
        self.enter()
        self.do(A.StartBattle())

    def act(self, character: str, shot: str = "melee", *hits: str, alternative: int = 0) -> None:
        """One action: the character's sequence, its first shot hitting ``hits``; the rest forgone."""
        self.do(A.DeclareAction(character, alternative))
        self.do(A.ResolveShot(character, shot, direct_hits=hits))
        self.finish(character)

    def finish(self, character: str) -> None:
        while self.state.pending is not None:
            self.do(A.Decide(self.state.pending.id, self.state.pending.options[0].id))
        if self.state.turn is not None and self.state.turn.character == character:
            self.do(A.EndTurn(character))

    def idle(self, character: str) -> None:
        """An action that does nothing (the melee misses)."""
        self.act(character, "melee")

    def heroes_idle(self, *except_: str) -> None:
        for hero in ("hero-barbaro", "hero-elfo", "hero-ladra", "hero-mago"):
            if hero not in except_ and self.rules.can_act(self.state, self.c(hero)):
                self.idle(hero)

    def keeper_idle(self) -> None:
        for c in list(self.state.characters):
            if self.state.side == "overseer" and self.rules.can_act(self.state, self.c(c.id)):
                self.idle(c.id)
