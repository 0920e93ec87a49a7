"""Advanced shots audit: teleport, runic shift, open portal, roll, target, ice, summon, devour, shields,
boulder and giant fireball, crossed with connectors, several targets, Lords, Antients and familiars.

Each scenario is read from catacombs-3e-reference.txt (Advanced Shots; Shot Reference) and driven only
through the public API.
"""

from __future__ import annotations

from collections.abc import Sequence

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex, HeroCard, MonsterCard
from service.rules.evolve import evolve
from tests.helpers import sample_content as sample
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import FIRST_GAME_HEROES, seq

from .content import room_of
from .test_audit_combat import AUDIT_MONSTERS, battle, c, decide, hero

FROST_WITCH = MonsterCard("frost-witch", "Frost Witch", 2, "dungeon", 2, 2, (seq("ice"),), pieces=1)
HEAVY = MonsterCard("hill-giant", "Hill Giant", 4, "dungeon", 4, 4, (seq("boulder"),), pieces=1)
BRUTES = MonsterCard("bog-ogre", "Bog Ogre", 4, "dungeon", 4, 4, (seq("melee"),), pieces=2)
GULPERS = MonsterCard("maw", "Maw", 3, "dungeon", 2, 3, (seq("devour"),), pieces=2)


def room(
    *monsters: tuple[str, int], heroes: Sequence[HeroCard] = (), items: dict | None = None
) -> RulesScript:  # type: ignore[type-arg]
    """A battle room holding ``monsters`` with the audit's monsters (and a Frost Witch) available."""
    replaced = {h.id for h in heroes}
    index = CardIndex(
        [*heroes, *(h for h in sample.HEROES if h.id not in replaced)],
        [FROST_WITCH, HEAVY, BRUTES, GULPERS, *AUDIT_MONSTERS, *sample.MONSTERS],
        [room_of("audit-room", *monsters), *sample.ROOMS],
        sample.LORDS,
        sample.POISON_DECK,
        sample.CARDS,
    )
    table = catacombs_3e(["audit-room", "the-barracks"], heroes=FIRST_GAME_HEROES, content=index, items=items)
    table.enter_battle()
    return table


# == Ice ===================================================================================================


def test_gold_for_a_frozen_monster_goes_to_its_freezer_even_if_another_hero_freed_and_refroze_nothing() -> (
    None
):
    """catacombs-3e-reference.txt: Ice Shot ("The hero who froze a monster collects gold the same way they
    would if it had been destroyed")."""
    table = room(("troll", 1), ("zombie", 1), heroes=[hero("varesh", "ice")])
    table.turn("hero-varesh", ("ice", "monster-troll-1"))
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    assert table.state.phase == "resolution"
    assert c(table, "hero-varesh").gold == 2 and c(table, "hero-xoric").gold == 1


