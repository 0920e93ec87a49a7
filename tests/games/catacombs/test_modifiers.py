"""Shot modifiers and defensive properties, played out (catacombs-3e-shot-modifiers.txt wins on wording)."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow.cards import HeroCard, MonsterCard
from service.rules import actions as A
from service.rules.errors import SuppressedShotError
from service.rules.evolve import evolve
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import seq, shots

from .content import room_of, with_cards

MOD = "catacombs-3e-shot-modifiers.txt"


def spider_den() -> RulesScript:
    table = catacombs_3e(["spider-den", "the-barracks"])
    table.enter_battle()
    return table


def stun_xoric(table: RulesScript) -> None:
    table.side_passes()
    table.declare("monster-crypt-spider-1", 1)  # rush, then stun missile, then stun missile
    table.shot("monster-crypt-spider-1", "rush")
    table.shot("monster-crypt-spider-1", "missile", "hero-xoric")
    table.do(A.EndTurn("monster-crypt-spider-1"))


def test_stun_leaves_a_hero_only_a_single_rush() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier."""
    table = spider_den()
    stun_xoric(table)
    assert table.status("hero-xoric") == ("stunned",)
    assert table.health("hero-xoric") == 8
    table.declare("hero-xoric")
    assert table.state.turn is not None and table.state.turn.label == "rush"


def test_a_teammates_melee_or_rush_frees_a_stunned_hero_but_an_enemy_hit_does_not() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier; RULINGS.md 5 (un-stunning)."""
    table = spider_den()
    stun_xoric(table)
    table.turn("hero-roosan", ("rush", "hero-xoric"))
    assert table.status("hero-xoric") == ()
    table.side_passes()
    table.side_passes()
    table.side_passes()
    table.declare("monster-crypt-spider-1", 1)
    table.shot("monster-crypt-spider-1", "rush")
    table.shot("monster-crypt-spider-1", "missile", "hero-xoric")
    table.shot("monster-crypt-spider-1", "missile", "hero-xoric")
    assert table.status("hero-xoric") == ("stunned",)


def test_a_lone_able_hero_ignores_the_stun() -> None:
    """catacombs-3e-shot-modifiers.txt: Stun Shot Modifier (only a single hero can act)."""
    table = spider_den()
    stun_xoric(table)
    for hero in ("hero-varesh", "hero-roosan", "hero-elani"):
        table.edit(hero, alive=False, health=0)
    table.declare("hero-xoric")
    assert table.state.turn is not None and table.state.turn.label == "melee, then rush"


def test_stuns_end_with_the_battle_phase() -> None:
    """catacombs-3e-reference.txt: The Battle Phase ("All Stunned! cards are removed")."""
    table = spider_den()
    stun_xoric(table)
    table.edit("monster-crypt-spider-1", health=1)
    table.turn("hero-elani", ("melee", "monster-crypt-spider-1"))
    assert table.state.phase == "resolution"
    assert table.status("hero-xoric") == ()


def rat_nest(
    heroes: tuple[str, ...] = ("xoric", "varesh", "roosan", "elani"), room: str = "rat-nest"
) -> RulesScript:
    table = catacombs_3e([room], heroes=heroes)
    table.enter_battle()
    table.side_passes()
    return table


def test_the_sewer_rats_poison_kills_the_wizard_at_a_total_of_eight() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Poison Cards (the Sewer Rat example)."""
    table = rat_nest()
    table.edit("hero-varesh", poison=(1, 2, 2))
    table.state = evolve(table.state, poison_deck=(3, 1, 1))
    table.turn("monster-sewer-rat-1", ("melee", "hero-varesh"))
    texts = table.texts()
    assert "Sewer Rat 1's poison melee hits Varesh the Wizard (1 damage)" in texts
    assert "Varesh the Wizard draws Poison 3 (total 8)" in texts
    assert "Varesh the Wizard dies (poison total 8 reaches starting health 8)" in texts
    varesh = table.state.character("hero-varesh")
    assert not varesh.alive and varesh.poison == ()
    assert sorted(table.state.poison_deck) == [1, 1, 1, 2, 2, 3]  # shuffled back into the deck


