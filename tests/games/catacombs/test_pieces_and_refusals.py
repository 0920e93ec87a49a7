"""Discs on the heroes' boards, pieces that leave the playmat at the end of a room, shields, teleports,
portals, Antient control, and the refusals that keep a mis-entered log from passing unnoticed."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import MonsterCard
from service.games.catacombs.flow.shots import Sequence, Shot
from service.rules.errors import IllegalActionError, NoSuchAlternativeError
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import seq

from .content import room_of, with_cards

NECROMANCER = MonsterCard(
    "necromancer",
    "Necromancer",
    2,
    "undead",
    1,
    1,
    (Sequence((Shot("summon", summons="zombie"), Shot("melee"))),),
)


def crypt(*monsters: tuple[str, int]) -> RulesScript:
    table = catacombs_3e(
        ["crypt", "the-barracks"],
        content=with_cards(monsters=[NECROMANCER], rooms=[room_of("crypt", *monsters)]),
    )
    table.enter_battle()
    return table


def clear_room(table: RulesScript) -> None:
    for monster in [c.id for c in table.state.room_monsters if c.alive]:
        table.do(A.SetHealth(monster, 0, "cleared for the scenario"))


# -- The Resolution Phase / Hero Death / Catacomb Lord's Lair -----------------------------------------------
def test_a_destroyed_monsters_disc_waits_on_the_heros_board_until_the_resolution_phase() -> None:
    """catacombs-3e-reference.txt: The Resolution Phase ("Each surviving hero is given an amount of gold ...
    The monster pieces are then returned to the Monster Pool")."""
    table = catacombs_3e(["the-barracks", "rat-nest"])
    table.enter_battle()
    supply = dict(table.state.monster_supply)["orc"]
    table.turn("hero-xoric", ("melee", "monster-orc-1"))
    assert table.state.held_discs() == {"hero-xoric": ("monster-orc-1",)}
    # Three Orcs on the playmat and one disc on Xoric's board: none of them is in the pool.
    assert table.state.monster_pool()["orc"] == supply - 4
    assert table.state.public_view()["monster_pool"]["orc"] == supply - 4
    xoric = next(c for c in table.state.public_view()["characters"] if c["id"] == "hero-xoric")
    assert xoric["discs"] == ["monster-orc-1"]
    clear_room(table)
    assert table.state.phase == "resolution"
    assert table.state.held_discs() == {}
    assert table.state.monster_pool()["orc"] == supply
    assert "Xoric the Barbarian returns 1 monster disc(s) to the Monster Pool" in table.texts()


def test_a_summon_finds_no_piece_while_the_destroyed_monsters_disc_is_on_a_heros_board() -> None:
    """catacombs-3e-reference.txt: The Resolution Phase (discs go back only then); Advanced Shots: Summon Shot
    ("the monster piece being summoned must be available from the Monster Pool")."""
    table = crypt(("necromancer", 1), ("zombie", 4))
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    table.side_passes()
    table.declare("monster-necromancer-1")
    with pytest.raises(IllegalActionError, match="Summon Shot") as refused:
        table.shot("monster-necromancer-1", "summon")
    assert "Zombie cannot be summoned: no piece is left in the Monster Pool" in str(refused.value)
    assert table.state.find("monster-zombie-5") is None


def test_a_dead_heros_discs_go_back_to_the_monster_pool_at_once() -> None:
    """catacombs-3e-reference.txt: Hero Death ("any monsters they have killed are returned to the Monster
    Pool"); Advanced Shots: Summon Shot."""
    table = crypt(("necromancer", 1), ("zombie", 4))
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    table.side_passes()
    table.do(A.SetHealth("hero-xoric", 0, "crushed by a falling block"))
    assert table.state.held_discs() == {}
    assert "Xoric the Barbarian's 1 monster disc(s) return to the Monster Pool" in table.texts()
    table.declare("monster-necromancer-1")
    table.shot("monster-necromancer-1", "summon")
    assert table.state.character("monster-zombie-5").on_mat


def test_monsters_destroyed_in_the_lair_go_straight_back_to_the_monster_pool() -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair ("Important Note: Monsters destroyed during the
    encounter with the Catacomb Lord are returned to the Monster Pool")."""
    table = catacombs_3e(["catacomb-lords-lair"])
    table.enter_battle()
    minion = next(c for c in table.state.room_monsters if c.kind == "monster")
    before = table.state.monster_pool()[minion.card]
    table.edit(minion.id, health=1)
    table.turn("hero-xoric", ("melee", minion.id))
    assert not table.state.character(minion.id).alive
    assert table.state.held_discs() == {}
    assert table.state.monster_pool()[minion.card] == before + 1


def test_fire_walls_leave_the_playmat_when_the_room_is_complete() -> None:
    """catacombs-3e-reference.txt: The Battle Phase ("All other pieces such as obstacles, shields, and fire
    walls are removed from the playmat. The Resolution Phase begins"); Fire Walls."""
    table = catacombs_3e(["zothas-gatehouse", "the-barracks"])
    table.enter_battle()
    table.side_passes()
    table.declare("monster-fire-spirit-1", 1)
    table.shot("monster-fire-spirit-1", "melee")
    table.do(A.Decide(table.state.pending.id, "yes"))  # type: ignore[union-attr]
    assert table.state.character("monster-fire-spirit-1").kind == "fire_wall"
    assert table.state.monster_pool()["fire-spirit"] == dict(table.state.monster_supply)["fire-spirit"] - 1
    clear_room(table)
    assert table.state.phase == "resolution"
    wall = table.state.character("monster-fire-spirit-1")
    assert not wall.in_room
    assert "monster-fire-spirit-1" not in [c["id"] for c in table.state.public_view()["characters"]]
    assert table.state.monster_pool()["fire-spirit"] == dict(table.state.monster_supply)["fire-spirit"]


# -- Shield Shots --------------------------------------------------------------------------------------------
def shielded_xoric() -> RulesScript:
    table = catacombs_3e(["the-barracks", "rat-nest"])
    table.enter_battle()
    table.edit("hero-xoric", shot_sequences=(seq("shield", "melee"),))
    return table


def test_a_shield_piece_is_placed_once_the_whole_sequence_is_complete() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Shield Shots ("Immediately after the entire shot
    sequence (which contains a shield shot icon) is complete, the shield piece is placed ... Shield shots do
    not inflict any damage")."""
    table = shielded_xoric()
    table.declare("hero-xoric")
    table.shot("hero-xoric", "shield", "monster-orc-1")
    assert table.state.character("monster-orc-1").health == 1  # no damage
    assert table.state.shields == ()  # not yet: the melee is still to come
    table.shot("hero-xoric", "melee")
    assert table.state.shields == ("hero-xoric",)
    assert "Xoric the Barbarian's shield piece is placed beside it" in table.texts()


def test_a_shield_leaves_the_playmat_with_its_dead_owner_and_at_the_end_of_the_battle() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Shield Shots ("Shield pieces are removed from the playmat
    when their owner dies or when the Battle Phase ends"); The Battle Phase."""
    table = shielded_xoric()
    table.turn("hero-xoric", ("shield",), ("melee",))
    table.edit("hero-elani", shot_sequences=(seq("shield"),))
    table.turn("hero-elani", ("shield",))
    assert table.state.shields == ("hero-xoric", "hero-elani")
    table.do(A.SetHealth("hero-elani", 0, "poisoned dart"))
    assert table.state.shields == ("hero-xoric",)
    clear_room(table)
    assert table.state.shields == ()
    assert table.state.public_view()["shields"] == []


def test_a_skipped_shield_shot_places_no_shield() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Shield Shots (the piece follows a sequence in which the
    shield shot was performed; a skipped shot is forfeited, RULINGS.md 2)."""
    table = shielded_xoric()
    table.declare("hero-xoric")
    table.do(A.SkipShot("hero-xoric"))
    table.shot("hero-xoric", "melee")
    assert table.state.shields == ()


# -- Teleport Shots / Open Portal ----------------------------------------------------------------------------
def teleporter() -> RulesScript:
    table = catacombs_3e(["the-barracks", "rat-nest"])
    table.enter_battle()
    table.edit("hero-varesh", shot_sequences=(seq("teleport", "melee"),))
    return table


def test_a_teleport_shot_can_send_another_character_to_the_teleported_card() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Teleport Shots ("the target character being teleported will
    have its piece removed from the playmat and placed on the Teleported! card")."""
    table = teleporter()
    table.declare("hero-varesh")
    table.do(A.ResolveShot("hero-varesh", "teleport", teleported="monster-troll-1"))
    assert table.status("monster-troll-1") == ("teleported",)
    assert "teleported" not in table.status("hero-varesh")
    assert table.state.expected_shot()["shot"] == "melee"  # type: ignore[index]  # Varesh goes on


def test_a_stunned_character_cannot_teleport_itself_and_antients_cannot_be_teleported() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Teleport Shots ("A character who is stunned or frozen
    cannot teleport themselves, however, they can be teleported by another character"); Advanced Concepts:
    Antients ("Antients specifically cannot be teleported")."""
    table = teleporter()
    table.edit("hero-xoric", status=("stunned",))
    table.declare("hero-varesh")
    table.do(A.ResolveShot("hero-varesh", "teleport", teleported="hero-xoric"))
    assert table.status("hero-xoric") == ("teleported",)  # teleporting frees it from the stun
    table = teleporter()
    table.declare("hero-varesh")
    table.do(A.SetStatus("hero-varesh", "stunned", True, "a reflected stun"))
    with pytest.raises(IllegalActionError, match="cannot teleport itself"):
        table.do(A.ResolveShot("hero-varesh", "teleport"))
    with pytest.raises(IllegalActionError, match="no character"):
        table.do(A.ResolveShot("hero-varesh", "teleport", teleported="monster-ghost-9"))


def test_only_a_teleport_shot_names_a_teleported_character() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Teleport Shots."""
    table = catacombs_3e(["the-barracks", "rat-nest"])
    table.enter_battle()
    table.declare("hero-xoric")
    with pytest.raises(IllegalActionError, match="only a teleport shot"):
        table.do(A.ResolveShot("hero-xoric", "melee", teleported="monster-orc-1"))


def test_an_open_portal_switches_two_friendly_pieces_and_refuses_an_enemy() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Open Portal ("switch the positions of any two friendly
    characters on the playmat (including themselves). This includes characters that are frozen")."""
    table = catacombs_3e(["the-barracks", "rat-nest"])
    table.enter_battle()
    table.edit("hero-varesh", shot_sequences=(seq("open_portal"),))
    table.edit("hero-xoric", status=("frozen",))
    table.declare("hero-varesh")
    for swapped, why in (
        (("hero-elani", "monster-orc-1"), "not a friendly character"),
        (("hero-elani",), "switches two pieces"),
        (("hero-elani", "hero-elani"), "switches two pieces"),
    ):
        with pytest.raises(IllegalActionError, match=why):
            table.do(A.ResolveShot("hero-varesh", "open_portal", swapped=swapped))
    table.do(A.ResolveShot("hero-varesh", "open_portal", swapped=("hero-elani", "hero-xoric")))
    portal = next(e for e in table.last if e.type == "portal_opened")
    assert portal.swapped == ("hero-elani", "hero-xoric")  # type: ignore[attr-defined]


# -- Or-alternatives the rules do not offer ------------------------------------------------------------------
def test_a_stunned_heros_explicit_alternative_is_refused_not_replaced() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier (a stunned hero "may only perform a single rush
    shot"); catacombs-3e-reference.txt: Battle Phase: Shot Sequences and Connectors."""
    table = catacombs_3e(["the-barracks", "rat-nest"])
    table.enter_battle()
    table.edit("hero-xoric", status=("stunned",))
    with pytest.raises(NoSuchAlternativeError, match="Stun Shot Modifier") as refused:
        table.declare("hero-xoric", 0)
    assert "single rush" in str(refused.value)
    table.declare("hero-xoric")
    assert table.state.turn.label == "rush"  # type: ignore[union-attr]


def test_a_teleported_characters_explicit_alternative_is_refused() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Teleport Shots ("performs a single melee shot")."""
    table = catacombs_3e(["the-barracks", "rat-nest"])
    table.enter_battle()
    table.edit("hero-xoric", status=("teleported",))
    with pytest.raises(NoSuchAlternativeError, match="Teleport Shots"):
        table.declare("hero-xoric", 0)
    assert A.DeclareAction("hero-xoric") in table.rules.choices(table.state)
    table.declare("hero-xoric")
    assert table.state.turn.label == "melee"  # type: ignore[union-attr]


# -- Antients ------------------------------------------------------------------------------------------------
def test_the_liquid_antient_is_controlled_by_each_side_in_turn() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Antients ("An Antient is controlled first by the player
    that summoned it ... Once that player's turn is over, the Antient card is passed to the Overseer. Control
    of the Antient passes back and forth")."""
    table = catacombs_3e(["the-barracks", "rat-nest"], items={"elani": ["vaiels-urn"]})
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    antient = "antient-liquid-antient"
    view = table.state.public_view()["antients"]
    assert view == [{"id": antient, "controlled_by": "heroes", "acted": True, "has_sequence": True}]
    table.shot("hero-elani", "melee", "monster-orc-1")  # the Antient's melee on the Overseer's forces
    assert not table.state.character("monster-orc-1").alive
    table.do(A.EndTurn("hero-elani"))
    table.side_passes()
    assert table.state.side == "overseer"
    overseer = [{"id": antient, "controlled_by": "overseer", "acted": False, "has_sequence": True}]
    assert table.state.public_view()["antients"] == overseer
    table.turn(antient, ("melee", "hero-xoric"))  # now aimed at the heroes
    assert table.health("hero-xoric") == 8
    assert table.state.public_view()["antients"][0]["acted"] is True
