"""Catacombs 1E content (``content/catacombs-1e``): heroes, monsters, Room cards, Lords, Spell, special-action
and Equipment cards, validated against their schemas (``c1e_*.json``) and cross-checked, then built into the
cards the rules read (``service.games.catacombs.first_edition.cards.Catacombs1ECards``). Overlays work as for
3E.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service.content.errors import Problem
from service.content.reading import Checker, RulesetRecords, fail, read_ruleset
from service.content.sources import FileKind
from service.games.catacombs.first_edition.cards import Catacombs1ECards, FirstEditionRoom
from service.games.catacombs.flow.cards import ActionCard, HeroCard, LordCard, MonsterCard, QuadrantEntry
from service.games.catacombs.flow.shots import sequences_from_card

SCHEMAS = "service.games.catacombs.schemas.content"
"""The package of the JSON Schemas its records are checked against."""

RULESET = "catacombs-1e"
FILES = (
    FileKind("heroes.yaml", "heroes", "c1e_hero", SCHEMAS),
    FileKind("monsters.yaml", "monsters", "c1e_monster", SCHEMAS),
    FileKind("rooms.yaml", "rooms", "c1e_room", SCHEMAS),
    FileKind("lords.yaml", "lords", "c1e_lord", SCHEMAS),
    FileKind("abilities.yaml", "abilities", "c1e_card", SCHEMAS),
    FileKind("spells.yaml", "spells", "c1e_card", SCHEMAS),
    FileKind("items.yaml", "items", "c1e_card", SCHEMAS),
)
ROOM_KINDS = {"battle": "battle", "merchant": "merchant", "healer": "healer", "lord": "lair"}
BOARD_SIDES = 6  # Componenti: "3 plance di gioco a doppia faccia"


def load_catacombs1e_content(overlay: Path | str | None = None) -> Catacombs1ECards:
    records = read_ruleset(RULESET, FILES, overlay)
    problems: list[Problem] = []
    _cross_check(records, problems)
    if problems:
        fail(problems)
    return build(records)


def unverified(overlay: Path | str | None = None) -> list[tuple[str, str, list[str]]]:
    """(file key, record id, the unverified fields or ["whole record"]) for ``smartmat content check``."""
    records = read_ruleset(RULESET, FILES, overlay)
    out: list[tuple[str, str, list[str]]] = []
    for kind in FILES:
        for rid, raw in records.data(kind.key):
            if raw.get("unverified"):
                out.append((kind.key, rid, ["whole record"]))
            elif raw.get("unverified_fields"):
                out.append((kind.key, rid, sorted(raw["unverified_fields"])))
    return out


def _cross_check(records: RulesetRecords, problems: list[Problem]) -> None:
    check = Checker(records.records, problems)
    monsters = dict(records.data("monsters"))
    abilities = dict(records.data("abilities"))
    heroes = dict(records.data("heroes"))
    for rid, raw in records.data("rooms"):
        for k, entry in enumerate(raw.get("monsters", ())):
            check.ref("rooms", rid, ["monsters", k, "monster"], entry["monster"], monsters, "monster")
        if raw["kind"] == "battle" and "level" not in raw:
            check.fail("rooms", rid, ["level"], "a battle Room card has a level (0, 1 or 2)")
        if raw["kind"] == "battle" and "playmat" not in raw:
            # 2: La Fase di Preparazione: "Prende la plancia di gioco indicata dalla carta stanza".
            check.fail("rooms", rid, ["playmat"], "a battle Room card names the board side it is played on")
        elif raw["kind"] != "battle" and "playmat" in raw:
            check.fail("rooms", rid, ["playmat"], "only a battle Room card names a board")
    sides: dict[str, str] = {}  # board side -> the first room card naming it
    for rid, raw in records.data("rooms"):
        if "playmat" in raw and raw["playmat"] not in sides:
            sides[raw["playmat"]] = rid
            if len(sides) > BOARD_SIDES:
                check.fail(
                    "rooms", rid, ["playmat"], f"the box has {BOARD_SIDES} board sides: {sorted(sides)}"
                )
    for rid, raw in records.data("lords"):
        check.ref("lords", rid, ["wandering_monster"], raw["wandering_monster"], monsters, "monster")
        for k, entry in enumerate(raw.get("servants", ())):
            check.ref("lords", rid, ["servants", k, "monster"], entry["monster"], monsters, "monster")
    for rid, raw in records.data("heroes"):
        for k, card in enumerate(raw.get("abilities", ())):
            check.ref("heroes", rid, ["abilities", k], card, abilities, "ability")
        if "rage" in raw and raw["rage"] > raw.get("rage_top", raw["rage"]):
            check.fail("heroes", rid, ["rage"], "the starting rage is above the rage track's top (rage_top)")
    for key in ("abilities", "items"):
        for rid, raw in records.data(key):
            for k, hero in enumerate(raw.get("hero", ())):
                check.ref(key, rid, ["hero", k], hero, heroes, "hero")
    for key in ("heroes", "monsters", "lords", "abilities", "spells", "items"):
        for rid, raw in records.data(key):
            try:
                sequences_from_card(raw.get("shot_sequences"))
            except ValueError as exc:
                check.fail(key, rid, ["shot_sequences"], str(exc))


def _card(kind: str, rid: str, raw: dict[str, Any]) -> ActionCard:
    return ActionCard(
        id=rid,
        name=raw["name"],
        kind=kind,
        frequency=raw.get("frequency", "once_per_game"),
        shot_sequences=sequences_from_card(raw.get("shot_sequences")),
        heal=raw.get("heal", 0),
        familiar=raw.get("familiar", False),
        cost=raw.get("cost"),
    )


def build(records: RulesetRecords) -> Catacombs1ECards:
    """The validated records as the first edition's cards.

    Kept as one function (about 80 lines): one list per record kind (heroes, monsters, rooms, lords, cards),
    each field mapped from its JSON Schema key in the schema's order."""
    heroes = []
    for rid, raw in records.data("heroes"):
        uses = dict(records.data("abilities"))
        held = tuple(
            a for a in raw.get("abilities", ()) for _ in range(uses.get(a, {}).get("uses_per_room", 1))
        )
        heroes.append(
            HeroCard(
                id=rid,
                name=raw["name"],
                starting_health=raw["starting_health"],
                shot_sequences=sequences_from_card(raw["shot_sequences"]),
                spell_caster=raw.get("spell_caster", False),
                extra_gold_per_kill=raw.get("extra_gold_per_kill", 0),
                abilities=held,
                spell_choices=len(records.data("spells")) if raw.get("spell_caster") else 0,
            )
        )
    monsters = [
        MonsterCard(
            id=rid,
            name=raw["name"],
            level=0,
            family=raw["family"],
            health=raw["health"],
            reward_gold=raw["reward_gold"],
            shot_sequences=sequences_from_card(raw["shot_sequences"]),
            pieces=raw.get("pieces", 4),
        )
        for rid, raw in records.data("monsters")
    ]
    rooms = []
    for rid, raw in records.data("rooms"):
        entries = tuple(QuadrantEntry("specific", e["count"], e["monster"]) for e in raw.get("monsters", ()))
        if raw.get("wandering"):
            # I Mostri Erranti: the Lord's sheet names the monster (the 3E card model's mercenary icon).
            entries += (QuadrantEntry("mercenary", raw["wandering"]),)
        rooms.append(
            FirstEditionRoom(
                rid,
                raw["name"],
                ROOM_KINDS[raw["kind"]],
                raw.get("level", 0),
                quadrants={0: entries},
                playmat=raw.get("playmat"),
            )
        )
    lords = [
        LordCard(
            id=rid,
            name=raw["name"],
            starting_health=raw["starting_health"],
            shot_sequences=sequences_from_card(raw["shot_sequences"]),
            mercenary_monster=raw["wandering_monster"],
            minions=tuple((s["monster"], s["count"]) for s in raw.get("servants", ())),
        )
        for rid, raw in records.data("lords")
    ]
    cards = [
        *(_card("ability", rid, raw) for rid, raw in records.data("abilities")),
        *(_card("spell", rid, raw) for rid, raw in records.data("spells")),
        *(_card("item", rid, raw) for rid, raw in records.data("items")),
    ]
    return Catacombs1ECards(
        heroes,
        monsters,
        rooms,
        lords,
        cards,
        abilities={rid: tuple(raw.get("abilities", ())) for rid, raw in records.data("monsters")},
        incapacitating=[rid for rid, raw in records.data("abilities") if raw.get("incapacitates_user")],
        hero_cards={rid: tuple(raw.get("hero", ())) for rid, raw in records.data("items")},
        illusion_lords=[rid for rid, raw in records.data("lords") if raw.get("invulnerable")],
        rage_tracks={
            rid: (raw["rage"], raw.get("rage_top", raw["rage"]))
            for rid, raw in records.data("heroes")
            if "rage" in raw
        },
        rage_costs={rid: raw["rage_cost"] for rid, raw in records.data("abilities") if "rage_cost" in raw},
    )
