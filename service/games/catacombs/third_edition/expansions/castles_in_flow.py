"""The Castles heroes and shots in a Third Edition game, as the shared Catacombs flow asks for them
(``flow/expansion.py``): catacombs-and-castles-2e-manual.md: Catacombs 3E Integration (Team Catacomb heroes,
Hero Attributes, Dark Spell Cards) and Catacombs & Castles Shots In Catacombs 3E."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from service.games.catacombs.flow.cards import ActionCard, HeroCard
from service.games.catacombs.flow.expansion import FlowExpansion
from service.games.catacombs.flow.shots import Shot
from service.games.catacombs.flow.state import Character
from service.games.catacombs.third_edition.expansions import castles_integration as integration
from service.games.catacombs.third_edition.expansions import castles_shots
from service.rules.actions import ResolveShot

if TYPE_CHECKING:
    from service.games.catacombs.flow.tx import Tx


class CastlesInTheFlow(FlowExpansion):
    """Reads the Castles facts of the game's content; with none (no ``castles`` expansion) it changes nothing
    but what the Castles shot kinds do, which only Castles cards carry."""

    target_shots = castles_shots.TARGET_SHOTS

    def __init__(self, content: object) -> None:
        self.content = content

    def unaffected_by(self, modifier: str, c: Character) -> bool:
        return integration.unaffected_by(self.content, modifier, c)

    def bloodless(self, c: Character) -> bool:
        return integration.bloodless(self.content, c)

    def fireproof(self, c: Character) -> bool:
        return integration.fireproof(self.content, c)

    def why_not_cast(self, c: Character, card: ActionCard) -> str | None:
        return integration.why_not_cast(self.content, c, card)

    def why_not_choose(self, hero: HeroCard, card: ActionCard) -> str | None:
        return integration.why_not_choose(self.content, hero, card)

    def spell_choice_rule(self) -> str:
        return integration.DARK_SPELLS

    def pays_alone(self, characters: Iterable[Character]) -> tuple[str, ...]:
        return integration.pays_alone(self.content, characters)

    def struck(
        self, tx: Tx, attacker: Character, shot: Shot, hits: tuple[str, ...], target: str | None
    ) -> tuple[str, ...]:
        return castles_shots.struck(tx, attacker, shot, hits, target)

    def after_shot(
        self, tx: Tx, attacker: Character, shot: Shot, action: ResolveShot, damaged: tuple[str, ...]
    ) -> None:
        castles_shots.effects(tx, attacker, shot, action, damaged)
