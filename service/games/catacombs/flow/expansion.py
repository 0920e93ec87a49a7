"""What an edition's expansions change in the turn flow both Catacombs editions share: immunities, which
spells a hero may cast or choose, whose gold is never pooled, which hits a shot damages and what a shot does
after its hits. The flow asks its rule set's ``expansion`` (``FlowRules.expansion``); the defaults here are
the flow's own rules, and an edition with expansions that change them gives its own (Third Edition's
Castles heroes and shots: ``third_edition/expansions/castles_in_flow.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service.games.catacombs.flow.cards import ActionCard, HeroCard
from service.games.catacombs.flow.shots import Shot
from service.games.catacombs.flow.state import Character
from service.rules.actions import ResolveShot


class FlowExpansion:
    """The flow with no expansion changing it. ``tx`` is the shot's ``flow.tx.Tx`` (typed loosely here: the
    transaction's module imports this one)."""

    # Target Shot: damage "to the stated target only"; a miss may be retried once.
    target_shots: tuple[str, ...] = ("target",)

    def unaffected_by(self, modifier: str, c: Character) -> bool:
        """Whether ``c`` ignores the shot modifier ``modifier``."""
        return False

    def bloodless(self, c: Character) -> bool:
        """Whether hitting ``c`` gives the attacker no health (regeneration)."""
        return False

    def fireproof(self, c: Character) -> bool:
        """Whether fire walls do ``c`` no damage."""
        return False

    def why_not_cast(self, c: Character, card: ActionCard) -> str | None:
        """Why ``c`` may not take the Spell ``card`` (an ally's spell), or None."""
        return None

    def why_not_choose(self, hero: HeroCard, card: ActionCard) -> str | None:
        """Why ``hero`` may not choose the Spell ``card`` at the start of the game, or None."""
        return None

    def spell_choice_rule(self) -> str:
        """The rule cited when ``why_not_choose`` refuses a spell."""
        return ""

    def pays_alone(self, characters: Iterable[Character]) -> tuple[str, ...]:
        """The heroes whose gold is never pooled with the party's."""
        return ()

    def struck(
        self, tx: Any, attacker: Character, shot: Shot, hits: tuple[str, ...], target: str | None
    ) -> tuple[str, ...]:
        """The hits ``shot`` damages, of those it made."""
        return hits

    def after_shot(
        self, tx: Any, attacker: Character, shot: Shot, action: ResolveShot, damaged: tuple[str, ...]
    ) -> None:
        """What the shot does after its hits are resolved (damage, modifiers, the rule set's after_hits)."""


NO_EXPANSION = FlowExpansion()


class WithoutExpansion:
    """The default of ``CatacombsFlow.expansion``: no expansion changes the flow."""

    @property
    def expansion(self) -> FlowExpansion:
        return NO_EXPANSION
