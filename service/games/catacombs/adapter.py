"""The validated Catacombs 3E content (``service.games.catacombs.content.model``) as the cards the rules read
(``service.games.catacombs.flow.cards``). The model keeps what was printed and how sure we are of it; the
rules keep only what play needs. ``service.content`` loads the files (I/O); the rules take the result and
read none.
"""

from __future__ import annotations

from collections.abc import Iterable

from service.content.records import ShotAlternatives, ShotSpec
from service.games.catacombs.content import model as M
from service.games.catacombs.flow import cards as R
from service.games.catacombs.flow.shots import Sequence, Shot

# An Item card whose frequency is not known is treated as once per game, the most limiting reading, until an
# organiser's overlay says otherwise.
UNKNOWN_FREQUENCY = "once_per_game"


def rules_content(content: M.Content) -> R.CardIndex:
    antients = [
        R.MonsterCard(a.id, a.name, 0, "antient", None, 0, _alts(a.shot_sequences), antient=True, pieces=1)
        for a in content.antients.values()
    ]
    specials = [R.RoomCard(s.id, s.name, s.kind) for s in content.special_rooms.values()]
    cards = [
        *map(_item, content.items.values()),
        *map(_spell, content.spells.values()),
        *(
            R.ActionCard(a.id, a.name, "ability", a.frequency, _alts(a.shot_sequences))
            for a in content.abilities.values()
        ),
    ]
    return R.CardIndex(
        map(_hero, content.heroes.values()),
        [*map(_monster, content.monsters.values()), *antients],
        [*map(_room, content.rooms.values()), *specials],
        map(_lord, content.lords.values()),
        content.poison_deck.cards,
        cards,
        {layout.id: tuple(map(_slot, layout.slots)) for layout in content.layouts.values()},
    )


def _shots(specs: Iterable[ShotSpec]) -> tuple[Shot, ...]:
    return tuple(Shot(s.shot, s.modifier, s.count, s.summons) for s in specs)


def _alts(alternatives: ShotAlternatives) -> tuple[Sequence, ...]:
    return tuple(Sequence(_shots(a), any(s.connector == "elastic" for s in a)) for a in alternatives)


def _hero(h: M.HeroCard) -> R.HeroCard:
    abilities = tuple(a.card for a in h.abilities for _ in range(a.count))
    return R.HeroCard(
        h.id, h.name, h.starting_health, _alts(h.shot_sequences), _shots(h.nullifies),
        spell_caster=h.spell_caster, extra_gold_per_kill=h.gold_per_kill_bonus, abilities=abilities,
        can_use_weapons=h.can_use_weapons, item_discount=h.item_discount or 0,
        spell_choices=h.spell_cards_chosen_at_start,
    )  # fmt: skip


def _monster(m: M.MonsterCard) -> R.MonsterCard:
    return R.MonsterCard(
        m.id, m.name, m.level, m.family, m.health, m.reward_gold, _alts(m.shot_sequences),
        _shots(m.nullifies), _shots(m.reflects), shadow=m.shadow, pieces=m.pieces,
        ordered_by_round=m.sequence_selection == "ordered_by_round", small=m.disc_size == "small",
        shares_pieces_with=m.shares_pieces_with,
    )  # fmt: skip


def _room(r: M.RoomCard) -> R.RoomCard:
    quadrants = {
        level: tuple(R.QuadrantEntry(e.kind, e.count, e.monster) for e in quadrant)
        for level, quadrant in enumerate(r.quadrants, start=1)
        if quadrant
    }
    return R.RoomCard(r.id, r.name, "battle", r.difficulty, _shots(r.suppresses), quadrants)


def _lord(lord: M.LordCard) -> R.LordCard:
    minions = tuple((m.monster, m.count) for m in lord.minions)
    return R.LordCard(
        lord.id, lord.name, lord.starting_health, _alts(lord.shot_sequences), lord.mercenary_monster,
        minions, lair_playmat=lord.lair_playmat,
    )  # fmt: skip


def _item(i: M.ItemCard) -> R.ActionCard:
    limits = i.starting_health_restriction or M.StartingHealthRestriction()
    return R.ActionCard(
        i.id, i.name, "item", i.frequency or UNKNOWN_FREQUENCY, _alts(i.shot_sequences), combo=i.combo,
        familiar=i.familiar, weapon=i.weapon, magic=i.magic_item, cost=i.cost,
        copies=i.copies,  # the Item deck holds every copy (Xoric may start with two Battle Axes)
        starting_health_min=limits.min, starting_health_max=limits.max,
    )  # fmt: skip


def _spell(s: M.SpellCard) -> R.ActionCard:
    return R.ActionCard(
        s.id, s.name, "spell", "once_per_game", _alts(s.shot_sequences),
        heal=s.heal, heal_all=s.heal_all, cure_poison=s.cure_poison,
    )  # fmt: skip


def _slot(slot: M.LayoutSlot) -> str:
    """A layout slot as a ``service.games.catacombs.flow.layout`` slot word."""
    if slot.kind == "lair":
        return "lair"
    if slot.room:
        return slot.room
    return "special" if slot.kind == "special" else f"difficulty_{slot.difficulty}"