def test_no_poison_cards_left_is_a_lethal_dose() -> None:
    """catacombs-3e-reference.txt: Poison Cards ("no Poison cards are available to draw")."""
    table = rat_nest()
    table.state = evolve(table.state, poison_deck=())
    table.turn("monster-sewer-rat-1", ("melee", "hero-elani"))
    assert not table.state.character("hero-elani").alive


def test_marorg_nullifies_poison_shots() -> None:
    """catacombs-3e-reference.txt: Nullifying Shots (Marorg's poison melee, missile and rush)."""
    table = rat_nest(heroes=("marorg", "varesh", "roosan", "elani"))
    table.turn("monster-sewer-rat-1", ("melee", "hero-marorg"))
    marorg = table.state.character("hero-marorg")
    assert (marorg.health, marorg.poison) == (8, ())
    assert any("poison melee is nullified" in t for t in table.texts())


def test_a_suppressed_modifier_leaves_the_base_shot() -> None:
    """catacombs-3e-reference.txt: Room Cards: Suppression (Oakheart Hall suppresses poison modifiers)."""
    table = catacombs_3e(["oakheart-hall"])
    table.enter_battle()
    table.side_passes()
    table.declare("monster-sewer-rat-1")
    assert table.state.expected_shot()["modifier"] is None  # type: ignore[index]
    table.shot("monster-sewer-rat-1", "melee", "hero-varesh")
    assert table.health("hero-varesh") == 7 and table.state.character("hero-varesh").poison == ()


def test_a_suppressed_shot_can_only_be_skipped() -> None:
    """catacombs-3e-reference.txt: Suppression; RULINGS.md 8 (the suppressed shot itself is refused)."""
    frost = HeroCard("varesh", "Varesh the Wizard", 8, (seq("ice", "melee"),))
    table = catacombs_3e(["the-lava-pools"], content=with_cards(heroes=[frost]))
    table.enter_battle()
    table.declare("hero-varesh")
    assert table.state.expected_shot()["suppressed"] is True  # type: ignore[index]
    before = table.state
    with pytest.raises(SuppressedShotError):
        table.shot("hero-varesh", "ice", "monster-orc-1")
    assert table.state == before
    table.do(A.SkipShot("hero-varesh"))
    table.shot("hero-varesh", "melee", "monster-orc-1")
    assert not table.state.character("monster-orc-1").alive


def test_skeleton_warrior_nullifies_missiles_but_falls_to_a_melee() -> None:
    """catacombs-3e-reference.txt: Defensive Properties: Nullifying Shots (the Skeleton Warrior example)."""
    table = catacombs_3e(["zothas-gatehouse"])
    table.enter_battle()
    table.turn("hero-varesh", ("rush",), ("missile", "monster-skeleton-warrior-1"))
    assert table.state.character("monster-skeleton-warrior-1").alive
    table.turn("hero-xoric", ("melee", "monster-skeleton-warrior-1"))
    assert not table.state.character("monster-skeleton-warrior-1").alive


def test_the_minotaur_reflects_a_missile_back_at_the_hero() -> None:
    """catacombs-3e-reference.txt: Defensive Properties: Reflecting Shots (the Minotaur example)."""
    table = catacombs_3e(["oakheart-hall"])
    table.enter_battle()
    table.turn("hero-varesh", ("rush",), ("missile", "monster-minotaur-1"))
    assert table.health("monster-minotaur-1") == 2
    assert table.health("hero-varesh") == 7
    assert "Minotaur 1 reflects 1 damage back at Varesh the Wizard" in table.texts()


