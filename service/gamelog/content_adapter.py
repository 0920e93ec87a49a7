"""The shipped content (``service.content``) seen through the rules core's ``Content`` interface."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service.rules.cards import (
    ActionCard,
    CardIndex,
    HeroCard,
    LordCard,
    MonsterCard,
    QuadrantEntry,
    RoomCard,
)
from service.rules.shots import Sequence, Shot

# An Item card whose frequency is not known is treated as once per game, the most limiting reading, until
# an organiser's overlay says otherwise.
UNKNOWN_FREQUENCY = "once_per_game"
SPECIAL_KINDS = {"healer", "inn", "merchant", "tavern", "lair", "altar"}


def _shot(spec: Any) -> Shot:
    return Shot(spec.shot, spec.modifier, spec.count, spec.summons)


def _sequences(alternatives: Iterable[Any]) -> tuple[Sequence, ...]:
    out = []
    for alternative in alternatives:
        shots = tuple(_shot(s) for s in alternative)
        elastic = any(getattr(s, "connector", None) == "elastic" for s in alternative)
        out.append(Sequence(shots, elastic))
    return tuple(out)


def rules_content(content: Any) -> CardIndex:
    """Builds a ``CardIndex`` from a loaded ``service.content.Content``."""
    heroes = [
        HeroCard(
            h.id,
            h.name,
            h.starting_health,
            _sequences(h.shot_sequences),
            nullifies=tuple(_shot(s) for s in h.nullifies),
            spell_caster=h.spell_caster,
            extra_gold_per_kill=h.gold_per_kill_bonus,
            abilities=tuple(a.card for a in h.abilities for _ in range(a.count)),
            spell_choices=h.spell_cards_chosen_at_start,
            can_use_weapons=h.can_use_weapons,
            item_discount=h.item_discount or 0,
        )
        for h in content.heroes.values()
    ]
    monsters = [
        MonsterCard(
            m.id,
            m.name,
            m.level,
            m.family,
            m.health,
            m.reward_gold,
            _sequences(m.shot_sequences),
            nullifies=tuple(_shot(s) for s in m.nullifies),
            reflects=tuple(_shot(s) for s in m.reflects),
            shadow=m.shadow,
            small=m.disc_size == "small",
            ordered_by_round=m.sequence_selection == "ordered_by_round",
            shares_pieces_with=tuple(getattr(m, "shares_pieces_with", ())),
            pieces=m.pieces,
        )
        for m in content.monsters.values()
    ]
    monsters += [
        MonsterCard(a.id, a.name, 0, "antient", None, 0, _sequences(a.shot_sequences), antient=True, pieces=1)
        for a in getattr(content, "antients", {}).values()
    ]
    rooms = [
        RoomCard(
            r.id,
            r.name,
            "battle",
            r.difficulty,
            tuple(_shot(s) for s in r.suppresses),
            {
                level: tuple(QuadrantEntry(e.kind, e.count, e.monster) for e in quadrant)
                for level, quadrant in enumerate(r.quadrants, start=1)
                if quadrant
            },
        )
        for r in content.rooms.values()
    ]
    rooms += [
        RoomCard(s.id, s.name, s.kind if s.kind in SPECIAL_KINDS else "special")
        for s in content.special_rooms.values()
    ]
    lords = [
        LordCard(
            lord.id,
            lord.name,
            lord.starting_health,
            _sequences(lord.shot_sequences),
            lord.mercenary_monster,
            tuple((m.monster, m.count) for m in lord.minions),
            lair_playmat=lord.lair_playmat,
        )
        for lord in content.lords.values()
    ]
    cards = [
        ActionCard(
            i.id,
            i.name,
            "item",
            i.frequency or UNKNOWN_FREQUENCY,
            _sequences(i.shot_sequences),
            combo=i.combo,
            familiar=i.familiar,
            weapon=i.weapon,
            magic=i.magic_item,
            cost=i.cost,
            copies=i.copies,  # the Item deck holds every copy (Xoric may start with two Battle Axes)
            starting_health_min=_bound(i, "min"),
            starting_health_max=_bound(i, "max"),
        )
        for i in content.items.values()
    ]
    cards += [
        ActionCard(
            sp.id,
            sp.name,
            "spell",
            "once_per_game",
            _sequences(sp.shot_sequences),
            heal=sp.heal,
            heal_all=sp.heal_all,
            cure_poison=sp.cure_poison,
        )
        for sp in content.spells.values()
    ]
    cards += [
        ActionCard(a.id, a.name, "ability", a.frequency, _sequences(a.shot_sequences))
        for a in content.abilities.values()
    ]
    layouts = {layout.id: tuple(_slot(s) for s in layout.slots) for layout in content.layouts.values()}
    return CardIndex(heroes, monsters, rooms, lords, content.poison_deck.cards, cards, layouts)


def _bound(item: Any, which: str) -> int | None:
    """One bound of an Item card's starting-health usage restriction (None: no bound)."""
    limits = getattr(item, "starting_health_restriction", None)
    return None if limits is None else getattr(limits, which)


def _slot(slot: Any) -> str:
    """A content layout slot as a ``service.rules.layout`` slot word."""
    if slot.kind == "lair":
        return "lair"
    if slot.room:
        return str(slot.room)
    if slot.kind == "special":
        return "special"
    return f"difficulty_{slot.difficulty}"
