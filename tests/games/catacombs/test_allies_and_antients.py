"""Allies, Antients, the roll shot and playmat choice (catacombs-3e-reference.txt)."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import HeroCard
from service.rules import IllegalActionError
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import seq

from .content import with_cards


def recruit(table: RulesScript, hero: str = "hero-xoric") -> str:
    table.edit(hero, gold=10)
    table.do(A.UseService("meal", target=hero))
    ally = next(c for c in table.state.characters if c.kind == "ally")
    return ally.id


def test_an_ally_recruited_at_the_inn_has_four_health_and_earns_gold_for_its_hero() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn (recruit an ally); Advanced Concepts: Allies."""
    table = catacombs_3e(["amaranth-inn", "zothas-gatehouse"])
    table.do(A.EnterRoom())
    ally_id = recruit(table)
    ally = table.state.character(ally_id)
    assert ally.card in ("oleira", "marorg")
    assert (ally.health, ally.max_health, ally.owner, ally.items) == (4, 4, "hero-xoric", ())
    table.enter_battle()
    table.turn(ally_id, ("melee", "monster-zombie-1"), alternative=len(ally.shot_sequences) - 1)
    for monster in [c.id for c in table.state.room_monsters if c.alive]:
        table.edit(monster, alive=False, health=0)
    table.turn("hero-elani", ("melee",))
    assert table.state.character("hero-xoric").gold == 1


def test_control_of_an_ally_passes_to_the_weakest_hero_when_its_hero_dies() -> None:
    """catacombs-3e-reference.txt: Allies (control passes to the hero with the lowest health)."""
    table = catacombs_3e(["amaranth-inn", "the-barracks"])
    table.do(A.EnterRoom())
    ally_id = recruit(table)
    table.enter_battle()
    table.edit("hero-xoric", health=1)
    table.edit("hero-roosan", health=3)
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-xoric"))
    assert table.state.character(ally_id).owner == "hero-roosan"


def test_a_tie_for_the_ally_is_left_to_the_players() -> None:
    """catacombs-3e-reference.txt: Allies (lowest health, then least gold, then fewest items)."""
    table = catacombs_3e(["amaranth-inn", "the-barracks"])
    table.do(A.EnterRoom())
    ally_id = recruit(table)
    table.enter_battle()
    table.edit("hero-xoric", health=1)
    for hero in ("hero-roosan", "hero-elani", "hero-varesh"):
        table.edit(hero, health=3)
    table.side_passes()
    table.declare("monster-troll-1")
    table.shot("monster-troll-1", "melee", "hero-xoric")
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_ally_controller"
    table.do(A.Decide(pending.id, "hero-elani"))
    assert table.state.character(ally_id).owner == "hero-elani"


def test_a_dead_ally_is_out_of_the_game() -> None:
    """catacombs-3e-reference.txt: Allies ("When dead, Allies are out of the game")."""
    table = catacombs_3e(["amaranth-inn", "the-barracks", "rat-nest"])
    table.do(A.EnterRoom())
    ally_id = recruit(table)
    table.enter_battle()
    table.edit(ally_id, health=1)
    table.side_passes()
    table.turn("monster-troll-1", ("melee", ally_id))
    ally = table.state.character(ally_id)
    assert not ally.alive and not ally.returns_next_room


