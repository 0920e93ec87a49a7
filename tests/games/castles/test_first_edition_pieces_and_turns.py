"""Catacombs & Castles 1E: Open Portal, Team Actions that are not optional, portraits and trapped heroes,
lifting a net or web, reinforcements by quadrant, shield discs and obstacles, each played as at a table."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from service.games.castles.core import actions as A
from service.games.castles.core import events as CE
from service.games.castles.core.cards import ChargedCard, Step
from service.games.castles.second_edition.setup import SetupRefused
from service.rules import events as E
from service.rules.errors import (
    CardNotPlayableError,
    CharacterCannotActError,
    IllegalActionError,
    NotYourTurnError,
    UnexpectedShotError,
)
from tests.helpers.game_setups import (
    CASTLES_1E,
    JEN,
    SAM,
    boss_game,
    castles_1e,
    shipped_cards,
    tutorial,
)
from tests.helpers.rules_script import RulesScript

MANUAL = "catacombs-and-castles-1e-manual.txt"


def with_cards(*cards: ChargedCard):  # type: ignore[no-untyped-def]
    shipped = shipped_cards(CASTLES_1E)
    return replace(shipped, ability_cards={**shipped.ability_cards, **{c.id: c for c in cards}})


def passes(t: RulesScript, *heroes: str) -> None:
    """Each hero in turn takes its action without a flick that touches anything."""
    for hero in heroes:
        t.declare(hero, 0)
        t.end_turn(hero)


# == Open Portal ==================================================================================
PORTAL = ChargedCard("castle-portal", "Portal", "ability", 0, ((Step("open_portal"),),), team="castle")


def portal_game() -> RulesScript:
    castle = {**SAM, "abilities": {"larra": ["castle-portal", "castle-stand-in"]}}
    t = castles_1e({"mode": "team", "sides": [castle, JEN]}, with_cards(PORTAL))
    passes(t, "hero-hakoru")
    t.do("perform_card", "hero-larra", "castle-portal")
    return t


def test_open_portal_switches_two_characters_of_the_performers_team() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Open Portal: "simply switch the position of two
    characters on the board from the same team"; Reference Chart: "two friendly pieces")"""
    t = portal_game()
    t.shot("hero-larra", "open_portal", swapped=("hero-larra", "hero-delilah"))
    opened = [e for e in t.events if isinstance(e, E.PortalOpened)]
    assert [e.swapped for e in opened] == [("hero-larra", "hero-delilah")]
    assert t.state.turn is None and t.state.side_to_move == "catacomb"


@pytest.mark.parametrize(
    "swapped",
    [
        ("hero-larra", "hero-hakoru"),  # an opponent
        ("hakoru-free",),  # one piece
        (),  # none
        ("hero-kethyst", "hero-kethyst"),  # the same piece twice
        ("hero-kethyst", "hero-delilah", "hero-larra"),  # three
    ],
)
def test_open_portal_refuses_anything_but_two_friendly_characters(swapped: tuple[str, ...]) -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Open Portal: "two characters on the board from
    the same team")"""
    t = portal_game()
    with pytest.raises(IllegalActionError) as refused:
        t.shot("hero-larra", "open_portal", swapped=swapped)
    assert refused.value.rule == f"{MANUAL}: Shot Reference"
    assert t.state.turn is not None  # nothing happened: the portal is still to be opened


def test_only_an_open_portal_switches_characters() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Open Portal)"""
    t = tutorial()
    t.declare("hero-hakoru", 0)
    with pytest.raises(UnexpectedShotError) as refused:
        t.shot("hero-hakoru", "rush", swapped=("hero-hakoru", "hero-formilus"))
    assert refused.value.rule == f"{MANUAL}: Shot Reference"


# == Team Actions are not optional ================================================================
def test_a_horn_cannot_end_while_the_teammates_shots_are_due() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Actions (Wraith Horn: "the hero's teammates immediately
    perform the indicated shot sequence (this is not optional)")"""
    t = tutorial()
    t.do(A.SetCharge("hero-hakoru", "catacomb-hail-xaugorth", 2))
    t.do("perform_card", "hero-hakoru", "catacomb-hail-xaugorth")
    with pytest.raises(IllegalActionError) as refused:
        t.end_turn("hero-hakoru")
    assert refused.value.rule == f"{MANUAL}: Team Actions"
    assert "hero-formilus" in str(refused.value) and "hero-cahreliss" in str(refused.value)
    t.shot("hero-formilus", "rush")
    t.shot("hero-formilus", "fireball")
    with pytest.raises(IllegalActionError, match="hero-cahreliss"):
        t.end_turn("hero-hakoru")
    # A shot made without effect is still the shot made (docs/rulings.md): the Queen flicks and misses.
    t.do(A.SkipShot("hero-cahreliss"))
    t.shot("hero-cahreliss", "fireball")
    assert t.state.turn is None and t.state.side_to_move == "castle"


