"""Advanced shots, shadow monsters, hero death and the Lair (catacombs-3e-reference.txt)."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import HeroCard, MonsterCard
from service.games.catacombs.flow.settings import Settings
from service.rules.errors import CharacterCannotActError, UnexpectedShotError
from service.rules.evolve import evolve
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import seq

from .content import room_of, with_cards

FROST = HeroCard("varesh", "Varesh the Wizard", 8, (seq("ice"), seq("melee", "rush")))


def frost_table(rooms: list[str] | None = None) -> RulesScript:
    table = catacombs_3e(rooms or ["the-barracks"], content=with_cards(heroes=[FROST]))
    table.enter_battle()
    return table


def test_an_iced_monster_takes_no_damage_and_cannot_act_until_its_ice_is_knocked_off() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Ice Shot."""
    table = frost_table()
    table.turn("hero-varesh", ("ice", "monster-troll-1"), alternative=0)
    assert table.status("monster-troll-1") == ("frozen",)
    table.turn("hero-xoric", ("melee", "monster-troll-1"))
    assert table.health("monster-troll-1") == 2
    table.side_passes()
    assert "monster-troll-1" not in [c.id for c in table.rules.actors(table.state)]
    with pytest.raises(CharacterCannotActError):
        table.declare("monster-troll-1")
    table.side_passes()
    table.declare("hero-elani")
    table.do(
        A.ResolveShot("hero-elani", "melee", direct_hits=("monster-orc-1",), knocked_off=("monster-troll-1",))
    )
    assert table.status("monster-troll-1") == ()


def test_a_room_is_complete_with_frozen_monsters_and_the_freezer_collects_their_gold() -> None:
    """catacombs-3e-reference.txt: Ice Shot ("the room is complete ... collects gold")."""
    table = frost_table()
    table.turn("hero-varesh", ("ice", "monster-troll-1"), alternative=0)
    for orc in ("monster-orc-1", "monster-orc-2", "monster-orc-3", "monster-orc-4", "monster-pit-viper-1"):
        table.edit(orc, alive=False, health=0)
    table.turn("hero-xoric", ("melee",))
    assert table.state.phase == "resolution"
    assert table.state.character("hero-varesh").gold == 2


def test_catacomb_lords_cannot_be_frozen() -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair (Lords "cannot be frozen by the ice shot")."""
    table = frost_table(["catacomb-lords-lair"])
    table.turn("hero-varesh", ("ice", "lord-hmotha"), alternative=0)
    assert table.status("lord-hmotha") == ()


def test_a_shadow_monster_dies_only_when_a_direct_hit_pushes_it_off_the_mat() -> None:
    """catacombs-3e-reference.txt: Monster Cards: Shadow Monsters."""
    table = catacombs_3e(["phantom-crypt"])
    table.enter_battle()
    table.turn("hero-xoric", ("melee", "monster-phantom-1"))
    assert table.state.character("monster-phantom-1").alive
    table.declare("hero-elani")
    table.do(
        A.ResolveShot(
            "hero-elani", "melee", direct_hits=("monster-zombie-1",), pushed_off_mat=("monster-phantom-1",)
        )
    )
    assert table.state.character("monster-phantom-1").alive  # pushed, not hit directly
    table.do(A.EndTurn("hero-elani"))
    table.declare("hero-roosan")
    table.do(A.SkipShot("hero-roosan"))
    table.do(
        A.ResolveShot(
            "hero-roosan", "melee", direct_hits=("monster-phantom-1",), pushed_off_mat=("monster-phantom-1",)
        )
    )
    assert not table.state.character("monster-phantom-1").alive
    assert table.state.phase == "resolution"


ARCHER = HeroCard("oleira", "Oleira the Elf", 7, (seq("target"),))


def test_the_target_shot_damages_only_the_declared_target_and_may_be_retried_once() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Target Shot."""
    table = catacombs_3e(
        ["the-barracks"], heroes=("oleira", "varesh", "roosan", "elani"), content=with_cards(heroes=[ARCHER])
    )
    table.enter_battle()
    table.declare("hero-oleira")
    with pytest.raises(UnexpectedShotError):
        table.shot("hero-oleira", "target", "monster-orc-1")
    table.do(A.ResolveShot("hero-oleira", "target", direct_hits=("monster-orc-1",), target="monster-troll-1"))
    assert table.health("monster-orc-1") == 1
    assert table.state.expected_shot()["shot"] == "target"  # type: ignore[index]
    table.do(
        A.ResolveShot(
            "hero-oleira",
            "target",
            direct_hits=("monster-orc-2", "monster-troll-1"),
            target="monster-troll-1",
        )
    )
    assert (table.health("monster-troll-1"), table.health("monster-orc-2")) == (1, 1)
    assert table.state.turn is None


