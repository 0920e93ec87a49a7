"""A battle room played turn by turn: catacombs-3e-reference.txt, Battle Phase."""

from __future__ import annotations

import pytest

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex, HeroCard, QuadrantEntry, RoomCard
from service.games.catacombs.flow.state import GameState
from service.games.catacombs.third_edition.ruleset import Catacombs3E
from service.rules import IllegalActionError
from service.rules.errors import (
    CharacterCannotActError,
    DecisionPendingError,
    NotYourTurnError,
    UnexpectedShotError,
    UnknownCharacterError,
)
from tests.helpers import sample_content as sample
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript
from tests.helpers.sample_content import seq

HEROES = ("hero-xoric", "hero-varesh", "hero-roosan", "hero-elani")


def test_the_barracks_setup_places_four_orcs_a_troll_and_a_pit_viper() -> None:
    """catacombs-3e-reference.txt: Room Cards: Specific Monster icons (the Barracks example)."""
    table = catacombs_3e(["the-barracks"])
    table.do(A.EnterRoom())
    placed = sorted(c.card for c in table.state.room_monsters)
    assert placed == ["orc", "orc", "orc", "orc", "pit-viper", "troll"]
    assert table.state.phase == "setup"
    table.do(A.StartBattle())
    view = table.state.public_view()
    assert (view["phase"], view["round"], view["turn"]["side"]) == ("battle", 1, "heroes")
    assert view["room"] == {
        "index": 0,
        "id": "the-barracks",
        "name": "The Barracks",
        "kind": "battle",
        "suppresses": [],
    }


def test_mercenary_icons_take_the_lords_mercenary_monster() -> None:
    """catacombs-3e-reference.txt: Room Cards: Mercenary Monster icons (Hmotha's mercenary is a Zombie)."""
    table = catacombs_3e(["zothas-gatehouse"], lord="hmotha-the-lich-lord")
    table.do(A.EnterRoom())
    assert sorted(c.card for c in table.state.room_monsters) == [
        "fire-spirit",
        "skeleton-warrior",
        "zombie",
        "zombie",
        "zombie",
    ]
    table = catacombs_3e(["zothas-gatehouse"], lord="vasesak-the-sorcerer")
    table.do(A.EnterRoom())
    assert sorted(c.card for c in table.state.room_monsters).count("skeleton-warrior") == 2