def test_a_team_action_cannot_end_before_every_hero_has_performed_it() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Actions (Team Action: "Both the hero and the hero's
    teammates immediately perform the shot sequence after the Team Icon (again, this is not optional)")"""
    t = tutorial(armour_tokens=False)
    passes(t, "hero-hakoru")
    t.do(A.SetCharge("hero-larra", "castle-send-reinforcements", 2))
    t.do("perform_card", "hero-larra", "castle-send-reinforcements")
    with pytest.raises(IllegalActionError, match="not optional"):
        t.end_turn("hero-larra")  # before the hero's own egg shot: the Team icon's part is still to come
    t.shot("hero-larra", "egg")
    for hero in ("hero-larra", "hero-kethyst"):
        t.shot(hero, "rush")
        t.shot(hero, "melee")
    with pytest.raises(IllegalActionError, match="hero-delilah"):
        t.end_turn("hero-larra")
    t.shot("hero-delilah", "rush")
    t.shot("hero-delilah", "melee")
    assert t.state.turn is None


def test_a_skipped_shot_of_a_team_alternative_is_the_heros_choice_of_alternative() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Actions ("this is not optional"); Team Mode Quick Start
    Tutorial (each hero "can now choose to execute the Target Ice shot or the Claw shot")"""
    t = tutorial(armour_tokens=False)
    passes(t, "hero-hakoru")
    t.do(A.SetCharge("hero-delilah", "castle-target-acquired", 2))
    t.do("perform_card", "hero-delilah", "castle-target-acquired")
    turn = t.state.turn
    assert turn is not None and len({p.alt for p in turn.queue if p.actor == "hero-delilah"}) == 2
    t.do(A.SkipShot("hero-delilah"))  # her shot, made without effect: the other alternative is gone
    turn = t.state.turn
    assert turn is not None and "hero-delilah" not in {p.actor for p in turn.queue}
    with pytest.raises(IllegalActionError, match="not optional"):
        t.end_turn("hero-delilah")


def test_a_heros_own_sequence_may_still_end_early() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Sequences (a hero's own action; docs/rulings.md)"""
    t = tutorial()
    t.declare("hero-hakoru", 0)
    t.end_turn("hero-hakoru")
    assert t.state.turn is None and t.state.side_to_move == "castle"


# == portraits and trapped heroes =================================================================
def web_larra(t: RulesScript) -> None:
    t.declare("hero-cahreliss", 1)
    t.shot("hero-cahreliss", "web", "hero-larra")
    t.answer("power:catacomb-embrace-the-flames")


def test_a_hero_freed_before_its_teams_turn_acts_before_the_others_go_again() -> None:
    """catacombs-and-castles-1e-manual.txt: Game Overview ("When all heroes on a team have taken an action,
    all their Portrait cards reset"); Shot Reference (Net / Web: "Attacker may choose to remove Net or Web
    from trapped target at the start of their turn")"""
    t = tutorial(armour_tokens=False)
    web_larra(t)
    passes(t, "hero-delilah", "hero-hakoru", "hero-kethyst")
    # Every Castle hero but the trapped Huntress has acted: the portraits stay rotated for now.
    assert {"hero-delilah", "hero-kethyst"} <= set(t.state.acted)
    t.do(A.PerformCard("hero-larra", "lift-net"))  # Jen takes her web back at the start of her turn
    assert not t.state.character("hero-larra").trapped
    passes(t, "hero-formilus")
    with pytest.raises(CharacterCannotActError) as refused:
        t.declare("hero-kethyst", 0)
    assert refused.value.rule == f"{MANUAL}: Game Overview"
    passes(t, "hero-larra")  # the Huntress has not taken her action: she goes first
    passes(t, "hero-hakoru")
    t.declare("hero-kethyst", 0)  # now all three have acted and their portraits are upright again
    assert t.state.turn is not None


def test_a_team_whose_only_waiting_hero_is_trapped_turns_its_portraits_upright_on_its_turn() -> None:
    """catacombs-and-castles-1e-manual.txt: Game Overview (Portrait cards reset; docs/rulings.md)"""
    t = tutorial(armour_tokens=False)
    web_larra(t)
    passes(t, "hero-delilah", "hero-hakoru", "hero-kethyst", "hero-formilus")
    assert t.state.side_to_move == "castle"
    assert not {"hero-delilah", "hero-kethyst"} & set(t.state.acted)
    t.declare("hero-kethyst", 0)
    assert t.state.turn is not None


# == lifting a net or web =========================================================================
def test_the_attacking_team_lifts_its_web_only_at_the_start_of_its_turn() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Net / Web: "the attacker decides (on a following
    turn) to remove the net or web disc to re-use it on a different target")"""
    t = tutorial(armour_tokens=False)
    web_larra(t)
    lift = A.PerformCard("hero-larra", "lift-net")
    with pytest.raises(NotYourTurnError) as refused:
        t.do(lift)  # Team Castle's turn: the web is Team Catacomb's to lift
    assert refused.value.rule == f"{MANUAL}: Shot Reference"
    passes(t, "hero-delilah")
    assert lift in t.rules.choices(t.state)
    t.declare("hero-hakoru", 0)
    with pytest.raises(NotYourTurnError, match="start of the turn"):
        t.do(lift)
    t.end_turn("hero-hakoru")
    passes(t, "hero-kethyst")
    t.do(lift)
    assert not t.state.character("hero-larra").trapped
    assert any(isinstance(e, CE.TrapChanged) and not e.trapped for e in t.events)
    with pytest.raises(IllegalActionError, match="no net or web"):
        t.do(lift)


