"""The shot names the disc that was flicked (``ResolveShot.flicked``), in every game.

The rules refuse a disc the expected shot may not flick, citing the rule (a character shot flicks the
character's own piece; a ranged shot a ranged piece beside its performer; a fear rush, a grab's or a vortex's
rush the other character's piece), and book the hits to the character the flicked disc performs for. A shot
without ``flicked`` (every log written before the field) resolves exactly as it always did.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.gamelog.replay import replay
from service.gamelog.writer import LogWriter
from service.games.castles.core import actions as CA
from service.games.castles.core.cards import ChargedCard, Step
from service.games.catacombs.flow import actions as A
from service.rules.errors import UnexpectedShotError
from service.rules.events import Event, ShotResolved
from tests.helpers.game_setups import (
    CASTLES_2E,
    JEN,
    SAM,
    TUTORIAL_TEAMS,
    castles_1e,
    castles_2e,
    catacombs_3e,
    shipped_cards,
    tutorial,
)
from tests.helpers.rules_script import RulesScript


# == the action and the game log ==
def test_a_shot_without_flicked_reads_and_writes_as_before() -> None:
    """docs/game-log.md: a record written before the field existed decodes with ``flicked`` unknown, and a
    shot whose disc is not known is written without it."""
    old = {
        "action": "resolve_shot",
        "character": "hero-xoric",
        "shot": "melee",
        "direct_hits": ["monster-orc-1"],
    }
    action = A.action_from_json(old)
    assert isinstance(action, A.ResolveShot) and action.flicked is None
    assert "flicked" not in A.action_to_json(action)
    named = A.ResolveShot("hero-xoric", "melee", flicked="hero-xoric")
    assert A.action_to_json(named)["flicked"] == "hero-xoric"
    assert A.action_from_json(A.action_to_json(named)) == named


def test_the_flicked_disc_is_kept_in_the_log_and_replays() -> None:
    """catacombs-3e-reference.txt: Character Shots: the logged flick replays to the same state."""
    setup = {
        "ruleset": "catacombs-3e",
        "content": "sample",
        "heroes": ["xoric", "varesh", "roosan", "elani"],
        "lord": "hmotha-the-lich-lord",
        "rooms": ["the-barracks"],
        "seed": 7,
    }
    log = LogWriter()
    log.setup(setup)
    table = catacombs_3e(["the-barracks"], seed=7)
    for action in (
        A.EnterRoom(),
        A.StartBattle(),
        A.DeclareAction("hero-xoric"),
        A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-1",), flicked="hero-xoric"),
    ):
        table.do(action)
        log.action(action)
    assert '"flicked":"hero-xoric"' in log.lines()
    result = replay(log.records)
    assert result.rejected == [] and result.state == table.state


# == Catacombs 3E ==
def barracks() -> RulesScript:
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    return table


def test_a_character_shot_flicks_the_characters_own_piece() -> None:
    """catacombs-3e-reference.txt: Character Shots ("A rush shot is performed by flicking the appropriate
    piece"; a melee "in the same way")."""
    table = barracks()
    table.declare("hero-xoric")
    with pytest.raises(UnexpectedShotError, match="Xoric the Barbarian's own piece, not Elani") as refused:
        table.do(A.ResolveShot("hero-xoric", "melee", ("monster-orc-1",), flicked="hero-elani"))
    assert refused.value.rule == "catacombs-3e-reference.txt: Character Shots"
    table.do(A.ResolveShot("hero-xoric", "melee", ("monster-orc-1",), flicked="hero-xoric"))
    assert not table.state.character("monster-orc-1").alive


def test_a_ranged_shot_flicks_a_ranged_piece_beside_its_shooter() -> None:
    """catacombs-3e-reference.txt: Battle Phase: Ranged Shots ("ranged shots involve flicking a separate
    ranged piece ... placed anywhere within 2.5cm (1") of the character")."""
    table = barracks()
    table.declare("hero-varesh")
    table.do(A.ResolveShot("hero-varesh", "rush", flicked="hero-varesh"))
    with pytest.raises(UnexpectedShotError, match="a ranged piece beside Varesh") as refused:
        table.do(A.ResolveShot("hero-varesh", "missile", ("monster-orc-1",), flicked="hero-xoric"))
    assert refused.value.rule == "catacombs-3e-reference.txt: Battle Phase: Ranged Shots"
    table.do(A.ResolveShot("hero-varesh", "missile", ("monster-orc-1",), flicked="ranged-missile"))
    assert not table.state.character("monster-orc-1").alive


def test_a_summoned_monsters_shots_flick_its_own_piece() -> None:
    """catacombs-3e-reference.txt: Summon Shot ("the player performs a melee shot with the summoned
    character"): the summoner's disc is not the one flicked."""
    table = catacombs_3e(["the-barracks"], items={"elani": ["vaiels-urn"]})
    table.enter_battle()
    table.do(A.PlayCard("hero-elani", "vaiels-urn"))
    table.shot("hero-elani", "summon")
    with pytest.raises(UnexpectedShotError, match="Urthoth the Liquid Antient's own piece"):
        table.do(A.ResolveShot("hero-elani", "melee", ("monster-orc-1",), flicked="hero-elani"))
    table.do(A.ResolveShot("hero-elani", "melee", ("monster-orc-1",), flicked="antient-liquid-antient"))
    assert not table.state.character("monster-orc-1").alive


# == Catacombs & Castles 2E ==
def horn_game() -> RulesScript:
    """Larra's Ability with a Horn of Heroes icon before its melee (rush, then the teammate's melee)."""
    cards = shipped_cards(CASTLES_2E)
    heroes = dict(cards.heroes)
    horn = ChargedCard("larra-ability", "Sabotage", "ability", 1, ((Step("rush"), Step("melee", "then")),), 1)
    heroes["larra"] = replace(heroes["larra"], ability=horn)
    g = castles_2e(
        {"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS}, replace(cards, heroes=heroes)
    )
    hakoru_rushes(g)
    g.do(CA.SetCharge("hero-larra", "ability", 1))
    g.do(CA.PerformCard("hero-larra", "ability", helper="hero-kethyst"))
    return g


def hakoru_rushes(g: RulesScript) -> None:
    """The first hero's turn inflicts no damage (RULINGS.md 9): Team Catacomb's Hakoru only rushes."""
    g.declare("hero-hakoru")
    g.shot("hero-hakoru", "rush")
    g.do(A.EndTurn("hero-hakoru"))


def take_the_damage(g: RulesScript) -> None:
    while g.state.pending is not None and g.state.pending.kind == "armour":
        g.answer("take")


def test_the_horns_teammate_flicks_its_own_piece_and_is_booked_the_hit() -> None:
    """catacombs-and-castles-2e-manual.md: Hero Abilities (Horn of Heroes: the chosen friendly hero performs
    the shots after it); Character Shots ("A player performs a melee shot by flicking their hero piece")."""
    g = horn_game()
    g.do(A.ResolveShot("hero-larra", "rush", flicked="hero-larra"))
    with pytest.raises(UnexpectedShotError, match="Kethyst the Ranger's piece, not Larra") as refused:
        g.do(A.ResolveShot("hero-kethyst", "melee", ("hero-hakoru",), flicked="hero-larra"))
    assert refused.value.rule == "catacombs-and-castles-2e-manual.md: Character Shots"
    events = g.do(A.ResolveShot("hero-kethyst", "melee", ("hero-hakoru",), flicked="hero-kethyst"))
    assert performers(events) == ["hero-kethyst"]
    take_the_damage(g)
    assert g.pool("catacomb") == 11


def test_a_ranged_castles_shot_names_its_shooter_or_nothing() -> None:
    """catacombs-and-castles-2e-manual.md: Ranged Shots (a ranged piece is flicked, not a hero piece)."""
    g = castles_2e({"mode": "team", "first": "catacomb", "sides": TUTORIAL_TEAMS})
    hakoru_rushes(g)
    g.declare("hero-kethyst")
    g.do(A.ResolveShot("hero-kethyst", "rush", flicked="hero-kethyst"))
    with pytest.raises(UnexpectedShotError, match="ranged piece, not Hakoru") as refused:
        g.do(A.ResolveShot("hero-kethyst", "missile", ("hero-hakoru",), flicked="hero-hakoru"))
    assert refused.value.rule == "catacombs-and-castles-2e-manual.md: Ranged Shots"
    g.do(A.ResolveShot("hero-kethyst", "missile", ("hero-hakoru",), flicked="hero-kethyst"))
    take_the_damage(g)
    assert g.pool("catacomb") == 11


# == Catacombs & Castles 1E ==
def test_a_grabbed_enemys_rush_flicks_the_enemys_piece() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference (Grapple: Grab: the grabbed opponent is moved
    with a rush of its piece)."""
    t = tutorial(armour_tokens=False)
    t.declare("hero-formilus", 0)
    t.do(
        A.ResolveShot(
            "hero-formilus", "claw", ("hero-kethyst",), target="hero-kethyst", flicked="hero-formilus"
        )
    )
    t.answer("health")
    with pytest.raises(UnexpectedShotError, match="Kethyst the Ranger's piece, not Formilus") as refused:
        t.do(A.ResolveShot("hero-formilus", "rush", flicked="hero-formilus"))
    assert refused.value.rule == "catacombs-and-castles-1e-manual.txt: Shot Reference"
    t.do(A.ResolveShot("hero-formilus", "rush", flicked="hero-kethyst"))
    turn = t.state.turn  # the grappled rush is done: the card's own rush is next
    assert turn is not None and [(p.shot, p.added) for p in turn.queue] == [("rush", "")]


def test_a_team_action_teammates_flick_their_own_pieces() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Actions (the hero and every teammate perform the shots after
    the Team icon); Shot Reference: a teammate's disc for the performer's shot is refused."""
    abilities = {"larra": ["castle-send-reinforcements", "castle-loose-arrows"]}
    t = castles_1e(
        {"mode": "team", "board_side": "catacomb", "sides": [{**SAM, "abilities": abilities}, JEN]}
    )
    t.do(CA.SetCharge("hero-larra", "castle-send-reinforcements", 2))
    t.do("perform_card", "hero-larra", "castle-send-reinforcements")
    t.do(A.ResolveShot("hero-larra", "egg", flicked="hero-larra"))
    if t.state.pending is not None:
        t.answer(t.state.pending.options[0].id)
    with pytest.raises(UnexpectedShotError, match="Larra the Huntress's piece, not Kethyst") as refused:
        t.do(A.ResolveShot("hero-larra", "rush", flicked="hero-kethyst"))
    assert refused.value.rule == "catacombs-and-castles-1e-manual.txt: Shot Reference"
    t.do(A.ResolveShot("hero-larra", "rush", flicked="hero-larra"))
    t.do(A.ResolveShot("hero-larra", "melee", flicked="hero-larra"))
    events = t.do(A.ResolveShot("hero-kethyst", "rush", flicked="hero-kethyst"))
    assert performers(events) == ["hero-kethyst"]


def performers(events: list[Event]) -> list[str]:
    return [e.character for e in events if isinstance(e, ShotResolved)]
