"""The shipped Catacombs 3E cards say what the project's reference data says (shared/reference-data), so a
slip in transcription is caught. The reference data is read from tests/data/reference-data/ (byte-identical
copies of the project's shared/reference-data/ files); a missing file fails the test, it is never skipped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from service.content import ShotSpec
from service.games.catacombs.content import Content, load_content

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference-data" / "catacombs-3e"


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


def base_records(filename: str, key: str) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = yaml.safe_load((REFERENCE / filename).read_text())[key]
    return [record for record in records if record.get("set") == "base"]


def shot_tuple(raw: dict[str, Any]) -> tuple[Any, ...]:
    summons = raw.get("summons")
    return (raw["shot"], raw.get("modifier"), raw.get("count", 1), slug(summons) if summons else None)


def spec_tuple(spec: ShotSpec) -> tuple[Any, ...]:
    return (spec.shot, spec.modifier, spec.count, spec.summons)


def sequences(raw: list[list[dict[str, Any]]]) -> list[list[tuple[Any, ...]]]:
    return [[shot_tuple(shot) for shot in alternative] for alternative in raw]


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content("catacombs-3e")


def test_every_base_monster_card_matches(content: Content) -> None:
    reference = base_records("monsters.yaml", "monsters")
    assert sorted(slug(m["name"]) for m in reference) == sorted(content.monsters)
    for raw in reference:
        card = content.monsters[slug(raw["name"])]
        assert (card.name, card.family, card.level, card.health, card.shadow, card.reward_gold) == (
            raw["name"],
            raw["family"],
            raw["level"],
            raw.get("health"),
            raw["shadow"],
            raw["reward_gold"],
        ), card.id
        assert (card.disc_size, card.disc_color) == (raw["disc_size"], raw["disc_color"]), card.id
        assert [spec_tuple(s) for s in card.nullifies] == [shot_tuple(s) for s in raw["nullifies"]], card.id
        assert [spec_tuple(s) for s in card.reflects] == [shot_tuple(s) for s in raw["reflects"]], card.id
        assert [[spec_tuple(s) for s in alt] for alt in card.shot_sequences] == sequences(
            raw["shot_sequences"]
        )
        assert (card.note is not None) >= ("note" in raw), f"{card.id}: the reference's note is kept"


def test_every_base_battle_room_matches(content: Content) -> None:
    reference = base_records("rooms.yaml", "rooms")
    assert sorted(slug(r["name"]) for r in reference) == sorted(content.rooms)
    for raw in reference:
        room = content.rooms[slug(raw["name"])]
        assert (room.name, room.difficulty) == (raw["name"], raw["difficulty"])
        assert [spec_tuple(s) for s in room.suppresses] == [shot_tuple(s) for s in raw["suppresses"]], room.id
        for level in range(1, 5):
            expected = [
                (e["kind"], e["count"], slug(e["monster"]) if "monster" in e else None)
                for e in raw["quadrants"].get(f"level_{level}", [])
            ]
            placed = [(e.kind, e.count, e.monster) for e in room.quadrants[level - 1]]
            assert placed == expected, f"{room.id} level {level}"


def test_every_base_lord_matches(content: Content) -> None:
    reference = base_records("lords.yaml", "lords")
    assert sorted(slug(lord["name"]) for lord in reference) == sorted(content.lords)
    for raw in reference:
        lord = content.lords[slug(raw["name"])]
        assert (lord.starting_health, lord.mercenary_monster, lord.strength_rank) == (
            raw["starting_health"],
            slug(raw["mercenary_monster"]),
            raw["strength_rank"],
        )
        assert [(m.monster, m.count) for m in lord.minions] == [
            (slug(m["monster"]), m["count"]) for m in raw["minions"]
        ]
        assert [[spec_tuple(s) for s in alt] for alt in lord.shot_sequences] == sequences(
            raw["shot_sequences"]
        )


def test_what_the_reference_knows_of_heroes_is_kept(content: Content) -> None:
    for raw in base_records("heroes.yaml", "heroes"):
        hero = content.heroes[slug(raw["name"].split()[0])]
        assert hero.name == raw["name"]
        if "starting_health" in raw:
            assert hero.starting_health == raw["starting_health"]
            assert "starting_health" not in hero.unverified_fields
        else:
            assert "starting_health" in hero.unverified_fields, hero.id
        if "base_shot_sequence" in raw:
            assert [spec_tuple(s) for s in hero.shot_sequences[0]] == [
                shot_tuple(s) for s in raw["base_shot_sequence"]
            ]
        else:
            assert "shot_sequences" in hero.unverified_fields, hero.id


def test_special_room_prices_match(content: Content) -> None:
    for raw in base_records("special-rooms.yaml", "special_rooms"):
        room = content.special_rooms[slug(raw["name"])]
        expected = sorted((s["name"], s["cost"]) for s in raw.get("services", []))
        assert sorted((s.name, s.cost) for s in room.services) == expected, room.id
        for what, cost in raw.get("costs", {}).items():
            assert room.costs[what] == cost
