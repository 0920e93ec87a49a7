"""Hand-made card sets for scenarios: the sample content plus whatever a test needs."""

from __future__ import annotations

from collections.abc import Iterable

from service.games.catacombs.flow.cards import CardIndex, HeroCard, MonsterCard, QuadrantEntry, RoomCard
from tests.helpers import sample_content as sample


def with_cards(
    heroes: Iterable[HeroCard] = (),
    monsters: Iterable[MonsterCard] = (),
    rooms: Iterable[RoomCard] = (),
    poison_deck: tuple[int, ...] = sample.POISON_DECK,
) -> CardIndex:
    hero_list = list(heroes)
    replaced = {h.id for h in hero_list}
    return CardIndex(
        [*hero_list, *(h for h in sample.HEROES if h.id not in replaced)],
        [*monsters, *sample.MONSTERS],
        [*rooms, *sample.ROOMS],
        sample.LORDS,
        poison_deck,
        sample.CARDS,
    )


def room_of(room_id: str, *monsters: tuple[str, int], suppresses: tuple = ()) -> RoomCard:  # type: ignore[type-arg]
    """A battle room holding the given monsters (card id, count), each in its card's quadrant."""
    return RoomCard(
        room_id,
        room_id.replace("-", " ").title(),
        "battle",
        1,
        suppresses,
        {1: tuple(QuadrantEntry("specific", n, m) for m, n in monsters)},
    )
