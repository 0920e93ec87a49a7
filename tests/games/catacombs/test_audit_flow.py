"""Game flow and economy, played through the public API as a table would (catacombs-3e-reference.txt).

Setup, the Room deck, the Setup / Battle / Resolution phases, gold and the Treasury, health caps, hero death,
Spell / Ability / Item cards, special rooms, allies, the end of the game and the game log.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.cli import main
from service.gamelog import replay
from service.gamelog.replay import new_game_from_setup
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import ActionCard, CardIndex, HeroCard, MonsterCard
from service.games.catacombs.flow.layout import deal_room_deck
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.state import GameState
from service.rules.errors import (
    CardNotPlayableError,
    CharacterCannotActError,
    DecisionPendingError,
    GameOverError,
    IllegalActionError,
    NoSuchAlternativeError,
    NotEnoughGoldError,
    NotYourTurnError,
    UnexpectedShotError,
    WrongPhaseError,
)
from service.rules.events import Event
from service.rules.evolve import evolve
from tests.helpers import sample_content as sample
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import seq

from .content import room_of, with_cards


def clear_all_but(table: RulesScript, *keep: str) -> None:
    """The referee takes every other monster of the room off the playmat (setting the scene)."""
    for monster in [c.id for c in table.state.room_monsters if c.alive and c.id not in keep]:
        table.edit(monster, alive=False, health=0)


def gold(table: RulesScript, hero: str) -> int:
    return table.state.character(hero).gold


# == setting up the game ===========================================================================


def test_each_hero_starts_with_its_starting_health_and_every_listed_ability_card() -> None:
    """catacombs-3e-reference.txt: The Overseer, Heroes, and Catacomb Lords: Hero Player Boards ("Heroes must
    start the game with all Ability cards listed on their Rules cards")."""
    table = catacombs_3e(["the-barracks"], heroes=("oleira", "varesh", "roosan", "marorg"))
    view = {c["id"]: c for c in table.state.public_view()["characters"]}
    assert [(view[h]["health"], view[h]["max_health"]) for h in ("hero-oleira", "hero-marorg")] == [
        (7, 7),
        (8, 8),
    ]
    assert view["hero-oleira"]["abilities"] == ["elven-arrow", "elven-arrow"]
    assert view["hero-varesh"]["abilities"] == ["fireball"]
    assert table.state.phase == "setup" and table.state.room_id is None
    assert table.state.public_view()["gold"] == {"party": 0, "treasury": 92}


def test_starting_items_are_optional_and_leave_the_item_deck() -> None:
    """catacombs-3e-reference.txt: Hero Player Boards ("Players may choose if they would like to start with
    any listed Item cards"); Item Cards ("Xoric the Barbarian's Hero Rules card indicates he may begin the
    game with two Berserker Battle Axe items")."""
    setup = {
        "ruleset": "catacombs-3e",
        "content": "shipped",
        "heroes": ["xoric", "varesh", "roosan", "elani"],
        "lord": "vasesak-the-sorcerer",
        "layout": "tutorial",
        "seed": 5,
    }
    _, bare = new_game_from_setup(setup)
    _, armed = new_game_from_setup(setup | {"items": {"xoric": ["berserker-battle-axe"] * 2}})
    assert bare.character("hero-xoric").items == ()
    assert armed.character("hero-xoric").items == ("berserker-battle-axe", "berserker-battle-axe")
    assert bare.item_deck.count("berserker-battle-axe") == 2
    assert armed.item_deck.count("berserker-battle-axe") == 0
    assert len(armed.item_deck) == len(bare.item_deck) - 2


def test_the_wizard_chooses_at_most_ten_spell_cards() -> None:
    """catacombs-3e-reference.txt: Hero Player Boards ("the player using the Wizard chooses ten Spell
    cards")."""
    rules, _ = new_game_from_setup(
        {
            "ruleset": "catacombs-3e",
            "content": "shipped",
            "heroes": ["xoric", "varesh", "roosan", "elani"],
            "lord": "vasesak-the-sorcerer",
            "layout": "tutorial",
        }
    )
    spells = sorted(c.id for c in rules.content.cards("spell"))
    assert len(spells) >= 11
    heroes, lord, rooms = ["xoric", "varesh", "roosan", "elani"], "vasesak-the-sorcerer", ["the-barracks"]
    state = rules.new_game(heroes, lord, rooms, 1, spells={"varesh": spells[:10]})
    assert state.character("hero-varesh").spells == tuple(spells[:10])
    with pytest.raises(IllegalActionError, match="at most 10"):
        rules.new_game(heroes, lord, rooms, 1, spells={"varesh": spells[:11]})


def test_the_lords_mercenary_monster_fills_the_mercenary_icons() -> None:
    """catacombs-3e-reference.txt: Room Cards (Mercenary Monster icons follow the Catacomb Lord's Setup
    card)."""
    table = catacombs_3e(["zothas-gatehouse"], lord="vasesak-the-sorcerer")
    table.do(A.EnterRoom())
    cards = sorted(c.card for c in table.state.room_monsters)
    # One Skeleton Warrior printed, one more for the Sorcerer's mercenary icon.
    assert cards.count("skeleton-warrior") == 2 and cards.count("zombie") == 2


# == the Room deck =================================================================================


def test_a_random_layout_deals_by_difficulty_with_the_lair_last_and_the_same_seed_the_same_deck() -> None:
    """catacombs-3e-reference.txt: Addendum: Alternate Room Card Layouts ("sorts them into three decks
    according to their difficulty"; "The Catacomb Lord's Lair Special Room card is always placed last")."""
    content = sample.sample_content()
    slots = ("difficulty_0", "special", "difficulty_1", "special", "difficulty_2", "lair")
    deck = deal_room_deck(content, slots, 11)
    rooms = [content.room(r) for r in deck]
    assert [r.difficulty for r in rooms[:5:2]] == [0, 1, 2]
    assert all(r.kind == "battle" for r in rooms[:5:2])
    assert {rooms[1].kind, rooms[3].kind} <= {"healer", "inn", "merchant", "tavern"}
    assert rooms[1].id != rooms[3].id  # two special slots never deal the same card
    assert rooms[-1].kind == "lair"
    assert deal_room_deck(content, slots, 11) == deck
    with pytest.raises(IllegalActionError, match="last"):
        deal_room_deck(content, ("lair", "difficulty_0", "lair"), 11)


def test_the_shipped_random_layout_ends_with_the_lair() -> None:
    """catacombs-3e-reference.txt: Addendum: Alternate Room Card Layouts (random method)."""
    rules, state = new_game_from_setup(
        {
            "ruleset": "catacombs-3e",
            "content": "shipped",
            "heroes": ["xoric", "varesh", "roosan", "elani"],
            "lord": "vasesak-the-sorcerer",
            "layout": "random-standard",
            "seed": 5,
        }
    )
    kinds = [rules.content.room(r).kind for r in state.room_deck]
    assert len(kinds) == 9 and kinds[-1] == "lair" and "lair" not in kinds[:-1]
    assert [k == "battle" for k in kinds] == [True, True, False, True, True, False, True, False, False]


def test_rooms_are_flipped_in_order_and_only_between_rooms() -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb ("the Overseer flips the next
    unrevealed Room card"; "After completing each room, the Overseer flips over the next Room card")."""
    table = catacombs_3e(["rat-nest", "althea-the-healer", "zothas-gatehouse"])
    with pytest.raises(WrongPhaseError):
        table.do(A.StartBattle())  # no room yet
    table.do(A.EnterRoom())
    assert table.state.room_id == "rat-nest" and table.state.phase == "setup"
    with pytest.raises(WrongPhaseError):
        table.do(A.EnterRoom())  # the Rat Nest must be played first
    table.do(A.StartBattle())
    with pytest.raises(WrongPhaseError):
        table.do(A.EnterRoom())
    clear_all_but(table, "monster-sewer-rat-1")
    table.turn("hero-xoric", ("melee", "monster-sewer-rat-1"))
    assert table.state.phase == "resolution"
    table.do(A.EnterRoom())
    assert (table.state.room_id, table.state.phase) == ("althea-the-healer", "special_room")
    with pytest.raises(WrongPhaseError):
        table.do(A.StartBattle())  # a special room has no battle
    table.do(A.EnterRoom())
    assert table.state.room_id == "zothas-gatehouse"


# == the Setup Phase ===============================================================================


def test_a_refused_playmat_changes_nothing_and_another_side_is_accepted() -> None:
    """catacombs-3e-reference.txt: Game Phases: The Setup Phase ("The same side of a playmat cannot be chosen
    for two consecutive rooms. This rule does not apply to the Catacomb Lord's Lair.")."""
    table = catacombs_3e(["rat-nest", "zothas-gatehouse", "catacomb-lords-lair"])
    table.do(A.EnterRoom(playmat="crypt"))
    table.do(A.StartBattle())
    clear_all_but(table, "monster-sewer-rat-1")
    table.turn("hero-xoric", ("melee", "monster-sewer-rat-1"))
    before = table.state
    with pytest.raises(IllegalActionError) as refused:
        table.do(A.EnterRoom(playmat="crypt"))
    assert refused.value.rule == "catacombs-3e-reference.txt: Game Phases: The Setup Phase"
    assert table.state is before
    table.do(A.EnterRoom(playmat="crypt-reverse"))
    table.do(A.StartBattle())
    clear_all_but(table, "monster-zombie-1")
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    table.do(A.EnterRoom(playmat="crypt-reverse"))  # the Lair is exempt
    assert table.state.room_kind == "lair"


def test_the_battle_waits_until_every_monster_metre_icon_is_answered() -> None:
    """catacombs-3e-reference.txt: Room Cards: Monster Metre Icons ("Repeat this process for any other Monster
    Metre icons on the Room card")."""
    table = catacombs_3e(["the-mitholaq-hive"])
    table.do(A.EnterRoom())
    first = table.state.pending
    assert first is not None and first.kind == "choose_monster"
    with pytest.raises(DecisionPendingError):
        table.do(A.StartBattle())
    table.do(A.Decide(first.id, "orc:2"))  # the Overseer keeps two Orcs back
    second = table.state.pending
    assert second is not None and second.id != first.id
    table.do(A.Decide(second.id, "zombie"))
    cards = sorted(c.card for c in table.state.room_monsters)
    assert cards == ["orc", "orc", "zombie", "zombie", "zombie", "zombie"]
    table.do(A.StartBattle())
    assert table.state.phase == "battle" and table.state.round == 1


def test_a_monster_metre_pick_is_limited_to_the_pieces_in_the_monster_pool() -> None:
    """catacombs-3e-reference.txt: Room Cards: Monster Metre Icons ("up to the maximum number available"); The
    Setup Phase (the supply of pieces is a hard limit)."""
    room = evolve(room_of("troll-bridge"), quadrants={2: (sample.QuadrantEntry("monster_metre", 1),)})
    table = catacombs_3e(["troll-bridge"], content=with_cards(rooms=[room]))
    table.do(A.EnterRoom())
    pending = table.state.pending
    assert pending is not None
    troll_options = [o.id for o in pending.options if o.id.startswith("troll")]
    assert troll_options == ["troll", "troll:1"]  # two Troll pieces in the pool
    assert "pit-viper:1" not in {o.id for o in pending.options}  # one piece: "all" is the only choice


# == turn order ====================================================================================


def test_the_heroes_act_in_any_order_before_any_monster_and_each_only_once() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Turn Order ("The heroes always take their turns first";
    "performing one action for each hero. There is no set order")."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    with pytest.raises(NotYourTurnError):
        table.declare("monster-orc-1", 0)
    table.turn("hero-roosan", ("rush",))
    with pytest.raises(CharacterCannotActError, match="already acted"):
        table.declare("hero-roosan")
    table.turn("hero-elani", ("melee", "monster-orc-1"))
    table.turn("hero-varesh", ("rush",))
    assert table.state.side == "heroes"
    table.turn("hero-xoric", ("melee",))
    assert table.state.side == "overseer" and table.state.round == 1
    with pytest.raises(NotYourTurnError):
        table.declare("hero-xoric")
    monsters = [c.id for c in table.rules.actors(table.state)]
    assert "monster-orc-1" not in monsters  # destroyed
    assert sorted(monsters) == sorted(
        ["monster-orc-2", "monster-orc-3", "monster-orc-4", "monster-troll-1", "monster-pit-viper-1"]
    )
    table.side_passes()
    assert (table.state.round, table.state.side, table.state.acted) == (2, "heroes", ())


def test_another_character_cannot_act_while_a_turn_is_under_way() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Turn Order ("a turn is the action a character takes")."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.declare("hero-xoric")
    with pytest.raises(NotYourTurnError):
        table.declare("hero-elani")
    with pytest.raises(NotYourTurnError):
        table.shot("hero-elani", "melee", "monster-orc-1")


def test_an_action_is_the_shot_sequence_or_a_card_but_not_both() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Turn Order ("An action is considered to be either a hero's
    shot sequence ... or playing an Item, Spell or, Ability card ... but not both")."""
    table = catacombs_3e(["the-barracks"], spells={"varesh": ["heal"]})
    table.enter_battle()
    table.declare("hero-varesh")
    with pytest.raises(NotYourTurnError):
        table.do(A.PlayCard("hero-varesh", "fireball"))
    table.do(A.EndTurn("hero-varesh"))
    with pytest.raises(CharacterCannotActError):
        table.do(A.PlayCard("hero-varesh", "fireball"))
    table.do(A.PlayCard("hero-roosan", "feathers-of-fury"))
    table.shot("hero-roosan", "melee", "monster-orc-1")
    with pytest.raises(NotYourTurnError):
        table.declare("hero-roosan")
    table.do(A.EndTurn("hero-roosan"))
    assert "hero-roosan" in table.state.acted


def test_ending_a_turn_forfeits_the_rest_of_the_sequence() -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors ("All shots in a shot sequence are
    optional"); RULINGS.md 2."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.declare("hero-roosan")
    table.shot("hero-roosan", "rush")
    table.do(A.EndTurn("hero-roosan"))
    assert table.state.turn is None and "hero-roosan" in table.state.acted
    with pytest.raises(NotYourTurnError):
        table.shot("hero-roosan", "melee", "monster-orc-1")


def test_then_shots_are_taken_in_printed_order_and_a_skipped_one_is_lost() -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors: Then Connector ("the Chicken Champion
    performs a rush shot, then a melee shot, then two rush shots"); RULINGS.md 2."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.declare("hero-roosan")
    with pytest.raises(UnexpectedShotError) as refused:
        table.shot("hero-roosan", "melee", "monster-orc-1")
    assert "RULINGS.md 2" in refused.value.rule
    table.shot("hero-roosan", "rush")
    table.do(A.SkipShot("hero-roosan"))  # the melee is forfeited
    with pytest.raises(UnexpectedShotError):
        table.shot("hero-roosan", "melee", "monster-orc-1")
    table.shot("hero-roosan", "rush")
    table.shot("hero-roosan", "rush")
    assert table.state.turn is None and table.state.character("monster-orc-1").alive


def test_the_or_connector_is_declared_before_shooting_and_only_that_alternative_is_performed() -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors: Or Connector ("A player must declare which
    shot sequence they are choosing before performing it. A player can never perform every shot")."""
    table = catacombs_3e(["the-barracks"], heroes=("oleira", "varesh", "roosan", "elani"))
    table.enter_battle()
    with pytest.raises(NoSuchAlternativeError):
        table.declare("hero-oleira", 2)
    table.declare("hero-oleira")
    pending = table.state.pending
    assert pending is not None and pending.kind == "choose_alternative"
    assert [o.label for o in pending.options] == ["missile", "melee, then rush"]
    with pytest.raises(DecisionPendingError):
        table.shot("hero-oleira", "missile", "monster-orc-1")
    table.do(A.Decide(pending.id, "0"))
    table.shot("hero-oleira", "missile", "monster-orc-1")
    assert table.state.turn is None  # the melee and rush of the other alternative are not offered
    assert "hero-oleira" in table.state.acted


def test_a_familiar_and_an_ally_take_their_own_turns_in_the_heroes_part_of_the_round() -> None:
    """catacombs-3e-reference.txt: Item Cards: Familiars ("the player can choose whether the hero or familiar
    performs their action first"); Advanced Concepts: Allies ("takes a turn for both the hero and ally")."""
    table = catacombs_3e(
        ["amaranth-inn", "the-barracks"],
        heroes=("oleira", "varesh", "roosan", "elani"),
        items={"oleira": ["spirit-familiar"]},
    )
    table.do(A.EnterRoom())
    table.edit("hero-elani", gold=10)
    table.do(A.UseService("meal", target="hero-elani"))
    while table.state.pending is not None:
        table.do(A.Decide(table.state.pending.id, table.state.pending.options[0].id))
    ally = next(c.id for c in table.state.characters if c.kind == "ally")
    table.enter_battle()
    actors = {c.id for c in table.rules.actors(table.state)}
    assert {"familiar-spirit-familiar", ally, "hero-oleira", "hero-elani"} <= actors
    table.turn("familiar-spirit-familiar", ("melee", "monster-orc-1"))
    table.turn("hero-oleira", ("missile", "monster-orc-2"), alternative=0)
    for hero in ("hero-varesh", "hero-roosan", "hero-elani"):
        table.pass_turn(hero)
    assert table.state.side == "heroes"  # the ally still has its turn
    table.pass_turn(ally)
    assert table.state.side == "overseer"


def test_a_frozen_monster_is_passed_over_in_the_overseers_part_of_the_round() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Turn Order (the Overseer "takes a turn for each monster");
    Advanced Shots: Ice Shot ("While frozen, a character cannot take any actions")."""
    frost = HeroCard("varesh", "Varesh the Wizard", 8, (seq("ice"),))
    table = catacombs_3e(["rat-nest"], content=with_cards(heroes=[frost]))
    table.enter_battle()
    table.turn("hero-varesh", ("ice", "monster-sewer-rat-1"))
    table.side_passes()
    assert [c.id for c in table.rules.actors(table.state)] == ["monster-sewer-rat-2", "monster-sewer-rat-3"]
    table.side_passes()
    assert table.state.round == 2 and table.state.side == "heroes"


# == the Resolution Phase and gold ===================================================================


def test_each_hero_collects_the_gold_of_the_monsters_it_destroyed_when_the_room_is_cleared() -> None:
    """catacombs-3e-reference.txt: The Resolution Phase ("Each surviving hero is given an amount of gold equal
    to the total value of the monsters they destroyed"); Introducing the Heroes (Elani "receives one extra
    gold coin for each monster she slays")."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    clear_all_but(table, "monster-orc-1", "monster-orc-2", "monster-troll-1", "monster-pit-viper-1")
    table.turn("hero-xoric", ("melee", "monster-orc-1", "monster-troll-1"))
    table.turn("hero-elani", ("melee", "monster-orc-2", "monster-pit-viper-1"))
    assert table.state.phase == "battle" and gold(table, "hero-xoric") == 0  # paid at Resolution, not before
    table.turn("hero-roosan", ("rush",), ("melee", "monster-troll-1"))
    assert table.state.phase == "resolution"
    assert gold(table, "hero-xoric") == 1  # the Orc; Roosan finished the Troll
    assert gold(table, "hero-roosan") == 2  # the Troll
    assert gold(table, "hero-elani") == (1 + 1) + (2 + 1)  # Orc and Pit Viper, one extra coin each
    assert table.state.public_view()["gold"] == {"party": 8, "treasury": 92 - 8}


def test_a_hero_who_dies_before_the_room_is_cleared_collects_nothing_for_its_kills() -> None:
    """catacombs-3e-reference.txt: The Resolution Phase ("Each surviving hero"); Hero Death ("any monsters
    they have killed are returned to the Monster Pool")."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    clear_all_but(table, "monster-orc-1", "monster-troll-1")
    table.turn("hero-elani", ("melee", "monster-orc-1"))
    table.edit("hero-elani", health=1)
    table.side_passes()
    table.turn("monster-troll-1", ("melee", "hero-elani"))
    assert not table.state.character("hero-elani").alive
    table.edit("monster-troll-1", health=1)
    table.turn("hero-xoric", ("melee", "monster-troll-1"))
    assert table.state.phase == "resolution"
    assert (gold(table, "hero-elani"), gold(table, "hero-xoric"), table.state.treasury) == (0, 2, 90)


def test_an_empty_treasury_stops_paying_part_way_through_the_resolution() -> None:
    """catacombs-3e-reference.txt: The Setup Phase ("if there are no more coins in the Treasury, then the
    heroes do not collect any gold during the Resolution Phase")."""
    table = catacombs_3e(["the-barracks"])
    table.state = evolve(table.state, treasury=3)
    table.enter_battle()
    clear_all_but(table, "monster-troll-1", "monster-pit-viper-1")
    table.turn("hero-xoric", ("melee", "monster-pit-viper-1"))
    table.edit("monster-troll-1", health=1)
    table.turn("hero-roosan", ("rush",), ("melee", "monster-troll-1"))
    assert table.state.phase == "resolution"
    assert gold(table, "hero-xoric") + gold(table, "hero-roosan") == 3  # 4 were earned, 3 were there
    assert table.state.treasury == 0


def test_an_allys_kill_pays_its_hero_without_the_thiefs_bonus() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Allies ("all gold transfers to the hero whom the ally
    was assigned to assist"); Introducing the Heroes (Elani's extra coin is "for each monster she slays")."""
    table = catacombs_3e(["amaranth-inn", "zothas-gatehouse"])
    table.do(A.EnterRoom())
    table.edit("hero-elani", gold=10)
    table.do(A.UseService("meal", target="hero-elani"))
    while table.state.pending is not None:
        table.do(A.Decide(table.state.pending.id, table.state.pending.options[0].id))
    ally = table.state.character(next(c.id for c in table.state.characters if c.kind == "ally"))
    table.enter_battle()
    clear_all_but(table, "monster-zombie-1", "monster-zombie-2")
    table.turn(ally.id, ("melee", "monster-zombie-1"), alternative=len(ally.shot_sequences) - 1)
    table.turn("hero-elani", ("melee", "monster-zombie-2"))
    assert table.state.phase == "resolution"
    assert gold(table, ally.id) == 0
    assert gold(table, "hero-elani") == 1 + (1 + 1)  # the ally's Zombie, then her own with the extra coin


# == health, healing and the caps ===================================================================


def test_heal_never_raises_health_above_the_starting_level_and_may_heal_an_ally() -> None:
    """catacombs-3e-reference.txt: Healing Damage ("The character can also heal any one hero or ally instead";
    "A character's health may not be increased beyond its starting level")."""
    table = catacombs_3e(["amaranth-inn", "zothas-gatehouse"], spells={"varesh": ["heal", "heal"]})
    table.do(A.EnterRoom())
    table.edit("hero-xoric", gold=10)
    table.do(A.UseService("meal", target="hero-xoric"))
    while table.state.pending is not None:
        table.do(A.Decide(table.state.pending.id, table.state.pending.options[0].id))
    ally = next(c.id for c in table.state.characters if c.kind == "ally")
    table.enter_battle()
    table.edit(ally, health=1)
    table.edit("hero-roosan", alive=False, health=0)
    table.do(A.PlayCard("hero-varesh", "heal"))
    pending = table.state.pending
    assert pending is not None
    assert "hero-roosan" not in {o.id for o in pending.options}  # the dead are not healed
    table.do(A.Decide(pending.id, ally))
    assert table.health(ally) == 4  # Heal 4 from 1 stops at the ally's four
    table.side_passes()
    table.side_passes()
    table.edit("hero-varesh", health=6)
    table.do(A.PlayCard("hero-varesh", "heal"))
    pending = table.state.pending
    assert pending is not None
    table.do(A.Decide(pending.id, "hero-varesh"))
    assert table.health("hero-varesh") == 8


def test_heal_all_gives_each_living_teammate_one_point_up_to_its_starting_health() -> None:
    """catacombs-3e-reference.txt: Healing Damage ("The Heal All icon enables all living teammates (including
    the character performing the healing) to recover one point of health")."""
    table = catacombs_3e(["the-barracks"], spells={"varesh": ["heal-all"]})
    table.enter_battle()
    table.edit("hero-varesh", health=5)
    table.edit("hero-xoric", health=9)
    table.edit("hero-elani", health=2)
    table.edit("hero-roosan", alive=False, health=0)
    table.do(A.PlayCard("hero-varesh", "heal-all"))
    assert [table.health(h) for h in ("hero-varesh", "hero-xoric", "hero-elani", "hero-roosan")] == [
        6,
        9,
        3,
        0,
    ]
    assert table.health("monster-troll-1") == 2 and not table.state.character("hero-roosan").alive


def test_the_inns_extra_health_is_kept_by_later_healing_but_is_not_a_new_starting_health() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn ("they can exceed their starting health"); Healing Damage
    ("may not be increased beyond its starting level"); Hero Death (half their health); RULINGS.md 3, 6."""
    table = catacombs_3e(["amaranth-inn", "the-barracks", "rat-nest"], spells={"varesh": ["heal"]})
    table.edit("hero-elani", gold=8)
    table.do(A.EnterRoom())
    table.do(A.UseService("sleep"))
    assert [table.health(h) for h in ("hero-xoric", "hero-varesh", "hero-roosan", "hero-elani")] == [
        10,
        9,
        8,
        8,
    ]
    table.enter_battle()
    table.do(A.PlayCard("hero-varesh", "heal"))
    pending = table.state.pending
    assert pending is not None
    table.do(A.Decide(pending.id, "hero-xoric"))
    assert table.health("hero-xoric") == 10  # neither raised further nor cut back to nine
    clear_all_but(table, "monster-orc-1")
    table.edit("hero-xoric", health=1)
    table.side_passes()
    table.turn("monster-orc-1", ("melee", "hero-xoric"), alternative=0)
    table.turn("hero-elani", ("melee", "monster-orc-1"))
    table.do(A.EnterRoom())
    assert table.health("hero-xoric") == 9 // 2  # half of the starting nine, not of ten


def test_a_night_at_the_inn_for_a_party_that_cannot_pay_is_refused_and_changes_nothing() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn ("Pay eight gold coins"; "They may pool their gold");
    RULINGS.md 6 (one payment for the party)."""
    table = catacombs_3e(["amaranth-inn", "the-barracks"])
    table.edit("hero-elani", gold=4)
    table.edit("hero-xoric", gold=3)
    table.do(A.EnterRoom())
    before = table.state
    with pytest.raises(NotEnoughGoldError):
        table.do(A.UseService("sleep"))
    assert table.state is before
    table.edit("hero-roosan", gold=1)
    table.do(A.UseService("sleep"))
    assert table.state.party_gold == 0 and table.state.treasury == 92 + 8


# == hero death =====================================================================================


def test_basic_hero_death_returns_items_poison_and_gold_and_keeps_the_spells() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Hero Death ("All Item and Poison cards are shuffled back into
    their respective decks"; "The hero retains any unused Spell cards"; "All of the hero's gold coins are
    returned to the Treasury"; "returns to life in the Setup Phase of the next room with half their
    health")."""
    table = catacombs_3e(
        ["the-barracks", "rat-nest"],
        items={"varesh": ["healing-salve", "raisthrims-potion"]},
        spells={"varesh": ["heal", "cure-poison"]},
    )
    deck = len(table.state.item_deck)
    table.enter_battle()
    clear_all_but(table, "monster-orc-1")
    table.edit("hero-varesh", health=1, gold=6, poison=(2, 3))
    poison_deck = len(table.state.poison_deck)
    table.side_passes()
    table.turn("monster-orc-1", ("melee", "hero-varesh"), alternative=0)
    varesh = table.state.character("hero-varesh")
    assert not varesh.alive and varesh.gold == 0 and varesh.poison == () and varesh.items == ()
    assert varesh.spells == ("heal", "cure-poison") and varesh.abilities == ("fireball",)
    assert table.state.treasury == 92 + 6
    assert len(table.state.poison_deck) == poison_deck + 2
    assert len(table.state.item_deck) == deck + 2
    assert sorted(table.state.item_deck).count("healing-salve") == 2
    with pytest.raises(CharacterCannotActError):
        table.do(A.PlayCard("hero-varesh", "heal"))
    table.turn("hero-elani", ("melee", "monster-orc-1"))
    table.do(A.EnterRoom())
    varesh = table.state.character("hero-varesh")
    assert varesh.alive and varesh.health == 8 // 2


def test_a_dead_heros_familiar_leaves_with_its_item_card() -> None:
    """catacombs-3e-reference.txt: Hero Death ("The hero's piece, shield pieces and/or familiar pieces are
    removed from the playmat. All Item ... cards are shuffled back"); Item Cards: Familiars."""
    table = catacombs_3e(
        ["the-barracks", "rat-nest"],
        heroes=("oleira", "varesh", "roosan", "elani"),
        items={"oleira": ["spirit-familiar"]},
    )
    table.enter_battle()
    clear_all_but(table, "monster-orc-1")
    table.edit("hero-oleira", health=1)
    table.side_passes()
    table.turn("monster-orc-1", ("melee", "hero-oleira"), alternative=0)
    assert "familiar-spirit-familiar" not in [c.id for c in table.rules.actors(table.state)]
    table.turn("hero-elani", ("melee", "monster-orc-1"))
    table.do(A.EnterRoom())
    assert table.state.character("hero-oleira").alive
    assert "spirit-familiar" in table.state.item_deck
    familiar = [c for c in table.state.public_view()["characters"] if c["id"] == "familiar-spirit-familiar"]
    assert [c["on_mat"] for c in familiar] == [False]
    table.do(A.StartBattle())
    assert "familiar-spirit-familiar" not in [c.id for c in table.rules.actors(table.state)]


def test_a_familiar_card_returned_to_the_deck_serves_the_hero_who_buys_it_next() -> None:
    """catacombs-3e-reference.txt: Hero Death (Items "shuffled back into their respective decks"); Izchak the
    Merchant; Item Cards: Familiars ("All heroes can purchase and use familiar items")."""
    cards = [evolve(c, cost=2) if c.id == "spirit-familiar" else c for c in sample.CARDS]
    content = CardIndex(sample.HEROES, sample.MONSTERS, sample.ROOMS, sample.LORDS, sample.POISON_DECK, cards)
    table = catacombs_3e(
        ["rat-nest", "izchak-the-merchant", "zothas-gatehouse"],
        heroes=("oleira", "varesh", "roosan", "elani"),
        items={"oleira": ["spirit-familiar"]},
        content=content,
    )
    table.enter_battle()
    clear_all_but(table, "monster-sewer-rat-1")
    table.edit("hero-oleira", health=1)
    table.side_passes()
    table.turn("monster-sewer-rat-1", ("melee", "hero-oleira"))
    table.turn("hero-elani", ("melee", "monster-sewer-rat-1"))
    table.edit("hero-elani", gold=30)
    table.do(A.EnterRoom())
    while "spirit-familiar" not in table.state.market:
        table.do(A.UseService("peek"))
    table.do(A.UseService("buy", target="hero-elani", item="spirit-familiar"))
    table.enter_battle()
    familiar = table.state.character("familiar-spirit-familiar")
    assert familiar.owner == "hero-elani" and familiar.on_mat
    table.turn("familiar-spirit-familiar", ("melee", "monster-zombie-1"))
    assert not table.state.character("monster-zombie-1").alive


def test_advanced_hero_death_keeps_the_hero_out_until_althea_resurrects_it_with_two_health() -> None:
    """catacombs-3e-reference.txt: Hero Death (Advanced Rules: "When a hero dies they are out of the game";
    "retains their Item cards in addition to their Spell cards"); Althea The Healer (Resurrect Hero, 10 gold,
    "two health points"; "The resurrected hero starts playing in the next room")."""
    table = catacombs_3e(
        ["the-barracks", "rat-nest", "althea-the-healer", "zothas-gatehouse"],
        settings=Settings(advanced_hero_death=True),
        items={"elani": ["healing-salve"]},
    )
    table.enter_battle()
    clear_all_but(table, "monster-orc-1")
    table.edit("hero-elani", health=1, gold=4)
    table.side_passes()
    table.turn("monster-orc-1", ("melee", "hero-elani"), alternative=0)
    assert table.state.treasury == 92 + 4  # the gold still goes back
    table.turn("hero-xoric", ("melee", "monster-orc-1"))
    table.do(A.EnterRoom())
    assert not table.state.character("hero-elani").alive  # no return in the next room
    table.do(A.StartBattle())
    assert "hero-elani" not in [c.id for c in table.rules.actors(table.state)]
    clear_all_but(table, "monster-sewer-rat-1")
    table.turn("hero-xoric", ("melee", "monster-sewer-rat-1"))
    table.edit("hero-xoric", gold=6)
    table.edit("hero-roosan", gold=4)
    table.do(A.EnterRoom())
    table.do(A.UseService("resurrect", target="hero-elani"))
    elani = table.state.character("hero-elani")
    assert elani.alive and elani.health == 2 and elani.items == ("healing-salve",)
    assert table.state.party_gold == 0
    table.enter_battle()
    assert "hero-elani" in [c.id for c in table.rules.actors(table.state)]


def test_a_resurrected_hero_brings_back_its_familiar_in_the_next_room() -> None:
    """catacombs-3e-reference.txt: Hero Death (Advanced Rules: "The dead hero retains their Item cards");
    Althea The Healer ("any unused Item and/or Spell cards"); Item Cards: Familiars ("returning to its owner's
    side in the Setup Phase of every room")."""
    table = catacombs_3e(
        ["rat-nest", "althea-the-healer", "zothas-gatehouse"],
        heroes=("oleira", "varesh", "roosan", "elani"),
        items={"oleira": ["spirit-familiar"]},
        settings=Settings(advanced_hero_death=True),
    )
    table.enter_battle()
    clear_all_but(table, "monster-sewer-rat-1")
    table.edit("hero-oleira", health=1)
    table.side_passes()
    table.turn("monster-sewer-rat-1", ("melee", "hero-oleira"))
    assert not table.state.character("familiar-spirit-familiar").on_mat
    table.turn("hero-elani", ("melee", "monster-sewer-rat-1"))
    table.edit("hero-elani", gold=10)
    table.do(A.EnterRoom())
    table.do(A.UseService("resurrect", target="hero-oleira"))
    table.enter_battle()
    assert {"hero-oleira", "familiar-spirit-familiar"} <= {c.id for c in table.rules.actors(table.state)}


def test_poison_kills_at_the_starting_health_even_after_a_night_at_the_inn() -> None:
    """catacombs-3e-reference.txt: Poison Cards ("If at any time, the total value of all the Poison cards
    accumulated equals or exceeds the starting health of that hero"); Amaranth Inn."""
    table = catacombs_3e(["amaranth-inn", "rat-nest"], poison_deck=(3,) * 15)
    table.edit("hero-varesh", gold=8, poison=(3,))
    table.do(A.EnterRoom())
    table.do(A.UseService("sleep"))
    assert table.health("hero-varesh") == 9
    table.enter_battle()
    table.side_passes()
    table.turn("monster-sewer-rat-1", ("melee", "hero-varesh"))
    assert table.state.character("hero-varesh").alive  # 3 + 3 = 6 of 8
    table.side_passes()
    table.side_passes()
    table.turn("monster-sewer-rat-1", ("melee", "hero-varesh"))
    assert not table.state.character("hero-varesh").alive  # 9 of 8, with health still left


def test_althea_cannot_resurrect_an_ally_nor_heal_the_dead() -> None:
    """catacombs-3e-reference.txt: Althea The Healer ("Allies can be healed by the Healer, but not
    resurrected"); Allies ("When dead, Allies are out of the game and cannot be resurrected")."""
    table = catacombs_3e(["amaranth-inn", "althea-the-healer"], settings=Settings(advanced_hero_death=True))
    table.do(A.EnterRoom())
    table.edit("hero-xoric", gold=40)
    table.do(A.UseService("meal", target="hero-xoric"))
    while table.state.pending is not None:
        table.do(A.Decide(table.state.pending.id, table.state.pending.options[0].id))
    ally = next(c.id for c in table.state.characters if c.kind == "ally")
    table.do(A.EnterRoom())
    table.edit(ally, health=2)
    table.do(A.UseService("heal", target=ally))
    assert table.health(ally) == 3
    table.edit(ally, alive=False, health=0)
    table.edit("hero-elani", alive=False, health=0)
    with pytest.raises(IllegalActionError):
        table.do(A.UseService("resurrect", target=ally))
    with pytest.raises(IllegalActionError):
        table.do(A.UseService("heal", target="hero-elani"))


# == Spell, Ability and Item cards ================================================================


def test_a_spell_card_in_the_hands_of_a_hero_who_is_no_spell_caster_cannot_be_cast() -> None:
    """catacombs-3e-reference.txt: Playing Spell, Ability, or Item Cards: Spell Cards ("Spell cards can only
    be used by characters who are Spell Casters")."""
    table = catacombs_3e(["the-barracks"])
    table.do(A.SetCards("hero-xoric", "spells", ("heal",), "handed over by mistake"))
    table.enter_battle()
    with pytest.raises(CardNotPlayableError, match="not a Spell Caster"):
        table.do(A.PlayCard("hero-xoric", "heal"))


def test_only_a_spell_may_follow_a_rush_and_a_cast_spell_never_comes_back() -> None:
    """catacombs-3e-reference.txt: Spell Cards ("A player may perform one rush shot before casting a spell";
    "A Spell card can only be played once per game ... There are no exceptions to this rule")."""
    table = catacombs_3e(["the-barracks", "rat-nest"], spells={"varesh": ["drain-energy"]})
    table.enter_battle()
    with pytest.raises(CardNotPlayableError, match="only a spell"):
        table.do(A.PlayCard("hero-varesh", "fireball", rush_first=True))
    table.do(A.PlayCard("hero-varesh", "drain-energy", rush_first=True))
    table.shot("hero-varesh", "rush")
    with pytest.raises(UnexpectedShotError):
        table.shot("hero-varesh", "rush")  # one rush, no more
    table.shot("hero-varesh", "missile", "monster-orc-1")
    assert table.state.character("hero-varesh").spells == ()
    clear_all_but(table, "monster-orc-2")
    table.turn("hero-xoric", ("melee", "monster-orc-2"))
    table.do(A.EnterRoom())
    assert table.state.character("hero-varesh").spells == ()  # not refreshed with the Ability cards


def test_an_ability_is_once_per_room_not_once_per_round() -> None:
    """catacombs-3e-reference.txt: Ability Cards ("can only be used once during the Battle Phase of a room";
    "refreshed (flipped face up) during the Setup Phase of the next room")."""
    table = catacombs_3e(["the-barracks", "rat-nest"])
    table.enter_battle()
    table.do(A.PlayCard("hero-roosan", "feathers-of-fury"))
    table.do(A.EndTurn("hero-roosan"))
    table.side_passes()
    table.side_passes()
    assert table.state.round == 2
    with pytest.raises(CardNotPlayableError, match="no unused"):
        table.do(A.PlayCard("hero-roosan", "feathers-of-fury"))
    assert table.state.character("hero-roosan").abilities == ("feathers-of-fury",)  # face down, not gone
    clear_all_but(table, "monster-orc-1")
    table.turn("hero-xoric", ("melee", "monster-orc-1"))
    table.do(A.EnterRoom())
    table.do(A.StartBattle())
    table.do(A.PlayCard("hero-roosan", "feathers-of-fury"))
    assert table.state.turn is not None and table.state.turn.source == "feathers-of-fury"


def test_once_per_room_once_per_game_and_permanent_items() -> None:
    """catacombs-3e-reference.txt: Item Cards: Frequency Conditions (once per game: "discarded and removed
    from the game"; once per room: "flipped over face down"; permanent: "If the item has a shot sequence, a
    player can choose to perform that sequence instead")."""
    spear = ActionCard("war-spear", "War Spear", "item", "permanent", (seq("bite"),), weapon=True)
    content = CardIndex(
        sample.HEROES, sample.MONSTERS, sample.ROOMS, sample.LORDS, sample.POISON_DECK, (*sample.CARDS, spear)
    )
    table = catacombs_3e(
        ["the-barracks"],
        items={"xoric": ["berserker-battle-axe", "war-spear"], "elani": ["healing-salve"]},
        content=content,
    )
    table.enter_battle()
    deck = table.state.item_deck
    table.do(A.PlayCard("hero-xoric", "war-spear"))
    table.shot("hero-xoric", "bite", "monster-troll-1")
    assert not table.state.character("monster-troll-1").alive
    table.do(A.PlayCard("hero-elani", "healing-salve"))
    pending = table.state.pending
    assert pending is not None
    table.do(A.Decide(pending.id, "hero-elani"))
    assert table.state.character("hero-elani").items == ()
    assert table.state.item_deck == deck  # removed from the game, not back in the deck
    table.side_passes()
    table.side_passes()
    table.do(A.PlayCard("hero-xoric", "war-spear"))  # permanent: again next round
    table.do(A.EndTurn("hero-xoric"))
    table.side_passes()
    table.side_passes()
    table.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))
    table.do(A.EndTurn("hero-xoric"))
    table.side_passes()
    table.side_passes()
    with pytest.raises(CardNotPlayableError):
        table.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))  # face down for the rest of the room
    assert table.state.character("hero-xoric").items == ("berserker-battle-axe", "war-spear")


def test_an_item_is_played_only_by_the_hero_who_owns_it() -> None:
    """catacombs-3e-reference.txt: Item Cards ("Only the hero who owns the item may use it and items cannot be
    given away or traded")."""
    table = catacombs_3e(["the-barracks"], items={"xoric": ["berserker-battle-axe"]})
    table.enter_battle()
    with pytest.raises(CardNotPlayableError, match="holds no"):
        table.do(A.PlayCard("hero-elani", "berserker-battle-axe"))


def test_a_stunned_hero_plays_no_card_but_its_familiar_still_acts() -> None:
    """catacombs-3e-reference.txt: Item Cards ("Items cannot be used when a hero is stunned unless the item is
    a familiar"); Familiars ("If the hero controlling a familiar is stunned or devoured, then that hero cannot
    take an action (as normal); however, the familiar is still able to do so")."""
    table = catacombs_3e(
        ["the-barracks"],
        heroes=("oleira", "varesh", "roosan", "elani"),
        items={"oleira": ["spirit-familiar", "healing-salve"]},
    )
    table.enter_battle()
    table.edit("hero-oleira", status=("stunned",))
    with pytest.raises(CardNotPlayableError, match="stunned"):
        table.do(A.PlayCard("hero-oleira", "healing-salve"))
    with pytest.raises(CardNotPlayableError, match="stunned"):
        table.do(A.PlayCard("hero-oleira", "elven-arrow"))
    table.turn("familiar-spirit-familiar", ("melee", "monster-orc-1"))
    assert not table.state.character("monster-orc-1").alive
    table.declare("hero-oleira")
    assert table.state.turn is not None and table.state.turn.label == "rush"


def test_two_copies_of_an_ability_card_give_two_uses_in_a_room() -> None:
    """catacombs-3e-reference.txt: Ability Cards ("can only be used once during the Battle Phase of a room");
    Allies (Oleira "starts with two Elven Arrow Ability cards as a hero")."""
    table = catacombs_3e(["the-barracks"], heroes=("oleira", "varesh", "roosan", "elani"))
    table.enter_battle()
    for _ in range(2):
        table.do(A.PlayCard("hero-oleira", "elven-arrow"))
        table.do(A.EndTurn("hero-oleira"))
        table.side_passes()
        table.side_passes()
    with pytest.raises(CardNotPlayableError, match="no unused"):
        table.do(A.PlayCard("hero-oleira", "elven-arrow"))
    assert table.state.public_view()["characters"][0]["face_down"] == ["ability:elven-arrow"] * 2


def test_a_stunned_heros_turn_ends_after_its_rush_without_waiting_for_a_combo_item() -> None:
    """catacombs-3e-reference.txt: Item Cards ("Items cannot be used when a hero is stunned"); Combo Items (a
    post-Combo item is played "immediately after ... the hero's normal turn")."""
    table = catacombs_3e(["the-barracks"], items={"xoric": ["throwing-axe"]})
    table.enter_battle()
    table.edit("hero-xoric", status=("stunned",))
    table.declare("hero-xoric")
    table.shot("hero-xoric", "rush")
    assert table.state.turn is None and "hero-xoric" in table.state.acted
    table.declare("hero-elani")  # the next hero goes on at once
    table.shot("hero-elani", "melee", "monster-orc-1")
    assert table.state.turn is not None and table.state.turn.stage == "main"


# == special rooms ==================================================================================


def test_a_service_is_bought_only_in_the_room_that_offers_it() -> None:
    """catacombs-3e-reference.txt: Room Cards: Special Room Cards ("Each Special Room card has its own
    rules")."""
    table = catacombs_3e(["the-barracks", "amaranth-inn"])
    table.edit("hero-xoric", gold=20)
    with pytest.raises(WrongPhaseError):
        table.do(A.UseService("sleep"))
    table.enter_battle()
    with pytest.raises(WrongPhaseError):
        table.do(A.UseService("sleep"))
    clear_all_but(table, "monster-orc-1")
    table.turn("hero-elani", ("melee", "monster-orc-1"))
    table.do(A.EnterRoom())
    with pytest.raises(IllegalActionError, match="offers"):
        table.do(A.UseService("heal", target="hero-xoric"))


def test_every_coin_spent_in_a_special_room_goes_back_to_the_treasury() -> None:
    """catacombs-3e-reference.txt: Special Room Cards ("All gold coins spent by the heroes is returned to the
    treasury"); Althea The Healer (Cure Poison 2, Heal 3); Izchak the Merchant (map, two gold coins)."""
    table = catacombs_3e(["althea-the-healer", "izchak-the-merchant", "the-barracks"])
    table.edit("hero-elani", gold=10, poison=(1, 2, 3), health=5)
    table.do(A.EnterRoom())
    table.do(A.UseService("free_cure", target="hero-elani"))
    table.do(A.Decide(table.state.pending.id, "2"))  # type: ignore[union-attr]
    table.do(A.UseService("cure_poison", target="hero-elani"))
    table.do(A.Decide(table.state.pending.id, "0"))  # type: ignore[union-attr]
    table.do(A.UseService("heal", target="hero-elani"))
    elani = table.state.character("hero-elani")
    assert (elani.poison, elani.health, elani.gold) == ((2,), 6, 10 - 2 - 3)
    assert table.state.treasury == 92 + 5
    table.do(A.EnterRoom())
    table.do(A.UseService("map"))
    assert table.state.public_view()["rooms_ahead"] == ["the-barracks"]
    assert (gold(table, "hero-elani"), table.state.treasury) == (3, 92 + 7)


def test_the_inns_cellar_gives_each_living_hero_one_of_each_item_and_shuffles_the_rest_back() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn ("each living hero receives one of each of the following
    unused items from the item deck: Vael's Urn, Healing Salve, Raisthri's Potion, and Cloak of Invisibility.
    Any left over items are shuffled back into the item deck")."""
    table = catacombs_3e(["amaranth-inn", "the-barracks"])
    table.edit("hero-xoric", gold=8)
    table.edit("hero-roosan", alive=False, health=0)
    deck = sorted(table.state.item_deck)
    table.do(A.EnterRoom())
    table.do(A.UseService("cellar"))
    items = {h.id: h.items for h in table.state.heroes}
    assert items["hero-roosan"] == ()
    handed = [i for held in items.values() for i in held]
    # The sample deck holds one Urn, one Potion, one Cloak and two Salves: the first heroes take them.
    assert sorted(handed) == sorted(
        ["vaiels-urn", "healing-salve", "raisthrims-potion", "cloak-of-invisibility", "healing-salve"]
    )
    assert all(len(set(held)) == len(held) for held in items.values())  # one of each per hero
    assert sorted([*table.state.item_deck, *handed]) == deck
    assert table.state.party_gold == 0


def test_izchaks_unsold_cards_go_back_into_the_item_deck_when_the_heroes_leave() -> None:
    """catacombs-3e-reference.txt: Izchak the Merchant ("The Overseer shuffles the deck of Item cards and
    flips over six cards")."""
    table = catacombs_3e(["izchak-the-merchant", "the-barracks"])
    deck = sorted(table.state.item_deck)
    table.edit("hero-varesh", gold=10)
    table.do(A.EnterRoom())
    assert len(table.state.market) == 6 and len(table.state.item_deck) == len(deck) - 6
    table.do(A.UseService("peek"))
    table.do(A.EnterRoom())
    assert table.state.market == () and sorted(table.state.item_deck) == deck


def test_a_hero_may_own_only_one_familiar() -> None:
    """catacombs-3e-reference.txt: Item Cards: Familiars ("A hero can only have one familiar item")."""
    table = catacombs_3e(["izchak-the-merchant", "the-barracks"], items={"varesh": ["spirit-familiar"]})
    table.edit("hero-varesh", gold=30)
    table.do(A.EnterRoom())
    while "raven-familiar" not in table.state.market:
        table.do(A.UseService("peek"))
    with pytest.raises(CardNotPlayableError, match="one familiar"):
        table.do(A.UseService("buy", target="hero-varesh", item="raven-familiar"))


def test_a_meal_at_the_inn_recruits_an_unused_hero_as_a_four_health_ally_for_ten_gold() -> None:
    """catacombs-3e-reference.txt: Amaranth Inn ("Pay ten gold coins to recruit an ally. Shuffle all unused
    Hero Portrait cards together"); Allies ("allies have a maximum health of four"; "Allies cannot buy or use
    Item cards")."""
    table = catacombs_3e(["amaranth-inn", "izchak-the-merchant", "the-barracks"])
    table.edit("hero-xoric", gold=9)
    table.do(A.EnterRoom())
    with pytest.raises(NotEnoughGoldError):
        table.do(A.UseService("meal", target="hero-xoric"))
    table.edit("hero-elani", gold=1)
    table.do(A.UseService("meal", target="hero-xoric"))
    while table.state.pending is not None:
        table.do(A.Decide(table.state.pending.id, table.state.pending.options[0].id))
    ally = next(c for c in table.state.characters if c.kind == "ally")
    assert ally.card in ("oleira", "marorg") and (ally.health, ally.max_health) == (4, 4)
    assert table.state.party_gold == 0 and table.state.treasury == 92 + 10
    table.edit("hero-xoric", gold=10)
    table.do(A.EnterRoom())
    item = next(i for i in table.state.market if i in ("healing-salve", "cloak-of-invisibility"))
    with pytest.raises(IllegalActionError, match="allies cannot use items"):
        table.do(A.UseService("buy", target=ally.id, item=item))


def test_a_tavern_bet_pays_two_coins_and_a_winning_coin_comes_from_the_treasury() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("a player must pay two gold coins"; "1 Hero piece: Gain 1
    gold coin from the Treasury")."""
    table = catacombs_3e(["alewife-tavern", "the-barracks"], seed=6)  # the bet's draw shows one Hero piece
    table.edit("hero-elani", gold=2)
    table.do(A.EnterRoom())
    table.do(A.UseService("bet", target="hero-elani"))
    assert table.state.treasury == 92 + 2 and gold(table, "hero-elani") == 0
    pending = table.state.pending
    assert pending is not None and [o.id for o in pending.options] == ["gain_gold"]
    table.do(A.Decide(pending.id, "gain_gold"))
    assert (gold(table, "hero-elani"), table.state.treasury) == (1, 92 + 1)
    with pytest.raises(NotEnoughGoldError):
        table.do(A.UseService("bet", target="hero-elani"))


def test_a_tavern_coin_won_by_an_ally_goes_to_its_hero() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("1 Hero piece: Gain 1 gold coin from the Treasury");
    Advanced Concepts: Allies ("Allies cannot earn gold as all gold transfers to the hero whom the ally was
    assigned to assist")."""
    table = catacombs_3e(["amaranth-inn", "alewife-tavern", "the-barracks"], seed=3)
    table.edit("hero-xoric", gold=40)
    table.do(A.EnterRoom())
    table.do(A.UseService("meal", target="hero-xoric"))
    while table.state.pending is not None:
        table.do(A.Decide(table.state.pending.id, table.state.pending.options[0].id))
    ally = next(c.id for c in table.state.characters if c.kind == "ally")
    table.do(A.EnterRoom())
    won = 0
    for _ in range(5):
        table.do(A.UseService("bet", target=ally))
        pending = table.state.pending
        if pending is not None:
            table.do(A.Decide(pending.id, "gain_gold"))
            won += 1
    assert won > 0
    assert gold(table, ally) == 0
    assert gold(table, "hero-xoric") == 40 - 10 - 5 * 2 + won


def test_a_tavern_reward_does_not_heal_a_dead_hero() -> None:
    """catacombs-3e-reference.txt: Alewife Tavern ("Gain 1 health point"); Hero Death (a dead hero returns in
    the next room, or by a resurrection); Healing Damage ("restore a damaged character's health")."""
    table = catacombs_3e(["alewife-tavern", "the-barracks"], seed=3)
    table.edit("hero-xoric", gold=20)
    table.edit("hero-elani", alive=False, health=0, returns_next_room=True)
    table.do(A.EnterRoom())
    healed = 0
    for _ in range(5):
        table.do(A.UseService("bet", target="hero-elani"))
        pending = table.state.pending
        if pending is not None and "gain_health" in {o.id for o in pending.options}:
            table.do(A.Decide(pending.id, "gain_health"))
            healed += 1
        elif pending is not None:
            table.do(A.Decide(pending.id, pending.options[-1].id))
    assert healed > 0
    elani = table.state.character("hero-elani")
    assert (elani.alive, elani.health) == (False, 0)
    table.enter_battle()
    assert table.health("hero-elani") == 7 // 2


# == the Lair and the end of the game ===============================================================


def test_in_the_lair_the_heroes_win_when_the_lord_falls_even_with_minions_standing() -> None:
    """catacombs-3e-reference.txt: Winning the Game: Heroes ("it is not necessary to destroy all the monsters
    (called minions). Only the Catacomb Lord itself must be destroyed to win"); Catacomb Lord's Lair."""
    table = catacombs_3e(["catacomb-lords-lair"], lord="vasesak-the-sorcerer")
    table.enter_battle()
    monsters = sorted(c.card for c in table.state.room_monsters)
    assert monsters == ["vasesak-the-sorcerer", "zombie", "zombie", "zombie", "zombie"]
    table.turn("hero-xoric", ("melee", "monster-zombie-1"))
    table.turn("hero-elani", ("melee", "monster-zombie-2"))
    assert table.state.phase == "battle"
    table.edit("lord-vasesak", health=1)
    table.turn("hero-roosan", ("rush",), ("melee", "lord-vasesak"))
    assert table.state.outcome == "heroes" and table.state.phase == "game_over"
    assert table.state.public_view()["outcome"] == "heroes"
    with pytest.raises(GameOverError):
        table.declare("hero-varesh")
    assert gold(table, "hero-xoric") == 0  # no Resolution Phase after the final battle


def test_a_dead_hero_returns_for_the_final_battle_under_the_basic_rule() -> None:
    """catacombs-3e-reference.txt: Hero Death ("automatically returns to life in the Setup Phase of the next
    room"); Catacomb Lord's Lair."""
    table = catacombs_3e(["rat-nest", "catacomb-lords-lair"])
    table.enter_battle()
    clear_all_but(table, "monster-sewer-rat-1")
    table.edit("hero-varesh", health=1)
    table.side_passes()
    table.turn("monster-sewer-rat-1", ("melee", "hero-varesh"))
    table.turn("hero-xoric", ("melee", "monster-sewer-rat-1"))
    table.do(A.EnterRoom())
    assert table.state.character("hero-varesh").alive and table.health("hero-varesh") == 4


def test_the_overseer_wins_when_the_last_hero_falls_even_under_the_basic_death_rule() -> None:
    """catacombs-3e-reference.txt: Winning the Game: Overseer ("If at any time during any Battle Phase, all
    four heroes are killed and/or unable to take an action ... the Overseer wins")."""
    table = catacombs_3e(["rat-nest", "zothas-gatehouse"])
    table.enter_battle()
    for hero in ("hero-xoric", "hero-varesh", "hero-roosan"):
        table.edit(hero, alive=False, health=0, returns_next_room=True)
    table.edit("hero-elani", health=1)
    table.side_passes()
    table.turn("monster-sewer-rat-1", ("melee", "hero-elani"))
    assert table.state.outcome == "overseer" and table.state.phase == "game_over"
    with pytest.raises(GameOverError):
        table.do(A.EnterRoom())


def test_the_overseer_wins_when_no_hero_can_take_an_action_frozen_or_devoured() -> None:
    """catacombs-3e-reference.txt: Winning the Game: Overseer ("all four heroes are killed and/or unable to
    take an action (example: trapped on the Devoured! card)"); Ice Shot ("While frozen, a character cannot
    take any actions")."""
    yeti = MonsterCard("yeti", "Yeti", 2, "mythological", 2, 2, (seq("ice"),), pieces=1)
    table = catacombs_3e(
        ["yeti-cave"], content=with_cards(monsters=[yeti], rooms=[room_of("yeti-cave", ("yeti", 1))])
    )
    table.enter_battle()
    table.edit("hero-xoric", alive=False, health=0)
    table.edit("hero-varesh", status=("devoured",))
    table.edit("hero-roosan", status=("frozen",))
    table.side_passes()
    assert table.state.outcome is None
    table.turn("monster-yeti-1", ("ice", "hero-elani"))
    assert table.state.outcome == "overseer" and table.state.phase == "game_over"


def test_an_antient_acts_once_in_each_sides_part_of_the_round() -> None:
    """catacombs-3e-reference.txt: Advanced Concepts: Antients ("Once that player's turn is over, the Antient
    card is passed to the Overseer. Control of the Antient passes back and forth")."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["vaiels-urn"]})
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    table.shot("hero-elani", "melee", "monster-orc-1")  # the Antient's first melee
    table.shot("hero-elani", "melee", "monster-orc-2")  # then its own sequence
    assert table.state.turn is None
    antient = "antient-liquid-antient"
    assert antient not in [c.id for c in table.rules.actors(table.state)]  # it acted with Elani
    table.side_passes()
    assert table.state.side == "overseer" and antient in [c.id for c in table.rules.actors(table.state)]
    table.turn(antient, ("melee", "hero-xoric"))
    assert table.health("hero-xoric") == 8
    table.side_passes()
    assert table.state.side == "heroes" and antient in [c.id for c in table.rules.actors(table.state)]


# == the game log ==================================================================================

LOG_SETUP = {
    "ruleset": "catacombs-3e",
    "content": "sample",
    "heroes": ["xoric", "varesh", "roosan", "elani"],
    "lord": "hmotha-the-lich-lord",
    "rooms": ["rat-nest", "althea-the-healer", "zothas-gatehouse"],
    "seed": 7,
    "spells": {"varesh": ["heal"]},
}


class RecordedTable(RulesScript):
    """A table whose every action is also written to a game log, as the daemon does."""

    def __init__(self) -> None:
        self.log = LogWriter()
        self.log.setup(LOG_SETUP)
        super().__init__(LOG_SETUP)  # the sample cards, as the log's replay loads them

    def do(self, action: A.Action | str, *args: Any, **fields: Any) -> list[Event]:
        events = super().do(action, *args, **fields)
        self.log.action(self.actions[-1])
        return events


def play_rat_nest_and_althea() -> RecordedTable:
    table = RecordedTable()
    table.enter_battle()
    table.turn("hero-xoric", ("melee", "monster-sewer-rat-1"))
    table.side_passes()
    table.turn("monster-sewer-rat-2", ("melee", "hero-elani"))  # poison melee: one Poison card
    table.side_passes()
    table.turn("hero-elani", ("melee", "monster-sewer-rat-2", "monster-sewer-rat-3"))
    assert table.state.phase == "resolution"
    table.do(A.EnterRoom())
    table.do(A.UseService("free_cure", target="hero-elani"))
    table.do(A.Decide(table.state.pending.id, "0"))  # type: ignore[union-attr]
    table.do(A.UseService("heal", target="hero-elani"))
    return table


def test_a_game_log_replays_to_the_very_state_of_the_table() -> None:
    """docs/game-log.md ("the same log always gives the same game"); catacombs-3e-reference.txt: The
    Resolution Phase; Althea The Healer."""
    table = play_rat_nest_and_althea()
    elani = table.state.character("hero-elani")
    assert (elani.health, elani.poison, elani.gold) == (7, (), 2 * (1 + 1) - 3)
    result = replay(table.log.records)
    assert result.rejected == [] and result.applied == len(table.log.records) - 1
    assert result.state.to_json() == table.state.to_json()
    assert GameState.from_json(result.state.to_json()) == table.state


def test_smartmat_replay_json_prints_the_public_state_with_the_last_seq(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/game-log.md (``--json`` prints the public state plus ``seq`` and ``rejected``, and the
    ``referee`` block and ``context_differences``: docs/positions.md); docs/state.md."""
    table = play_rat_nest_and_althea()
    table.log.action(A.UseService("resurrect", target="hero-elani"))  # she lives: refused on replay
    path = tmp_path / "game.jsonl"
    path.write_text(table.log.lines())
    assert main(["replay", str(path), "--json"]) == 0
    view = json.loads(capsys.readouterr().out)
    expected = json.loads(json.dumps(table.state.public_view()))
    added = ("seq", "rejected", "referee", "context_differences")
    assert {k: v for k, v in view.items() if k not in added} == expected
    assert view["context_differences"] == [] and view["referee"]["decks"] == "digital"
    last = len(table.log.records)
    assert view["seq"] == last
    assert [r["seq"] for r in view["rejected"]] == [last]
    assert "Althea" in view["rejected"][0]["error"]


def test_undoing_an_earlier_record_replays_the_later_ones_on_top() -> None:
    """docs/game-log.md ("``{"seq": 12}`` undoes that action record"; "Undo and corrections never rewrite
    earlier lines")."""
    log = LogWriter()
    log.setup({**LOG_SETUP, "rooms": ["the-barracks"]})
    log.action(A.EnterRoom())
    log.action(A.StartBattle())
    log.action(A.DeclareAction("hero-xoric"))
    hit = log.action(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-1",)))
    log.action(A.EndTurn("hero-xoric"))
    log.action(A.DeclareAction("hero-elani"))
    log.action(A.ResolveShot("hero-elani", "melee", direct_hits=("monster-orc-2",)))
    lines = [r.to_line() for r in log.records]
    log.undo(hit.seq)
    assert [r.to_line() for r in log.records[:-1]] == lines
    result = replay(log.records)
    assert result.rejected == []
    state = result.state
    assert state.character("monster-orc-1").alive and not state.character("monster-orc-2").alive
    assert state.acted == ("hero-xoric",) and state.turn is not None  # Elani's rush is still to come


def test_a_struck_out_record_and_a_gold_correction_are_folded_in_on_replay() -> None:
    """docs/game-log.md (``{"replaces": 12, "action": null}`` strikes record 12 out; ``set_gold``: "the
    difference moves to/from the Treasury")."""
    log = LogWriter()
    log.setup({**LOG_SETUP, "rooms": ["the-barracks"]})
    log.action(A.EnterRoom())
    log.action(A.StartBattle())
    log.action(A.DeclareAction("hero-xoric"))
    hit = log.action(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-1",)))
    log.correction(None, replaces=hit.seq)
    log.correction(A.SetGold("hero-roosan", 5, "a coin count"))
    state = replay(log.records).state
    assert state.character("monster-orc-1").alive
    assert state.expected_shot()["shot"] == "melee"  # type: ignore[index]
    assert (state.character("hero-roosan").gold, state.treasury) == (5, 92 - 5)
    log.correction(A.SetGold("hero-roosan", 2, "recounted"))
    state = replay(log.records).state
    assert (state.character("hero-roosan").gold, state.treasury) == (2, 92 - 2)


def test_a_setup_naming_a_layout_replays_the_same_room_deck() -> None:
    """docs/game-log.md ("``layout`` may give ... a list of slots ... dealt from the seed"); catacombs-3e-
    reference.txt: Addendum: Alternate Room Card Layouts."""
    slots = ["difficulty_0", "special", "difficulty_1", "lair"]
    setup = {k: v for k, v in LOG_SETUP.items() if k != "rooms"} | {"layout": slots, "seed": 99}
    log = LogWriter()
    log.setup(setup)
    first = replay(log.records).state.room_deck
    assert first == deal_room_deck(sample.sample_content(), slots, 99)
    assert replay(log.records).state.room_deck == first