def test_a_modified_shot_hitting_several_targets_affects_one_of_the_attackers_choice() -> None:
    """catacombs-3e-shot-modifiers.txt: Shot Modifiers ("only applied to one of the affected characters")."""
    table = spider_den()
    table.side_passes()
    table.declare("monster-crypt-spider-1", 1)
    table.shot("monster-crypt-spider-1", "rush")
    table.shot("monster-crypt-spider-1", "missile", "hero-xoric", "hero-elani")
    assert (table.health("hero-xoric"), table.health("hero-elani")) == (8, 6)
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_modifier_target"
    assert [o.id for o in pending.options] == ["hero-xoric", "hero-elani"]
    table.do(A.Decide(pending.id, "hero-elani"))
    assert table.status("hero-elani") == ("stunned",) and table.status("hero-xoric") == ()
    assert table.state.expected_shot()["index"] == 2  # type: ignore[index]


GORGON = MonsterCard("stone-eye", "Stone Eye", 2, "mythological", 2, 2, (seq("petrify melee"),), pieces=1)


def test_petrify_kills_whatever_health_remains() -> None:
    """catacombs-3e-shot-modifiers.txt: Petrify Shot Modifier."""
    table = catacombs_3e(
        ["stone-room"], content=with_cards(monsters=[GORGON], rooms=[room_of("stone-room", ("stone-eye", 1))])
    )
    table.enter_battle()
    table.side_passes()
    table.turn("monster-stone-eye-1", ("melee", "hero-xoric"))
    assert not table.state.character("hero-xoric").alive
    assert "Xoric the Barbarian is turned to stone" in table.texts()


def cube_room() -> RulesScript:
    table = catacombs_3e(["cube-chamber"], items={"xoric": ["throwing-axe", "healing-salve"]})
    table.enter_battle()
    return table


def test_the_gelatinous_cube_performs_its_five_rounds_in_order() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: The Gelatinous Cube Monster (ordered shot sequence)."""
    table = cube_room()
    labels = []
    for _ in range(5):
        table.side_passes()
        table.declare("monster-gelatinous-cube-1")
        assert table.state.turn is not None
        labels.append(table.state.turn.label)
        table.do(A.EndTurn("monster-gelatinous-cube-1"))
    assert labels == [
        "melee, then corrosion melee",
        "melee, then fear melee",
        "melee, then devour",
        "melee, then critical melee",
        "melee, then corrosion melee",
    ]


def cube_round(table: RulesScript, round_number: int) -> None:
    while table.state.round < round_number:
        table.side_passes()
        table.pass_turn("monster-gelatinous-cube-1")
    table.side_passes()
    table.declare("monster-gelatinous-cube-1")
    table.do(A.SkipShot("monster-gelatinous-cube-1"))


def test_corrosion_destroys_a_random_item_then_gold_then_nothing() -> None:
    """catacombs-3e-shot-modifiers.txt: Corrosion Shot Modifier."""
    table = cube_room()
    cube_round(table, 1)
    table.shot("monster-gelatinous-cube-1", "melee", "hero-xoric")
    assert len(table.state.character("hero-xoric").items) == 1
    table.edit("hero-varesh", gold=4)
    for round_number, gold_after in ((5, 1), (9, 0)):  # the Cube corrodes again every fourth round
        cube_round(table, round_number)
        table.shot("monster-gelatinous-cube-1", "melee", "hero-varesh")
        assert table.state.character("hero-varesh").gold == gold_after


def test_fear_lets_the_attacker_rush_the_frightened_hero() -> None:
    """catacombs-3e-shot-modifiers.txt: Fear Shot Modifier."""
    table = cube_room()
    cube_round(table, 2)
    table.shot("monster-gelatinous-cube-1", "melee", "hero-elani")
    shot = table.state.expected_shot()
    assert shot is not None
    assert (shot["character"], shot["piece"], shot["shot"]) == (
        "monster-gelatinous-cube-1",
        "hero-elani",
        "rush",
    )
    table.shot("monster-gelatinous-cube-1", "rush", "hero-xoric")  # Elani is sent flying into Xoric
    assert table.health("hero-xoric") == 9 and table.health("hero-elani") == 6
    assert table.state.side == "heroes"


def test_devoured_heroes_cannot_act_and_escape_when_the_cube_is_destroyed() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Devour Shot."""
    table = cube_room()
    cube_round(table, 3)
    table.shot("monster-gelatinous-cube-1", "devour", "hero-varesh")
    assert table.health("hero-varesh") == 7 and table.status("hero-varesh") == ("devoured",)
    assert table.state.character("hero-varesh").on_mat is False
    assert "hero-varesh" not in [c.id for c in table.rules.actors(table.state)]
    table.edit("monster-gelatinous-cube-1", health=1)
    table.turn("hero-xoric", ("melee", "monster-gelatinous-cube-1"))
    assert table.status("hero-varesh") == ()


