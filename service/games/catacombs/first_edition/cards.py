"""The card facts of Catacombs 1E the rules read beyond those of Catacombs 3E (the Italian 1E manual).

``Catacombs1ECards`` is a ``CardIndex`` (heroes, monsters, rooms, Lords, Spell / Ability / Item cards in the
3E card model, so the Catacombs turn flow reads them as it reads 3E's) with the first edition's extras: the
monsters' abilities (Abilità dei mostri), the special actions that leave their hero incapacitated, the
Barbarian's rage track and what a Frenzy spends of it (Preparazione degli eroi), and the level and board of
each battle Room card (``FirstEditionRoom``). Built from the validated ``content/catacombs-1e`` by
``service.games.catacombs.content.first_edition``; tests may build it by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from service.games.catacombs.flow.cards import (
    ActionCard,
    CardIndex,
    HeroCard,
    LordCard,
    MonsterCard,
    RoomCard,
)

MONSTER_ABILITIES = ("retaliation", "regeneration", "fire_wall", "feeding_frenzy", "absorption")


@dataclass(frozen=True, slots=True)
class FirstEditionRoom(RoomCard):
    """A 1E Room card: a battle card also names the board side it is played on (2: La Fase di Preparazione:
    "Prende la plancia di gioco indicata dalla carta stanza"); special cards and the Lord's card name none."""

    playmat: str | None = None


class Catacombs1ECards(CardIndex):
    def __init__(
        self,
        heroes: Iterable[HeroCard] = (),
        monsters: Iterable[MonsterCard] = (),
        rooms: Iterable[RoomCard] = (),
        lords: Iterable[LordCard] = (),
        cards: Iterable[ActionCard] = (),
        abilities: Mapping[str, tuple[str, ...]] | None = None,
        incapacitating: Iterable[str] = (),
        hero_cards: Mapping[str, tuple[str, ...]] | None = None,
        illusion_lords: Iterable[str] = (),
        rage_tracks: Mapping[str, tuple[int, int]] | None = None,
        rage_costs: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(heroes, monsters, rooms, lords, (), cards)
        self.monster_abilities = dict(abilities or {})
        self.incapacitating = frozenset(
            incapacitating
        )  # special actions after which the user is incapacitated
        self.hero_cards = dict(hero_cards or {})  # Item card id -> the heroes who may use it (none: any)
        # La Battaglia Finale: Lords who "can be seen, but not hurt" (the Sorcerer) while a servant stands.
        self.illusion_lords = frozenset(illusion_lords)
        # Hero card id -> (starting level, top level) of the rage track on its sheet.
        self.rage_tracks = dict(rage_tracks or {})
        self.rage_costs = dict(rage_costs or {})  # special-action card id -> rage levels a use spends

    def has(self, monster_card: str, ability: str) -> bool:
        return ability in self.monster_abilities.get(monster_card, ())

    def rooms_of_level(self, level: int) -> list[str]:
        return sorted(r.id for r in self.rooms() if r.kind == "battle" and r.difficulty == level)

    def board_of(self, room_id: str) -> str | None:
        """The board side a Room card calls for (None: the card names none)."""
        room = self.room(room_id)
        return room.playmat if isinstance(room, FirstEditionRoom) else None

    def special_room(self, kind: str) -> str:
        found = sorted(r.id for r in self.rooms() if r.kind == kind)
        if not found:
            raise LookupError(f"the content has no {kind} Room card")
        return found[0]