BLINKER = HeroCard("varesh", "Varesh the Wizard", 8, (seq("teleport"), seq("melee", "rush")))


def test_a_teleported_hero_returns_next_round_with_a_single_melee_and_cannot_be_hit_meanwhile() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Teleport Shots."""
    table = catacombs_3e(["the-barracks"], content=with_cards(heroes=[BLINKER]))
    table.enter_battle()
    table.turn("hero-varesh", ("teleport",), alternative=0)
    assert table.status("hero-varesh") == ("teleported",)
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-varesh"))
    assert table.health("hero-varesh") == 8
    table.side_passes()
    table.declare("hero-varesh")
    assert table.state.turn is not None and table.state.turn.label == "melee"
    table.shot("hero-varesh", "melee", "monster-orc-1")
    assert table.status("hero-varesh") == ()


NECROMANCER = MonsterCard(
    "necromancer", "Necromancer", 3, "undead", 2, 3, (seq("summon", "melee"),), pieces=1
)


def test_a_summoned_monster_performs_a_melee_then_its_sequence_then_the_summoner_continues() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Summon Shot."""
    from service.games.catacombs.flow.shots import Sequence, Shot

    necro = evolve(NECROMANCER, shot_sequences=(Sequence((Shot("summon", summons="zombie"), Shot("melee"))),))
    table = catacombs_3e(
        ["crypt"], content=with_cards(monsters=[necro], rooms=[room_of("crypt", ("necromancer", 1))])
    )
    table.enter_battle()
    table.side_passes()
    table.declare("monster-necromancer-1")
    table.shot("monster-necromancer-1", "summon")
    shot = table.state.expected_shot()
    assert shot is not None and (shot["actor"], shot["piece"], shot["shot"]) == (
        "monster-zombie-1",
        "monster-zombie-1",
        "melee",
    )
    table.shot("monster-necromancer-1", "melee", "hero-xoric")  # the zombie's first melee
    table.shot("monster-necromancer-1", "melee", "hero-xoric")  # the zombie's own sequence
    table.shot("monster-necromancer-1", "melee", "hero-elani")  # the necromancer continues
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (7, 6)
    assert table.state.round == 2  # the summoned zombie has had its turn this round


def only_the_troll_left(table: RulesScript) -> None:
    for monster in [c.id for c in table.state.room_monsters if c.card != "troll"]:
        table.edit(monster, alive=False, health=0)
    table.edit("monster-troll-1", health=1)


def finish_the_troll(table: RulesScript) -> None:
    """The Troll regenerated on Elani: two melee hits finish it and clear the room."""
    table.turn("hero-xoric", ("melee", "monster-troll-1"))
    table.turn("hero-roosan", ("rush",), ("melee", "monster-troll-1"))
    assert table.state.phase == "resolution"


