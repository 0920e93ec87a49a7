"""``load_content``: a Catacombs rule set's cards (and an optional overlay), validated and cross-checked."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from service.content.errors import ContentError, Problem
from service.content.reading import CONTENT_ROOT, Checker, RulesetRecords, fail, read_ruleset
from service.content.records import ShotSpec
from service.content.sources import FileKind
from service.games.catacombs.content import build
from service.games.catacombs.content.model import Content, PoisonDeck

SCHEMAS = "service.games.catacombs.schemas.content"
"""The package of the JSON Schemas its records are checked against."""

__all__ = ["CONTENT_ROOT", "load_content"]

CATACOMBS_3E_FILES = (
    FileKind("monsters.yaml", "monsters", "monster", SCHEMAS),
    FileKind("rooms.yaml", "rooms", "room", SCHEMAS),
    FileKind("special-rooms.yaml", "special_rooms", "special_room", SCHEMAS),
    FileKind("lords.yaml", "lords", "lord", SCHEMAS),
    FileKind("heroes.yaml", "heroes", "hero", SCHEMAS),
    FileKind("items.yaml", "items", "item", SCHEMAS),
    FileKind("spells.yaml", "spells", "spell", SCHEMAS),
    FileKind("abilities.yaml", "abilities", "ability", SCHEMAS),
    FileKind("poison-deck.yaml", "poison_deck", "poison_card", SCHEMAS),
    FileKind("playmats.yaml", "playmats", "playmat", SCHEMAS),
    FileKind("layouts.yaml", "layouts", "layout", SCHEMAS),
    FileKind("antients.yaml", "antients", "antient", SCHEMAS),
)

# 3E reference: Components ("Poisoned! Cards x15").
POISON_DECK_SIZE = 15


def load_content(ruleset: str, overlay: Path | str | None = None, expansions: Sequence[str] = ()) -> Content:
    """The validated content of ``ruleset``, with ``overlay``'s files laid over the shipped ones.

    ``expansions`` (e.g. ``("soloth",)``) adds the shipped content of those expansions first.
    Raises ContentError listing every problem found (file and key path for each).
    """
    monsters = CATACOMBS_3E_FILES[0].filename
    if (CONTENT_ROOT / ruleset).is_dir() and not (CONTENT_ROOT / ruleset / monsters).exists():
        # Another game's folder (its own package reads it): one plain refusal instead of a page of misfits.
        refusal = f"not a Catacombs card set (no {monsters}): its game reads it"
        raise ContentError([Problem(f"content/{ruleset}", "", refusal)])
    records = read_ruleset(ruleset, CATACOMBS_3E_FILES, overlay, expansions)
    result = _build(records)
    problems: list[Problem] = []
    _cross_check(result, records.records, problems)
    if problems:
        fail(problems)
    return result


def _build(records: RulesetRecords) -> Content:
    def group(key: str, schema: str) -> Mapping[str, Any]:
        builder = build.BUILDERS[schema]
        return MappingProxyType({rid: builder(rid, data) for rid, data in records.data(key)})

    return Content(
        ruleset=records.ruleset,
        monsters=group("monsters", "monster"),
        rooms=group("rooms", "room"),
        special_rooms=group("special_rooms", "special_room"),
        lords=group("lords", "lord"),
        heroes=group("heroes", "hero"),
        items=group("items", "item"),
        spells=group("spells", "spell"),
        abilities=group("abilities", "ability"),
        poison_deck=PoisonDeck(group("poison_deck", "poison_card")),
        playmats=group("playmats", "playmat"),
        layouts=group("layouts", "layout"),
        antients=group("antients", "antient"),
        files=records.files,
    )


def _check_summons(
    check: Checker,
    key: str,
    record_id: str,
    sequences: Iterable[Iterable[ShotSpec]],
    content: Content,
) -> None:
    # A summon shot brings a monster, or an Antient (3E reference: Antients; Vaiel's Urn).
    for i, seq in enumerate(sequences):
        for j, spec in enumerate(seq):
            summoned = spec.summons
            if summoned is not None and summoned not in content.monsters and summoned not in content.antients:
                check.fail(
                    key,
                    record_id,
                    ["shot_sequences", i, j, "summons"],
                    f"unknown monster or Antient {summoned!r}",
                )


def _cross_check(c: Content, merged: Mapping[str, Mapping[str, Any]], problems: list[Problem]) -> None:
    check = Checker(merged, problems)
    _check_monsters_and_rooms(c, check)
    _check_lords(c, check)
    _check_hero_cards(c, check)
    _check_hero_types(c, check)
    _check_playmats(c, check)
    _check_layouts(c, check)
    _check_poison_deck(c, check)


def _check_monsters_and_rooms(c: Content, check: Checker) -> None:
    for mid, monster in c.monsters.items():
        if monster.shadow and monster.health is not None:
            check.fail(
                "monsters",
                mid,
                ["health"],
                "a shadow monster has no health (it dies only by leaving the playmat)",
            )
        _check_summons(check, "monsters", mid, monster.shot_sequences, c)
        for index, other in enumerate(monster.shares_pieces_with):
            path_: list[str | int] = ["shares_pieces_with", index]
            check.ref("monsters", mid, path_, other, c.monsters, "monster")
            if other == mid:
                check.fail("monsters", mid, path_, "a monster cannot share its piece with itself")
    for rid, room in c.rooms.items():
        for quadrant in room.quadrants:
            for index, entry in enumerate(quadrant):
                path: list[str | int] = ["quadrants", f"level_{entry.level}", index, "monster"]
                if entry.kind != "specific" and entry.monster is not None:
                    check.fail(
                        "rooms", rid, path, f"only 'specific' icons name a monster ({entry.kind} does not)"
                    )
                check.ref("rooms", rid, path, entry.monster, c.monsters, "monster")


def _check_lords(c: Content, check: Checker) -> None:
    for lid, lord in c.lords.items():
        for index, minion in enumerate(lord.minions):
            check.ref("lords", lid, ["minions", index, "monster"], minion.monster, c.monsters, "monster")
        check.ref("lords", lid, ["mercenary_monster"], lord.mercenary_monster, c.monsters, "monster")
        check.ref("lords", lid, ["lair_playmat"], lord.lair_playmat, c.playmats, "playmat")
        _check_summons(check, "lords", lid, lord.shot_sequences, c)
        for index, band in enumerate(lord.health_bands):
            if band.sequence > len(lord.shot_sequences):
                check.fail(
                    "lords",
                    lid,
                    ["health_bands", index, "sequence"],
                    f"sequence {band.sequence} but the card has {len(lord.shot_sequences)}",
                )


# catacombs-and-castles-2e-manual.md: Dark Spell Cards: what each hero type may use, as the card fields say it
# (spell_caster, can_use_weapons, can_use_magic_items).
HERO_TYPE_FIELDS = {
    "cleric": (False, False, False),
    "fighter": (False, True, False),
    "spell_caster": (True, False, True),
    "monarch": (True, True, True),
}


def _check_hero_types(c: Content, check: Checker) -> None:
    for hid, hero in c.heroes.items():
        if hero.hero_type is None:
            continue
        wanted = HERO_TYPE_FIELDS[hero.hero_type]
        given = (hero.spell_caster, hero.can_use_weapons, hero.can_use_magic_items)
        names = ("spell_caster", "can_use_weapons", "can_use_magic_items")
        for name, want, got in zip(names, wanted, given, strict=True):
            if got is not None and got != want:
                check.fail("heroes", hid, [name], f"a {hero.hero_type} hero has {name}: {str(want).lower()}")


def _check_hero_cards(c: Content, check: Checker) -> None:
    for hid, hero in c.heroes.items():
        for index, card in enumerate(hero.abilities):
            check.ref("heroes", hid, ["abilities", index, "card"], card.card, c.abilities, "ability card")
            if card.card in c.abilities and c.abilities[card.card].hero != hid:
                check.fail(
                    "heroes",
                    hid,
                    ["abilities", index, "card"],
                    f"ability {card.card!r} belongs to {c.abilities[card.card].hero!r}",
                )
        for index, card in enumerate(hero.starting_items):
            check.ref("heroes", hid, ["starting_items", index, "card"], card.card, c.items, "item card")
    for aid, ability in c.abilities.items():
        check.ref("abilities", aid, ["hero"], ability.hero, c.heroes, "hero")
        _check_summons(check, "abilities", aid, ability.shot_sequences, c)
    for iid, item in c.items.items():
        check.ref("items", iid, ["hero"], item.hero, c.heroes, "hero")
        limits = item.starting_health_restriction
        if (
            limits is not None
            and limits.min is not None
            and limits.max is not None
            and limits.min > limits.max
        ):
            check.fail(
                "items",
                iid,
                ["starting_health_restriction", "max"],
                f"max {limits.max} is below min {limits.min}: no hero could use the item",
            )
        _check_summons(check, "items", iid, item.shot_sequences, c)
    for sid, spell in c.spells.items():
        _check_summons(check, "spells", sid, spell.shot_sequences, c)


def _check_playmats(c: Content, check: Checker) -> None:
    for pid, mat in c.playmats.items():
        other = c.playmats.get(mat.reverse)
        if other is None:
            check.fail("playmats", pid, ["reverse"], f"unknown playmat {mat.reverse!r}")
        elif other.reverse != pid or other.mat != mat.mat or mat.reverse == pid:
            check.fail(
                "playmats", pid, ["reverse"], f"{mat.reverse!r} is not the other side of mat {mat.mat!r}"
            )


def _check_poison_deck(c: Content, check: Checker) -> None:
    deck_size = len(c.poison_deck)
    if deck_size != POISON_DECK_SIZE and c.poison_deck.kinds:
        first = sorted(c.poison_deck.kinds)[0]
        check.fail(
            "poison_deck",
            first,
            ["copies"],
            f"the Poison deck holds {deck_size} cards; the 3E component list has {POISON_DECK_SIZE}",
        )


def _check_layouts(c: Content, check: Checker) -> None:
    lairs = {sid for sid, room in c.special_rooms.items() if room.kind == "lair"}
    for lid, layout in c.layouts.items():
        for index, slot in enumerate(layout.slots):
            if slot.kind == "room" and slot.room not in c.rooms and slot.room not in c.special_rooms:
                check.fail("layouts", lid, ["slots", index, "room"], f"unknown room {slot.room!r}")
            if (
                slot.kind == "special"
                and slot.room is not None
                and (slot.room not in c.special_rooms or slot.room in lairs)
            ):
                check.fail("layouts", lid, ["slots", index, "special"], f"unknown special room {slot.room!r}")
        for difficulty in (0, 1, 2):
            wanted = sum(
                1 for slot in layout.slots if slot.kind == "battle" and slot.difficulty == difficulty
            )
            deck = sum(1 for room in c.rooms.values() if room.difficulty == difficulty)
            if wanted > deck:
                check.fail(
                    "layouts", lid, ["slots"], f"{wanted} difficulty-{difficulty} slots but {deck} such rooms"
                )
        specials = [slot for slot in layout.slots if slot.kind == "special"]
        available = [sid for sid, room in c.special_rooms.items() if room.kind != "lair"]
        if len(specials) > len(available):
            check.fail(
                "layouts",
                lid,
                ["slots"],
                f"{len(specials)} special slots but only {len(available)} special rooms",
            )
        lair_positions = [
            i for i, slot in enumerate(layout.slots) if slot.kind == "lair" or slot.room in lairs
        ]
        if lair_positions != [len(layout.slots) - 1]:
            # 3E reference: Alternate Room Card Layouts (the Lair "is always placed last").
            check.fail(
                "layouts", lid, ["slots"], "the Catacomb Lord's Lair must be the last card, and only there"
            )