def test_all_heroes_dead_or_devoured_is_the_overseers_win() -> None:
    """catacombs-3e-reference.txt: Winning the Game: Overseer."""
    table = cube_room()
    for hero in ("hero-xoric", "hero-roosan", "hero-elani"):
        table.edit(hero, alive=False, health=0)
    cube_round(table, 3)
    table.shot("monster-gelatinous-cube-1", "devour", "hero-varesh")
    assert (table.state.phase, table.state.outcome) == ("game_over", "overseer")


def test_critical_adds_one_damage() -> None:
    """catacombs-3e-shot-modifiers.txt: Critical Shot Modifier."""
    table = cube_room()
    cube_round(table, 4)
    table.shot("monster-gelatinous-cube-1", "melee", "hero-xoric")
    assert table.health("hero-xoric") == 7


def test_the_fire_spirit_may_transform_into_a_fire_wall_that_burns_heroes() -> None:
    """catacombs-3e-reference.txt: Transform Shot Modifier; Fire Walls."""
    table = catacombs_3e(["zothas-gatehouse"])
    table.enter_battle()
    table.side_passes()
    table.declare("monster-fire-spirit-1", 1)
    table.shot("monster-fire-spirit-1", "melee", "hero-roosan")
    pending = table.state.pending
    assert pending is not None and pending.kind == "transform"
    table.do(A.Decide(pending.id, "yes"))
    assert table.state.character("monster-fire-spirit-1").kind == "fire_wall"
    table.side_passes()
    table.declare("hero-roosan")
    table.do(A.ResolveShot("hero-roosan", "rush", fire_wall_contacts=("hero-roosan", "hero-elani")))
    assert (table.health("hero-roosan"), table.health("hero-elani")) == (5, 6)


def test_a_fire_wall_does_not_count_as_a_monster_in_the_room() -> None:
    """catacombs-3e-reference.txt: Fire Walls ("do not count as monsters in the room")."""
    table = catacombs_3e(["zothas-gatehouse"])
    table.enter_battle()
    for monster in [c.id for c in table.state.room_monsters if c.card != "fire-spirit"]:
        table.edit(monster, alive=False, health=0)
    table.side_passes()
    table.declare("monster-fire-spirit-1", 1)
    table.shot("monster-fire-spirit-1", "melee")
    assert table.state.pending is not None
    table.do(A.Decide(table.state.pending.id, "yes"))
    assert table.state.phase == "resolution"


BERSERKER = HeroCard(
    "xoric", "Xoric the Barbarian", 9, (seq("chain melee", "chain melee", "chain melee", "chain melee"),)
)


