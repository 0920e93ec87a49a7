"""Catacombs & Castles content (first and second editions): heroes, shot types, game modes, bosses.

What the manuals state is shipped; hero shot sequences are printed on cards the manuals do not transcribe,
so only those the manuals' tutorials describe are given. ``load_castles_content`` reads, overlays,
validates and cross-checks them like ``load_content`` does for Catacombs 3E.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

from service.content.errors import ContentError, Problem
from service.content.reading import Checker, RulesetRecords, fail, read_ruleset
from service.content.records import Record, ShotAlternatives, ShotSpec, marks
from service.content.sources import FileKind

SCHEMAS = "service.games.castles.schemas.content"
"""The package of the JSON Schemas its records are checked against."""

Team = Literal["castle", "catacomb"]

CASTLES_FILES = (
    FileKind("shots.yaml", "shots", "castles_shot", SCHEMAS),
    FileKind("heroes.yaml", "heroes", "castles_hero", SCHEMAS),
    FileKind("modes.yaml", "modes", "castles_mode", SCHEMAS),
    FileKind("bosses.yaml", "bosses", "castles_boss", SCHEMAS),
    FileKind("warriors.yaml", "warriors", "castles_warrior", SCHEMAS, required=False),
    FileKind(
        "abilities.yaml", "abilities", "castles_ability", SCHEMAS, required=False
    ),  # the first edition's
)
CASTLES_RULESETS = ("catacombs-and-castles-2e", "catacombs-and-castles-1e")


@dataclass(frozen=True, kw_only=True)
class CastlesShot(Record):
    kind: Literal["character", "ranged", "special", "shield"]
    damage: int | None  # None: not stated
    transfers: tuple[str, ...] = ()
    piece: str | None = None
    effect: str | None = None
    catacombs_3e: str | None = None  # how the shot carries over into a Catacombs 3E game


@dataclass(frozen=True)
class ChargedCardRecord:
    """A Team Action or Boss Action card: its charge (None: not printed) and its shot sequences."""

    name: str
    charge: int | None = None
    shot_sequences: ShotAlternatives = ()
    reinforcement: bool = False


@dataclass(frozen=True, kw_only=True)
class CastlesAbility(Record):
    """A first-edition Ability card: ``charge`` 0 is free, None not known; ``team_icon`` a Team or Horn icon
    before the step ``team_from``."""

    team: Team
    charge: int | None = None
    shot_sequences: ShotAlternatives = ()
    team_icon: Literal["team", "horn"] | None = None
    team_from: int = 0


@dataclass(frozen=True, kw_only=True)
class CastlesWarrior(Record):
    team: Team
    health: int = 1
    pieces: int = 1
    shot_sequences: ShotAlternatives = ()
    attributes: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class CastlesHero(Record):
    team: Team
    hero_class: str
    role: str | None = None  # second edition only
    shot_sequences: ShotAlternatives = ()  # empty: not stated in the manual
    ability: str | None = None
    ability_charge: int | None = None  # None: not printed in the manual
    ability_sequences: ShotAlternatives = ()
    ability_horn_from: int | None = None  # the first shot after a Horn of Heroes icon
    team_action: ChargedCardRecord | None = None
    attributes: tuple[str, ...] = ()
    quick_start: bool = False
    abilities: tuple[str, ...] = ()  # first edition: the two Ability cards its Rules card recommends


@dataclass(frozen=True)
class PlayerCount:
    players: int
    heroes_each: int
    team_size: int
    note: str | None = None


@dataclass(frozen=True)
class GameLength:
    id: str
    health_tokens: int
    reinforcement_tokens: int | None = None


@dataclass(frozen=True, kw_only=True)
class GameMode(Record):
    player_counts: tuple[PlayerCount, ...] = ()
    health_tokens: int | None = None
    health_tokens_per: Literal["team", "hero", "player"] | None = None
    armour_tokens_per_hero: int | None = None
    game_lengths: tuple[GameLength, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class CastlesBoss(Record):
    team: Team
    hero: str | None = None  # the hero card of the same character, if any
    forms: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    armour_tokens: int = 0
    form_change: str = "none"
    form_sequences: Mapping[str, ShotAlternatives] = field(default_factory=dict)
    boss_actions: tuple[ChargedCardRecord, ...] = ()
    health_tokens: int | None = None  # first edition: printed on the Lord's Rules card


@dataclass(frozen=True)
class CastlesContent:
    ruleset: str
    shots: Mapping[str, CastlesShot]
    heroes: Mapping[str, CastlesHero]
    modes: Mapping[str, GameMode]
    bosses: Mapping[str, CastlesBoss]
    files: tuple[str, ...] = ()
    warriors: Mapping[str, CastlesWarrior] = field(default_factory=dict)
    abilities: Mapping[str, CastlesAbility] = field(default_factory=dict)

    def all_records(self) -> tuple[Record, ...]:
        groups: tuple[Mapping[str, Record], ...] = (
            self.shots,
            self.heroes,
            self.modes,
            self.bosses,
            self.warriors,
            self.abilities,
        )
        return tuple(record for group in groups for record in group.values())

    def unverified(self) -> tuple[Record, ...]:
        return tuple(record for record in self.all_records() if not record.verified)


def load_castles_content(
    ruleset: str = "catacombs-and-castles-2e", overlay: Path | str | None = None
) -> CastlesContent:
    """The validated Catacombs & Castles content of ``ruleset`` with ``overlay`` laid over it."""
    if ruleset not in CASTLES_RULESETS:
        raise ContentError(
            [
                Problem(
                    f"content/{ruleset}",
                    "",
                    f"not a Catacombs & Castles rule set; known: {list(CASTLES_RULESETS)}",
                )
            ]
        )
    records = read_ruleset(ruleset, CASTLES_FILES, overlay)
    content = _build(records)
    problems: list[Problem] = []
    _cross_check(content, records, problems)
    if problems:
        fail(problems)
    return content


def _shot_sequences(raw: Any) -> ShotAlternatives:
    return tuple(
        tuple(
            ShotSpec(
                shot=shot["shot"],
                connector=shot.get("connector", "then") if position else None,
                optional=shot.get("optional", False),
                transfers=tuple(shot["transfers"]) if "transfers" in shot else None,
            )
            for position, shot in enumerate(sequence)
        )
        for sequence in raw or ()
    )


def _charged(raw: Any) -> ChargedCardRecord | None:
    if raw is None:
        return None
    return ChargedCardRecord(
        name=raw["name"],
        charge=raw.get("charge"),
        shot_sequences=_shot_sequences(raw.get("shot_sequences")),
        reinforcement=raw.get("reinforcement", False),
    )


def _build(records: RulesetRecords) -> CastlesContent:
    """The validated records as the Castles content model.

    Kept as one function (about 100 lines): one mapping per record kind (shots, heroes, modes, bosses,
    warriors, abilities), each field mapped from its JSON Schema key; splitting would only move the
    mapping apart from its schema order."""
    shots = {
        rid: CastlesShot(
            **marks(rid, raw),
            kind=raw["kind"],
            damage=raw.get("damage"),
            transfers=tuple(raw.get("transfers", ())),
            piece=raw.get("piece"),
            effect=raw.get("effect"),
            catacombs_3e=raw.get("catacombs_3e"),
        )
        for rid, raw in records.data("shots")
    }
    heroes = {
        rid: CastlesHero(
            **marks(rid, raw),
            team=raw["team"],
            hero_class=raw["class"],
            role=raw.get("role"),
            shot_sequences=_shot_sequences(raw.get("shot_sequences")),
            ability=raw.get("ability"),
            ability_charge=raw.get("ability_charge"),
            ability_sequences=_shot_sequences(raw.get("ability_sequences")),
            ability_horn_from=raw.get("ability_horn_from"),
            team_action=_charged(raw.get("team_action")),
            attributes=tuple(raw.get("attributes", ())),
            quick_start=raw.get("quick_start", False),
            abilities=tuple(raw.get("abilities", ())),
        )
        for rid, raw in records.data("heroes")
    }
    modes = {
        rid: GameMode(
            **marks(rid, raw),
            player_counts=tuple(
                PlayerCount(p["players"], p["heroes_each"], p["team_size"], p.get("note"))
                for p in raw.get("player_counts", ())
            ),
            health_tokens=raw.get("health_tokens"),
            health_tokens_per=raw.get("health_tokens_per"),
            armour_tokens_per_hero=raw.get("armour_tokens_per_hero"),
            game_lengths=tuple(
                GameLength(g["id"], g["health_tokens"], g.get("reinforcement_tokens"))
                for g in raw.get("game_lengths", ())
            ),
            rules=tuple(raw.get("rules", ())),
        )
        for rid, raw in records.data("modes")
    }
    bosses = {
        rid: CastlesBoss(
            **marks(rid, raw),
            team=raw["team"],
            hero=raw.get("hero"),
            forms=tuple(raw.get("forms", ())),
            rules=tuple(raw.get("rules", ())),
            armour_tokens=raw.get("armour_tokens", 0),
            form_change=raw.get("form_change", "none"),
            form_sequences=MappingProxyType(
                {form: _shot_sequences(seqs) for form, seqs in raw.get("form_sequences", {}).items()}
            ),
            boss_actions=tuple(c for c in (_charged(a) for a in raw.get("boss_actions", ())) if c),
            health_tokens=raw.get("health_tokens"),
        )
        for rid, raw in records.data("bosses")
    }
    warriors = {
        rid: CastlesWarrior(
            **marks(rid, raw),
            team=raw["team"],
            health=raw.get("health", 1),
            pieces=raw.get("pieces", 1),
            shot_sequences=_shot_sequences(raw.get("shot_sequences")),
            attributes=tuple(raw.get("attributes", ())),
        )
        for rid, raw in records.data("warriors")
    }
    abilities = {
        rid: CastlesAbility(
            **marks(rid, raw),
            team=raw["team"],
            charge=raw.get("charge"),
            shot_sequences=_shot_sequences(raw.get("shot_sequences")),
            team_icon=raw.get("team_icon"),
            team_from=raw.get("team_from", 0),
        )
        for rid, raw in records.data("abilities")
    }
    return CastlesContent(
        abilities=MappingProxyType(abilities),
        ruleset=records.ruleset,
        shots=MappingProxyType(shots),
        heroes=MappingProxyType(heroes),
        modes=MappingProxyType(modes),
        bosses=MappingProxyType(bosses),
        files=records.files,
        warriors=MappingProxyType(warriors),
    )


def _cross_check(content: CastlesContent, records: RulesetRecords, problems: list[Problem]) -> None:
    check = Checker(records.records, problems)

    def shots(key: str, rid: str, path: list[str | int], alternatives: ShotAlternatives) -> None:
        for i, sequence in enumerate(alternatives):
            for j, spec in enumerate(sequence):
                check.ref(key, rid, [*path, i, j, "shot"], spec.shot, content.shots, "shot")

    for hid, hero in content.heroes.items():
        shots("heroes", hid, ["shot_sequences"], hero.shot_sequences)
        shots("heroes", hid, ["ability_sequences"], hero.ability_sequences)
        if hero.team_action is not None:
            shots("heroes", hid, ["team_action", "shot_sequences"], hero.team_action.shot_sequences)
    for wid, warrior in content.warriors.items():
        shots("warriors", wid, ["shot_sequences"], warrior.shot_sequences)
    for aid, ability in content.abilities.items():
        shots("abilities", aid, ["shot_sequences"], ability.shot_sequences)
        shortest = min((len(s) for s in ability.shot_sequences), default=0)
        if ability.team_icon is not None and ability.team_from >= max(shortest, 1):
            check.fail("abilities", aid, ["team_from"], f"{ability.team_from} leaves no shot after the icon")
    for hid, hero in content.heroes.items():
        for k, card in enumerate(hero.abilities):
            check.ref("heroes", hid, ["abilities", k], card, content.abilities, "ability")
            found = content.abilities.get(card)
            if found is not None and found.team != hero.team:
                check.fail(
                    "heroes", hid, ["abilities", k], f"{card!r} is not a Team {hero.team.title()} card"
                )
    for bid, boss in content.bosses.items():
        for form, alternatives in boss.form_sequences.items():
            if form not in boss.forms:
                check.fail(
                    "bosses", bid, ["form_sequences", form], f"{form!r} is not one of its forms {boss.forms}"
                )
            shots("bosses", bid, ["form_sequences", form], alternatives)
        for k, action in enumerate(boss.boss_actions):
            shots("bosses", bid, ["boss_actions", k, "shot_sequences"], action.shot_sequences)
    for bid, boss in content.bosses.items():
        check.ref("bosses", bid, ["hero"], boss.hero, content.heroes, "hero")
        same_character = content.heroes.get(boss.hero) if boss.hero else None
        if same_character is not None and same_character.team != boss.team:
            check.fail("bosses", bid, ["team"], f"the hero {boss.hero!r} plays for the other team")
