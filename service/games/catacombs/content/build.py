"""Turning validated Catacombs records into the typed cards of ``model`` (the marks every record has are
read by ``service.content.records.marks``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

from service.content.records import ShotAlternatives, ShotSequence, ShotSpec, marks
from service.games.catacombs.content.model import (
    AbilityCard,
    AntientCard,
    CardCount,
    HealthBand,
    HeroCard,
    ItemCard,
    LayoutSlot,
    LordCard,
    MonsterCard,
    MonsterCount,
    Playmat,
    PoisonCard,
    QuadrantEntry,
    RoomCard,
    RoomLayout,
    Service,
    SpecialRoomCard,
    SpellCard,
    StartingHealthRestriction,
    TavernReward,
)

Raw = Mapping[str, Any]


def shot(raw: Raw, position: int = 0) -> ShotSpec:
    connector = raw.get("connector", "then") if position > 0 else None
    return ShotSpec(
        shot=raw["shot"],
        modifier=raw.get("modifier"),
        count=raw.get("count", 1),
        connector=connector,
        optional=raw.get("optional", False),
        summons=raw.get("summons"),
        transforms_into=raw.get("transforms_into"),
    )


def sequence(raw: Iterable[Raw]) -> ShotSequence:
    return tuple(shot(item, position) for position, item in enumerate(raw))


def alternatives(raw: Iterable[Iterable[Raw]] | None) -> ShotAlternatives:
    return tuple(sequence(item) for item in raw or ())


def patterns(raw: Iterable[Raw] | None) -> tuple[ShotSpec, ...]:
    return tuple(shot(item) for item in raw or ())


def card_counts(raw: Iterable[Raw] | None) -> tuple[CardCount, ...]:
    return tuple(
        CardCount(item["card"], item.get("count", 1), item.get("optional", False)) for item in raw or ()
    )


def monster(record_id: str, raw: Raw) -> MonsterCard:
    return MonsterCard(
        **marks(record_id, raw),
        family=raw["family"],
        level=raw["level"],
        health=raw.get("health"),
        shadow=raw.get("shadow", False),
        reward_gold=raw["reward_gold"],
        disc_size=raw.get("disc_size"),
        disc_color=raw.get("disc_color"),
        nullifies=patterns(raw.get("nullifies")),
        reflects=patterns(raw.get("reflects")),
        shot_sequences=alternatives(raw["shot_sequences"]),
        sequence_selection=raw.get("sequence_selection", "choice"),
        special=raw.get("special"),
        suppresses_while_alive=patterns(raw.get("suppresses_while_alive")),
        shares_pieces_with=tuple(raw.get("shares_pieces_with", ())),
        pieces=raw.get("pieces", 4),
    )


def room(record_id: str, raw: Raw) -> RoomCard:
    quadrants = raw["quadrants"]
    return RoomCard(
        **marks(record_id, raw),
        difficulty=raw["difficulty"],
        suppresses=patterns(raw.get("suppresses")),
        quadrants=tuple(
            tuple(
                QuadrantEntry(entry["kind"], level, entry["count"], entry.get("monster"))
                for entry in quadrants.get(f"level_{level}", [])
            )
            for level in range(1, 5)
        ),
    )


def special_room(record_id: str, raw: Raw) -> SpecialRoomCard:
    return SpecialRoomCard(
        **marks(record_id, raw),
        kind=raw["kind"],
        rules=tuple(raw.get("rules", ())),
        services=tuple(Service(s["id"], s["name"], s["cost"], s["effect"]) for s in raw.get("services", ())),
        costs=MappingProxyType(dict(raw.get("costs", {}))),
        free_service=raw.get("free_service"),
        bet_cost=raw.get("bet_cost"),
        pieces_drawn=raw.get("pieces_drawn"),
        bag_contents=raw.get("bag_contents"),
        rewards=tuple(TavernReward(r["draw"], r["reward"]) for r in raw.get("rewards", ())),
        items_revealed=raw.get("items_revealed"),
    )


def lord(record_id: str, raw: Raw) -> LordCard:
    return LordCard(
        **marks(record_id, raw),
        title=raw["title"],
        starting_health=raw["starting_health"],
        minions=tuple(MonsterCount(m["monster"], m["count"]) for m in raw["minions"]),
        mercenary_monster=raw["mercenary_monster"],
        shot_sequences=alternatives(raw["shot_sequences"]),
        strength_rank=raw.get("strength_rank"),
        sequence_selection=raw.get("sequence_selection", "choice"),
        health_bands=tuple(
            HealthBand(b["sequence"], b["min_health"], b.get("max_health"))
            for b in raw.get("health_bands", ())
        ),
        lair_playmat=raw.get("lair_playmat"),
    )


def hero(record_id: str, raw: Raw) -> HeroCard:
    return HeroCard(
        **marks(record_id, raw),
        hero_class=raw["class"],
        starting_health=raw["starting_health"],
        shot_sequences=alternatives(raw["shot_sequences"]),
        abilities=card_counts(raw.get("abilities")),
        starting_items=card_counts(raw.get("starting_items")),
        spell_caster=raw.get("spell_caster", False),
        spell_cards_chosen_at_start=raw.get("spell_cards_chosen_at_start", 0),
        spell_cards_chosen_as_ally=raw.get("spell_cards_chosen_as_ally", 0),
        can_use_weapons=raw.get("can_use_weapons"),
        can_use_magic_items=raw.get("can_use_magic_items"),
        nullifies=patterns(raw.get("nullifies")),
        gold_per_kill_bonus=raw.get("gold_per_kill_bonus", 0),
        item_discount=raw.get("item_discount"),
        special_rules=tuple(raw.get("special_rules", ())),
        recommended_for_first_games=raw.get("recommended_for_first_games", False),
        team=raw.get("team"),
        hero_type=raw.get("hero_type"),
        attributes=tuple(raw.get("attributes", ())),
    )


def item(record_id: str, raw: Raw) -> ItemCard:
    return ItemCard(
        **marks(record_id, raw),
        aliases=tuple(raw.get("aliases", ())),
        copies=raw.get("copies", 1),
        cost=raw.get("cost"),
        frequency=raw.get("frequency"),
        combo=raw.get("combo"),
        shot_sequences=alternatives(raw.get("shot_sequences")),
        effect=raw.get("effect"),
        weapon=raw.get("weapon", False),
        magic_item=raw.get("magic_item", False),
        familiar=raw.get("familiar", False),
        amaranth_inn_cellar_item=raw.get("amaranth_inn_cellar_item", False),
        hero=raw.get("hero"),
        starting_health_restriction=starting_health_restriction(raw.get("starting_health_restriction")),
    )


def starting_health_restriction(raw: Raw | None) -> StartingHealthRestriction | None:
    if raw is None:
        return None
    return StartingHealthRestriction(raw.get("min"), raw.get("max"))


def spell(record_id: str, raw: Raw) -> SpellCard:
    return SpellCard(
        **marks(record_id, raw),
        shot_sequences=alternatives(raw.get("shot_sequences")),
        effect=raw.get("effect"),
        heal=raw.get("heal", 0),
        heal_all=raw.get("heal_all", 0),
        cure_poison=raw.get("cure_poison", 0),
        rush_before_casting=raw.get("rush_before_casting", True),
        dark=raw.get("dark", False),
    )


def ability(record_id: str, raw: Raw) -> AbilityCard:
    return AbilityCard(
        **marks(record_id, raw),
        hero=raw["hero"],
        copies=raw.get("copies", 1),
        shot_sequences=alternatives(raw.get("shot_sequences")),
        effect=raw.get("effect"),
        frequency=raw.get("frequency", "once_per_room"),
    )


def poison_card(record_id: str, raw: Raw) -> PoisonCard:
    return PoisonCard(**marks(record_id, raw), value=raw["value"], copies=raw["copies"])


def playmat(record_id: str, raw: Raw) -> Playmat:
    return Playmat(
        **marks(record_id, raw),
        mat=raw["mat"],
        reverse=raw["reverse"],
        zones=tuple(raw.get("zones", ("hero-start", "monster-start"))),
        obstacles=raw.get("obstacles"),
        runes=raw.get("runes"),
    )


def layout_slot(raw: Raw) -> LayoutSlot:
    if "room" in raw:
        return LayoutSlot("room", room=raw["room"])
    if "battle" in raw:
        return LayoutSlot("battle", difficulty=raw["battle"])
    if "special" in raw:
        return LayoutSlot("special", room=None if raw["special"] == "any" else raw["special"])
    return LayoutSlot("lair")


def layout(record_id: str, raw: Raw) -> RoomLayout:
    return RoomLayout(
        **marks(record_id, raw),
        kind=raw["kind"],
        slots=tuple(layout_slot(slot) for slot in raw["slots"]),
        fan_variant=raw.get("fan_variant", False),
    )


def antient(record_id: str, raw: Raw) -> AntientCard:
    return AntientCard(
        **marks(record_id, raw),
        shot_sequences=alternatives(raw.get("shot_sequences")),
        invulnerable=raw.get("invulnerable", True),
        control=raw.get("control", "alternates"),
        rules=tuple(raw.get("rules", ())),
    )


BUILDERS: Mapping[str, Callable[[str, Raw], Any]] = {
    "antient": antient,
    "monster": monster,
    "room": room,
    "special_room": special_room,
    "lord": lord,
    "hero": hero,
    "item": item,
    "spell": spell,
    "ability": ability,
    "poison_card": poison_card,
    "playmat": playmat,
    "layout": layout,
}