def test_chain_spreads_the_berserker_axe_over_several_monsters() -> None:
    """catacombs-3e-shot-modifiers.txt: Chain Shot (the Berserker Battle Axe example)."""
    room = room_of("axe-room", ("zombie", 1), ("troll", 1), ("fire-spirit", 1))
    table = catacombs_3e(["axe-room"], content=with_cards(heroes=[BERSERKER], rooms=[room]))
    table.enter_battle()
    table.turn(
        "hero-xoric",
        ("melee", "monster-zombie-1"),
        ("melee", "monster-troll-1"),
        ("melee", "monster-fire-spirit-1"),
        ("melee", "monster-troll-1"),
    )
    assert table.state.phase == "resolution"
    assert table.state.character("hero-xoric").gold == 4


def test_chain_ignores_a_consecutive_hit_on_the_same_target() -> None:
    """catacombs-3e-shot-modifiers.txt: Chain Shot ("damage ... by the additional hit(s) is ignored")."""
    room = room_of("axe-room", ("troll", 1), ("zombie", 1))
    table = catacombs_3e(["axe-room"], content=with_cards(heroes=[BERSERKER], rooms=[room]))
    table.enter_battle()
    table.turn("hero-xoric", ("melee", "monster-troll-1"), ("melee", "monster-troll-1"))
    assert table.health("monster-troll-1") == 1
    assert any("chain: no consecutive damage" in e.text for e in table.events)


def test_reckless_heroes_hurt_their_teammates() -> None:
    """catacombs-3e-reference.txt: Reckless Shot Modifier (friendly fire suspended)."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.edit("hero-xoric", status=("reckless",))
    table.turn("hero-xoric", ("melee", "hero-elani"))
    assert table.health("hero-elani") == 6


def test_regeneration_is_ineffective_against_shadow_monsters() -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration ("ineffective against Antients and shadow monsters")."""
    drainer = HeroCard("varesh", "Varesh the Wizard", 8, (seq("regeneration melee"),))
    table = catacombs_3e(["phantom-crypt"], content=with_cards(heroes=[drainer]))
    table.enter_battle()
    table.edit("hero-varesh", health=3)
    table.turn("hero-varesh", ("melee", "monster-phantom-1"))
    assert table.health("hero-varesh") == 3 and table.state.character("monster-phantom-1").alive


def test_drain_energy_restores_one_health_to_the_wizard() -> None:
    """catacombs-3e-reference.txt: Regeneration Shot Modifier (Varesh's Drain Energy example)."""
    drainer = HeroCard("varesh", "Varesh the Wizard", 8, (seq("regeneration missile"),))
    table = catacombs_3e(["zothas-gatehouse"], content=with_cards(heroes=[drainer]))
    table.enter_battle()
    table.edit("hero-varesh", health=3)
    table.turn("hero-varesh", ("missile", "monster-zombie-1"))
    assert not table.state.character("monster-zombie-1").alive
    assert table.health("hero-varesh") == 4


def test_poison_count_draws_two_cards() -> None:
    """catacombs-3e-shot-modifiers.txt: Poison Shot Modifier ("In some cases, you will draw two cards")."""
    adder = MonsterCard("adder", "Adder", 1, "vermin", 1, 1, (seq("poison*2 melee"),))
    table = catacombs_3e(
        ["adder-pit"], content=with_cards(monsters=[adder], rooms=[room_of("adder-pit", ("adder", 1))])
    )
    table.enter_battle()
    table.state = evolve(table.state, poison_deck=(1, 1, 3))
    table.side_passes()
    table.turn("monster-adder-1", ("melee", "hero-xoric"))
    assert table.state.character("hero-xoric").poison == (1, 1)
    assert shots("poison*2 melee")[0].count == 2


def test_there_are_only_three_stunned_cards() -> None:
    """catacombs-3e-reference.txt: Components (Stunned! Cards x3; supplies are hard limits)."""
    table = spider_den()
    for hero in ("hero-varesh", "hero-roosan", "hero-elani"):
        table.edit(hero, status=("stunned",))
    stun_xoric(table)
    assert table.status("hero-xoric") == ()
    assert any("No Stunned! card is left" in e.text for e in table.events)