def test_a_monster_freed_by_knocking_its_ice_off_is_killed_and_pays_its_killer_not_its_freezer() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("A frozen character can only be freed when the ice shot piece is
    knocked off by another shot"); The Resolution Phase (gold for the monsters each hero destroyed)."""
    table = room(("troll", 1), ("zombie", 1), heroes=[hero("varesh", "ice")])
    table.turn("hero-varesh", ("ice", "monster-troll-1"))
    table.declare("hero-xoric")
    table.do(A.ResolveShot("hero-xoric", "melee", direct_hits=(), knocked_off=("monster-troll-1",)))
    table.do(A.EndTurn("hero-xoric"))
    assert table.status("monster-troll-1") == ()
    table.side_passes()
    table.side_passes()
    table.turn("hero-xoric", ("melee", "monster-troll-1"))
    table.turn("hero-elani", ("melee", "monster-troll-1"))
    table.turn("hero-roosan", ("rush",), ("melee", "monster-zombie-1"))
    assert table.state.phase == "resolution"
    assert c(table, "hero-varesh").gold == 0
    assert c(table, "hero-elani").gold == 3  # a Troll's two coins and the Thief's one extra


def test_a_monsters_ice_shot_freezes_a_hero_who_then_misses_its_turns() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("When a character is struck by an ice shot, it does not take
    any damage but is considered to be frozen"; "cannot take any actions")."""
    table = room(("frost-witch", 1), ("zombie", 1))
    table.side_passes()
    table.turn("monster-frost-witch-1", ("ice", "hero-xoric"))
    assert table.status("hero-xoric") == ("frozen",) and table.health("hero-xoric") == 9
    table.side_passes()
    assert "hero-xoric" not in [a.id for a in table.rules.actors(table.state)]


def test_the_room_ends_with_a_hero_still_frozen_and_the_hero_is_thawed() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("If all other monsters in a room are dead and any remain frozen,
    the room is complete")."""
    table = room(("frost-witch", 1), ("zombie", 1))
    table.side_passes()
    table.turn("monster-frost-witch-1", ("ice", "hero-roosan"))
    table.side_passes()
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    table.turn("hero-elani", ("melee", "monster-frost-witch-1"))
    table.turn("hero-varesh", ("rush",), ("missile", "monster-frost-witch-1"))
    assert table.state.phase == "resolution"
    assert table.status("hero-roosan") == ()


# == Teleport ==============================================================================================


def test_a_teleported_hero_is_back_on_the_card_for_the_next_room_if_the_room_ends_first() -> None:
    """catacombs-3e-reference.txt: Teleport Shots ("If a hero remains on the Teleported! card at the end of
    the Battle Phase, they are placed during the Setup Phase of the next room as normal")."""
    table = battle(("zombie", 1), heroes=[hero("varesh", "teleport")])
    table.turn("hero-varesh", ("teleport",))
    assert table.status("hero-varesh") == ("teleported",)
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    assert table.state.phase == "resolution"
    assert table.status("hero-varesh") == ()
    table.enter_battle()
    table.declare("hero-varesh")
    turn = table.state.turn
    assert turn is not None and turn.label == "teleport"  # a normal turn, not a return from the card


def test_a_teleported_hero_cannot_be_devoured_or_hit_while_on_the_card() -> None:
    """catacombs-3e-reference.txt: Teleport Shots ("While on the Teleported! card, a character cannot be
    damaged or killed")."""
    table = battle(("gulper", 1), ("zombie", 1), heroes=[hero("varesh", "teleport")])
    table.turn("hero-varesh", ("teleport",))
    table.side_passes()
    table.turn("monster-gulper-1", ("devour", "hero-varesh"))
    assert table.health("hero-varesh") == 8 and table.status("hero-varesh") == ("teleported",)


def test_the_returning_teleported_heros_melee_ends_its_turn_even_under_a_then_connector() -> None:
    """catacombs-3e-reference.txt: Teleport Shots ("performs a single melee shot ... This is the end of the
    teleported character's turn")."""
    table = battle(("ogre", 1), ("zombie", 1), heroes=[hero("varesh", ("teleport", "bite"))])
    table.declare("hero-varesh")
    table.shot("hero-varesh", "teleport")
    assert table.status("hero-varesh") == ("teleported",)
    assert table.state.turn is None
    table.side_passes()
    table.side_passes()
    table.declare("hero-varesh")
    table.shot("hero-varesh", "melee", "monster-ogre-1")
    assert table.health("monster-ogre-1") == 3
    assert table.state.turn is None
    assert table.status("hero-varesh") == ()


# == Target ================================================================================================


def test_a_missed_target_shot_is_retried_before_the_next_shot_of_a_then_sequence() -> None:
    """catacombs-3e-reference.txt: Target Shot ("a second shot may be attempted from the last legal position
    where the first shot ended"); Shot Sequences and Connectors (Then)."""
    table = battle(
        ("ogre", 1),
        heroes=[hero("oleira", ("target", "melee"))],
        names=("oleira", "varesh", "roosan", "elani"),
    )
    table.declare("hero-oleira")
    table.do(A.ResolveShot("hero-oleira", "target", direct_hits=(), target="monster-ogre-1"))
    shot = table.state.expected_shot()
    assert shot is not None and shot["shot"] == "target"
    table.do(A.ResolveShot("hero-oleira", "target", direct_hits=("monster-ogre-1",), target="monster-ogre-1"))
    table.shot("hero-oleira", "melee", "monster-ogre-1")
    assert table.health("monster-ogre-1") == 2


def test_a_target_shot_on_the_lord_takes_one_point() -> None:
    """catacombs-3e-reference.txt: Target Shot ("inflicts one point of damage to the stated target only")."""
    table = catacombs_3e(
        ["catacomb-lords-lair"],
        content=CardIndex(
            [hero("xoric", "target"), *(h for h in sample.HEROES if h.id != "xoric")],
            sample.MONSTERS,
            sample.ROOMS,
            sample.LORDS,
            sample.POISON_DECK,
            sample.CARDS,
        ),
    )
    table.enter_battle()
    table.declare("hero-xoric")
    table.do(
        A.ResolveShot(
            "hero-xoric",
            "target",
            direct_hits=("lord-hmotha", "monster-skeleton-warrior-1"),
            target="lord-hmotha",
        )
    )
    assert table.health("lord-hmotha") == 7
    assert c(table, "monster-skeleton-warrior-1").alive


# == Boulder and giant fireball ============================================================================


def test_a_boulder_takes_three_from_every_monster_it_hits() -> None:
    """catacombs-3e-reference.txt: Ranged Shots (boulder 3, RULINGS.md 1; only ice and target are marked
    "Only affects one target" in the Shot Reference)."""
    table = room(("bog-ogre", 2), heroes=[hero("xoric", "boulder")])
    table.turn("hero-xoric", ("boulder", "monster-bog-ogre-1", "monster-bog-ogre-2"))
    assert (table.health("monster-bog-ogre-1"), table.health("monster-bog-ogre-2")) == (1, 1)


def test_a_monsters_boulder_kills_a_two_health_familiar_free_hero_and_hits_every_hero() -> None:
    """catacombs-3e-reference.txt: Ranged Shots (boulder 3); Taking Damage."""
    table = room(("hill-giant", 1))
    table.side_passes()
    table.turn("monster-hill-giant-1", ("boulder", "hero-xoric", "hero-elani"))
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (6, 4)


def test_a_giant_fireball_takes_two_from_the_lord_and_kills_minions() -> None:
    """catacombs-3e-reference.txt: Ranged Shots (giant fireball 2, RULINGS.md 1)."""
    table = catacombs_3e(
        ["catacomb-lords-lair"],
        content=CardIndex(
            [hero("xoric", "giant_fireball"), *(h for h in sample.HEROES if h.id != "xoric")],
            sample.MONSTERS,
            sample.ROOMS,
            sample.LORDS,
            sample.POISON_DECK,
            sample.CARDS,
        ),
    )
    table.enter_battle()
    table.turn("hero-xoric", ("giant_fireball", "lord-hmotha", "monster-skeleton-warrior-1"))
    assert table.health("lord-hmotha") == 6
    assert not c(table, "monster-skeleton-warrior-1").alive


# == Open portal and roll ==================================================================================


def test_an_open_portal_may_switch_a_frozen_teammate() -> None:
    """catacombs-3e-reference.txt: Open Portal ("switch the positions of any two friendly characters ... This
    includes characters that are frozen")."""
    table = battle(("zombie", 1), heroes=[hero("varesh", "open_portal")])
    table.edit("hero-elani", status=("frozen",), frozen_by="monster-zombie-1")
    table.turn("hero-varesh", ("open_portal", "hero-elani", "hero-xoric"))
    assert table.status("hero-elani") == ("frozen",) and table.health("hero-elani") == 7


def test_a_roll_through_two_monsters_harms_only_the_one_chosen() -> None:
    """catacombs-3e-reference.txt: Roll Shot ("only one is affected: the player performing the shot decides
    which one")."""
    table = room(("bog-ogre", 2), heroes=[hero("roosan", ("roll", "melee"))])
    table.declare("hero-roosan")
    table.shot("hero-roosan", "roll", "monster-bog-ogre-1", "monster-bog-ogre-2")
    decide(table, "monster-bog-ogre-2", "choose_roll_target")
    assert (table.health("monster-bog-ogre-1"), table.health("monster-bog-ogre-2")) == (4, 2)
    shot = table.state.expected_shot()
    assert shot is not None and shot["shot"] == "melee"


# == Devour ================================================================================================


def test_a_devoured_hero_is_released_when_the_room_is_completed() -> None:
    """catacombs-3e-reference.txt: Devour Shot ("All devoured characters are released once the room is
    completed successfully")."""
    table = battle(("gulper", 1), ("zombie", 1))
    table.side_passes()
    table.turn("monster-gulper-1", ("devour", "hero-elani"))
    table.side_passes()
    assert table.status("hero-elani") == ("devoured",) and table.health("hero-elani") == 6
    table.edit("monster-gulper-1", health=1)
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    table.turn("hero-roosan", ("rush",), ("melee", "monster-gulper-1"))
    assert table.state.phase == "resolution"
    assert table.status("hero-elani") == ()


def test_a_devour_shot_on_a_stunned_hero_cancels_the_stun() -> None:
    """catacombs-3e-reference.txt: Devour Shot ("When a hero is devoured, the effect of the stun shot modifier
    is cancelled")."""
    table = battle(("gulper", 1))
    table.edit("hero-elani", status=("stunned",))
    table.side_passes()
    table.turn("monster-gulper-1", ("devour", "hero-elani"))
    assert table.status("hero-elani") == ("devoured",)


def test_a_second_devour_needs_a_separate_shot() -> None:
    """catacombs-3e-reference.txt: Devour Shot ("Multiple characters can be placed on the Devoured! card,
    but each one has to be affected by a separate devour shot")."""
    table = room(("maw", 2))
    table.side_passes()
    table.turn("monster-maw-1", ("devour", "hero-elani"))
    table.turn("monster-maw-2", ("devour", "hero-xoric"))
    assert table.status("hero-elani") == ("devoured",) and table.status("hero-xoric") == ("devoured",)
    table.edit("monster-maw-1", health=1)
    table.turn("hero-roosan", ("rush",), ("melee", "monster-maw-1"))
    assert not c(table, "monster-maw-1").alive
    assert table.status("hero-elani") == () and table.status("hero-xoric") == ("devoured",)


# == Antients and connectors ===============================================================================


def summon_the_antient(table: RulesScript) -> None:
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    while table.state.turn is not None and table.state.turn.character == "hero-elani":
        table.do(A.EndTurn("hero-elani"))


def test_an_antient_is_neither_frozen_nor_devoured_nor_damaged() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("Catacomb Lords and Antients are not affected by the ice shot");
    Antients ("cannot be damaged or destroyed ... cannot, for example, be ... devoured, frozen")."""
    table = room(("frost-witch", 1), ("gulper", 1), items={"elani": ["vaiels-urn"]})
    summon_the_antient(table)
    antient = next(ch.id for ch in table.state.characters if ch.kind == "antient")
    table.side_passes()
    table.declare("monster-frost-witch-1")
    table.shot("monster-frost-witch-1", "ice", antient)
    table.declare("monster-gulper-1")
    table.shot("monster-gulper-1", "devour", antient)
    got = c(table, antient)
    assert (got.alive, got.status, got.on_mat) == (True, (), True)


def test_under_an_elastic_connector_a_teleport_taken_first_forfeits_the_rest() -> None:
    """catacombs-3e-reference.txt: Teleport Shots ("removed from the playmat and then returned to a different
    location on their next turn"); Shot Sequences and Connectors (Elastic: any order)."""
    twister = evolve(hero("varesh"), shot_sequences=(seq("bite", "teleport", elastic=True),))
    table = battle(("ogre", 1), ("zombie", 1), heroes=[twister])
    table.declare("hero-varesh")
    table.shot("hero-varesh", "teleport")
    assert table.status("hero-varesh") == ("teleported",)
    assert table.state.turn is None
    assert table.health("monster-ogre-1") == 4


def test_a_monster_that_stuns_then_teleports_leaves_the_hero_stunned_and_itself_on_the_card() -> None:
    """catacombs-3e-reference.txt: Teleport Shots; Stun Shot Modifier (the teleport heals only the one
    teleported)."""
    blinker = MonsterCard(
        "blinker", "Blinker", 2, "infernal", 2, 2, (seq("stun melee", "teleport"),), pieces=1
    )
    index = CardIndex(
        sample.HEROES,
        [blinker, *sample.MONSTERS],
        [room_of("blink-room", ("blinker", 1), ("zombie", 1)), *sample.ROOMS],
        sample.LORDS,
        sample.POISON_DECK,
        sample.CARDS,
    )
    table = catacombs_3e(["blink-room", "the-barracks"], content=index)
    table.enter_battle()
    table.side_passes()
    table.turn("monster-blinker-1", ("melee", "hero-xoric"), ("teleport",))
    assert table.status("hero-xoric") == ("stunned",) and table.health("hero-xoric") == 8
    assert table.status("monster-blinker-1") == ("teleported",)
