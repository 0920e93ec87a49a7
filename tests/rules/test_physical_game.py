"""A whole game at a table with physical decks: the referee enters every card the table draws."""

from __future__ import annotations

import random

from service.gamelog.replay import replay
from service.gamelog.writer import LogWriter
from service.rules import Settings
from service.rules import actions as A
from service.rules.evolve import evolve
from service.rules.table_draws import CardNotNamedError

from .conftest import Table
from .test_audit_specials import check_invariants, random_action

ROOMS = [
    "the-mitholaq-hive",
    "izchak-the-merchant",
    "rat-nest",
    "amaranth-inn",
    "alewife-tavern",
    "the-barracks",
    "catacomb-lords-lair",
]
DIGITAL = Settings()


def test_a_physical_table_plays_a_whole_game_with_the_referee_naming_every_draw() -> None:
    """catacombs-3e-reference.txt: Game Phases (the room deck, every draw the table makes); Advanced Concepts:
    Poison Cards; Room Cards: Monster Metre Icons, Izchak the Merchant, Amaranth Inn, Alewife Tavern;
    docs/game-log.md ("Physical decks": the log replays identically)."""
    setup = {
        "ruleset": "catacombs-3e",
        "content": "sample",
        "heroes": ["xoric", "varesh", "roosan", "elani"],
        "lord": "hmotha-the-lich-lord",
        "rooms": ROOMS,
        "seed": 21,
        "settings": {"physical_decks": True},
    }
    t = Table(ROOMS, seed=21, settings=Settings(physical_decks=True))
    log = LogWriter()
    log.setup(setup)
    dice = random.Random(21)
    named: set[str] = set()
    for _ in range(1500):
        if t.state.phase == "game_over" or t.state.room_index == len(ROOMS) - 1 and t.state.phase != "setup":
            break
        # Choose as a person would (the same choices a digital table offers), then play it at the table.
        digital = evolve(t.state, settings=DIGITAL)
        t_digital = Table(ROOMS, seed=21)
        t_digital.state = digital
        action = random_action(t_digital, dice)
        while True:
            try:
                t.do(action)
            except CardNotNamedError as missing:
                card = dice.choice(missing.possible)
                named.add(missing.deck)
                draw = A.DrawCards(missing.deck, (card,))
                t.do(draw)
                log.action(draw)
                continue
            log.action(action)
            break
        check_invariants(t.state)
    assert t.state.room_index == len(ROOMS) - 1 or t.state.phase == "game_over"
    assert {"rooms", "poison", "items"} <= named
    result = replay(log.records)
    assert result.rejected == []
    assert result.state.to_json() == t.state.to_json()