# == reinforcements ===============================================================================
def overseer_turn(t: RulesScript) -> None:
    for c in [c for c in t.state.characters if c.side == "castle" and c.on_mat]:
        if t.rules.is_legal(t.state, A.DeclareAction(c.id, 0)):
            passes(t, c.id)


def reinforcement_due() -> RulesScript:
    t = boss_game()
    overseer_turn(t)
    passes(t, "hero-hakoru", "hero-formilus", "hero-cahreliss")
    assert t.state.side_to_move == "castle"
    return t


def reinforce(t: RulesScript, *placements: tuple[str, int]) -> None:
    t.do(A.PerformCard("boss-sothemir", "reinforcement", placements=placements))


def test_a_reinforcement_warrior_that_has_acted_is_refused_for_having_acted() -> None:
    """catacombs-and-castles-1e-manual.txt: The Warriors ("After a Warrior has taken an action, it is flipped
    over"); Reinforcements"""
    t = reinforcement_due()
    reinforce(t)
    first = t.state.reinforcing[0]
    passes(t, first)
    with pytest.raises(CharacterCannotActError) as refused:
        t.declare(first, 0)
    assert refused.value.rule == f"{MANUAL}: The Warriors"
    assert "act first" not in str(refused.value)


def test_the_overseer_chooses_which_warrior_enters_which_quadrant() -> None:
    """catacombs-and-castles-1e-manual.txt: Reinforcements ("the Overseer places three different Warriors in
    each of the three quadrants of the game board which does not contain the Castle or Catacomb Lord")"""
    t = reinforcement_due()
    chosen = (("warrior-querling-3", 1), ("warrior-royal-archer-2", 2), ("warrior-watch-guard-4", 4))
    reinforce(t, *chosen)
    assert t.state.reinforcing == tuple(w for w, _ in chosen)
    assert all(t.state.character(w).on_mat for w, _ in chosen)
    entered = [e.text for e in t.events if isinstance(e, CE.WarriorSummoned)]
    assert entered == [
        "Querling 3 enters quadrant 1",
        "Royal Archer 2 enters quadrant 2",
        "Watch Guard 4 enters quadrant 4",
    ]


