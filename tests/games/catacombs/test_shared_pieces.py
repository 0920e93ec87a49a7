"""The Swordmaster Ghoul and the Crypt Spider share one piece (catacombs-3e-reference.txt: Room Cards: Monster
Metre Icons; reference-data README "sharing one piece (both large grey)"; docs/rulings.md "Shared pieces")."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex, MonsterCard, QuadrantEntry, RoomCard
from service.games.catacombs.flow.shots import Sequence, Shot
from service.rules.errors import BadDecisionError, IllegalActionError
from tests.helpers import sample_content as sample
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.sample_content import seq

GHOUL = MonsterCard(
    "swordmaster-ghoul",
    "Swordmaster Ghoul",
    4,
    "undead",
    4,
    5,
    (seq("chain melee", "chain melee", "chain melee"),),
    pieces=1,
    shares_pieces_with=("crypt-spider",),
)
# Only the Ghoul names the other card: the sharing holds either way.
SPIDER = MonsterCard(
    "crypt-spider", "Crypt Spider", 4, "undead", 4, 5, (seq("regeneration melee"),), pieces=1
)
CUBE = next(m for m in sample.MONSTERS if m.id == "gelatinous-cube")
NECROMANCER = MonsterCard(
    "necromancer",
    "Necromancer",
    3,
    "undead",
    2,
    3,
    (Sequence((Shot("summon", summons="swordmaster-ghoul"), Shot("melee"))),),
    pieces=1,
)
LEVEL_4 = {"swordmaster-ghoul", "crypt-spider", "gelatinous-cube"}


def content(*rooms: RoomCard, level_4: tuple[MonsterCard, ...] = (GHOUL, SPIDER, CUBE)) -> CardIndex:
    others = [m for m in sample.MONSTERS if m.id not in LEVEL_4]
    return CardIndex(
        sample.HEROES,
        [*others, *level_4, NECROMANCER],
        [*rooms, *sample.ROOMS],
        sample.LORDS,
        sample.POISON_DECK,
        sample.CARDS,
    )


SPIDER_LAIR = RoomCard(
    "spider-lair",
    "Spider Lair",
    "battle",
    2,
    (),
    {4: (QuadrantEntry("specific", 1, "crypt-spider"), QuadrantEntry("monster_metre", 1))},
)


def test_a_chosen_monster_metre_pick_is_not_offered_a_piece_that_is_in_use() -> None:
    """catacombs-3e-reference.txt: Room Cards: Monster Metre Icons ("they both share the same piece")."""
    table = catacombs_3e(["spider-lair"], content=content(SPIDER_LAIR))
    table.do(A.EnterRoom())
    assert [c.id for c in table.state.room_monsters] == ["monster-crypt-spider-1"]
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_monster"
    offered = {o.id for o in pending.options}
    assert "gelatinous-cube" in offered and "random" in offered
    assert not any(o.startswith("swordmaster-ghoul") for o in offered)
    with pytest.raises(BadDecisionError):
        table.do(A.Decide(pending.id, "swordmaster-ghoul"))
    table.do(A.Decide(pending.id, "gelatinous-cube"))
    assert sorted(c.card for c in table.state.room_monsters) == ["crypt-spider", "gelatinous-cube"]


def test_a_random_draw_of_the_ghoul_after_the_spider_is_discarded_and_another_drawn() -> None:
    """catacombs-3e-reference.txt: Room Cards: Monster Metre Icons ("In this case, discard the Monster card
    and draw another one")."""
    discarded = 0
    for seed in range(30):
        table = catacombs_3e(["spider-lair"], content=content(SPIDER_LAIR), seed=seed)
        table.do(A.EnterRoom())
        assert table.state.pending is not None
        table.do(A.Decide(table.state.pending.id, "random"))
        # Only the Gelatinous Cube can come out: the Ghoul's card, when drawn, goes to the discard pile.
        assert sorted(c.card for c in table.state.room_monsters) == ["crypt-spider", "gelatinous-cube"]
        redraws = [e for e in table.last if e.type == "monster_card_discarded"]
        if redraws:
            discarded += 1
            assert redraws[0].to_json()["card"] == "swordmaster-ghoul"
            assert redraws[0].to_json()["blocked_by"] == "monster-crypt-spider-1"
            assert "discarded and another drawn" in redraws[0].text
    assert 0 < discarded < 30  # the Ghoul is drawn first in some games and not in others


def test_with_every_level_card_blocked_the_icon_places_nothing() -> None:
    """catacombs-3e-reference.txt: Room Cards: Monster Metre Icons ("up to the maximum number available, if
    able to do so"); Game Phases: The Setup Phase (supply limits are hard limits)."""
    table = catacombs_3e(["spider-lair"], content=content(SPIDER_LAIR, level_4=(GHOUL, SPIDER)))
    table.do(A.EnterRoom())
    assert table.state.pending is None and table.state.monster_metre_queue == ()
    assert [c.card for c in table.state.room_monsters] == ["crypt-spider"]
    assert any(e.type == "monster_card_discarded" for e in table.last)
    table.do(A.StartBattle())
    assert table.state.phase == "battle"


def test_a_summon_finds_no_piece_while_the_spiders_disc_is_on_the_mat_or_its_slayers_board() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Summon Shot ("the monster piece being summoned must be
    available from the Monster Pool"); Room Cards: Monster Metre Icons (the shared piece); The Resolution
    Phase; Hero Death ("any monsters they have killed are returned to the Monster Pool")."""
    crypt = RoomCard(
        "crypt",
        "Crypt",
        "battle",
        2,
        (),
        {
            3: (QuadrantEntry("specific", 1, "necromancer"),),
            4: (QuadrantEntry("specific", 1, "crypt-spider"),),
        },
    )
    table = catacombs_3e(["crypt"], content=content(crypt))
    table.enter_battle()
    table.side_passes()
    table.declare("monster-necromancer-1")
    with pytest.raises(IllegalActionError, match="its piece is in use as Crypt Spider 1"):
        table.shot("monster-necromancer-1", "summon")
    table.do(A.SkipShot("monster-necromancer-1"))
    assert table.state.find("monster-swordmaster-ghoul-1") is None
    shot = table.state.expected_shot()
    assert shot is not None and (shot["actor"], shot["shot"]) == ("monster-necromancer-1", "melee")
    table.do(A.EndTurn("monster-necromancer-1"))
    table.side_passes()
    # Round 2: the heroes destroy the Spider. Its disc waits on Xoric's board until the Resolution Phase
    # (The Resolution Phase), so the shared piece is still not in the Monster Pool.
    table.edit("monster-crypt-spider-1", health=1)
    table.turn("hero-xoric", ("melee", "monster-crypt-spider-1"))
    assert not table.state.character("monster-crypt-spider-1").alive
    assert table.state.held_discs() == {"hero-xoric": ("monster-crypt-spider-1",)}
    table.side_passes()
    table.declare("monster-necromancer-1")
    with pytest.raises(IllegalActionError, match="Swordmaster Ghoul cannot be summoned"):
        table.shot("monster-necromancer-1", "summon")
    # Xoric dies: "any monsters they have killed are returned to the Monster Pool" (Hero Death).
    table.do(A.SetHealth("hero-xoric", 0, "crushed"))
    table.shot("monster-necromancer-1", "summon")
    assert table.state.character("monster-swordmaster-ghoul-1").on_mat


def test_a_specific_icon_places_no_ghoul_while_the_spider_holds_the_piece() -> None:
    """catacombs-3e-reference.txt: Room Cards: Specific Monster icons and Monster Metre Icons (shared piece);
    Game Phases: The Setup Phase ("The supply of pieces ... represent hard limits")."""
    both = RoomCard(
        "both",
        "Both",
        "battle",
        2,
        (),
        {
            4: (
                QuadrantEntry("specific", 1, "crypt-spider"),
                QuadrantEntry("specific", 1, "swordmaster-ghoul"),
            )
        },
    )
    table = catacombs_3e(["both"], content=content(both))
    table.do(A.EnterRoom())
    assert [c.card for c in table.state.room_monsters] == ["crypt-spider"]
