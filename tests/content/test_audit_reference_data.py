"""Audit: the shipped Catacombs 3E cards against the project's reference data and the rulebook's own numbers.

Every field the shipped records (read through ``load_content``, base game and Cavern of Soloth) and
shared/reference-data/catacombs-3e/*.yaml have in common is compared, record by record. A difference is
allowed only when the shipped record says why: the field is named in its ``unverified_fields``, or its
``note`` or ``source`` speaks of that field. Free text (effects, rules) is compared by the facts a game
uses: the numbers it states and the cards it names. A failure lists every record and field that differ.

The second half checks every card a worked example of catacombs-3e-reference.txt quotes.
The reference data is read from tests/data/reference-data/ (byte-identical copies of the project's
shared/reference-data/ files); a missing file fails the test, it is never skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from service.content import Record, ShotSpec
from service.games.catacombs.content import Content, load_content

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference-data" / "catacombs-3e"

MANUAL = "catacombs-3e-reference.txt"


# --- reading both sides -------------------------------------------------------------------------------------


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


def reference(filename: str, key: str) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = yaml.safe_load((REFERENCE / filename).read_text())[key]
    return records


def raw_shot(raw: Mapping[str, Any]) -> tuple[Any, ...]:
    summons = raw.get("summons")
    return (
        raw["shot"],
        raw.get("modifier"),
        raw.get("count", 1),
        slug(summons) if summons else None,
        raw.get("transforms_into"),
    )


def shipped_shot(spec: ShotSpec) -> tuple[Any, ...]:
    return (spec.shot, spec.modifier, spec.count, spec.summons, spec.transforms_into)


def raw_sequences(raw: Iterable[Iterable[Mapping[str, Any]]] | None) -> list[list[tuple[Any, ...]]]:
    return [[raw_shot(shot) for shot in alternative] for alternative in raw or ()]


def shipped_sequences(alternatives: Iterable[Iterable[ShotSpec]]) -> list[list[tuple[Any, ...]]]:
    return [[shipped_shot(spec) for spec in alternative] for alternative in alternatives]


def raw_patterns(raw: Iterable[Mapping[str, Any]] | None) -> list[tuple[Any, ...]]:
    return [raw_shot(shot) for shot in raw or ()]


def shipped_patterns(specs: Iterable[ShotSpec]) -> list[tuple[Any, ...]]:
    return [shipped_shot(spec) for spec in specs]


NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}


@dataclass(frozen=True)
class Facts:
    """What a game takes from a line of card text: the numbers it states and the cards it names."""

    numbers: frozenset[int]
    cards: frozenset[str]


def facts(text: str | None, card_names: Iterable[str]) -> Facts:
    text = text or ""
    words = re.findall(r"[a-z]+|\b\d+\b", text.lower())  # "3E" (the edition) is no number
    numbers = {int(w) for w in words if w.isdigit()} | {NUMBER_WORDS[w] for w in words if w in NUMBER_WORDS}
    # The rulebook's own spellings of two items (Vael's Urn, Raisthri's Potion) name the same cards.
    spelled = text.replace("Vael's", "Vaiel's").replace("Raisthri's", "Raisthrim's")
    return Facts(frozenset(numbers), frozenset(name for name in card_names if name in spelled))


def prose(texts: Iterable[str], card_names: Iterable[str]) -> list[Facts]:
    names = tuple(card_names)
    return [facts(text, names) for text in texts]


def known_names(content: Content) -> tuple[str, ...]:
    """The cards free text may name: monsters and items (spell names such as Heal are ordinary words)."""
    groups: tuple[Mapping[str, Record], ...] = (content.monsters, content.items)
    return tuple(record.name for group in groups for record in group.values())


# --- comparing ----------------------------------------------------------------------------------------------

# Words that show a note or source speaks of a field (besides the field's own name).
FIELD_WORDS: dict[str, tuple[str, ...]] = {
    "shot_sequences": ("sequence",),
    "costs": ("cost", "price", "gold"),
    "health_bands": ("health",),
    "quadrants": ("quadrant",),
    "name": ("spelling", "spelled", "spells him", "writes"),
}


@dataclass(frozen=True)
class Difference:
    record: str
    field: str
    shipped: Any
    reference: Any

    def __str__(self) -> str:
        return f"{self.record}.{self.field}: shipped {self.shipped!r}, reference data {self.reference!r}"


def explained(record: Record, field: str) -> bool:
    """The shipped record says why this field may differ from the reference data."""
    base = field.split("[")[0]
    if base in record.unverified_fields:
        return True
    marks = " ".join(text for text in (record.note, record.source) if text).lower()
    words = (base.replace("_", " "), *FIELD_WORDS.get(base, ()))
    return any(re.search(rf"\b{re.escape(word)}s?\b", marks) for word in words)


def differences(record_id: str, shipped: Mapping[str, Any], ref: Mapping[str, Any]) -> list[Difference]:
    assert shipped.keys() == ref.keys(), record_id  # the test compares like with like
    return [Difference(record_id, key, shipped[key], ref[key]) for key in ref if shipped[key] != ref[key]]


def unexplained(found: Iterable[Difference], records: Mapping[str, Record]) -> list[str]:
    return [str(d) for d in found if not explained(records[d.record], d.field)]


def matched(
    filename: str, key: str, records: Mapping[str, Record], ident: Any = None
) -> list[tuple[Any, dict[str, Any]]]:
    """Each reference record with the shipped record of the same id; a reference record missing from the
    shipped content fails here."""
    ident = ident or (lambda raw: slug(raw["name"]))
    pairs = [(records.get(ident(raw)), raw) for raw in reference(filename, key)]
    missing = [raw["name"] for record, raw in pairs if record is None]
    assert not missing, f"{filename}: records dropped from the shipped content: {missing}"
    return pairs


@pytest.fixture(scope="module")
def content() -> Content:
    """The base game with the Cavern of Soloth laid over it: every record the reference data holds."""
    return load_content("catacombs-3e", expansions=("soloth",))


@pytest.fixture(scope="module")
def base() -> Content:
    return load_content("catacombs-3e")


# --- record by record against the reference data ------------------------------------------------------------


def test_the_same_records_on_both_sides(content: Content, base: Content) -> None:
    # reference-data README: 44 monsters, 66 battle rooms, 8 lords, 6 special rooms, 6 heroes, 11 items,
    # 5 spells (base and Soloth). The shipped content may add records the reference data lacks (six spells
    # from Elzra's strategy guide), never drop one; base records stay in the base game.
    cases: list[tuple[str, str, Mapping[str, Record], Mapping[str, Record]]] = [
        ("monsters.yaml", "monsters", content.monsters, base.monsters),
        ("rooms.yaml", "rooms", content.rooms, base.rooms),
        ("lords.yaml", "lords", content.lords, base.lords),
        ("special-rooms.yaml", "special_rooms", content.special_rooms, base.special_rooms),
        ("items.yaml", "items", content.items, base.items),
        ("spells.yaml", "spells", content.spells, base.spells),
    ]
    problems = []
    for filename, key, everything, base_only in cases:
        for raw in reference(filename, key):
            rid = slug(raw["name"])
            if rid not in everything:
                problems.append(f"{filename}: {raw['name']} is missing")
            elif (rid in base_only) != (raw.get("set", "base") == "base"):
                problems.append(f"{filename}: {raw['name']} is in the wrong set")
        reference_ids = {slug(raw["name"]) for raw in reference(filename, key)}
        for rid, record in everything.items():
            if rid not in reference_ids and record.verified:
                problems.append(
                    f"{filename}: {rid} is not in the reference data yet is not marked unverified"
                )
    assert not problems, "\n".join(problems)


def test_every_monster_card_matches_the_reference_data(content: Content) -> None:
    # reference-data monsters.yaml, field by field; shadow monsters have no health
    # (catacombs-3e-reference.txt: Shadow Monsters).
    found: list[Difference] = []
    for card, raw in matched("monsters.yaml", "monsters", content.monsters):
        shipped = {
            "name": card.name,
            "set": card.set,
            "family": card.family,
            "level": card.level,
            "health": card.health,
            "shadow": card.shadow,
            "reward_gold": card.reward_gold,
            "disc_size": card.disc_size,
            "disc_color": card.disc_color,
            "nullifies": shipped_patterns(card.nullifies),
            "reflects": shipped_patterns(card.reflects),
            "shot_sequences": shipped_sequences(card.shot_sequences),
            "sequence_selection": card.sequence_selection,
            "special": card.special,
            "suppresses_while_alive": shipped_patterns(card.suppresses_while_alive),
            "note": raw.get("note") and card.note and (raw["note"] in card.note) and raw["note"],
        }
        ref = {
            "name": raw["name"],
            "set": raw["set"],
            "family": raw["family"],
            "level": raw["level"],
            "health": raw.get("health"),
            "shadow": raw["shadow"],
            "reward_gold": raw["reward_gold"],
            "disc_size": raw["disc_size"],
            "disc_color": raw["disc_color"],
            "nullifies": raw_patterns(raw["nullifies"]),
            "reflects": raw_patterns(raw["reflects"]),
            "shot_sequences": raw_sequences(raw["shot_sequences"]),
            "sequence_selection": raw.get("sequence_selection", "choice"),
            "special": raw.get("special"),
            "suppresses_while_alive": raw_patterns(raw.get("suppresses_while_alive")),
            "note": raw.get("note"),  # the reference's note is kept word for word (more may follow)
        }
        found += differences(card.id, shipped, ref)
    problems = unexplained(found, content.monsters)
    assert not problems, "\n".join(problems)


def test_pieces_shared_in_the_reference_notes_are_shared_in_the_content(content: Content) -> None:
    # reference-data monsters.yaml notes "Shares its piece with the ..."; 3E reference: Monster Metre Icons.
    for raw in reference("monsters.yaml", "monsters"):
        shared = re.findall(r"Shares its piece with the ([A-Z][A-Za-z ]+?) \(", raw.get("note", ""))
        card = content.monsters[slug(raw["name"])]
        assert list(card.shares_pieces_with) == [slug(name) for name in shared], card.id


def test_every_battle_room_matches_the_reference_data(content: Content) -> None:
    found: list[Difference] = []
    for room, raw in matched("rooms.yaml", "rooms", content.rooms):
        shipped: dict[str, Any] = {
            "name": room.name,
            "set": room.set,
            "difficulty": room.difficulty,
            "suppresses": shipped_patterns(room.suppresses),
            "note": raw.get("note") and room.note and (raw["note"] in room.note) and raw["note"],
        }
        ref: dict[str, Any] = {
            "name": raw["name"],
            "set": raw["set"],
            "difficulty": raw["difficulty"],
            "suppresses": raw_patterns(raw["suppresses"]),
            "note": raw.get("note"),
        }
        for level in range(1, 5):
            # The icons of one quadrant are placed together: their order on the card does not matter.
            shipped[f"quadrants[level_{level}]"] = sorted(
                (e.kind, e.count, e.monster or "") for e in room.quadrants[level - 1]
            )
            ref[f"quadrants[level_{level}]"] = sorted(
                (e["kind"], e["count"], slug(e.get("monster", "")))
                for e in raw["quadrants"].get(f"level_{level}", [])
            )
        found += differences(room.id, shipped, ref)
    problems = unexplained(found, content.rooms)
    assert not problems, "\n".join(problems)


def health_band(raw: Mapping[str, Any]) -> tuple[int, int, int | None]:
    # "7-8+" is seven and above; "4-6" is four to six.
    low, high = str(raw["health"]).split("-")
    return (raw["sequence"], int(low), None if high.endswith("+") else int(high))


def test_every_catacomb_lord_matches_the_reference_data(content: Content) -> None:
    found: list[Difference] = []
    for lord, raw in matched("lords.yaml", "lords", content.lords):
        shipped = {
            "name": lord.name,
            "set": lord.set,
            "title": lord.title,
            "starting_health": lord.starting_health,
            "minions": [(m.monster, m.count) for m in lord.minions],
            "mercenary_monster": lord.mercenary_monster,
            "shot_sequences": shipped_sequences(lord.shot_sequences),
            "strength_rank": lord.strength_rank,
            "sequence_selection": lord.sequence_selection,
            "health_bands": [(b.sequence, b.min_health, b.max_health) for b in lord.health_bands],
            "note": raw.get("note") and lord.note and (raw["note"] in lord.note) and raw["note"],
        }
        ref = {
            "name": raw["name"],
            "set": raw["set"],
            "title": raw["title"],
            "starting_health": raw["starting_health"],
            "minions": [(slug(m["monster"]), m["count"]) for m in raw["minions"]],
            "mercenary_monster": slug(raw["mercenary_monster"]),
            "shot_sequences": raw_sequences(raw["shot_sequences"]),
            "strength_rank": raw.get("strength_rank"),
            "sequence_selection": raw.get("sequence_selection", "choice"),
            "health_bands": [health_band(band) for band in raw.get("health_bands", [])],
            "note": raw.get("note"),
        }
        found += differences(lord.id, shipped, ref)
    problems = unexplained(found, content.lords)
    assert not problems, "\n".join(problems)


def test_every_hero_matches_what_the_reference_data_knows(content: Content) -> None:
    # reference-data heroes.yaml is sparse: a field it leaves out is unknown, so only the fields it gives are
    # compared; a value the content needs but the reference data lacks must be marked (next test).
    names = known_names(content)
    found: list[Difference] = []
    for hero, raw in matched(
        "heroes.yaml", "heroes", content.heroes, lambda raw: slug(raw["name"].split()[0])
    ):
        shipped: dict[str, Any] = {
            "name": hero.name,
            "set": hero.set,
            "class": hero.hero_class,
            "abilities": [(c.card, c.count, c.optional) for c in hero.abilities],
            "starting_items": [(c.card, c.count, c.optional) for c in hero.starting_items],
            "nullifies": shipped_patterns(hero.nullifies),
            "special_rules": prose(hero.special_rules, names),
        }
        ref: dict[str, Any] = {
            "name": raw["name"],
            "set": raw["set"],
            "class": raw["class"],
            "abilities": [
                (slug(c["name"]), c.get("count", 1), c.get("optional", False))
                for c in raw.get("ability_cards", [])
            ],
            "starting_items": [
                (slug(c["name"]), c.get("count", 1), c.get("optional", False))
                for c in raw.get("starting_items", [])
            ],
            "nullifies": raw_patterns(raw.get("nullifies")),
            "special_rules": prose(raw.get("special_rules", []), names),
        }
        if "base_shot_sequence" in raw:
            shipped["shot_sequences"] = shipped_sequences(hero.shot_sequences)
            ref["shot_sequences"] = raw_sequences([raw["base_shot_sequence"]])
        for known in (
            "starting_health",
            "spell_caster",
            "spell_cards_chosen_at_start",
            "spell_cards_chosen_as_ally",
            "can_use_weapons",
            "can_use_magic_items",
            "recommended_for_first_games",
        ):
            if known in raw:
                shipped[known] = getattr(hero, known)
                ref[known] = raw[known]
        found += differences(hero.id, shipped, ref)
    problems = unexplained(found, content.heroes)
    assert not problems, "\n".join(problems)


def test_hero_values_the_reference_data_lacks_are_marked_as_stand_ins(content: Content) -> None:
    # Hero Player Boards: the Rules card shows starting health, base shot sequence and weapon / magic item
    # use. Where no source gives them, the shipped value is a stand-in and must say so.
    problems = []
    for hero, raw in matched(
        "heroes.yaml", "heroes", content.heroes, lambda raw: slug(raw["name"].split()[0])
    ):
        given = {
            "starting_health": "starting_health" in raw,
            "shot_sequences": "base_shot_sequence" in raw,
            "can_use_weapons": "can_use_weapons" in raw or hero.can_use_weapons is None,
            "can_use_magic_items": "can_use_magic_items" in raw or hero.can_use_magic_items is None,
            "item_discount": hero.item_discount is None,
        }
        for field, known in given.items():
            if not known and field not in hero.unverified_fields:
                problems.append(f"{hero.id}.{field} = {getattr(hero, field)!r} is not in the reference data")
            if known and field in raw and field in hero.unverified_fields:
                problems.append(f"{hero.id}.{field} is known to the reference data yet marked as a stand-in")
        if hero.gold_per_kill_bonus:  # only from a special rule the reference data quotes
            assert any("extra gold coin" in rule for rule in raw.get("special_rules", [])), hero.id
    assert not problems, "\n".join(problems)


def test_every_item_matches_the_reference_data(content: Content) -> None:
    names = known_names(content)
    found: list[Difference] = []
    for item, raw in matched("items.yaml", "items", content.items):
        shipped: dict[str, Any] = {
            "name": item.name,
            "set": item.set,
            "aliases": list(item.aliases),
            "shot_sequences": shipped_sequences(item.shot_sequences),
            "combo": item.combo,
            "amaranth_inn_cellar_item": item.amaranth_inn_cellar_item,
        }
        ref: dict[str, Any] = {
            "name": raw["name"],
            "set": raw["set"],
            "aliases": raw.get("aliases", []),
            "shot_sequences": raw_sequences([raw["shot_sequence"]] if "shot_sequence" in raw else []),
            "combo": raw.get("combo"),
            "amaranth_inn_cellar_item": raw.get("amaranth_inn_cellar_item", False),
        }
        if "effect" in raw:  # one the reference data leaves out is the rulebook's (the Berserker Battle Axe)
            shipped["effect"] = facts(item.effect, names)
            ref["effect"] = facts(raw["effect"], names)
        # A flag the reference data gives is compared; one it leaves out is unknown (next test).
        for flag in ("weapon", "magic_item", "familiar"):
            if flag in raw:
                shipped[flag] = getattr(item, flag)
                ref[flag] = raw[flag]
        found += differences(item.id, shipped, ref)
    problems = unexplained(found, content.items)
    assert not problems, "\n".join(problems)


def test_item_values_the_reference_data_lacks_are_marked(content: Content) -> None:
    # reference-data items.yaml: cost, frequency and restrictions are unknown for every item; a shipped value
    # for any of them, or a flag or copy count no source gives, is an inference and must say so.
    defaults = {
        "cost": None,
        "frequency": None,
        "copies": 1,
        "weapon": False,
        "magic_item": False,
        "familiar": False,
        "starting_health_restriction": None,
    }
    problems = []
    for item, raw in matched("items.yaml", "items", content.items):
        for field, default in defaults.items():
            value = getattr(item, field)
            if field not in raw and value != default and field not in item.unverified_fields:
                problems.append(f"{item.id}.{field} = {value!r} is in no source and not marked")
    assert not problems, "\n".join(problems)


def test_every_spell_matches_the_reference_data(content: Content) -> None:
    names = known_names(content)
    found: list[Difference] = []
    for spell, raw in matched("spells.yaml", "spells", content.spells):
        shipped = {
            "name": spell.name,
            "set": spell.set,
            "shot_sequences": shipped_sequences(spell.shot_sequences),
            "effect": facts(spell.effect, names),
            "heal": spell.heal,
            # The reference data writes the Cure Poison icon into the effect text.
            "cure_poison": spell.cure_poison,
        }
        ref = {
            "name": raw["name"],
            "set": raw["set"],
            "shot_sequences": raw_sequences([raw["shot_sequence"]] if "shot_sequence" in raw else []),
            "effect": facts(raw.get("effect"), names),
            "heal": raw.get("heal", 0),
            "cure_poison": 1 if "Cure Poison icon" in raw.get("effect", "") else 0,
        }
        found += differences(spell.id, shipped, ref)
    problems = unexplained(found, content.spells)
    assert not problems, "\n".join(problems)


def test_every_special_room_matches_the_reference_data(content: Content) -> None:
    names = known_names(content)
    found: list[Difference] = []
    for room, raw in matched("special-rooms.yaml", "special_rooms", content.special_rooms):
        shipped: dict[str, Any] = {
            "name": room.name,
            "set": room.set,
            "kind": room.kind,
            "services": [(s.name, s.cost, facts(s.effect, names)) for s in room.services],
            "free_service": facts(room.free_service, names),
            "bet_cost": room.bet_cost,
            "pieces_drawn": room.pieces_drawn,
            "bag_contents": facts(room.bag_contents, names),
            "rewards": [(r.draw, facts(r.reward, names)) for r in room.rewards],
            "rules": prose(room.rules, names),
        }
        ref: dict[str, Any] = {
            "name": raw["name"],
            "set": raw["set"],
            "kind": raw["type"],
            "services": [(s["name"], s["cost"], facts(s["effect"], names)) for s in raw.get("services", [])],
            "free_service": facts(raw.get("free_service"), names),
            "bet_cost": raw.get("bet_cost"),
            "pieces_drawn": raw.get("pieces_drawn"),
            "bag_contents": facts(raw.get("bag_contents"), names),
            "rewards": [(r["draw"], facts(r["reward"], names)) for r in raw.get("rewards", [])],
            "rules": prose(raw.get("rules", []), names),
        }
        if "costs" in raw:
            shipped["costs"] = dict(room.costs)
            ref["costs"] = raw["costs"]
        found += differences(room.id, shipped, ref)
        # A price the shipped card adds (the Altar's offering) is one its rules text states.
        stated = set().union(*(f.numbers for f in ref["rules"])) if ref["rules"] else set()
        for what, cost in room.costs.items():
            if "costs" not in raw:
                assert cost in stated, f"{room.id}.costs[{what}] = {cost} is not in the rules text"
    problems = unexplained(found, content.special_rooms)
    assert not problems, "\n".join(problems)


def test_the_random_layout_is_the_reference_datas_generator_sequence(content: Content) -> None:
    # reference-data dungeon-layouts.yaml, generator_sequence; 3E reference: Addendum, Alternate Room Card
    # Layouts (three battle decks by difficulty, special slots, the Lair always last).
    data = yaml.safe_load((REFERENCE / "dungeon-layouts.yaml").read_text())
    expected = []
    for step in data["generator_sequence"]["sequence"]:
        if step.startswith("difficulty_"):
            expected.append(("battle", None, int(step.removeprefix("difficulty_"))))
        elif step == "special":
            expected.append(("special", None, None))
        else:
            expected.append(("lair", None, None))
    layout = content.layouts["random-standard"]
    assert [(s.kind, s.room, s.difficulty) for s in layout.slots] == expected
    assert "slots" in layout.unverified_fields  # the rulebook's own column is a picture
    assert not layout.fan_variant


def test_every_doubt_the_reference_data_notes_is_carried(content: Content) -> None:
    # A reference-data note records a doubt, an inference or a disagreement; the shipped record must keep it
    # as a note or an unverified mark. Drain Energy's note only says where the fact comes from, which the
    # shipped source says too.
    groups: list[tuple[str, str, Mapping[str, Record], Any]] = [
        ("heroes.yaml", "heroes", content.heroes, lambda raw: slug(raw["name"].split()[0])),
        ("items.yaml", "items", content.items, None),
        ("spells.yaml", "spells", content.spells, None),
        ("special-rooms.yaml", "special_rooms", content.special_rooms, None),
    ]
    problems = []
    for filename, key, records, ident in groups:
        for record, raw in matched(filename, key, records, ident):
            if "note" not in raw:
                continue
            if record.note or record.unverified_fields:
                continue
            if record.id == "drain-energy" and "Drain Energy example" in (record.source or ""):
                continue
            problems.append(f"{filename}: {record.id} lost the note {raw['note']!r}")
    assert not problems, "\n".join(problems)


def test_each_disagreement_in_the_reference_readme_is_marked_in_the_content(content: Content) -> None:
    # shared/reference-data/README.md, "Disagreements and oddities found": where the sources disagree, the
    # shipped record carries the mark that says so.
    def says(record: Record, *words: str) -> bool:
        marks = " ".join(
            text for text in (record.note, record.source, *record.unverified_fields.values()) if text
        ).lower()
        return all(word.lower() in marks for word in words)

    m, lords, rooms = content.monsters, content.lords, content.rooms
    assert says(m["gelatinous-cube"], "rulebook", "see card")  # 1
    for shadow in ("phantom", "blood-skull", "shade"):  # 2
        assert m[shadow].shadow and m[shadow].health is None and says(m[shadow], "dotted", "health 0")
    assert "shot_sequences" in lords["hmotha-the-lich-lord"].unverified_fields  # 3
    assert says(lords["hmotha-the-lich-lord"], "summon ghoul")
    assert "shot_sequences" in lords["vasesak-the-sorcerer"].unverified_fields  # 4
    assert "shot_sequences" in m["armoured-beetle"].unverified_fields  # 5
    assert says(m["gelatinous-cube"], "devour", "shot reference")  # 6: the rulebook against itself
    assert says(content.special_rooms["izchak-the-merchant"], "2 gold to see the next card")  # 7
    assert says(m["fire-spirit"], "fire column", "fire wall")  # 8
    assert set(content.items["vaiels-urn"].aliases) == {"Vael's Urn"}  # 9
    assert set(content.items["raisthrims-potion"].aliases) == {"Raisthri's Potion"}
    assert says(content.heroes["varesh"], "Vareth", "Varesch", "Vares")
    # Problems inside the sources.
    assert says(rooms["pyramid-of-omens"], "siren", "level-3 quadrant")
    assert says(lords["kaulaurn-the-hydra"], "health 6", "7-8+")
    assert says(rooms["temple-of-yagotha"], "orc wolf raider")
    assert says(rooms["labyrinth-of-visions"], "orc wolf raider")
    assert says(m["remorhaz"], "remorhaz")
    assert says(m["pit-viper"], "health 1") and "health" in m["pit-viper"].unverified_fields


# --- the cards the rulebook quotes --------------------------------------------------------------------------


def test_resolution_phase_example_two_skeleton_warriors_and_a_minotaur_pay_four_gold(base: Content) -> None:
    # catacombs-3e-reference.txt: The Resolution Phase ("two Skeleton Warriors (worth one gold coin each ...)
    # and one Minotaur (worth two gold coins) ... four gold coins in total").
    skeleton, minotaur = base.monsters["skeleton-warrior"], base.monsters["minotaur"]
    assert (skeleton.reward_gold, minotaur.reward_gold) == (1, 2)
    assert 2 * skeleton.reward_gold + minotaur.reward_gold == 4


def test_connector_examples_the_thief_the_chicken_champion_the_orc_and_the_crypt_spider(
    base: Content,
) -> None:
    # catacombs-3e-reference.txt: Shot Sequences and Connectors.
    def shots(alternatives: Iterable[Iterable[ShotSpec]]) -> list[list[tuple[str, str | None]]]:
        return [[(s.shot, s.modifier) for s in alternative] for alternative in alternatives]

    assert shots(base.heroes["elani"].shot_sequences) == [[("melee", None), ("rush", None)]]
    assert shots(base.heroes["roosan"].shot_sequences) == [
        [("rush", None), ("melee", None), ("rush", None), ("rush", None)]
    ]
    assert shots(base.monsters["orc"].shot_sequences) == [[("melee", None)], [("missile", None)]]
    assert shots(base.monsters["crypt-spider"].shot_sequences) == [
        [("melee", "regeneration")],
        [("rush", None), ("missile", "stun"), ("missile", "stun")],
    ]
    for hero in ("elani", "roosan"):  # the rulebook's own examples: not stand-ins
        assert "shot_sequences" not in base.heroes[hero].unverified_fields


def test_chain_example_the_berserker_battle_axe_zombie_troll_and_fire_spirit(base: Content) -> None:
    # catacombs-3e-reference.txt: Chain Shot Modifier (four chain melee shots: a Zombie destroyed, a Troll
    # damaged and flipped, a Fire Spirit destroyed, the Troll destroyed).
    axe = base.items["berserker-battle-axe"]
    assert [[(s.shot, s.modifier) for s in alt] for alt in axe.shot_sequences] == [[("melee", "chain")] * 4]
    assert [base.monsters[m].health for m in ("zombie", "troll", "fire-spirit")] == [1, 2, 1]


def test_regeneration_examples_the_troll_and_drain_energy(base: Content) -> None:
    # catacombs-3e-reference.txt: Regeneration Shot Modifier (a damaged Troll flips back; Drain Energy is a
    # regeneration missile that destroys a Zombie).
    troll = base.monsters["troll"]
    assert troll.health == 2 and troll.shot_sequences == ((ShotSpec("melee", "regeneration"),),)
    assert base.spells["drain-energy"].shot_sequences == ((ShotSpec("missile", "regeneration"),),)
    assert base.monsters["zombie"].health == 1


def test_defensive_property_examples_skeleton_warrior_marorg_and_minotaur(base: Content) -> None:
    # catacombs-3e-reference.txt: Nullifying Shots; Reflecting Shots.
    assert base.monsters["skeleton-warrior"].nullifies == (ShotSpec("missile"),)
    assert base.monsters["skeleton-warrior"].reflects == ()
    assert {(s.shot, s.modifier) for s in base.heroes["marorg"].nullifies} == {
        ("melee", "poison"),
        ("missile", "poison"),
        ("rush", "poison"),
    }
    assert base.monsters["minotaur"].reflects == (ShotSpec("missile"),)
    assert base.monsters["minotaur"].nullifies == ()


def test_the_fire_spirit_is_the_only_base_monster_that_transforms(base: Content) -> None:
    # catacombs-3e-reference.txt: Fire Walls ("Only one monster in the base Catacombs game can perform the
    # transform shot: the Fire Spirit").
    transformers = {
        card.id
        for card in base.monsters.values()
        for alternative in card.shot_sequences
        for spec in alternative
        if spec.modifier == "transform"
    }
    assert transformers == {"fire-spirit"}
    spec = base.monsters["fire-spirit"].shot_sequences[1][0]
    assert spec.transforms_into == "fire wall"


def test_room_card_examples_the_barracks_mitholaq_hive_and_qurlathorm(base: Content) -> None:
    # catacombs-3e-reference.txt: Specific Monster Icons; Monster Metre Icons; Suppression (the Qurlathorm
    # example).
    levels = {mid: card.level for mid, card in base.monsters.items()}
    barracks = [(e.kind, e.level, e.count, e.monster) for e in base.rooms["the-barracks"].entries]
    assert sorted(barracks) == [
        ("specific", 1, 4, "orc"),
        ("specific", 2, 1, "pit-viper"),
        ("specific", 2, 1, "troll"),
    ]
    assert (levels["orc"], levels["troll"], levels["pit-viper"]) == (1, 2, 2)
    hive = base.rooms["the-mitholaq-hive"]
    assert [(e.kind, e.level, e.count) for e in hive.entries] == [("monster_metre", 1, 2)]
    for example in ("zombie", "fire-spirit", "skeleton-warrior", "orc", "centaur"):
        assert levels[example] == 1, example
    qurlathorm = base.rooms["qurlathorm"]
    metre = {e.level: e.count for e in qurlathorm.entries if e.kind == "monster_metre"}
    assert metre == {2: 1, 3: 2, 4: 1}
    assert all(e.kind == "monster_metre" for e in qurlathorm.entries)
    for example, level in {
        "skeleton-archer": 2,
        "fire-demon": 3,
        "vampire-bat": 3,
        "gelatinous-cube": 4,
        "troll": 2,
        "giant-scorpion": 3,
        "ghoul": 3,
        "owl-bear": 4,
    }.items():
        assert levels[example] == level, example


def test_mercenary_icons_sit_in_the_top_left_quadrant_and_mercenaries_are_level_one(content: Content) -> None:
    # catacombs-3e-reference.txt: Mercenary Monster Icons ("which level 1 monster should be used when a
    # Mercenary Monster icon appears in the top left quadrant"); the Hmotha example (a Zombie).
    for room in content.rooms.values():
        for entry in room.entries:
            if entry.kind == "mercenary":
                assert entry.level == 1, room.id
    for lord in content.lords.values():
        assert content.monsters[lord.mercenary_monster].level == 1, lord.id
    assert content.lords["hmotha-the-lich-lord"].mercenary_monster == "zombie"


def test_a_specific_monster_sits_in_the_quadrant_of_its_own_level(content: Content) -> None:
    # catacombs-3e-reference.txt: Battle Room Cards ("Four quadrants which group monsters ... by their
    # respective level (1 to 4)"). The one exception in the sources says so in a note.
    problems = []
    for room in content.rooms.values():
        for entry in room.entries:
            if entry.kind != "specific" or entry.monster is None:
                continue
            monster = content.monsters[entry.monster]
            if monster.level != entry.level and monster.name not in (room.note or ""):
                problems.append(
                    f"{room.id}: {entry.monster} (level {monster.level}) in quadrant {entry.level}"
                )
    assert not problems, "\n".join(problems)


def test_battle_rooms_per_difficulty(base: Content) -> None:
    # reference-data README: the base room lists hold 5 / 14 / 9 rooms of difficulty 0 / 1 / 2; with the
    # five special rooms they are the rulebook's 33 Room cards (Components).
    by_difficulty = [sum(1 for r in base.rooms.values() if r.difficulty == d) for d in range(3)]
    assert by_difficulty == [5, 14, 9]
    assert len(base.rooms) + len(base.special_rooms) == 33


def test_monster_cards_health_levels_and_families(content: Content) -> None:
    # catacombs-3e-reference.txt: Monster Cards ("Monsters have between one and four health points";
    # "five monster families: Dungeon (green), Infernal (orange), Mythological (blue), Undead (gray) and
    # Vermin (brown)"); Tracking Health (level 4 monsters keep a health track: four health).
    colours = {
        "dungeon": "green",
        "infernal": "orange",
        "mythological": "blue",
        "undead": "grey",
        "vermin": "brown",
    }
    for card in content.monsters.values():
        assert card.disc_color == colours[card.family], card.id
        assert 1 <= card.level <= 4, card.id
        if card.shadow:
            assert card.health is None, card.id
        else:
            assert card.health is not None and 1 <= card.health <= 4, card.id
        if card.level == 4:
            assert card.health == 4, card.id


def test_the_extra_small_vermin_are_the_rulebooks_four(base: Content) -> None:
    # catacombs-3e-reference.txt: Monster Vulnerabilities ("extra small in size (Sewer Rats, Armoured
    # Beetles, Pit Vipers, Vampire Bats)"; the Blood Skull's sequence has a fear shot).
    for mid in ("sewer-rat", "armoured-beetle", "pit-viper", "vampire-bat"):
        card = base.monsters[mid]
        assert (card.family, card.disc_size) == ("vermin", "small"), mid
    skull = base.monsters["blood-skull"]
    assert any(s.modifier == "fear" for alt in skull.shot_sequences for s in alt)


def test_the_gelatinous_cube_performs_its_four_sequences_round_by_round(base: Content) -> None:
    # catacombs-3e-reference.txt: The Gelatinous Cube Monster (M > C, M > F, M > D, M > CR, then restart).
    cube = base.monsters["gelatinous-cube"]
    assert cube.sequence_selection == "ordered_by_round"
    assert [[(s.shot, s.modifier) for s in alt] for alt in cube.shot_sequences] == [
        [("melee", None), ("melee", "corrosion")],
        [("melee", None), ("melee", "fear")],
        [("melee", None), ("devour", None)],
        [("melee", None), ("melee", "critical")],
    ]


# catacombs-3e-reference.txt: Shot Reference ("* Not used in base Catacombs game").
NOT_IN_THE_BASE_GAME = {
    ("rush", "poison"),
    ("rush", "stun"),
    ("missile", "petrify"),
    ("boulder", None),
    ("runic_shift", None),
    ("devour", None),
}
BASE_SUMMONS = {"liquid-antient", "zombie", "skeleton-warrior", "fire-spirit"}


def test_base_cards_use_only_base_game_shots_unless_they_say_why(base: Content) -> None:
    # catacombs-3e-reference.txt: Shot Reference (starred shots are not used in the base game; base summon
    # icons: Liquid Antient, Zombie, Skeleton Warrior, Fire Spirit). A base card showing one anyway must
    # carry the doubt (the Armoured Beetle, Hmotha) or cite the rulebook page that shows it (the Cube).
    cards: list[Any] = [
        *base.monsters.values(),
        *base.lords.values(),
        *base.items.values(),
        *base.spells.values(),
    ]
    problems = []
    for card in cards:
        for alternative in card.shot_sequences:
            for spec in alternative:
                odd = (spec.shot, spec.modifier) in NOT_IN_THE_BASE_GAME or (
                    spec.shot == "summon" and spec.summons not in BASE_SUMMONS
                )
                if odd and not explained(card, "shot_sequences") and spec.shot not in (card.note or ""):
                    problems.append(f"{card.id}: {spec.shot} {spec.modifier or ''} {spec.summons or ''}")
    assert not problems, "\n".join(problems)


def test_special_room_prices_are_the_rulebooks(base: Content) -> None:
    # catacombs-3e-reference.txt: Althea the Healer; Amaranth Inn; Izchak the Merchant; Alewife Tavern.
    rooms = base.special_rooms
    healer = rooms["althea-the-healer"]
    assert {s.id: s.cost for s in healer.services} == {"heal": 3, "cure-poison": 2, "resurrect": 10}
    resurrect = {s.id: s for s in healer.services}["resurrect"]
    assert 2 in facts(resurrect.effect, ()).numbers  # "brought back to life with two health points"
    assert healer.free_service and "Poison" in healer.free_service
    inn = rooms["amaranth-inn"]
    assert [(s.id, s.cost) for s in inn.services] == [("sleep", 8), ("clear-the-cellar", 8), ("meal", 10)]
    merchant = rooms["izchak-the-merchant"]
    assert merchant.items_revealed == 6
    assert dict(merchant.costs) == {"reveal_next_item": 1, "map": 2}
    tavern = rooms["alewife-tavern"]
    assert (tavern.bet_cost, tavern.pieces_drawn) == (2, 3)
    assert tavern.bag_contents and "four hero pieces" in tavern.bag_contents
    assert [r.draw for r in tavern.rewards] == [
        "3 hero pieces",
        "3 of a kind",
        "2 hero pieces",
        "3 different coloured pieces",
        "1 hero piece",
    ]


def test_izchaks_map_price_is_printed_in_the_rulebook_not_a_stand_in(base: Content) -> None:
    # catacombs-3e-reference.txt: Izchak the Merchant ("a map may be purchased from the Merchant by any hero
    # for two gold coins"). Both of Izchak's prices are the rulebook's, so neither is marked as a stand-in.
    merchant = base.special_rooms["izchak-the-merchant"]
    assert merchant.costs["map"] == 2
    assert "costs" not in merchant.unverified_fields


def test_the_amaranth_inn_cellar_holds_the_four_items_the_rulebook_names(base: Content) -> None:
    # catacombs-3e-reference.txt: Amaranth Inn ("Vael's Urn, Healing Salve, Raisthri's Potion, and Cloak of
    # Invisibility").
    cellar = {item.id for item in base.items.values() if item.amaranth_inn_cellar_item}
    assert cellar == {"vaiels-urn", "healing-salve", "raisthrims-potion", "cloak-of-invisibility"}


def test_catacomb_lords_weakest_to_strongest_and_their_setup_cards(base: Content) -> None:
    # catacombs-3e-reference.txt: Introducing the Catacomb Lords (weakest to strongest: Vasesak, Shargila,
    # Hmotha, Phoshar; a shield, a petrifying gaze, summoned undead, fireballs); Catacomb Lord's Lair.
    lords = base.lords
    ranked = [lord.id for lord in sorted(lords.values(), key=lambda lord: lord.strength_rank or 0)]
    assert ranked == [
        "vasesak-the-sorcerer",
        "shargila-the-gorgon",
        "hmotha-the-lich-lord",
        "phoshar-the-dragon",
    ]
    health = [lords[lid].starting_health for lid in ranked]
    assert health == sorted(health) == [6, 6, 8, 10]

    def uses(lid: str) -> set[tuple[str, str | None]]:
        return {(s.shot, s.modifier) for alt in lords[lid].shot_sequences for s in alt}

    assert ("shield", None) in uses("vasesak-the-sorcerer")
    assert ("melee", "petrify") in uses("shargila-the-gorgon")
    assert ("summon", None) in uses("hmotha-the-lich-lord")
    assert {("fireball", None), ("fireball", "chain")} <= uses("phoshar-the-dragon")
    for lord in lords.values():
        assert len(lord.shot_sequences) > 1 or "shot_sequences" in lord.unverified_fields, lord.id


def test_the_hero_players_section(base: Content) -> None:
    # catacombs-3e-reference.txt: Introducing the Heroes; Hero Player Boards; Allies; Poison Cards.
    heroes = base.heroes
    xoric = heroes["xoric"]
    assert all(xoric.starting_health > h.starting_health for h in heroes.values() if h.id != "xoric")
    # The poison example: five already, plus a "3" card, "equals his total starting health of eight".
    assert heroes["varesh"].starting_health == 5 + 3
    assert [h.id for h in heroes.values() if h.spell_caster] == ["varesh"]
    assert (heroes["varesh"].spell_cards_chosen_at_start, heroes["varesh"].spell_cards_chosen_as_ally) == (
        10,
        2,
    )
    assert [(c.card, c.count) for c in heroes["varesh"].abilities] == [("fireball", 1)]
    assert [(c.card, c.count) for c in heroes["oleira"].abilities] == [("elven-arrow", 2)]
    assert [(c.card, c.optional) for c in heroes["oleira"].starting_items] == [("spirit-familiar", True)]
    assert [(c.card, c.count, c.optional) for c in xoric.starting_items] == [
        ("berserker-battle-axe", 2, True)
    ]
    elani = heroes["elani"]
    assert (elani.gold_per_kill_bonus, elani.can_use_weapons, elani.spell_caster) == (1, True, False)
    first_games = {h.id for h in heroes.values() if h.recommended_for_first_games}
    assert first_games == {"varesh", "roosan", "elani", "xoric"}
    assert sum(a.copies for a in base.abilities.values()) == 4  # Components: Hero Ability Cards x4


def test_item_and_spell_cards_the_rulebook_describes(base: Content) -> None:
    # catacombs-3e-reference.txt: Usage Restrictions (the Poisoned Knife is a weapon; the Raven Familiar a
    # magic item); Familiars; Combo Items (Throwing Axe post-Combo missile, Raisthrim's Potion pre-Combo
    # ice); Antients (Vaiel's Urn); Open Portal (Magic Gate); Teleport Shots (Teleport Hero); Curing Poison;
    # Healing Damage.
    items, spells = base.items, base.spells
    assert items["poisoned-knife"].weapon and not items["poisoned-knife"].magic_item
    raven = items["raven-familiar"]
    assert raven.magic_item and raven.familiar
    assert items["spirit-familiar"].familiar and items["spirit-familiar"].hero == "oleira"
    assert (items["throwing-axe"].combo, items["throwing-axe"].shot_sequences) == (
        "post",
        ((ShotSpec("missile"),),),
    )
    potion = items["raisthrims-potion"]
    assert (potion.combo, potion.shot_sequences) == ("pre", ((ShotSpec("ice"),),))
    assert items["vaiels-urn"].shot_sequences[0][0].summons == "liquid-antient"
    assert spells["magic-gate"].shot_sequences == ((ShotSpec("open_portal"),),)
    assert spells["teleport-hero"].shot_sequences == ((ShotSpec("teleport"),),)
    assert spells["cure-poison"].cure_poison == 1
    assert spells["heal"].heal == 4  # Elzra's 3E FAQ
    assert spells["heal-all"].heal_all == 1  # Healing Damage: "recover one point of health"
    # Components: 16 Item cards and 16 Spell cards; the shipped decks may not hold more.
    assert sum(item.copies for item in items.values()) <= 16
    assert len(spells) <= 16


def test_the_poison_deck_holds_fifteen_cards_and_the_examples_three(base: Content) -> None:
    # catacombs-3e-reference.txt: Components ("Poisoned! Cards x15"); Poison Cards (a "3" card exists).
    assert len(base.poison_deck) == 15
    assert 3 in base.poison_deck.cards
    assert not base.poison_deck.verified  # the values are a placeholder (reference-data README: not covered)