@pytest.mark.parametrize(
    ("placements", "why"),
    [
        ((("warrior-querling-3", 1), ("warrior-querling-2", 2), ("warrior-watch-guard-4", 4)), "different"),
        (
            (("warrior-querling-3", 1), ("warrior-royal-archer-2", 1), ("warrior-watch-guard-4", 4)),
            "quadrant",
        ),
        ((("warrior-querling-3", 1), ("warrior-royal-archer-2", 2)), "3 different warriors"),
        ((("warrior-querling-1", 1), ("warrior-royal-archer-2", 2), ("warrior-watch-guard-4", 4)), "already"),
        ((("warrior-querling-3", 5), ("warrior-royal-archer-2", 2), ("warrior-watch-guard-4", 4)), "1, 2, 3"),
        (
            (("warrior-plunderer-1", 1), ("warrior-royal-archer-2", 2), ("warrior-watch-guard-4", 4)),
            "none of",
        ),
    ],
)
def test_reinforcements_refuse_a_placement_the_rule_does_not_allow(
    placements: tuple[tuple[str, int], ...], why: str
) -> None:
    """catacombs-and-castles-1e-manual.txt: Reinforcements ("three different Warriors in each of the three
    quadrants ... which does not contain the ... Lord")"""
    t = reinforcement_due()
    with pytest.raises(IllegalActionError, match=why) as refused:
        reinforce(t, *placements)
    assert refused.value.rule == f"{MANUAL}: Reinforcements"
    assert t.state.side("castle").reinforcements == 2


def test_with_one_kind_of_warrior_used_up_the_overseer_places_one_of_each_kind_left() -> None:
    """catacombs-and-castles-1e-manual.txt: Reinforcements ("three different Warriors"; docs/rulings.md)"""
    t = reinforcement_due()
    archers = [c.id for c in t.state.characters if c.card == "royal-archer"]
    t.state = replace(
        t.state,
        characters=tuple(replace(c, on_mat=True) if c.id in archers else c for c in t.state.characters),
    )
    with pytest.raises(IllegalActionError, match="2 different warriors"):
        reinforce(t, ("warrior-querling-3", 1), ("warrior-watch-guard-4", 2), ("warrior-watch-guard-3", 3))
    reinforce(t, ("warrior-querling-3", 1), ("warrior-watch-guard-4", 3))
    assert t.state.reinforcing == ("warrior-querling-3", "warrior-watch-guard-4")


def test_placements_belong_to_a_reinforcement_token_only() -> None:
    """catacombs-and-castles-1e-manual.txt: Reinforcements"""
    t = tutorial()
    t.do(A.SetCharge("hero-hakoru", "catacomb-hail-xaugorth", 2))
    with pytest.raises(IllegalActionError) as refused:
        t.do(A.PerformCard("hero-hakoru", "catacomb-hail-xaugorth", placements=(("warrior-raider-1", 1),)))
    assert refused.value.rule == f"{MANUAL}: Reinforcements"


# == shields ======================================================================================
RANDSARR = {"team": "castle", "heroes": ["randsarr", "larra", "kethyst"]}
VORTEX = ChargedCard("catacomb-vortex", "Vortex", "ability", 0, ((Step("vortex"),),), team="catacomb")


def shield_game(**extra: Any) -> RulesScript:
    catacomb = {**JEN, "abilities": {"hakoru": ["catacomb-vortex", "catacomb-stand-in-1"]}}
    setup = {"mode": "team", "armour_tokens": False, "sides": [RANDSARR, catacomb], **extra}
    return castles_1e(setup, with_cards(VORTEX))


def randsarr_shields(t: RulesScript) -> None:
    t.declare("hero-randsarr", 0)
    t.shot("hero-randsarr", "rush")
    t.shot("hero-randsarr", "melee")
    t.shot("hero-randsarr", "shield")


