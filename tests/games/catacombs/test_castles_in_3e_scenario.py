"""A short 3E room played with Castles heroes in the party, on the shipped cards and the Castles playmat
(catacombs-and-castles-2e-manual.md: Catacombs 3E Integration), from the setup record a table writes."""

from __future__ import annotations

from typing import Any

import pytest

from service.gamelog.replay import SetupError, new_game_from_setup
from service.games.catacombs.content import load_content
from service.games.catacombs.flow import actions as A
from service.rules.errors import NotEnoughGoldError

SETUP: dict[str, Any] = {
    "ruleset": "catacombs-3e",
    "heroes": ["varesh", "xoric", "hakoru", "larra"],
    "lord": "vasesak-the-sorcerer",
    "rooms": ["the-barracks", "amaranth-inn", "zothas-gatehouse"],
    "seed": 3,
    "expansions": ["castles"],
}


def test_a_castles_hero_needs_the_castles_expansion() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: Team Catacomb Heroes (the Castles heroes
    come with the Compatibility Deck: a setup without it knows no Hakoru)."""
    with pytest.raises(SetupError, match="hakoru"):
        new_game_from_setup({**SETUP, "expansions": []})


def test_the_shipped_castles_heroes_follow_their_types() -> None:
    """catacombs-and-castles-2e-manual.md: Dark Spell Cards (Clerics, Fighters, Spell Casters, Monarchs) and
    Team Catacomb Heroes: the shipped Compatibility Deck stand-ins carry a team and a type each."""
    content = load_content("catacombs-3e", expansions=("castles",))
    castles = {h.id: h for h in content.heroes.values() if h.team}
    assert len(castles) == 12 and {h.team for h in castles.values()} == {"castle", "catacomb"}
    for hero in castles.values():
        assert not hero.verified and "hero_type" in hero.unverified_fields
        assert hero.spell_caster == (hero.hero_type in ("spell_caster", "monarch"))
        assert hero.can_use_weapons == (hero.hero_type in ("fighter", "monarch"))
    assert all(s.dark for s in content.spells.values() if s.set == "castles")


def test_a_short_room_with_a_catacomb_hero() -> None:
    """catacombs-and-castles-2e-manual.md: Catacombs 3E Integration: the heroes choose their Start Zone on the
    Castles playmat (Catacombs & Castles Playmat(s)); Hakoru's shuriken and Larra's longbow play as 3E
    ranged shots (Catacombs & Castles Shots In Catacombs 3E); Hakoru's reward is his own and he pays his own
    lodging at the Amaranth Inn (Team Catacomb Heroes)."""
    rules, state = new_game_from_setup(SETUP)

    def do(action: A.Action) -> list[Any]:
        nonlocal state
        state, events = rules.apply(state, action)
        return events

    do(A.EnterRoom(playmat="castles-front"))
    assert state.pending.kind == "choose_start_zone"
    events = do(A.Decide(state.pending.id, "start-zone-a"))
    assert any(e.type == "start_zone_chosen" and e.overseer == "start-zone-b" for e in events)
    do(A.StartBattle())
    # Hakoru: rush, then the shuriken hits orc 1, and he rushes again (Shuriken).
    do(A.DeclareAction("hero-hakoru"))
    do(A.ResolveShot("hero-hakoru", "rush"))
    do(A.ResolveShot("hero-hakoru", "shuriken", direct_hits=("monster-orc-1",)))
    assert state.expected_shot()["piece"] == "hero-hakoru"
    do(A.ResolveShot("hero-hakoru", "rush"))
    # Larra: rush, then the longbow from a teammate's spot (the rules see only what it hit).
    do(A.DeclareAction("hero-larra"))
    do(A.ResolveShot("hero-larra", "rush"))
    do(A.ResolveShot("hero-larra", "longbow", direct_hits=("monster-orc-2", "monster-orc-3")))
    do(A.DeclareAction("hero-xoric"))
    do(A.ResolveShot("hero-xoric", "rush"))
    do(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-4", "monster-pit-viper-1")))
    do(A.DeclareAction("hero-varesh"))
    do(A.ResolveShot("hero-varesh", "rush"))
    do(A.ResolveShot("hero-varesh", "melee", direct_hits=("monster-troll-1",)))
    # The Troll's turn: its regeneration melee misses.
    do(A.DeclareAction("monster-troll-1"))
    do(A.ResolveShot("monster-troll-1", "melee"))
    do(A.DeclareAction("hero-hakoru"))
    do(A.ResolveShot("hero-hakoru", "rush"))
    do(A.ResolveShot("hero-hakoru", "shuriken", direct_hits=("monster-troll-1",)))
    assert state.phase == "resolution"
    gold = {h.id: h.gold for h in state.heroes}
    assert gold == {"hero-hakoru": 1 + 2, "hero-larra": 2, "hero-xoric": 1 + 2, "hero-varesh": 0}
    do(A.EnterRoom())
    assert state.room_kind == "inn"
    with pytest.raises(NotEnoughGoldError):  # the other heroes' 5 and Hakoru's 3 may not be pooled
        do(A.UseService("sleep"))
    with pytest.raises(NotEnoughGoldError):  # nor do his 3 pay for his own lodging
        do(A.UseService("sleep", target="hero-hakoru"))
