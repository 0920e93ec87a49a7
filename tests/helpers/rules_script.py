"""A game told through its rules, as a table would play it: declare, shoot, answer, end the turn, then look at
the state and what happened. Every registered game plays through it: the setup record's ``ruleset`` finds the
game in the registry (``service.games.definition_of``), which gives the rule set and the loader of its cards,
so a new game needs no script of its own. ``tests/helpers/game_script.py`` (``GameScript``) is the same story
told at a table on fakes (place the discs, flick, advance the clock, read what was published), with the same
verbs where the two meet (``declare``, ``answer``, ``end_turn``, ``state``, ``event_texts``).

The named games the tests start from (the sample 3E party, the Castles tutorial teams, the 1E heroes) are in
``tests/helpers/game_setups.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.gamelog.replay import load_content
from service.games import DEFAULT_RULESET, definition_of
from service.rules import actions as A
from service.rules.events import Event
from service.rules.evolve import evolve
from service.rules.settings import RuleSettings


class RulesScript:
    """One game, from its setup record (docs/game-log.md) to whatever the test plays.

    ``content``: the cards (default: those the setup names, loaded as a log's replay loads them).
    ``alternative``: the Or-alternative a ``declare`` names when the test names none (None: the rules ask).
    """

    def __init__(
        self,
        setup: Mapping[str, Any],
        content: Any = None,
        settings: RuleSettings | None = None,
        alternative: int | None = None,
    ) -> None:
        setup = {"ruleset": DEFAULT_RULESET, **setup}
        game = definition_of(setup["ruleset"])
        self.setup = setup
        self.rules: Any = game.ruleset(content if content is not None else load_content(setup), settings)
        self.state: Any = self.rules.new_game_from_setup(setup)
        self.alternative = alternative
        self.actions: list[A.Action] = []
        self.events: list[Event] = []  # everything that happened, in order
        self.last: list[Event] = []  # what the last action did

    # -- playing --------------------------------------------------------------------------------------------
    def do(self, action: A.Action | str, *args: Any, **fields: Any) -> list[Event]:
        """Apply an action, or the registered action of that name (``do("enter_room")``, ``do("perform_card",
        "hero-larra", "ability")``) built from these fields; what it did."""
        if isinstance(action, str):
            action = A.ACTION_TYPES[action](*args, **fields)
        self.state, self.last = self.rules.apply(self.state, action)
        self.actions.append(action)
        self.events.extend(self.last)
        return self.last

    def declare(self, character: str, alternative: int | None = -1) -> list[Event]:
        """The character begins its turn (``alternative`` left out: the script's default)."""
        chosen = self.alternative if alternative == -1 else alternative
        return self.do(A.DeclareAction(character, chosen))

    def shot(self, character: str, shot: str, *hits: str, **extra: Any) -> list[Event]:
        """The shot was flicked and hit these pieces directly (``extra``: pushed off, knocked off …)."""
        return self.do(A.ResolveShot(character, shot, direct_hits=hits, **extra))

    def answer(self, option: str) -> list[Event]:
        """The pending decision answered."""
        assert self.state.pending is not None, "no decision is pending"
        return self.do(A.Decide(self.state.pending.id, option))

    def end_turn(self, character: str) -> list[Event]:
        return self.do(A.EndTurn(character))

    def turn(self, character: str, *shots: tuple[str, ...], alternative: int | None = -1) -> None:
        """A whole turn: declare, then each (shot, *hits) in order; the shots left are forfeited."""
        self.declare(character, alternative)
        for shot, *hits in shots:
            self.shot(character, shot, *hits)
        if self._its_turn(character) and self.state.pending is None:
            self.end_turn(character)

    def act(self, character: str, shot: str = "melee", *hits: str, alternative: int = 0) -> None:
        """One action: the character's sequence, its first shot hitting ``hits``; the rest forgone, every
        decision on the way answered with its first option."""
        self.declare(character, alternative)
        self.shot(character, shot, *hits)
        self.finish(character)

    def finish(self, character: str) -> None:
        """Every pending decision answered with its first option, then the character's turn ended."""
        while self.state.pending is not None:
            self.answer(self.state.pending.options[0].id)
        if self._its_turn(character):
            self.end_turn(character)

    def idle(self, character: str) -> None:
        """An action that does nothing (the melee misses)."""
        self.act(character, "melee")

    def side_idles(self, *except_: str) -> None:
        """Every character of the side to play that can still act does nothing, in the state's order."""
        side = self.state.side
        for c in list(self.state.characters):
            if self.state.side == side and c.id not in except_ and self.rules.can_act(self.state, c):
                self.idle(c.id)

    def pass_turn(self, character: str) -> None:
        """The character declares the first thing the rules let it (a stunned hero's lone rush names no
        alternative) and ends its turn."""
        self.declare(character, self.rules.declarable(self.state, self.state.character(character))[0][0])
        if self.state.turn is not None:
            self.end_turn(character)

    def side_passes(self) -> None:
        """Every character that can still act this round passes (declares and ends its turn at once)."""
        for c in [c.id for c in self.rules.actors(self.state)]:
            self.pass_turn(c)

    def enter_room(self) -> list[Event]:
        return self.do("enter_room")

    def enter_battle(self) -> None:
        """The next room is explored and prepared, then its battle begins."""
        self.enter_room()
        self.do("start_battle")

    # -- setting the scene ----------------------------------------------------------------------------------
    def edit(self, character: str, **changes: Any) -> None:
        """Set the scene for a scenario (as a referee would arrange the table)."""
        self.state = self.state.with_character(evolve(self.state.character(character), **changes))

    # -- what the table sees --------------------------------------------------------------------------------
    def character(self, character: str) -> Any:
        return self.state.character(character)

    def health(self, character: str) -> int:
        return int(self.state.character(character).health)

    def status(self, character: str) -> tuple[str, ...]:
        return tuple(self.state.character(character).status)

    def pool(self, side: str) -> int:
        """A side's Health Pool (Catacombs & Castles)."""
        return int(self.state.side(side).health)

    def tokens(self, character: str, card: str) -> int:
        """The charge tokens on a character's card (Catacombs & Castles)."""
        return int(self.state.character(character).tokens_on(card))

    def armour(self, character: str) -> tuple[int, ...]:
        return tuple(self.state.character(character).armour)

    def texts(self) -> list[str]:
        """What the last action did, as the table's event feed says it."""
        return [e.text for e in self.last]

    def event_texts(self) -> list[str]:
        """Everything that happened, as the table's event feed says it."""
        return [e.text for e in self.events]

    def _its_turn(self, character: str) -> bool:
        return self.state.turn is not None and self.state.turn.character == character
