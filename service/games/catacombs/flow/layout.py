"""Dealing the Room deck (catacombs-3e-reference.txt: Addendum: Alternate Room Card Layouts).

A layout is a list of slots from the top of the column: a room id, ``difficulty_0`` / ``_1`` / ``_2``
(a random battle room of that difficulty), ``special`` (a random Special Room card, the Altar of Soloth
among them when the Cavern of Soloth is in play) or ``lair`` (the
Catacomb Lord's Lair, "always placed last, face up"). Random picks come from the game's seed, so a log
replays the same deck.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.games.catacombs.flow.cards import Content
from service.games.catacombs.flow.rulebooks import cite
from service.rules import rng
from service.rules.errors import IllegalActionError

LAYOUTS = cite("Addendum: Alternate Room Card Layouts")
SPECIAL_KINDS = ("healer", "inn", "merchant", "tavern", "altar")  # the Altar: with the soloth expansion


def deal_room_deck(content: Content, slots: Sequence[str] | str, seed: int) -> tuple[str, ...]:
    """``slots`` is a list of slots, or the id of a layout in the content."""
    if isinstance(slots, str):
        slots = content.layout(slots)
    rooms = sorted(content.rooms(), key=lambda r: r.id)
    state = rng.seed_state(seed ^ 0x5EED_0F_D0C5)
    piles: dict[str, list[str]] = {}
    for difficulty in (0, 1, 2):
        state, pile = rng.shuffled(
            state, [r.id for r in rooms if r.kind == "battle" and r.difficulty == difficulty]
        )
        piles[f"difficulty_{difficulty}"] = list(pile)
    state, specials = rng.shuffled(state, [r.id for r in rooms if r.kind in SPECIAL_KINDS])
    piles["special"] = list(specials)
    lairs = [r.id for r in rooms if r.kind == "lair"]
    known = {r.id for r in rooms}
    deck: list[str] = []
    for slot in slots:
        if slot == "lair":
            if not lairs:
                raise IllegalActionError("the content has no Catacomb Lord's Lair card", LAYOUTS)
            deck.append(lairs[0])
        elif slot in piles:
            if not piles[slot]:
                raise IllegalActionError(
                    f"not enough {slot.replace('_', ' ')} Room cards for this layout", LAYOUTS
                )
            deck.append(piles[slot].pop(0))
        elif slot in known:
            deck.append(slot)
        else:
            raise IllegalActionError(f"unknown layout slot or room {slot!r}", LAYOUTS)
    if lairs and lairs[0] in deck[:-1]:
        raise IllegalActionError("the Lair is always the last Room card", LAYOUTS)
    return tuple(deck)
