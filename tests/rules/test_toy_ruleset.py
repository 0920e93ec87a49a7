"""A new rule set is a subclass of the game-neutral ``RuleSet``: nothing in the base is edited for it.

The toy game below (two players flick in turn; the first to two hits wins; after a miss the player chooses to
flick again or to pass) is no Elzra game: it only proves the base's hooks are enough and that the
base's refusals (game over, a decision pending, an action the game does not know) cite the rule set's own
rules, never a Catacombs one.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import pytest

from service.games.castles.first_edition.ruleset import CastlesFirstEdition
from service.games.castles.second_edition.ruleset import CastlesSecondEdition
from service.games.catacombs.first_edition.ruleset import Catacombs1E
from service.games.catacombs.flow import actions as A
from service.games.catacombs.third_edition.ruleset import Catacombs3E
from service.rules import events as E
from service.rules.errors import DecisionPendingError, GameOverError, IllegalActionError
from service.rules.ruleset import RuleSet

TOY_RULES = "toy-rules.md"


@dataclass(frozen=True, slots=True)
class Flick(A.Action):
    name: ClassVar[str] = "flick"
    player: str
    hit: bool


@dataclass(frozen=True, slots=True)
class Choice:
    id: str
    kind: str


@dataclass(frozen=True, slots=True)
class ToyState:
    to_move: str = "a"
    hits: tuple[tuple[str, int], ...] = (("a", 0), ("b", 0))
    pending: Choice | None = None
    outcome: str | None = None
    ruleset: str = "toy"
    log: tuple[str, ...] = field(default=())

    def score(self, player: str) -> int:
        return dict(self.hits)[player]

    def public_view(self) -> dict[str, Any]:
        return {"to_move": self.to_move, "hits": dict(self.hits), "outcome": self.outcome}

    def to_json(self) -> str:
        return json.dumps(self.public_view(), sort_keys=True)


def other(player: str) -> str:
    return "b" if player == "a" else "a"


class ToyRules(RuleSet[ToyState, None]):
    name = "toy"

    def new_game_from_setup(self, setup: Mapping[str, Any]) -> ToyState:
        return ToyState(to_move=str(setup.get("first", "a")))

    def _check_flick(self, state: ToyState, action: Flick) -> None:
        if action.player != state.to_move:
            raise IllegalActionError(f"it is {state.to_move}'s flick", f"{TOY_RULES}: Turns")

    def _check_decide(self, state: ToyState, action: A.Decide) -> None:
        if action.option not in ("again", "pass"):
            raise IllegalActionError("flick again or pass", f"{TOY_RULES}: Misses")

    def perform(self, state: ToyState, action: A.Action) -> tuple[ToyState, list[E.Event]]:
        if isinstance(action, A.Decide):
            nxt = state.to_move if action.option == "again" else other(state.to_move)
            return replace(state, pending=None, to_move=nxt), []
        assert isinstance(action, Flick)
        if not action.hit:
            choice = Choice(f"d{len(state.log) + 1}", "flick_again")
            return replace(state, pending=choice, log=(*state.log, "miss")), []
        hits = tuple((p, n + (p == action.player)) for p, n in state.hits)
        after = replace(state, hits=hits, to_move=other(action.player), log=(*state.log, "hit"))
        if dict(hits)[action.player] >= 2:
            after = replace(after, outcome=action.player)
            return after, [E.GameOver(f"{action.player} wins", action.player)]
        return after, []

    def choices(self, state: ToyState) -> list[A.Action]:
        if state.pending is not None:
            return [A.Decide(state.pending.id, o) for o in ("again", "pass")]
        return [Flick(state.to_move, True), Flick(state.to_move, False)]

    def rule_for_pending(self, state: ToyState) -> str:
        return f"{TOY_RULES}: Misses"

    def game_over_rule(self) -> str:
        return f"{TOY_RULES}: Winning"

    def unknown_action_rule(self) -> str:
        return f"{TOY_RULES}: Actions"


def test_a_toy_rule_set_plays_through_the_base_api() -> None:
    rules = ToyRules(None)
    state = rules.new_game_from_setup({"first": "a"})
    state, events = rules.apply(state, Flick("a", True))
    assert state.score("a") == 1 and state.to_move == "b" and events == []
    state, _ = rules.apply(state, Flick("b", False))
    assert state.pending is not None
    assert rules.choices(state) == [A.Decide(state.pending.id, "again"), A.Decide(state.pending.id, "pass")]
    state, _ = rules.apply(state, A.Decide(state.pending.id, "pass"))
    assert state.to_move == "a" and state.pending is None
    state, events = rules.apply(state, Flick("a", True))
    assert state.outcome == "a"
    assert [type(e) for e in events] == [E.GameOver]


def test_the_bases_refusals_cite_the_toy_rules() -> None:
    rules = ToyRules(None)
    state = rules.new_game_from_setup({})
    with pytest.raises(IllegalActionError, match=r"toy-rules.md: Turns"):
        rules.apply(state, Flick("b", True))
    with pytest.raises(IllegalActionError, match=r"EnterRoom is not part of toy \(toy-rules.md: Actions\)"):
        rules.check(state, A.EnterRoom())
    missed, _ = rules.apply(state, Flick("a", False))
    with pytest.raises(DecisionPendingError, match=r"flick_again.*toy-rules.md: Misses"):
        rules.check(missed, Flick("a", True))
    won = replace(state, outcome="a")
    with pytest.raises(GameOverError, match=r"toy-rules.md: Winning"):
        rules.check(won, Flick("a", True))
    assert not rules.is_legal(won, Flick("a", True))
    assert state.to_move == "a" and state.hits == (("a", 0), ("b", 0))  # refusals change nothing


def test_a_rule_set_that_leaves_out_a_hook_cannot_be_made() -> None:
    class Unfinished(RuleSet[ToyState, None]):
        name = "unfinished"

        def new_game_from_setup(self, setup: Mapping[str, Any]) -> ToyState:
            return ToyState()

    with pytest.raises(TypeError, match="abstract"):
        Unfinished(None)  # type: ignore[abstract]
    assert RuleSet.__abstractmethods__ == {
        "new_game_from_setup",
        "perform",
        "choices",
        "rule_for_pending",
        "game_over_rule",
        "unknown_action_rule",
    }


@pytest.mark.parametrize("ruleset", [Catacombs3E, Catacombs1E, CastlesSecondEdition, CastlesFirstEdition])
def test_every_shipped_rule_set_fills_in_every_hook(ruleset: type[RuleSet[Any, Any]]) -> None:
    assert ruleset.__abstractmethods__ == frozenset()
    assert ruleset.name and ruleset.name not in ("", ToyRules.name)
