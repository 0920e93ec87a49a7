"""Cards audit: every Item, Spell and Ability card the shipped content gives the heroes, played through the
engine's public actions with the shipped card data (content/catacombs-3e/items.yaml, spells.yaml,
abilities.yaml, heroes.yaml).

Each scenario is read from the card text in the content file and the rulebook section it cites
(catacombs-3e-reference.txt unless another file is named). Where a card's frequency is not printed in any
source the content adapter reads it as once per game, the most limiting reading (docs/content.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from service.games.catacombs.adapter import rules_content
from service.games.catacombs.content import load_content
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex
from service.rules.errors import (
    CardNotPlayableError,
    IllegalActionError,
    NotYourTurnError,
)
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript

PARTY = ("xoric", "varesh", "roosan", "elani")
ELF_PARTY = ("xoric", "varesh", "oleira", "elani")
ALL_SPELLS = (
    "drain-energy",
    "teleport-hero",
    "magic-gate",
    "cure-poison",
    "heal",
    "magic-missile",
    "fireball",
    "giant-fireball",
    "ice-blast",
    "shield",
)


@pytest.fixture(scope="module")
def shipped() -> CardIndex:
    return rules_content(load_content("catacombs-3e", None))


def table(
    shipped: CardIndex,
    rooms: Sequence[str] = ("the-barracks", "zothas-gatehouse"),
    heroes: Sequence[str] = PARTY,
    items: dict[str, Sequence[str]] | None = None,
    spells: dict[str, Sequence[str]] | None = None,
) -> RulesScript:
    """A game of the shipped cards in the Battle Phase of its first room (The Barracks: four Orcs, a Pit
    Viper and a Troll)."""
    t = catacombs_3e(rooms, heroes=heroes, content=shipped, items=items, spells=spells)
    t.do(A.EnterRoom())
    while t.state.pending is not None:
        t.do(A.Decide(t.state.pending.id, t.state.pending.options[0].id))
    t.do(A.StartBattle())
    return t


def decide(t: RulesScript, option: str, kind: str | None = None) -> None:
    pending = t.state.pending
    assert pending is not None, "a decision was expected"
    if kind is not None:
        assert pending.kind == kind, pending
    t.do(A.Decide(pending.id, option))


def expected(t: RulesScript) -> dict[str, Any]:
    shot = t.state.expected_shot()
    assert shot is not None, "a shot was expected"
    return shot


def clear_room(t: RulesScript) -> None:
    """The referee takes every monster off the playmat, then the next hero's turn completes the room."""
    for monster in [c.id for c in t.state.room_monsters if c.alive]:
        t.edit(monster, alive=False, health=0)


def next_room(t: RulesScript) -> None:
    clear_room(t)
    hero = [c.id for c in t.rules.actors(t.state)][0]
    t.declare(hero, 0)
    t.shot(hero, expected(t)["shot"])
    assert t.state.phase == "resolution"
    t.do(A.EnterRoom())
    while t.state.pending is not None:
        t.do(A.Decide(t.state.pending.id, t.state.pending.options[0].id))
    t.do(A.StartBattle())


def next_round(t: RulesScript) -> None:
    t.side_passes()
    t.side_passes()


def shots_of_turn(t: RulesScript) -> list[str]:
    turn = t.state.turn
    assert turn is not None
    return [p.shot.kind for p in turn.queue]


# == Item cards: frequency ===============================================================================


