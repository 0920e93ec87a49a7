"""A whole game at a table with physical decks: the referee enters every card the table draws."""

from __future__ import annotations

import random

from service.gamelog.replay import replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.table_draws import CardNotNamedError
from service.rules.evolve import evolve
from tests.helpers.game_setups import catacombs_3e

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
    t = catacombs_3e(ROOMS, seed=21, settings=Settings(physical_decks=True))
    log = LogWriter()
    log.setup(setup)
    dice = random.Random(21)
    named: set[str] = set()

    def play(action: A.Action) -> None:
        """The table does it; when the rules need a card nobody named, the referee names the one drawn."""
        while True:
            try:
                t.do(action)
            except CardNotNamedError as missing:
                draw = A.DrawCards(missing.deck, (dice.choice(missing.possible),))
                named.add(missing.deck)
                t.do(draw)
                log.action(draw)
                continue
            log.action(action)
            return

    visited: set[str] = set()
    for _ in range(4000):
        if t.state.phase == "game_over":
            break
        room = t.state.room_id or ""
        if (
            t.state.phase == "special_room"
            and room in ("amaranth-inn", "alewife-tavern")
            and room not in visited
        ):
            # The party recruits an ally at the Inn and bets at the Tavern: the portrait and the bag's pieces.
            visited.add(room)
            play(A.SetGold("hero-xoric", 12, "the party's purse"))
            play(A.UseService("meal" if room == "amaranth-inn" else "bet", target="hero-xoric"))
            continue
        # Choose as a person would (the choices a digital table offers), then play it at the table.
        chooser = catacombs_3e(ROOMS, seed=21)
        chooser.state = evolve(t.state, settings=DIGITAL)
        play(random_action(chooser, dice))
        check_invariants(t.state)
    assert t.state.phase == "game_over" and t.state.room_index == len(ROOMS) - 1
    assert {"rooms", "poison", "items", "allies", "tavern"} <= named
    result = replay(log.records)
    assert result.rejected == []
    assert result.state.to_json() == t.state.to_json()
