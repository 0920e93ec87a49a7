"""The game-neutral rules base every rule set subclasses: legality apart from application, typed actions.

``RuleSet.check`` raises an ``IllegalActionError`` naming the rule; ``RuleSet.apply`` checks, then returns a
new state and the domain events. A rule set is a variant of this core, as ``chess.variant`` boards are of
python-chess's ``Board``: it says how a game starts (``new_game_from_setup``), which actions it knows
(``_check_<action>`` methods, found by the action's name), how a legal action changes the state (``perform``)
and what may be done now (``choices``). Nothing here knows rooms, sides, health or any one game.

The rule sets themselves live in ``service.games`` (``find_game(name)``), each with its own actions, events
and settings registered over this core's (``register_action``, ``register_event``, ``settings_type``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from service.rules import actions as A
from service.rules import events as E
from service.rules.errors import DecisionPendingError, GameOverError, IllegalActionError
from service.rules.settings import RuleSettings


class PendingDecision(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...


class RulesState(Protocol):
    """What the base needs of any game's state: whether it is over, and what decision it waits for."""

    @property
    def ruleset(self) -> str: ...

    @property
    def outcome(self) -> str | None: ...

    @property
    def pending(self) -> PendingDecision | None: ...

    def public_view(self) -> dict[str, Any]: ...

    def to_json(self) -> str: ...


StateT = TypeVar("StateT", bound=RulesState)
ContentT = TypeVar("ContentT")


class RuleSet(ABC, Generic[StateT, ContentT]):
    """One game's rules. Subclasses set ``name`` and implement the abstract methods."""

    name: ClassVar[str] = ""
    settings_type: ClassVar[type[RuleSettings]] = RuleSettings
    """The class of this game's table options (a setup record's ``settings`` decode into it)."""

    def __init__(self, content: ContentT, settings: RuleSettings | None = None) -> None:
        self.content = content
        self.settings = settings if settings is not None else self.settings_type()

    # == the public API ===========================================================================
    def check(self, state: StateT, action: A.Action) -> None:
        """Raises a specific ``IllegalActionError`` if ``action`` is not legal now; otherwise returns."""
        if state.outcome is not None and not action.correction:
            raise GameOverError("the game is over", self.game_over_rule())
        if state.pending is not None and not (action.correction or isinstance(action, A.Decide)):
            raise DecisionPendingError(
                f"decision {state.pending.id} ({state.pending.kind}) must be answered first",
                self.rule_for_pending(state),
            )
        checker = getattr(self, f"_check_{action.name}", None)
        if checker is None:
            raise IllegalActionError(
                f"{type(action).__name__} is not part of {self.name}", self.unknown_action_rule()
            )
        checker(state, action)

    def apply(self, state: StateT, action: A.Action) -> tuple[StateT, list[E.Event]]:
        """Checks ``action``; returns the new state and what happened. ``state`` itself never changes."""
        self.check(state, action)
        return self.perform(state, action)

    def is_legal(self, state: StateT, action: A.Action) -> bool:
        try:
            self.check(state, action)
        except IllegalActionError:
            return False
        return True

    # == what each rule set provides ==============================================================
    @abstractmethod
    def new_game_from_setup(self, setup: Mapping[str, Any]) -> StateT:
        """The state a game log's setup record starts (docs/game-log.md). Raises ``IllegalActionError``,
        ``LookupError``, ``KeyError`` (a missing field) or ``ValueError`` naming what is wrong."""

    @abstractmethod
    def perform(self, state: StateT, action: A.Action) -> tuple[StateT, list[E.Event]]:
        """Applies an action ``check`` accepted (trusting it, as python-chess's ``push`` does)."""

    @abstractmethod
    def choices(self, state: StateT) -> list[A.Action]:
        """The legal actions a person could choose now, for consoles and simulated players."""

    @abstractmethod
    def rule_for_pending(self, state: StateT) -> str:
        """The rule (``<file>: <section>``) behind the pending decision, for error messages."""

    @abstractmethod
    def game_over_rule(self) -> str:
        """The rule that ends this game, cited when an action comes after the end."""

    @abstractmethod
    def unknown_action_rule(self) -> str:
        """The rule cited when an action is not part of this game."""


__all__ = ["RuleSet", "RulesState", "StateT"]