def test_two_berserker_battle_axes_give_two_uses_in_the_game_and_no_third(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Item Cards: Frequency Conditions ("Once Per Game: ... discarded and
    removed from the game"); The Hero Players (Xoric may begin with two Berserker Battle Axe items). The axe's
    frequency is not in any source, so the shipped card is played once per game."""
    t = table(shipped, items={"xoric": ["berserker-battle-axe", "berserker-battle-axe"]})
    t.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))
    assert shots_of_turn(t) == ["melee"] * 4
    t.do(A.EndTurn("hero-xoric"))
    assert t.state.character("hero-xoric").items == ("berserker-battle-axe",)
    next_round(t)
    t.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))
    t.do(A.EndTurn("hero-xoric"))
    next_round(t)
    with pytest.raises(CardNotPlayableError):
        t.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))
    next_room(t)
    assert t.state.character("hero-xoric").items == ()


def test_the_axes_chain_blows_never_damage_the_same_orc_twice_in_a_row(shipped: CardIndex) -> None:
    """catacombs-3e-shot-modifiers.txt: Chain Shot ("If the same target is hit consecutively, damage that
    would have been inflicted by the additional hit(s) is ignored"); items.yaml: Berserker Battle Axe ("Four
    melee shots that cannot damage the same target consecutively")."""
    t = table(shipped, items={"xoric": ["berserker-battle-axe"]})
    t.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))
    t.shot("hero-xoric", "melee", "monster-troll-1")
    t.shot("hero-xoric", "melee", "monster-troll-1")
    assert t.health("monster-troll-1") == 1
    t.shot("hero-xoric", "melee", "monster-orc-1")
    t.shot("hero-xoric", "melee", "monster-troll-1")
    assert not t.state.character("monster-troll-1").alive
    assert not t.state.character("monster-orc-1").alive
    assert t.state.turn is None


def test_an_item_of_unknown_effect_is_used_up_when_played(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Item Cards: Frequency Conditions (the Helm of Rage's frequency is not
    known: the most limiting reading, once per game); Playing Spell, Ability, or Item Cards (a card is the
    hero's whole turn)."""
    t = table(shipped, items={"xoric": ["helm-of-rage"]})
    t.do(A.PlayCard("hero-xoric", "helm-of-rage"))
    assert t.state.turn is None and "hero-xoric" in t.state.acted
    assert t.state.character("hero-xoric").items == ()


# == Item cards: combo items ==============================================================================


def test_the_throwing_axe_follows_a_played_item_card(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Combo Items ("he can perform the shot sequence listed on his Hero Rules
    card or play an Ability, Spell or Item card and then immediately play the Throwing Axe Combo Item
    card")."""
    t = table(shipped, items={"xoric": ["berserker-battle-axe", "throwing-axe"]})
    t.do(A.PlayCard("hero-xoric", "berserker-battle-axe"))
    for target in ("monster-orc-1", "monster-orc-2", "monster-orc-3", "monster-orc-4"):
        t.shot("hero-xoric", "melee", target)
    assert t.state.turn is not None and t.state.turn.stage == "await_post"
    t.do(A.PlayCard("hero-xoric", "throwing-axe"))
    assert expected(t)["shot"] == "missile"
    t.shot("hero-xoric", "missile", "monster-pit-viper-1")
    assert not t.state.character("monster-pit-viper-1").alive
    assert t.state.turn is None and t.state.character("hero-xoric").items == ()


def test_the_throwing_axe_follows_a_spell(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Combo Items (a post-Combo item after "an Ability, Spell or Item card")."""
    t = table(shipped, items={"varesh": ["throwing-axe"]}, spells={"varesh": ["magic-missile"]})
    t.do(A.PlayCard("hero-varesh", "magic-missile"))
    t.shot("hero-varesh", "missile", "monster-orc-1")
    t.shot("hero-varesh", "missile", "monster-orc-2")
    assert t.state.turn is not None and t.state.turn.stage == "await_post"
    t.do(A.PlayCard("hero-varesh", "throwing-axe"))
    t.shot("hero-varesh", "missile", "monster-orc-3")
    assert [t.state.character(f"monster-orc-{i}").alive for i in (1, 2, 3, 4)] == [False, False, False, True]


def test_a_post_combo_item_is_not_a_turn_of_its_own(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Combo Items ("played either immediately before (a pre-Combo item) or
    immediately after (a post-Combo item) the hero's normal turn")."""
    t = table(shipped, items={"xoric": ["throwing-axe"]})
    with pytest.raises((NotYourTurnError, CardNotPlayableError, IllegalActionError)):
        t.do(A.PlayCard("hero-xoric", "throwing-axe"))
    assert t.state.character("hero-xoric").items == ("throwing-axe",)


def test_the_potion_then_a_spell_with_its_rush(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Combo Items (Raisthrim's Potion: "first perform an ice shot and then
    immediately ... play another Ability, Item or Spell card"); Spell Cards ("A player may perform one rush
    shot before casting a spell")."""
    t = table(shipped, items={"varesh": ["raisthrims-potion"]}, spells={"varesh": ["giant-fireball"]})
    t.do(A.PlayCard("hero-varesh", "raisthrims-potion"))
    t.shot("hero-varesh", "ice", "monster-troll-1")
    assert t.status("monster-troll-1") == ("frozen",)
    t.do(A.PlayCard("hero-varesh", "giant-fireball", rush_first=True))
    assert shots_of_turn(t) == ["rush", "giant_fireball"]
    t.shot("hero-varesh", "rush")
    t.shot("hero-varesh", "giant_fireball", "monster-orc-1", "monster-pit-viper-1")
    assert not t.state.character("monster-orc-1").alive
    assert t.state.turn is None


def test_the_potion_then_an_ability_card(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Combo Items (after the pre-Combo item, "play another Ability, Item or Spell
    card"); abilities.yaml: Elven Arrow."""
    t = table(shipped, heroes=ELF_PARTY, items={"oleira": ["raisthrims-potion"]})
    t.do(A.PlayCard("hero-oleira", "raisthrims-potion"))
    t.shot("hero-oleira", "ice", "monster-troll-1")
    t.do(A.PlayCard("hero-oleira", "elven-arrow"))
    t.shot("hero-oleira", "missile", "monster-orc-1")
    assert not t.state.character("monster-orc-1").alive
    assert t.state.turn is None
    assert t.state.character("hero-oleira").face_down == ("ability:elven-arrow",)


def test_after_the_potion_no_second_combo_item_is_played(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Combo Items ("Only one Combo Item card may be played per turn either
    before or after the hero's action")."""
    t = table(shipped, items={"elani": ["raisthrims-potion", "throwing-axe"]})
    t.do(A.PlayCard("hero-elani", "raisthrims-potion"))
    t.shot("hero-elani", "ice", "monster-troll-1")
    with pytest.raises((NotYourTurnError, CardNotPlayableError)):
        t.do(A.PlayCard("hero-elani", "throwing-axe"))
    t.declare("hero-elani")
    t.shot("hero-elani", "melee", "monster-orc-1")
    t.shot("hero-elani", "rush")
    assert t.state.turn is None
    assert t.state.character("hero-elani").items == ("throwing-axe",)


def test_a_stunned_hero_drinks_no_potion(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Item Cards ("Items cannot be used when a hero is stunned unless the item is
    a familiar")."""
    t = table(shipped, items={"elani": ["raisthrims-potion"]})
    t.edit("hero-elani", status=("stunned",))
    with pytest.raises(CardNotPlayableError, match="stunned"):
        t.do(A.PlayCard("hero-elani", "raisthrims-potion"))
    assert t.state.character("hero-elani").items == ("raisthrims-potion",)


def test_a_teleported_hero_returns_with_one_melee_then_the_throwing_axe(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Teleport Shots ("performs a single melee shot. This melee shot can be
    followed with a post-Combo item, if desired"); spells.yaml: Teleport Hero."""
    t = table(shipped, items={"varesh": ["throwing-axe"]}, spells={"varesh": ["teleport-hero"]})
    t.do(A.PlayCard("hero-varesh", "teleport-hero"))
    t.shot("hero-varesh", "teleport")
    assert t.status("hero-varesh") == ("teleported",)
    assert t.state.turn is None  # the Throwing Axe follows the returning melee, not the teleport
    next_round(t)
    t.declare("hero-varesh")
    assert shots_of_turn(t) == ["melee"]
    t.shot("hero-varesh", "melee", "monster-orc-1")
    assert t.state.turn is not None and t.state.turn.stage == "await_post"
    t.do(A.PlayCard("hero-varesh", "throwing-axe"))
    t.shot("hero-varesh", "missile", "monster-orc-2")
    assert t.status("hero-varesh") == ()
    assert not t.state.character("monster-orc-2").alive


# == Spell cards ==========================================================================================


@pytest.mark.parametrize(
    ("spell", "shots"),
    [
        ("drain-energy", ["missile"]),
        ("teleport-hero", ["teleport"]),
        ("magic-gate", ["open_portal"]),
        ("magic-missile", ["missile", "missile"]),
        ("fireball", ["fireball"]),
        ("giant-fireball", ["giant_fireball"]),
        ("ice-blast", ["ice"]),
        ("shield", ["shield"]),
    ],
)
def test_each_spell_gives_its_printed_shots_once_in_the_game(
    shipped: CardIndex, spell: str, shots: list[str]
) -> None:
    """catacombs-3e-reference.txt: Spell Cards ("A Spell card can only be played once per game and once used
    is discarded permanently"); spells.yaml: each spell's shot sequence."""
    t = table(shipped, spells={"varesh": ALL_SPELLS})
    t.do(A.PlayCard("hero-varesh", spell, kind="spell"))
    assert shots_of_turn(t) == shots
    assert spell not in t.state.character("hero-varesh").spells
    assert len(t.state.character("hero-varesh").spells) == len(ALL_SPELLS) - 1
    t.do(A.EndTurn("hero-varesh"))
    next_room(t)
    with pytest.raises(CardNotPlayableError):
        t.do(A.PlayCard("hero-varesh", spell, kind="spell"))


def test_a_spell_may_follow_one_rush_but_not_two(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Spell Cards ("A player may perform one rush shot before casting a
    spell")."""
    t = table(shipped, spells={"varesh": ["magic-missile"]})
    t.do(A.PlayCard("hero-varesh", "magic-missile", rush_first=True))
    assert shots_of_turn(t) == ["rush", "missile", "missile"]


def test_the_wizards_fireball_spell_and_fireball_ability_are_separate_cards(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Spell Cards (once per game); Ability Cards (once per room, refreshed in the
    next Setup Phase); abilities.yaml and spells.yaml both hold a Fireball for Varesh."""
    t = table(shipped, spells={"varesh": ["fireball"]})
    with pytest.raises(CardNotPlayableError, match="say which kind"):
        t.do(A.PlayCard("hero-varesh", "fireball"))
    t.do(A.PlayCard("hero-varesh", "fireball", kind="ability"))
    t.shot("hero-varesh", "fireball", "monster-orc-1")
    varesh = t.state.character("hero-varesh")
    assert varesh.spells == ("fireball",) and varesh.face_down == ("ability:fireball",)
    next_round(t)
    with pytest.raises(CardNotPlayableError):
        t.do(A.PlayCard("hero-varesh", "fireball", kind="ability"))
    t.do(A.PlayCard("hero-varesh", "fireball", kind="spell"))
    t.shot("hero-varesh", "fireball", "monster-orc-2")
    assert t.state.character("hero-varesh").spells == ()
    next_room(t)
    varesh = t.state.character("hero-varesh")
    assert varesh.face_down == () and varesh.abilities == ("fireball",) and varesh.spells == ()


def test_drain_energy_heals_nothing_above_starting_health(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Regeneration Shot Modifier; Healing Damage (health never exceeds the
    starting health)."""
    t = table(shipped, spells={"varesh": ["drain-energy"]})
    t.do(A.PlayCard("hero-varesh", "drain-energy"))
    t.shot("hero-varesh", "missile", "monster-orc-1")
    assert not t.state.character("monster-orc-1").alive
    assert t.health("hero-varesh") == 8


def test_drain_energy_that_damages_nothing_restores_nothing(shipped: CardIndex) -> None:
    """catacombs-3e-shot-modifiers.txt: Regeneration ("If the shot damages a character, the attacker regains
    one health"): a miss restores nothing."""
    t = table(shipped, spells={"varesh": ["drain-energy"]})
    t.edit("hero-varesh", health=3)
    t.do(A.PlayCard("hero-varesh", "drain-energy"))
    t.shot("hero-varesh", "missile")
    assert t.health("hero-varesh") == 3


def test_the_giant_fireball_spell_takes_two_health_from_each_monster_hit(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Ranged Shots (RULINGS.md 1: giant fireball 2)."""
    t = table(shipped, spells={"varesh": ["giant-fireball"]})
    t.do(A.PlayCard("hero-varesh", "giant-fireball"))
    t.shot("hero-varesh", "giant_fireball", "monster-troll-1", "monster-orc-1")
    assert not t.state.character("monster-troll-1").alive
    assert not t.state.character("monster-orc-1").alive


def test_the_ice_blast_spell_freezes_without_damage(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Ice Shot (no damage; the character is frozen)."""
    t = table(shipped, spells={"varesh": ["ice-blast"]})
    t.do(A.PlayCard("hero-varesh", "ice-blast"))
    t.shot("hero-varesh", "ice", "monster-troll-1")
    assert t.status("monster-troll-1") == ("frozen",) and t.health("monster-troll-1") == 2


def test_cure_poison_may_follow_a_rush_and_cures_one_card(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Curing Poison; Spell Cards (one rush before casting)."""
    t = table(shipped, spells={"varesh": ["cure-poison"]})
    t.edit("hero-varesh", poison=(2, 1))
    t.do(A.PlayCard("hero-varesh", "cure-poison", rush_first=True))
    decide(t, "0", "choose_poison_card")
    assert t.state.character("hero-varesh").poison == (1,)
    assert shots_of_turn(t) == ["rush"]
    t.shot("hero-varesh", "rush")
    assert t.state.turn is None


def test_heal_restores_exactly_four(shipped: CardIndex) -> None:
    """spells.yaml: Heal ("Heals four health of the caster, or of any other hero"); Healing Damage."""
    t = table(shipped, spells={"varesh": ["heal"]})
    t.edit("hero-xoric", health=3)
    t.do(A.PlayCard("hero-varesh", "heal"))
    decide(t, "hero-xoric", "choose_heal_target")
    assert t.health("hero-xoric") == 7


def test_heal_all_reaches_a_devoured_teammate(shipped: CardIndex) -> None:
    """spells.yaml: Heal All ("Every living teammate, the caster included, recovers one health"); Devour Shot
    (a devoured hero is alive)."""
    t = table(shipped, spells={"varesh": ["heal-all"]})
    t.edit("hero-elani", health=4, status=("devoured",))
    t.edit("hero-varesh", health=5)
    t.do(A.PlayCard("hero-varesh", "heal-all"))
    assert (t.health("hero-elani"), t.health("hero-varesh"), t.health("hero-xoric")) == (5, 6, 10)


def test_a_stunned_wizard_casts_no_spell(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Stun Shot Modifier ("a player may only perform a single rush shot with a
    stunned hero")."""
    t = table(shipped, spells={"varesh": ["heal"]})
    t.edit("hero-varesh", status=("stunned",))
    with pytest.raises(CardNotPlayableError, match="stunned"):
        t.do(A.PlayCard("hero-varesh", "heal"))
    assert t.state.character("hero-varesh").spells == ("heal",)


# == Ability cards ========================================================================================


def test_oleiras_two_elven_arrows_serve_twice_a_room_and_return_in_the_next(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Ability Cards ("only be used once during the Battle Phase of a room ...
    refreshed during the Setup Phase of the next room"); Allies (Oleira starts with two Elven Arrow cards)."""
    t = table(shipped, heroes=ELF_PARTY)
    assert t.state.character("hero-oleira").abilities == ("elven-arrow", "elven-arrow")
    t.do(A.PlayCard("hero-oleira", "elven-arrow"))
    t.shot("hero-oleira", "missile", "monster-orc-1")
    next_round(t)
    t.do(A.PlayCard("hero-oleira", "elven-arrow"))
    t.shot("hero-oleira", "missile", "monster-orc-2")
    next_round(t)
    with pytest.raises(CardNotPlayableError):
        t.do(A.PlayCard("hero-oleira", "elven-arrow"))
    assert t.state.character("hero-oleira").face_down == ("ability:elven-arrow", "ability:elven-arrow")
    next_room(t)
    oleira = t.state.character("hero-oleira")
    assert oleira.face_down == () and oleira.abilities == ("elven-arrow", "elven-arrow")


def test_an_ability_card_cannot_be_preceded_by_a_rush(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Spell Cards (the rush before casting is for spells only)."""
    t = table(shipped, heroes=ELF_PARTY)
    with pytest.raises(CardNotPlayableError, match="rush"):
        t.do(A.PlayCard("hero-oleira", "elven-arrow", rush_first=True))


def test_an_ability_belongs_to_its_hero(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Ability Cards ("An Ability card is specific to a particular hero")."""
    t = table(shipped, heroes=ELF_PARTY)
    with pytest.raises(CardNotPlayableError):
        t.do(A.PlayCard("hero-xoric", "elven-arrow"))
    with pytest.raises(CardNotPlayableError):
        t.do(A.PlayCard("hero-oleira", "fireball"))


# == Familiars ============================================================================================


def test_the_raven_familiar_is_for_spell_casters_only(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Item Cards: Usage Restrictions ("She cannot buy the Raven Familiar item as
    she is not a Spell Caster"); Familiars ("as a magic item, the Raven Familiar can only be purchased by a
    Spell Caster")."""
    with pytest.raises(IllegalActionError):
        catacombs_3e(["the-barracks"], heroes=PARTY, content=shipped, items={"elani": ["raven-familiar"]})
    t = table(shipped, items={"varesh": ["raven-familiar"]})
    raven = t.state.character("familiar-raven-familiar")
    assert (raven.owner, raven.kind) == ("hero-varesh", "familiar")


def test_a_stunned_wizards_raven_still_acts(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Stun Shot Modifier ("If a hero is stunned and has a familiar in play, the
    player controlling the hero can still perform the familiar's action")."""
    t = table(shipped, items={"varesh": ["raven-familiar"]})
    t.edit("hero-varesh", status=("stunned",))
    assert "familiar-raven-familiar" in [c.id for c in t.rules.actors(t.state)]
    t.declare("familiar-raven-familiar")
    assert t.state.turn is not None and t.state.turn.character == "familiar-raven-familiar"


def test_a_familiar_played_as_a_card_is_refused(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Familiars (the familiar "performs its shot sequence every round" with its
    own piece; it is not a card the hero plays in place of its turn)."""
    t = table(shipped, heroes=ELF_PARTY, items={"oleira": ["spirit-familiar"]})
    with pytest.raises((CardNotPlayableError, IllegalActionError)):
        t.do(A.PlayCard("hero-oleira", "spirit-familiar"))


def test_a_familiar_killed_in_battle_returns_in_the_next_rooms_setup(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Familiars ("If a familiar dies during the Battle Phase, it is removed from
    the playmat but returns in the Setup Phase of the next room")."""
    t = table(shipped, heroes=ELF_PARTY, items={"oleira": ["spirit-familiar"]})
    t.side_passes()
    t.turn("monster-orc-1", ("melee", "familiar-spirit-familiar"), alternative=0)
    assert not t.state.character("familiar-spirit-familiar").alive
    t.side_passes()
    assert "familiar-spirit-familiar" not in [c.id for c in t.rules.actors(t.state)]
    next_room(t)
    assert t.state.character("familiar-spirit-familiar").alive
    assert t.state.character("hero-oleira").items == ("spirit-familiar",)


def test_the_urn_summons_the_liquid_antient_once_in_the_game(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Antients ("a hero playing the Item card Vaiel's Urn can summon Urthoth the
    Liquid Antient ... persists for the remainder of the room"); Item Cards: Frequency Conditions (not known:
    once per game)."""
    t = table(shipped, items={"elani": ["vaiels-urn"]})
    t.do(A.PlayCard("hero-elani", "vaiels-urn"))
    t.shot("hero-elani", "summon")
    antients = [c for c in t.state.characters if c.kind == "antient" and c.alive]
    assert len(antients) == 1
    assert t.state.character("hero-elani").items == ()


# == Combo timing and turn order ==========================================================================


def test_while_a_post_combo_may_follow_no_one_else_acts_and_ending_the_turn_keeps_the_axe(
    shipped: CardIndex,
) -> None:
    """catacombs-3e-reference.txt: Combo Items (a post-Combo item is played "immediately after" the hero's
    turn); Turn Order (one character's turn at a time)."""
    t = table(shipped, items={"xoric": ["throwing-axe"]})
    t.declare("hero-xoric")
    t.shot("hero-xoric", "rush")
    t.shot("hero-xoric", "melee", "monster-orc-1")
    assert t.state.turn is not None and t.state.turn.stage == "await_post"
    with pytest.raises(NotYourTurnError):
        t.declare("hero-elani")
    t.do(A.EndTurn("hero-xoric"))
    assert t.state.turn is None and "hero-xoric" in t.state.acted
    with pytest.raises((NotYourTurnError, IllegalActionError)):
        t.do(A.PlayCard("hero-xoric", "throwing-axe"))
    assert t.state.character("hero-xoric").items == ("throwing-axe",)


def test_a_pre_combo_potion_cannot_be_drunk_once_the_heros_action_has_begun(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Combo Items (a pre-Combo item is played "immediately before" the hero's
    normal turn)."""
    t = table(shipped, items={"elani": ["raisthrims-potion"]})
    t.declare("hero-elani")
    t.shot("hero-elani", "melee", "monster-orc-1")
    with pytest.raises(NotYourTurnError):
        t.do(A.PlayCard("hero-elani", "raisthrims-potion"))
    assert t.state.character("hero-elani").items == ("raisthrims-potion",)


def test_the_lone_hero_ignores_the_stun_and_drinks_the_potion(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Stun Shot Modifier ("If only a single hero is able to perform their normal
    action(s) during the Battle Phase (the others may be dead, devoured or teleported), the effects of the
    stun modifier on that hero are ignored")."""
    t = table(shipped, items={"elani": ["raisthrims-potion"]})
    t.edit("hero-xoric", status=("devoured",))
    t.edit("hero-varesh", status=("teleported",))
    t.edit("hero-roosan", alive=False, health=0)
    t.edit("hero-elani", status=("stunned",))
    t.do(A.PlayCard("hero-elani", "raisthrims-potion"))
    t.shot("hero-elani", "ice", "monster-troll-1")
    assert t.status("monster-troll-1") == ("frozen",)


def test_the_thiefs_throwing_axe_kill_earns_her_extra_coin(shipped: CardIndex) -> None:
    """heroes.yaml: Elani ("Receives one extra gold coin for each monster she slays"); Resolution Phase (the
    reward on the Monster card); Combo Items (the Throwing Axe's missile is her own shot); Nullifying Shots
    (the Skeleton Warrior's missile icon)."""
    t = table(shipped, ["bholoth-cemetery", "the-barracks"], items={"elani": ["throwing-axe"]})
    for monster in ("monster-orc-1", "monster-skeleton-warrior-1", "monster-skeleton-warrior-2"):
        t.edit(monster, alive=False, health=0)
    t.declare("hero-elani")
    t.shot("hero-elani", "melee", "monster-orc-2")
    t.shot("hero-elani", "rush")
    t.do(A.PlayCard("hero-elani", "throwing-axe"))
    t.shot("hero-elani", "missile", "monster-skeleton-warrior-3")
    assert t.health("monster-skeleton-warrior-3") == 1
    t.declare("hero-xoric")
    t.shot("hero-xoric", "rush")
    t.shot("hero-xoric", "melee", "monster-skeleton-warrior-3")
    assert t.state.phase == "resolution"
    assert t.state.character("hero-elani").gold == 2 and t.state.character("hero-xoric").gold == 1


def test_drain_energy_on_a_skeleton_warrior_is_nullified_and_restores_nothing(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Nullifying Shots (the Skeleton Warrior's missile icon); Regeneration Shot
    Modifier (health is restored only when the shot damages)."""
    t = table(shipped, ["bholoth-cemetery"], spells={"varesh": ["drain-energy"]})
    t.edit("hero-varesh", health=3)
    t.do(A.PlayCard("hero-varesh", "drain-energy"))
    t.shot("hero-varesh", "missile", "monster-skeleton-warrior-1")
    assert t.state.character("monster-skeleton-warrior-1").alive
    assert t.health("hero-varesh") == 3
    assert t.state.character("hero-varesh").spells == ()


def test_a_heros_post_combo_is_not_offered_after_its_familiars_turn(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Combo Items (after "the hero's normal turn"); Familiars (the familiar takes
    its own action)."""
    t = table(shipped, items={"varesh": ["raven-familiar", "throwing-axe"]})
    t.turn("familiar-raven-familiar", ("melee", "monster-orc-1"))
    assert t.state.turn is None
    t.declare("hero-varesh")
    t.shot("hero-varesh", "rush")
    t.shot("hero-varesh", "melee", "monster-orc-2")
    assert t.state.turn is not None and t.state.turn.stage == "await_post"


def test_the_feathers_of_fury_card_is_used_up_for_the_room(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Ability Cards ("After it has been used, it is flipped over face down");
    abilities.yaml: Feathers of Fury (its shot sequence is not in any source)."""
    t = table(shipped)
    t.do(A.PlayCard("hero-roosan", "feathers-of-fury"))
    assert t.state.character("hero-roosan").face_down == ("ability:feathers-of-fury",)
    assert t.state.turn is None


# == who may play a card ==================================================================================


def test_a_teleported_hero_returns_with_its_melee_and_plays_no_other_card(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Teleport Shots ("The player places its piece anywhere along the edge of the
    playmat and performs a single melee shot ... This is the end of the teleported character's turn"): only
    a post-Combo item may follow, so neither a spell nor a pre-Combo potion replaces the melee."""
    t = table(
        shipped,
        items={"varesh": ["raisthrims-potion"]},
        spells={"varesh": ["teleport-hero", "magic-missile"]},
    )
    t.do(A.PlayCard("hero-varesh", "teleport-hero"))
    t.shot("hero-varesh", "teleport")
    next_round(t)
    with pytest.raises(IllegalActionError):
        t.do(A.PlayCard("hero-varesh", "magic-missile"))
    with pytest.raises(IllegalActionError):
        t.do(A.PlayCard("hero-varesh", "raisthrims-potion"))
    varesh = t.state.character("hero-varesh")
    assert varesh.spells == ("magic-missile",) and varesh.items == ("raisthrims-potion",)


@pytest.mark.parametrize("status", ["devoured", "frozen"])
def test_a_devoured_or_frozen_hero_plays_no_card(shipped: CardIndex, status: str) -> None:
    """catacombs-3e-reference.txt: Devour Shot and Ice Shot (a devoured or frozen character takes no turn);
    Playing Spell, Ability, or Item Cards (a card is played as the hero's turn)."""
    t = table(shipped, items={"xoric": ["berserker-battle-axe", "raisthrims-potion"]})
    t.edit("hero-xoric", status=(status,))
    for card in ("berserker-battle-axe", "raisthrims-potion"):
        with pytest.raises(IllegalActionError):
            t.do(A.PlayCard("hero-xoric", card))
    assert len(t.state.character("hero-xoric").items) == 2


def test_a_card_played_once_per_game_never_returns_to_the_item_deck(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Item Cards: Frequency Conditions ("Once Per Game: ... discarded and removed
    from the game. It cannot be purchased or used again"); Hero Death (only the dead hero's Item cards are
    shuffled back)."""
    t = table(shipped, items={"xoric": ["helm-of-rage", "throwing-axe"]})
    t.do(A.PlayCard("hero-xoric", "helm-of-rage"))
    t.do(A.EndTurn("hero-xoric"))  # no Throwing Axe after it
    t.edit("hero-xoric", health=1)
    t.side_passes()
    t.turn("monster-orc-1", ("melee", "hero-xoric"), alternative=0)
    assert not t.state.character("hero-xoric").alive
    assert "helm-of-rage" not in t.state.item_deck
    assert "throwing-axe" in t.state.item_deck
