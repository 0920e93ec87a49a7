"""The validated Catacombs & Castles 2E content as the cards the rules read
(``service.games.castles.core.cards``).

Content ids are kebab-case (``giant-fireball``), rule shot names snake_case (``giant_fireball``). Every hero
has an Ability and a Team Action card (catacombs-and-castles-2e-manual.md: Hero Actions); one whose charge the
content does not give collects tokens but cannot be performed.
"""

from __future__ import annotations

from service.content.records import ShotAlternatives
from service.games.castles.content import CastlesContent, ChargedCardRecord
from service.games.castles.core.cards import (
    Alternatives,
    BossRules,
    CastlesCards,
    ChargedCard,
    HeroRules,
    ShotRule,
    Step,
    WarriorRules,
)


def shot_name(content_id: str) -> str:
    return content_id.replace("-", "_")


def _alternatives(raw: ShotAlternatives) -> Alternatives:
    return tuple(
        tuple(Step(shot_name(spec.shot), spec.connector, spec.transfers) for spec in sequence)
        for sequence in raw
    )


def _card(card_id: str, kind: str, record: ChargedCardRecord) -> ChargedCard:
    return ChargedCard(
        card_id,
        record.name,
        kind,
        record.charge,
        _alternatives(record.shot_sequences),
        None,
        record.reinforcement,
    )


def castles_cards(content: CastlesContent) -> CastlesCards:
    shots = {
        shot_name(sid): ShotRule(shot_name(sid), s.kind, s.damage or 0, s.transfers or ("power",))
        for sid, s in content.shots.items()
    }
    heroes = {}
    for hid, h in content.heroes.items():
        ability = ChargedCard(
            f"{hid}-ability",
            h.ability or "Ability",
            "ability",
            h.ability_charge,
            _alternatives(h.ability_sequences),
            h.ability_horn_from,
        )
        team_action = _card(
            f"{hid}-team-action", "team_action", h.team_action or ChargedCardRecord(name="Team Action")
        )
        if content.abilities:
            # First edition: two Ability cards per hero, chosen at setup from the team's (ability_cards).
            heroes[hid] = HeroRules(
                hid, h.name, h.team, None, _alternatives(h.shot_sequences), abilities=h.abilities
            )
            continue
        heroes[hid] = HeroRules(
            hid, h.name, h.team, h.role, _alternatives(h.shot_sequences), ability, team_action, h.attributes
        )
    warriors = {
        wid: WarriorRules(
            wid, w.name, w.team, _alternatives(w.shot_sequences), w.pieces, w.health, w.attributes
        )
        for wid, w in content.warriors.items()
    }
    bosses = {}
    boss_actions: dict[str, tuple[ChargedCard, ...]] = {}
    for bid, b in content.bosses.items():
        forms = tuple((form, _alternatives(b.form_sequences.get(form, ()))) for form in b.forms)
        bosses[bid] = BossRules(bid, b.name, b.team, forms, b.armour_tokens, b.form_change)
        for record in b.boss_actions:
            card_id = f"{b.team}-{record.name.lower().replace(' ', '-')}"
            known = boss_actions.get(b.team, ())
            if all(c.id != card_id for c in known):
                boss_actions[b.team] = (*known, _card(card_id, "boss_action", record))
    health = {mid: m.health_tokens for mid, m in content.modes.items() if m.health_tokens is not None}
    lengths: dict[str, tuple[int, int]] = {}
    for mode in content.modes.values():
        for length in mode.game_lengths:
            lengths[length.id] = (length.health_tokens, length.reinforcement_tokens or 0)
    ability_cards = {
        aid: ChargedCard(
            aid,
            a.name,
            "ability",
            a.charge,
            _alternatives(a.shot_sequences),
            horn_from=a.team_from if a.team_icon == "horn" else None,
            team_from=a.team_from if a.team_icon == "team" else None,
            team=a.team,
        )
        for aid, a in content.abilities.items()
    }
    return CastlesCards(
        ability_cards=ability_cards,
        boss_health={bid: b.health_tokens for bid, b in content.bosses.items() if b.health_tokens},
        heroes=heroes,
        shots=shots,
        warriors=warriors,
        bosses=bosses,
        boss_actions=boss_actions,
        health_tokens=health,
        game_lengths=lengths,
    )