def test_melee_ricochet_damages_every_monster_hit_directly(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Battle Phase: Taking Damage (a ricochet off a Troll)."""
    barracks.declare("hero-xoric")
    assert barracks.state.expected_shot() == {
        "character": "hero-xoric",
        "actor": "hero-xoric",
        "piece": "hero-xoric",
        "shot": "melee",
        "modifier": None,
        "ranged": False,
        "index": 0,
        "optional": True,
        "suppressed": False,
        "any_of": None,
    }
    barracks.shot("hero-xoric", "melee", "monster-troll-1", "monster-orc-1")
    assert barracks.health("monster-troll-1") == 1
    assert barracks.state.character("monster-troll-1").flipped
    assert not barracks.state.character("monster-orc-1").alive
    assert "Xoric the Barbarian's melee hits Troll 1 (1 damage)" in barracks.texts()


def test_pushed_pieces_take_no_damage(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Battle Phase: Taking Damage (pushed into a Zombie)."""
    barracks.declare("hero-xoric")
    barracks.do(
        A.ResolveShot(
            "hero-xoric", "melee", direct_hits=("monster-troll-1",), pushed_off_mat=("monster-orc-2",)
        )
    )
    assert barracks.health("monster-orc-2") == 1


def test_no_friendly_fire(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Battle Phase: Taking Damage: There is no "friendly fire"."""
    barracks.declare("hero-xoric")
    barracks.shot("hero-xoric", "melee", "hero-varesh", "hero-elani")
    assert barracks.health("hero-varesh") == 8 and barracks.health("hero-elani") == 7
    assert any("no friendly fire" in t for t in barracks.texts())


def test_rush_inflicts_no_damage(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Character Shots (rush: no damage is inflicted)."""
    barracks.declare("hero-roosan")
    barracks.shot("hero-roosan", "rush", "monster-orc-1")
    assert barracks.health("monster-orc-1") == 1


def test_then_sequence_in_printed_order_and_skipped_shots_are_forfeited(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors; RULINGS.md 2 (Then: printed order)."""
    barracks.declare("hero-roosan")  # rush, then melee, then rush, then rush
    with pytest.raises(UnexpectedShotError):
        barracks.shot("hero-roosan", "melee", "monster-orc-1")
    barracks.do(A.SkipShot("hero-roosan"))
    barracks.shot("hero-roosan", "melee", "monster-orc-1")
    assert barracks.state.expected_shot()["shot"] == "rush"  # type: ignore[index]
    barracks.do(A.EndTurn("hero-roosan"))
    assert barracks.state.turn is None and "hero-roosan" in barracks.state.acted


def test_or_alternative_is_declared_before_shooting(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (the Orc: melee Or missile)."""
    for hero in HEROES:
        barracks.pass_turn(hero)
    assert barracks.state.side == "overseer"
    barracks.declare("monster-orc-2")
    pending = barracks.state.pending
    assert pending is not None and pending.kind == "choose_alternative"
    assert [o.label for o in pending.options] == ["melee", "missile"]
    with pytest.raises(DecisionPendingError):
        barracks.shot("monster-orc-2", "melee", "hero-xoric")
    barracks.do(A.Decide(pending.id, "1"))
    assert barracks.state.expected_shot()["ranged"] is True  # type: ignore[index]
    assert barracks.state.expected_shot()["piece"] == "ranged-missile"  # type: ignore[index]
    barracks.shot("monster-orc-2", "missile", "hero-xoric")
    assert barracks.health("hero-xoric") == 8


def test_heroes_in_any_order_then_each_monster_then_a_new_round(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Battle Phase: Turn Order."""
    with pytest.raises(NotYourTurnError):
        barracks.declare("monster-orc-1", 0)
    for hero in ("hero-elani", "hero-xoric", "hero-varesh"):
        barracks.pass_turn(hero)
    with pytest.raises(CharacterCannotActError):
        barracks.declare("hero-elani")
    barracks.pass_turn("hero-roosan")
    assert barracks.state.side == "overseer"
    with pytest.raises(NotYourTurnError):
        barracks.declare("hero-xoric")
    monsters = [c.id for c in barracks.state.room_monsters]
    for m in reversed(monsters):
        barracks.pass_turn(m)
    assert (barracks.state.round, barracks.state.side, barracks.state.acted) == (2, "heroes", ())


def test_monster_melee_damages_a_hero_and_regeneration_flips_the_troll_back(barracks: RulesScript) -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration Shot Modifier (the Troll example)."""
    barracks.turn("hero-xoric", ("melee", "monster-troll-1"))
    assert barracks.state.character("monster-troll-1").flipped
    for hero in HEROES[1:]:
        barracks.pass_turn(hero)
    barracks.declare("monster-troll-1")
    barracks.shot("monster-troll-1", "melee", "hero-elani")
    assert barracks.health("hero-elani") == 6
    troll = barracks.state.character("monster-troll-1")
    assert troll.health == 2 and not troll.flipped
    assert "Troll 1 is flipped back to its normal side" in barracks.texts()


def test_regeneration_never_exceeds_starting_health(barracks: RulesScript) -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration ("can never exceed their maximum starting health")."""
    for hero in HEROES:
        barracks.pass_turn(hero)
    barracks.turn("monster-troll-1", ("melee", "hero-elani", "hero-xoric"))
    assert barracks.health("monster-troll-1") == 2


def test_monsters_cannot_damage_each_other(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Taking Damage ("Monsters and Catacomb Lords cannot damage each other")."""
    for hero in HEROES:
        barracks.pass_turn(hero)
    barracks.turn("monster-troll-1", ("melee", "monster-orc-1"))
    assert barracks.health("monster-orc-1") == 1


def test_fireball_and_missile_damage(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Ranged Shots; RULINGS.md 1 (missile 1, fireball 1)."""
    barracks.declare("hero-varesh")  # rush, then missile
    barracks.do(A.SkipShot("hero-varesh"))
    barracks.shot("hero-varesh", "missile", "monster-troll-1")
    assert barracks.health("monster-troll-1") == 1


def test_room_cleared_and_gold_at_resolution() -> None:
    """catacombs-3e-reference.txt: Game Phases: The Resolution Phase; Elani earns one extra gold per kill."""
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.turn("hero-xoric", ("melee", "monster-orc-1", "monster-orc-2", "monster-troll-1"))
    table.turn("hero-elani", ("melee", "monster-orc-3", "monster-orc-4", "monster-pit-viper-1"))
    assert table.state.phase == "battle"
    table.turn("hero-roosan", ("rush",), ("melee", "monster-troll-1"))
    assert table.state.phase == "resolution"
    assert any(t == "The Barracks is cleared" for t in table.texts())
    gold = {h.id: h.gold for h in table.state.heroes}
    # Elani: two Orcs (1 each) and the Pit Viper (2), plus one extra coin for each of the three.
    assert gold == {"hero-xoric": 2, "hero-elani": 1 + 1 + 2 + 3, "hero-roosan": 2, "hero-varesh": 0}
    assert table.state.public_view()["gold"] == {"party": 11, "treasury": 92 - 11}


def test_wizard_collects_four_gold_for_two_skeleton_warriors_and_a_minotaur() -> None:
    """catacombs-3e-reference.txt: Game Phases: The Resolution Phase (the Wizard's four gold example)."""
    wizard = HeroCard("varesh", "Varesh the Wizard", 8, (seq("melee", "melee", "melee"),))
    room = RoomCard(
        "crypt",
        "Crypt",
        "battle",
        0,
        (),
        {
            1: (QuadrantEntry("specific", 2, "skeleton-warrior"),),
            2: (QuadrantEntry("specific", 1, "minotaur"),),
        },
    )
    others = tuple(h for h in sample.HEROES if h.id != "varesh")
    rules = Catacombs3E(
        CardIndex((wizard, *others), sample.MONSTERS, (room,), sample.LORDS, sample.POISON_DECK)
    )
    state = rules.new_game(("xoric", "varesh", "roosan", "elani"), "hmotha-the-lich-lord", ["crypt"], 1)
    for action in (
        A.EnterRoom(),
        A.StartBattle(),
        A.DeclareAction("hero-varesh"),
        A.ResolveShot("hero-varesh", "melee", ("monster-skeleton-warrior-1", "monster-minotaur-1")),
        A.ResolveShot("hero-varesh", "melee", ("monster-skeleton-warrior-2",)),
        A.ResolveShot("hero-varesh", "melee", ("monster-minotaur-1",)),
    ):
        state, _ = rules.apply(state, action)
    assert state.phase == "resolution"
    assert state.character("hero-varesh").gold == 4


def test_a_dead_character_or_stranger_cannot_act(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Battle Phase: Turn Order."""
    with pytest.raises(UnknownCharacterError):
        barracks.declare("hero-nobody")
    barracks.turn("hero-xoric", ("melee", "monster-orc-1"))
    for hero in HEROES[1:]:
        barracks.pass_turn(hero)
    with pytest.raises(CharacterCannotActError):
        barracks.declare("monster-orc-1", 0)


def test_an_illegal_action_changes_nothing(barracks: RulesScript) -> None:
    """python-chess style: apply refuses, the state is untouched."""
    before = barracks.state.to_json()
    with pytest.raises(IllegalActionError) as info:
        barracks.shot("hero-xoric", "melee", "monster-orc-1")
    assert "catacombs-3e-reference.txt: Battle Phase: Turn Order" in str(info.value)
    assert barracks.state.to_json() == before


def test_state_round_trips_through_its_canonical_json(barracks: RulesScript) -> None:
    barracks.declare("hero-xoric")
    barracks.shot("hero-xoric", "melee", "monster-troll-1")
    text = barracks.state.to_json()
    assert GameState.from_json(text) == barracks.state
    assert GameState.from_json(text).to_json() == text


def test_the_choices_offered_are_exactly_legal_ones(barracks: RulesScript) -> None:
    """catacombs-3e-reference.txt: Battle Phase: Turn Order (any hero may go first)."""
    choices = barracks.rules.choices(barracks.state)
    declared = sorted(a.character for a in choices if isinstance(a, A.DeclareAction))
    assert declared == sorted(HEROES)
    assert all(barracks.rules.is_legal(barracks.state, a) for a in choices)
    barracks.side_passes()
    barracks.declare("monster-orc-1")
    options = barracks.rules.choices(barracks.state)
    assert options == [A.Decide("d1", "0"), A.Decide("d1", "1")]