def test_basic_hero_death_returns_the_hero_next_room_with_half_its_starting_health() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Hero Death; RULINGS.md 3 (half of starting health)."""
    table = catacombs_3e(["the-barracks", "rat-nest"], items={"elani": ["throwing-axe"]})
    table.enter_battle()
    only_the_troll_left(table)
    table.edit("hero-elani", health=1, gold=5, poison=(2,))
    table.side_passes()
    treasury = table.state.treasury
    table.turn("monster-troll-1", ("melee", "hero-elani"))
    elani = table.state.character("hero-elani")
    assert not elani.alive and elani.gold == 0 and elani.items == () and elani.poison == ()
    assert table.state.treasury == treasury + 5
    finish_the_troll(table)
    table.do(A.EnterRoom())
    elani = table.state.character("hero-elani")
    assert elani.alive and elani.health == 7 // 2


def test_advanced_hero_death_keeps_the_hero_out_with_its_items() -> None:
    """catacombs-3e-reference.txt: Hero Death (Advanced Rules)."""
    table = catacombs_3e(
        ["the-barracks", "rat-nest"],
        settings=Settings(advanced_hero_death=True),
        items={"elani": ["throwing-axe"]},
    )
    table.enter_battle()
    only_the_troll_left(table)
    table.edit("hero-elani", health=1)
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-elani"))
    finish_the_troll(table)
    table.do(A.EnterRoom())
    elani = table.state.character("hero-elani")
    assert not elani.alive and elani.items == ("throwing-axe",)


def test_an_empty_treasury_pays_nothing() -> None:
    """catacombs-3e-reference.txt: The Setup Phase ("no more coins in the Treasury ... do not collect")."""
    table = catacombs_3e(["zothas-gatehouse"])
    table.state = evolve(table.state, treasury=1)
    table.enter_battle()
    for monster in [c.id for c in table.state.room_monsters][1:]:
        table.edit(monster, alive=False, health=0)
    table.edit("hero-xoric", trophies=("monster-zombie-1", "monster-zombie-2"))
    table.turn("hero-xoric", ("melee", "monster-skeleton-warrior-1"))
    assert table.state.phase == "resolution"
    assert table.state.character("hero-xoric").gold == 1 and table.state.treasury == 0


def test_the_mitholaq_hive_asks_for_two_level_one_monsters() -> None:
    """catacombs-3e-reference.txt: Room Cards: Monster Metre Icons (the Mitholaq Hive example)."""
    table = catacombs_3e(["the-mitholaq-hive"])
    table.do(A.EnterRoom())
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_monster"
    assert {"zombie", "fire-spirit", "orc", "random"} <= {o.id for o in pending.options}
    assert "troll" not in {o.id for o in pending.options}
    table.do(A.Decide(pending.id, "zombie"))
    second = table.state.pending
    assert second is not None and "zombie" not in {o.id for o in second.options}
    table.do(A.Decide(second.id, "fire-spirit"))
    assert sorted(c.card for c in table.state.room_monsters) == ["fire-spirit"] * 4 + ["zombie"] * 4
    table.do(A.StartBattle())
    assert table.state.phase == "battle"


def test_the_heroes_win_when_the_catacomb_lord_falls() -> None:
    """catacombs-3e-reference.txt: Winning the Game: Heroes (minions need not be destroyed)."""
    table = catacombs_3e(["catacomb-lords-lair"])
    table.enter_battle()
    assert table.health("lord-hmotha") == 8
    assert len([c for c in table.state.room_monsters if c.kind == "monster"]) == 4
    table.edit("lord-hmotha", health=1)
    table.turn("hero-xoric", ("melee", "lord-hmotha"))
    assert (table.state.phase, table.state.outcome) == ("game_over", "heroes")


def test_catacomb_lords_are_immune_to_modifiers_except_chain_critical_and_regeneration() -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair (immunities)."""
    stunner = HeroCard("xoric", "Xoric the Barbarian", 9, (seq("stun melee", "critical melee"),))
    table = catacombs_3e(["catacomb-lords-lair"], content=with_cards(heroes=[stunner]))
    table.enter_battle()
    table.turn("hero-xoric", ("melee", "lord-hmotha"), ("melee", "lord-hmotha"))
    assert table.health("lord-hmotha") == 8 - 1 - 2
    assert table.status("lord-hmotha") == ()


def test_the_overseer_may_hold_back_monster_metre_pieces() -> None:
    """catacombs-3e-reference.txt: Monster Metre Icons ("decides how many pieces ... are placed")."""
    table = catacombs_3e(["the-mitholaq-hive"])
    table.do(A.EnterRoom())
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "zombie:2"))
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "orc"))
    assert sorted(c.card for c in table.state.room_monsters) == ["orc"] * 4 + ["zombie"] * 2
