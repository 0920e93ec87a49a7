"""Spell, Ability and Item cards at the table (catacombs-3e-reference.txt: Playing Spell, Ability, or Item
Cards; Item Cards)."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.rules.errors import (
    CardNotPlayableError,
    IllegalActionError,
    NoSuchAlternativeError,
    NotYourTurnError,
)
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript

SPELLS = {"varesh": ["drain-energy", "teleport-hero", "cure-poison", "heal", "heal-all"]}


def gatehouse(**kwargs: object) -> RulesScript:
    table = catacombs_3e(["zothas-gatehouse", "the-barracks"], spells=SPELLS, **kwargs)  # type: ignore[arg-type]
    table.enter_battle()
    return table


def test_the_wizard_drains_energy_from_a_zombie() -> None:
    """catacombs-3e-reference.txt: Regeneration Shot Modifier (Varesh plays the Drain Energy Spell card)."""
    table = gatehouse()
    table.edit("hero-varesh", health=3)
    table.do(A.PlayCard("hero-varesh", "drain-energy"))
    table.shot("hero-varesh", "missile", "monster-zombie-1")
    assert not table.state.character("monster-zombie-1").alive
    assert table.health("hero-varesh") == 4


def test_a_spell_is_cast_once_per_game_and_may_follow_one_rush() -> None:
    """catacombs-3e-reference.txt: Playing Spell, Ability, or Item Cards: Spell Cards."""
    table = gatehouse()
    table.do(A.PlayCard("hero-varesh", "drain-energy", rush_first=True))
    assert table.state.expected_shot()["shot"] == "rush"  # type: ignore[index]
    table.shot("hero-varesh", "rush")
    table.shot("hero-varesh", "missile")
    assert "drain-energy" not in table.state.character("hero-varesh").spells
    table.side_passes()
    table.side_passes()
    with pytest.raises(CardNotPlayableError, match="holds no drain-energy"):
        table.do(A.PlayCard("hero-varesh", "drain-energy"))


def test_only_spell_casters_cast_spells() -> None:
    """catacombs-3e-reference.txt: Spell Cards ("only be used by characters who are Spell Casters")."""
    with pytest.raises(IllegalActionError, match="not a Spell Caster"):
        catacombs_3e(["zothas-gatehouse"], spells={"xoric": ["heal"]})


def test_an_ability_is_used_once_per_room_and_refreshed_in_the_next_setup() -> None:
    """catacombs-3e-reference.txt: Ability Cards (once during the Battle Phase, refreshed at Setup)."""
    table = gatehouse()
    table.do(A.PlayCard("hero-varesh", "fireball"))
    table.shot("hero-varesh", "fireball", "monster-zombie-1", "monster-zombie-2")
    assert not table.state.character("monster-zombie-2").alive
    table.side_passes()
    table.side_passes()
    with pytest.raises(CardNotPlayableError):
        table.do(A.PlayCard("hero-varesh", "fireball"))
    for monster in [c.id for c in table.state.room_monsters if c.alive]:
        table.edit(monster, alive=False, health=0)
    table.turn("hero-xoric", ("melee",))
    table.do(A.EnterRoom())
    assert table.state.character("hero-varesh").face_down == ()


def test_xoric_swings_the_berserker_battle_axe_four_times() -> None:
    """catacombs-3e-reference.txt: Chain Shot Modifier (the Berserker Battle Axe Item card example)."""
    table = catacombs_3e(
        ["zothas-gatehouse"], items={"xoric": ["berserker-battle-axe", "berserker-battle-axe"]}
    )
    table.enter_battle()
    table.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))
    for target in (
        "monster-zombie-1",
        "monster-skeleton-warrior-1",
        "monster-skeleton-warrior-1",
        "monster-zombie-2",
    ):
        table.shot("hero-xoric", "melee", target)
    assert [c.alive for c in table.state.room_monsters].count(False) == 3
    xoric = table.state.character("hero-xoric")
    assert xoric.face_down == ("item:berserker-battle-axe",) and len(xoric.items) == 2


def test_items_cannot_be_used_while_stunned() -> None:
    """catacombs-3e-reference.txt: Item Cards ("Items cannot be used when a hero is stunned")."""
    table = catacombs_3e(["zothas-gatehouse"], items={"xoric": ["berserker-battle-axe"]})
    table.enter_battle()
    table.edit("hero-xoric", status=("stunned",))
    with pytest.raises(CardNotPlayableError, match="stunned"):
        table.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))


def test_a_pre_combo_potion_then_the_heros_normal_action() -> None:
    """catacombs-3e-reference.txt: Combo Items (Elani's Raisthrim's Potion example)."""
    table = catacombs_3e(["zothas-gatehouse"], items={"elani": ["raisthrims-potion"]})
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "raisthrims-potion"))
    table.shot("hero-elani", "ice", "monster-zombie-1")
    assert table.status("monster-zombie-1") == ("frozen",)
    assert table.state.turn is not None and table.state.turn.stage == "await_main"
    with pytest.raises(NotYourTurnError):
        table.declare("hero-xoric")
    table.declare("hero-elani")
    table.shot("hero-elani", "melee", "monster-zombie-2")
    table.do(A.SkipShot("hero-elani"))
    assert table.state.turn is None and "hero-elani" in table.state.acted


def test_a_post_combo_throwing_axe_after_the_heros_sequence_and_only_one_combo_per_turn() -> None:
    """catacombs-3e-reference.txt: Combo Items (Xoric's Throwing Axe example; one Combo Item per turn)."""
    table = catacombs_3e(["zothas-gatehouse"], items={"xoric": ["throwing-axe", "raisthrims-potion"]})
    table.enter_battle()
    table.declare("hero-xoric")
    table.shot("hero-xoric", "melee", "monster-zombie-1")
    table.shot("hero-xoric", "rush")
    assert table.state.turn is not None and table.state.turn.stage == "await_post"
    assert table.state.expected_shot() is None
    table.do(A.PlayCard("hero-xoric", "throwing-axe"))
    table.shot("hero-xoric", "missile", "monster-zombie-2")
    assert not table.state.character("monster-zombie-2").alive
    assert table.state.turn is None
    table.side_passes()
    table.side_passes()
    table.do(A.PlayCard("hero-xoric", "raisthrims-potion"))
    table.shot("hero-xoric", "ice")
    table.declare("hero-xoric")
    table.shot("hero-xoric", "melee")
    table.shot("hero-xoric", "rush")
    assert table.state.turn is None  # no post-Combo after a pre-Combo


def test_heal_restores_health_to_a_chosen_hero_but_never_beyond_starting_health() -> None:
    """catacombs-3e-reference.txt: Healing Damage."""
    table = gatehouse()
    table.edit("hero-elani", health=2)
    table.do(A.PlayCard("hero-varesh", "heal"))
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_heal_target"
    table.do(A.Decide(pending.id, "hero-elani"))
    assert table.health("hero-elani") == 6
    assert table.state.turn is None


def test_heal_all_gives_every_living_teammate_one_health() -> None:
    """catacombs-3e-reference.txt: Healing Damage (the Heal All icon)."""
    table = gatehouse()
    for hero in ("hero-xoric", "hero-varesh", "hero-roosan"):
        table.edit(hero, health=5)
    table.do(A.PlayCard("hero-varesh", "heal-all"))
    assert [table.health(h) for h in ("hero-xoric", "hero-varesh", "hero-roosan", "hero-elani")] == [
        6,
        6,
        6,
        7,
    ]


def test_cure_poison_discards_the_chosen_card_back_into_the_deck() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Curing Poison."""
    table = gatehouse()
    table.edit("hero-varesh", poison=(1, 3))
    deck = len(table.state.poison_deck)
    table.do(A.PlayCard("hero-varesh", "cure-poison"))
    pending = table.state.pending
    assert pending is not None and [o.label for o in pending.options] == ["Poison 1", "Poison 3"]
    table.do(A.Decide(pending.id, "1"))
    assert table.state.character("hero-varesh").poison == (1,)
    assert len(table.state.poison_deck) == deck + 1


def test_a_familiar_acts_for_its_hero_but_earns_no_gold_and_cannot_be_stunned() -> None:
    """catacombs-3e-reference.txt: Item Cards: Familiars."""
    table = catacombs_3e(
        ["spider-den"], heroes=("oleira", "varesh", "roosan", "elani"), items={"oleira": ["spirit-familiar"]}
    )
    table.enter_battle()
    familiar = table.state.character("familiar-spirit-familiar")
    assert (familiar.side, familiar.owner) == ("heroes", "hero-oleira")
    table.edit("monster-crypt-spider-1", health=1)
    table.turn("familiar-spirit-familiar", ("melee", "monster-crypt-spider-1"))
    assert table.state.phase == "resolution"
    assert table.state.character("hero-oleira").gold == 0


def test_a_permanent_items_nullifies_box_protects_automatically() -> None:
    """catacombs-3e-reference.txt: Defensive Properties (permanent Item cards need no action)."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["warding-cloak"]})
    table.enter_battle()
    table.side_passes()
    table.turn("monster-orc-1", ("missile", "hero-elani"), alternative=1)
    assert table.health("hero-elani") == 7


def test_a_hero_who_cannot_wield_weapons_may_not_play_one() -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions (weapons)."""
    from service.games.catacombs.flow.cards import HeroCard
    from tests.helpers.sample_content import seq

    from .content import with_cards

    pacifist = HeroCard("roosan", "Roosan the Chicken Champion", 7, (seq("rush"),), can_use_weapons=False)
    with pytest.raises(CardNotPlayableError, match="cannot wield weapons"):
        catacombs_3e(
            ["zothas-gatehouse"], content=with_cards(heroes=[pacifist]), items={"roosan": ["throwing-axe"]}
        )
    table = catacombs_3e(["zothas-gatehouse"], content=with_cards(heroes=[pacifist]))
    table.edit("hero-roosan", items=("throwing-axe",))  # a referee's slip put the axe on the hero's board
    table.enter_battle()
    table.declare("hero-roosan")
    table.shot("hero-roosan", "rush")
    with pytest.raises(CardNotPlayableError, match="cannot wield weapons"):
        table.do(A.PlayCard("hero-roosan", "throwing-axe"))


def test_a_once_per_room_defensive_card_is_raised_against_one_shot_on_the_enemys_turn() -> None:
    """catacombs-3e-reference.txt: Defensive Properties (once per room: the player chooses when to use it)."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["mirror-shield"]})
    table.enter_battle()
    table.side_passes()
    table.declare("monster-troll-1")
    table.do(A.PlayCard("hero-elani", "mirror-shield"))
    table.shot("monster-troll-1", "melee", "hero-elani")
    assert table.health("hero-elani") == 7 and table.health("monster-troll-1") == 1
    assert table.state.character("hero-elani").face_down == ("item:mirror-shield",)
    table.declare("monster-orc-1", 0)
    table.shot("monster-orc-1", "melee", "hero-elani")
    assert table.health("hero-elani") == 6
    with pytest.raises(CardNotPlayableError):
        table.do(A.PlayCard("hero-elani", "mirror-shield"))


def test_a_refresh_item_icon_flips_a_used_once_per_room_item_face_up() -> None:
    """catacombs-3e-reference.txt: Playing Spell, Ability, or Item Cards (the Refresh icons)."""
    from service.games.catacombs.flow.cards import HeroCard
    from tests.helpers.sample_content import seq

    from .content import with_cards

    xoric = HeroCard("xoric", "Xoric the Barbarian", 9, (seq("melee"),), abilities=("second-wind",))
    table = catacombs_3e(
        ["zothas-gatehouse"], content=with_cards(heroes=[xoric]), items={"xoric": ["berserker-battle-axe"]}
    )
    table.enter_battle()
    table.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))
    table.do(A.EndTurn("hero-xoric"))
    table.side_passes()
    table.side_passes()
    table.do(A.PlayCard("hero-xoric", "second-wind"))
    table.shot("hero-xoric", "rush")
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_refresh"
    table.do(A.Decide(pending.id, "item:berserker-battle-axe"))
    assert table.state.character("hero-xoric").face_down == ("ability:second-wind",)
    assert table.state.turn is None


def test_a_hero_specific_enhancement_is_offered_only_to_that_hero() -> None:
    """catacombs-3e-reference.txt: Item Cards: Hero Specific Enhancements."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["poisoned-knife"], "xoric": ["poisoned-knife"]})
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "poisoned-knife", alternative=1))
    assert (
        table.state.turn is not None and table.state.turn.label == "Poisoned Knife: poison melee, then rush"
    )
    table.do(A.EndTurn("hero-elani"))
    with pytest.raises(NoSuchAlternativeError, match="no alternative 1"):
        table.do(A.PlayCard("hero-xoric", "poisoned-knife", alternative=1))