def test_the_shield_icon_puts_the_shield_disc_on_the_board_and_lifts_it_at_the_next_sequence() -> None:
    """catacombs-and-castles-1e-manual.txt: Shields ("remove the shield disc from its current location (if
    already on the board), then execute the remainder of that hero's shot sequence and then place the shield
    disc back onto the game board")"""
    t = shield_game()
    passes(t, "hero-hakoru")
    assert not t.state.shields
    randsarr_shields(t)
    assert t.state.shields == ("castle-shield",)
    assert t.state.public_view()["shields"] == ["castle-shield"]
    passes(t, "hero-formilus", "hero-larra", "hero-cahreliss", "hero-kethyst", "hero-hakoru")
    t.declare("hero-randsarr", 0)
    assert not t.state.shields  # lifted for the rest of the sequence
    t.shot("hero-randsarr", "rush")
    t.shot("hero-randsarr", "melee")
    t.shot("hero-randsarr", "shield")
    assert t.state.shields == ("castle-shield",)
    moved = [e.on_mat for e in t.events if isinstance(e, E.ShieldMoved)]
    assert moved == [True, False, True]


def test_the_shield_disc_goes_back_when_the_sequence_ends_without_its_shield_step() -> None:
    """catacombs-and-castles-1e-manual.txt: Shields ("execute the remainder of that hero's shot sequence and
    then place the shield disc back onto the game board"; docs/rulings.md)"""
    t = shield_game(board_side="catacomb")
    randsarr_shields(t)
    passes(t, "hero-hakoru", "hero-larra", "hero-formilus", "hero-kethyst", "hero-cahreliss")
    t.declare("hero-randsarr", 0)
    assert not t.state.shields
    t.shot("hero-randsarr", "rush")
    t.end_turn("hero-randsarr")  # the melee and the shield step not made
    assert t.state.shields == ("castle-shield",)


def test_a_vortex_rushes_the_opposing_shield_disc_it_hits() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Vortex: "For each opposing character hit by the
    vortex disc, the attacker executes a single Rush shot for that character. This includes shield discs")"""
    t = shield_game(board_side="catacomb")  # Team Castle goes first
    randsarr_shields(t)
    t.do("perform_card", "hero-hakoru", "catacomb-vortex")
    t.shot("hero-hakoru", "vortex", "castle-shield", "hero-larra")
    t.answer("power:catacomb-stand-in-1") if t.state.pending else None
    turn = t.state.turn
    assert turn is not None
    assert sorted((p.shot, p.piece) for p in turn.queue) == [
        ("rush", "castle-shield"),
        ("rush", "hero-larra"),
    ]
    assert t.pool("castle") == 7  # the shield takes no damage, the Huntress one point


def test_a_shield_disc_is_invulnerable_and_must_be_on_the_board_to_be_hit() -> None:
    """catacombs-and-castles-1e-manual.txt: Shields ("A shield is an invulnerable disc")"""
    t = shield_game(board_side="catacomb")
    t.declare("hero-randsarr", 0)
    t.shot("hero-randsarr", "rush")
    with pytest.raises(UnexpectedShotError) as refused:
        t.shot("hero-randsarr", "melee", "castle-shield")
    assert refused.value.rule == f"{MANUAL}: Shields"
    t.shot("hero-randsarr", "melee")
    t.shot("hero-randsarr", "shield")
    t.declare("hero-cahreliss", 0)
    t.shot("hero-cahreliss", "fireball", "castle-shield")
    assert t.pool("castle") == 8
    assert any(isinstance(e, E.HitIgnored) and e.reason == "shield" for e in t.events)


def test_an_ability_card_leaves_the_shield_disc_where_it_is() -> None:
    """catacombs-and-castles-1e-manual.txt: Shields ("when playing an Ability card, the shield disc cannot be
    moved and remains in its last location on the board")"""
    shield = ChargedCard(
        "castle-guard", "Guard", "ability", 0, ((Step("rush"), Step("shield", "then")),), team="castle"
    )
    castle = {**RANDSARR, "abilities": {"randsarr": ["castle-guard", "castle-loose-arrows"]}}
    t = castles_1e({"mode": "team", "board_side": "catacomb", "sides": [castle, JEN]}, with_cards(shield))
    t.do("perform_card", "hero-randsarr", "castle-guard")
    t.shot("hero-randsarr", "rush")
    t.shot("hero-randsarr", "shield")
    assert t.state.shields == ()


# == obstacles ====================================================================================
def obstacles(*placed: tuple[str, int]) -> list[dict[str, Any]]:
    return [{"piece": piece, "quadrant": quadrant} for piece, quadrant in placed]


SIX = obstacles(("cylinder", 1), ("cube", 2), ("slab", 3), ("cylinder", 4), ("cube", 1), ("slab", 3))