def test_vaiels_urn_summons_the_liquid_antient_whose_control_alternates() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Antients (the Vaiel's Urn example)."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["vaiels-urn"]})
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    antient = "antient-liquid-antient"
    shot = table.state.expected_shot()
    assert shot is not None and shot["actor"] == antient
    table.shot(
        "hero-elani", "melee", "monster-orc-1", "hero-xoric"
    )  # its melee, aimed at the Overseer's side
    table.shot("hero-elani", "melee")
    assert not table.state.character("monster-orc-1").alive and table.health("hero-xoric") == 9
    table.side_passes()
    assert table.state.side == "overseer"
    table.turn(antient, ("melee", "hero-xoric", "monster-orc-2"))  # now the Overseer's
    assert table.health("hero-xoric") == 8 and table.health("monster-orc-2") == 1


def test_antients_cannot_be_damaged() -> None:
    """catacombs-3e-reference.txt: Antients ("cannot be damaged or destroyed")."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["vaiels-urn"]})
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    table.do(A.EndTurn("hero-elani"))
    table.turn("hero-xoric", ("melee", "antient-liquid-antient"))
    assert table.state.character("antient-liquid-antient").alive


ROLLER = HeroCard("roosan", "Roosan the Chicken Champion", 7, (seq("roll"),))


def test_a_roll_shot_deals_two_damage_to_one_character_only() -> None:
    """catacombs-3e-reference.txt: Advanced Shots: Roll Shot."""
    table = catacombs_3e(["the-barracks"], content=with_cards(heroes=[ROLLER]))
    table.enter_battle()
    table.declare("hero-roosan")
    table.shot("hero-roosan", "roll", "monster-troll-1", "monster-orc-1")
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_roll_target"
    table.do(A.Decide(pending.id, "monster-troll-1"))
    assert not table.state.character("monster-troll-1").alive
    assert table.state.character("monster-orc-1").alive


def test_the_same_playmat_side_cannot_be_chosen_twice_in_a_row_except_for_the_lair() -> None:
    """catacombs-3e-reference.txt: Game Phases: The Setup Phase (playmat choice)."""
    table = catacombs_3e(["rat-nest", "zothas-gatehouse", "catacomb-lords-lair"])
    table.do(A.EnterRoom(playmat="campfire"))
    table.do(A.StartBattle())
    for monster in [c.id for c in table.state.room_monsters]:
        table.edit(monster, alive=False, health=0)
    table.turn("hero-xoric", ("melee",))
    with pytest.raises(IllegalActionError, match="campfire side was used"):
        table.do(A.EnterRoom(playmat="campfire"))
    table.do(A.EnterRoom(playmat="altar"))
    table.do(A.StartBattle())
    for monster in [c.id for c in table.state.room_monsters]:
        table.edit(monster, alive=False, health=0)
    table.turn("hero-xoric", ("melee",))
    table.do(A.EnterRoom(playmat="altar"))
    assert table.state.room_kind == "lair"


def test_a_spell_casting_ally_takes_two_spells_and_may_cast_them() -> None:
    """catacombs-3e-reference.txt: Allies ("Spell Casters may take any two Spell cards of their choice")."""
    from service.games.catacombs.flow.cards import CardIndex
    from tests.helpers import sample_content as sample

    # Varesh is the only unused Hero Portrait card, so the Inn's random draw recruits him.
    heroes = [h for h in sample.HEROES if h.id != "oleira"]
    content = CardIndex(heroes, sample.MONSTERS, sample.ROOMS, sample.LORDS, sample.POISON_DECK, sample.CARDS)
    table = catacombs_3e(
        ["amaranth-inn", "zothas-gatehouse"], heroes=("xoric", "roosan", "elani", "marorg"), content=content
    )
    table.do(A.EnterRoom())
    ally = recruit(table, "hero-elani")
    assert ally == "ally-varesh"
    for spell in ("heal", "drain-energy"):
        pending = table.state.pending
        assert pending is not None and pending.kind == "choose_ally_spell"
        table.do(A.Decide(pending.id, spell))
    assert table.state.pending is None
    assert table.state.character(ally).spells == ("heal", "drain-energy")
    assert table.state.character(ally).abilities == ("fireball",)  # one less, but at least one
    table.enter_battle()
    table.do(A.PlayCard(ally, "drain-energy"))
    table.shot(ally, "missile", "monster-zombie-1")
    assert not table.state.character("monster-zombie-1").alive
    assert table.state.character("hero-elani").trophies == ("monster-zombie-1",)  # its gold goes to Elani


def test_the_lair_uses_the_playmat_on_the_lords_setup_card() -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair (Setup card: "which playmat is to be used")."""
    from service.games.catacombs.flow.cards import CardIndex
    from service.rules.evolve import evolve
    from tests.helpers import sample_content as sample

    lords = [evolve(lord, lair_playmat="throne-room") for lord in sample.LORDS]
    content = CardIndex(sample.HEROES, sample.MONSTERS, sample.ROOMS, lords, sample.POISON_DECK, sample.CARDS)
    table = catacombs_3e(["catacomb-lords-lair"], content=content)
    with pytest.raises(IllegalActionError, match="calls for the throne-room playmat"):
        table.do(A.EnterRoom(playmat="campfire"))
    table.do(A.EnterRoom(playmat="throne-room"))
    assert table.state.room_kind == "lair"
