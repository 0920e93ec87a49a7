"""The Room deck and room flow (catacombs-3e-reference.txt: Game Phases; Addendum: Alternate Room Card
Layouts)."""

from __future__ import annotations

import pytest

from service.gamelog import replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import HeroCard
from service.games.catacombs.flow.layout import deal_room_deck
from service.rules import IllegalActionError
from service.rules.errors import WrongPhaseError
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.sample_content import sample_content, seq

from .content import with_cards

LAYOUT = ["difficulty_0", "difficulty_1", "special", "difficulty_2", "special", "lair"]


def test_a_random_layout_deals_rooms_by_difficulty_with_the_lair_last() -> None:
    """catacombs-3e-reference.txt: Addendum: Alternate Room Card Layouts."""
    content = sample_content()
    deck = deal_room_deck(content, LAYOUT, seed=11)
    kinds = {r.id: (r.kind, r.difficulty) for r in content.rooms()}
    assert [kinds[r][1] for r in (deck[0], deck[1], deck[3])] == [0, 1, 2]
    assert all(kinds[deck[i]][0] in ("healer", "inn", "merchant", "tavern") for i in (2, 4))
    assert deck[-1] == "catacomb-lords-lair" and len(set(deck)) == len(deck)
    assert deal_room_deck(content, LAYOUT, seed=11) == deck
    with pytest.raises(IllegalActionError, match="Lair is always the last"):
        deal_room_deck(content, ["lair", "difficulty_0"], seed=1)
    with pytest.raises(IllegalActionError, match="not enough difficulty 2"):
        deal_room_deck(content, ["difficulty_2"] * 9, seed=1)


def test_a_game_log_may_name_a_layout_instead_of_rooms() -> None:
    log = LogWriter()
    log.setup(
        {
            "ruleset": "catacombs-3e",
            "content": "sample",
            "heroes": ["xoric", "varesh", "roosan", "elani"],
            "lord": "hmotha-the-lich-lord",
            "layout": LAYOUT,
            "seed": 11,
        }
    )
    state = replay(log.records).state
    assert state.room_deck == deal_room_deck(sample_content(), LAYOUT, seed=11)


def test_rooms_are_entered_in_deck_order_and_moving_on_from_the_last_ends_the_game() -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb. A shortened deck with no Lair (a demo
    table) ends when the heroes move on from its last room (docs/rulings.md, "The last Room card")."""
    table = catacombs_3e(["althea-the-healer", "amaranth-inn"])
    table.do(A.EnterRoom())
    assert (table.state.room_id, table.state.phase) == ("althea-the-healer", "special_room")
    with pytest.raises(WrongPhaseError):
        table.do(A.StartBattle())
    table.do(A.EnterRoom())
    assert table.state.room_id == "amaranth-inn"
    events = table.do(A.EnterRoom())
    assert (table.state.phase, table.state.outcome) == ("game_over", "heroes")
    assert [e.type for e in events] == ["game_over"]
    with pytest.raises(IllegalActionError):
        table.do(A.EnterRoom())  # a game that is over takes only corrections


def test_an_empty_room_deck_has_no_first_room() -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb."""
    table = catacombs_3e([])
    with pytest.raises(WrongPhaseError, match="no Room cards are left"):
        table.do(A.EnterRoom())


def test_a_runic_shift_is_followed_by_a_melee() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Runic Shift Shot."""
    shifter = HeroCard("elani", "Elani the Thief", 7, (seq("runic_shift", "rush"),))
    table = catacombs_3e(["the-barracks"], content=with_cards(heroes=[shifter]))
    table.enter_battle()
    table.declare("hero-elani")
    table.shot("hero-elani", "runic_shift")
    assert table.state.expected_shot()["shot"] == "melee"  # type: ignore[index]
    table.shot("hero-elani", "melee", "monster-orc-1")
    assert not table.state.character("monster-orc-1").alive
    assert table.state.expected_shot()["shot"] == "rush"  # type: ignore[index]


def test_an_open_portal_swaps_pieces_without_damage() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Open Portal (the Magic Gate example)."""
    gate = HeroCard("varesh", "Varesh the Wizard", 8, (seq("open_portal"),))
    table = catacombs_3e(["the-barracks"], content=with_cards(heroes=[gate]))
    table.enter_battle()
    table.turn("hero-varesh", ("open_portal", "hero-elani", "monster-orc-1"))
    assert table.health("monster-orc-1") == 1 and table.state.turn is None


def test_a_named_layout_from_the_content_is_dealt() -> None:
    """catacombs-3e-reference.txt: Addendum: Alternate Room Card Layouts (a layout kept with the cards)."""
    deck = deal_room_deck(sample_content(), "short", seed=4)
    assert len(deck) == 4 and deck[-1] == "catacomb-lords-lair"
    log = LogWriter()
    log.setup(
        {
            "ruleset": "catacombs-3e",
            "content": "sample",
            "heroes": ["xoric", "varesh", "roosan", "elani"],
            "lord": "hmotha-the-lich-lord",
            "layout": "short",
            "seed": 4,
        }
    )
    assert replay(log.records).state.room_deck == deck


def test_the_shipped_tutorial_layout_is_its_static_column() -> None:
    from service.games.catacombs.adapter import rules_content
    from service.games.catacombs.content import load_content

    deck = deal_room_deck(rules_content(load_content("catacombs-3e", None)), "tutorial", seed=1)
    assert deck[:2] == ("bholoth-cemetery", "the-barracks") and deck[-1] == "catacomb-lords-lair"