def test_the_teams_take_turns_placing_the_six_obstacles_one_a_quadrant_first() -> None:
    """catacombs-and-castles-1e-manual.txt: Setting Up The Obstacles ("When playing on the Castle side of the
    board, Team Castle chooses and places an obstacle first"; "no more than two obstacles may be placed in a
    quadrant")"""
    t = tutorial(obstacles=SIX)
    assert [(o.piece, o.quadrant, o.team) for o in t.state.obstacles][:3] == [
        ("cylinder", 1, "castle"),
        ("cube", 2, "catacomb"),
        ("slab", 3, "castle"),
    ]
    assert len(t.state.public_view()["obstacles"]) == 6
    other_side = castles_1e({"mode": "team", "board_side": "catacomb", "sides": [SAM, JEN], "obstacles": SIX})
    assert other_side.state.obstacles[0].team == "catacomb"  # "the opposite is true" on the Catacomb side
    assert tutorial().state.obstacles == ()  # a setup that does not record them


@pytest.mark.parametrize(
    ("placed", "why"),
    [
        (obstacles(("cube", 1), ("cube", 1)), "already contains an obstacle"),
        (
            obstacles(("cube", 1), ("cube", 2), ("slab", 3), ("slab", 4), ("cylinder", 1), ("cylinder", 1)),
            "no more than two",
        ),
        ([{"piece": "cylinder", "quadrant": 1, "orientation": "horizontal"}], "upright"),
        ([{"piece": "cube", "quadrant": 1, "team": "catacomb"}], "Team Castle's to place"),
        (obstacles(("cube", 1), ("cube", 2), ("cube", 3)), "six obstacles"),
        (SIX[:5], "six obstacles"),
        (obstacles(("pyramid", 1)), "cube, slab or cylinder"),
        (obstacles(("cube", 0)), "quadrant is 1, 2, 3 or 4"),
    ],
)
def test_an_obstacle_placement_the_rules_forbid_is_refused(placed: list[dict[str, Any]], why: str) -> None:
    """catacombs-and-castles-1e-manual.txt: Setting Up The Obstacles ("An obstacle cannot be placed in a
    quadrant that already contains one until all the other quadrants have at least one obstacle";
    "Cylinders must be placed upright on their base")"""
    with pytest.raises(SetupRefused, match=why) as refused:
        tutorial(obstacles=placed)
    assert refused.value.rule == f"{MANUAL}: Setting Up The Obstacles"


# == refusals cite the rule they enforce ==========================================================
def test_boss_mode_refusals_cite_the_boss_mode_sections() -> None:
    """catacombs-and-castles-1e-manual.txt: Boss Mode Overview ("The Overseer takes all of his or her actions
    at once"); The Castle Lord (the Catacomb Lord changes form "if the Overseer chooses to do so")"""
    t = boss_game()
    with pytest.raises(NotYourTurnError) as refused:
        t.declare("hero-hakoru", 0)
    assert refused.value.rule == f"{MANUAL}: Boss Mode Overview"
    with pytest.raises(IllegalActionError) as no_form:
        t.do(A.ChangeForm("boss-sothemir"))
    assert no_form.value.rule == f"{MANUAL}: The Castle Lord"
    passes(t, "boss-sothemir")
    with pytest.raises(CharacterCannotActError) as again:
        t.declare("boss-sothemir", 0)
    assert again.value.rule == f"{MANUAL}: The Warriors"


def test_a_card_played_in_boss_mode_is_refused_as_out_of_the_game() -> None:
    """catacombs-and-castles-1e-manual.txt: Ability Cards in Boss Mode ("Once an Ability card has been played,
    it is out of the game")"""
    t = boss_game()
    overseer_turn(t)
    t.do("perform_card", "hero-hakoru", "catacomb-stand-in-1")
    t.end_turn("hero-hakoru")
    with pytest.raises(CardNotPlayableError) as refused:
        t.do("perform_card", "hero-formilus", "catacomb-stand-in-1")
    assert refused.value.rule == f"{MANUAL}: Ability Cards in Boss Mode"
    with pytest.raises(CardNotPlayableError) as not_held:
        t.do("perform_card", "hero-formilus", "catacomb-hail-xaugorth")  # Hakoru's, still in the game
    assert not_held.value.rule == f"{MANUAL}: Ability Cards"
