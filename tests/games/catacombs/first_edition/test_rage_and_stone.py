"""The Barbarian's rage track and the Gorgon's petrification in Catacombs 1E, played as at a table."""

from __future__ import annotations

import pytest

from service.games.catacombs.first_edition import actions as A
from service.games.catacombs.first_edition import events as E
from service.games.catacombs.first_edition.ruleset import INCAPACITATED, PETRIFIED
from service.rules.errors import CardNotPlayableError, IllegalActionError
from tests.helpers.game_setups import catacombs_1e
from tests.helpers.rules_script import RulesScript

MANUAL = "catacombs-1e-rules-italian.txt"
ORCS = ["caserma", "corridoio", "signore-della-catacomba"]


def frenzy(g: RulesScript) -> None:
    """The Frenzy's four chain melee attacks, all missing."""
    g.do(A.PlayCard("hero-barbaro", "furia"))
    g.finish("hero-barbaro")


def rage_events(g: RulesScript) -> list[E.RageChanged]:
    return [e for e in g.events if isinstance(e, E.RageChanged)]


# == the rage track ===============================================================================
def test_the_barbarian_starts_on_level_2_of_his_rage_track_and_nobody_else_has_one() -> None:
    """catacombs-1e-rules-italian.txt: Preparazione degli eroi"""
    g = catacombs_1e()
    rage = {h.card: h.rage for h in g.state.heroes}
    assert rage == {"barbaro": 2, "elfo": None, "ladra": None, "mago": None}
    # The table sees it: the snapshot's Barbarian carries his rage, the other heroes no rage at all.
    shown = {c["id"]: c for c in g.state.public_view()["characters"]}
    assert shown["hero-barbaro"]["rage"] == 2
    assert "rage" not in shown["hero-elfo"]


def test_the_frenzy_spends_rage_and_the_track_is_not_refilled_by_a_new_room() -> None:
    """catacombs-1e-rules-italian.txt: Scegliere il Proprio Eroe ("Può utilizzare la sua furia per azioni
    speciali"); Panoramica dei componenti (the marker tracks the rage for the Barbarian's Frenzy)"""
    g = catacombs_1e(ORCS)
    g.enter_battle()
    frenzy(g)
    assert g.character("hero-barbaro").rage == 1
    assert [(e.character, e.rage, e.change) for e in rage_events(g)] == [("hero-barbaro", 1, -1)]
    # The spending comes before the card's shots, as the marker moves when the Frenzy is declared.
    kinds = [type(e).__name__ for e in g.events]
    assert kinds.index("RageChanged") < kinds.index("CardPlayed")
    for c in g.state.room_monsters:
        g.do(A.SetHealth(c.id, 0, "cleared for the test"))
    g.side_idles()  # the round ends: the room is complete
    assert g.state.phase == "resolution"
    g.enter_battle()  # the next room: his once-a-room Frenzy is back, his rage is not
    assert g.character("hero-barbaro").rage == 1


def test_without_enough_rage_the_frenzy_is_refused_and_nothing_changes() -> None:
    """catacombs-1e-rules-italian.txt: Scegliere il Proprio Eroe"""
    g = catacombs_1e(ORCS)
    g.enter_battle()
    g.do(A.SetRage("hero-barbaro", 0, "spent in an earlier room"))
    before = g.state
    with pytest.raises(CardNotPlayableError) as refused:
        g.rules.check(g.state, A.PlayCard("hero-barbaro", "furia"))
    assert refused.value.rule == f"{MANUAL}: Scegliere il Proprio Eroe"
    assert "rage is at 0" in refused.value.reason
    assert g.state is before
    # His basic melee needs no rage.
    assert g.rules.is_legal(g.state, A.DeclareAction("hero-barbaro", 0))


def test_rage_is_gained_up_to_the_top_of_the_track_and_only_by_a_hero_who_has_one() -> None:
    """catacombs-1e-rules-italian.txt: Preparazione degli eroi (level 2, "non livello 3": the track's top)"""
    g = catacombs_1e()
    g.do(A.GainRage("hero-barbaro"))
    assert g.character("hero-barbaro").rage == 3
    assert rage_events(g)[-1].change == 1
    for refused, why in (
        (A.GainRage("hero-barbaro"), "ends at level 3"),
        (A.GainRage("hero-elfo"), "no rage track"),
        (A.GainRage("hero-nessuno"), "no character"),
    ):
        with pytest.raises(IllegalActionError, match=why) as exc:
            g.rules.check(g.state, refused)
        assert exc.value.rule == f"{MANUAL}: Preparazione degli eroi"
    g.do(A.SetRage("hero-barbaro", 1, "marker knocked"))
    with pytest.raises(IllegalActionError, match="a level at a time"):
        g.rules.check(g.state, A.GainRage("hero-barbaro", 0))
    with pytest.raises(IllegalActionError, match="ends at level 3"):
        g.rules.check(g.state, A.GainRage("hero-barbaro", 3))
    g.do(A.SetHealth("hero-barbaro", 0, "a test of the dead"))
    with pytest.raises(IllegalActionError, match="dead"):
        g.rules.check(g.state, A.GainRage("hero-barbaro"))


def test_the_referee_corrects_the_rage_marker_within_the_track() -> None:
    """catacombs-1e-rules-italian.txt: Punti importanti (4: the Keeper is the final arbiter); Preparazione
    degli eroi"""
    g = catacombs_1e()
    events = g.do(A.SetRage("hero-barbaro", 0, "he used it last room"))
    assert g.character("hero-barbaro").rage == 0
    assert any(isinstance(e, E.Corrected) and "rage to 0" in e.text for e in events)
    with pytest.raises(IllegalActionError, match="from 0 to 3"):
        g.rules.check(g.state, A.SetRage("hero-barbaro", 4))
    with pytest.raises(IllegalActionError, match="no rage track"):
        g.rules.check(g.state, A.SetRage("hero-mago", 1))


def test_rage_actions_travel_as_json_and_belong_to_the_first_edition_only() -> None:
    """catacombs-1e-rules-italian.txt: Preparazione degli eroi"""
    action = A.action_from_json({"action": "gain_rage", "character": "hero-barbaro", "levels": 1})
    assert action == A.GainRage("hero-barbaro", 1)
    assert A.action_to_json(A.SetRage("hero-barbaro", 2, "x")) == {
        "action": "set_rage",
        "character": "hero-barbaro",
        "rage": 2,
        "reason": "x",
    }
    from service.games.catacombs.third_edition.ruleset import Catacombs3E
    from tests.helpers.sample_content import FIRST_GAME_HEROES, sample_content

    third = Catacombs3E(sample_content())
    state = third.new_game(FIRST_GAME_HEROES, "hmotha-the-lich-lord", [], seed=1)
    hero = state.heroes[0].id
    with pytest.raises(IllegalActionError, match="not part of catacombs-3e"):
        third.check(state, A.GainRage(hero))


# == the Gorgon's petrification ===================================================================
def gorgon_lair() -> RulesScript:
    g = catacombs_1e(["signore-della-catacomba"], lord="gorgone")
    g.enter_battle()
    g.side_idles()
    return g


def test_the_gorgon_turns_a_hero_to_stone_which_is_not_incapacitation() -> None:
    """catacombs-1e-rules-italian.txt: La Battaglia Finale ("Gorgone: detiene il potere di trasformare un eroe
    in pietra"); Incapacità (a stun incapacitates for one round only)"""
    g = gorgon_lair()
    g.do(A.DeclareAction("lord-gorgone", 1))  # her gaze, one special action
    g.do(A.ResolveShot("lord-gorgone", "missile", direct_hits=("hero-elfo",)))
    g.finish("lord-gorgone")
    elf = g.character("hero-elfo")
    assert elf.has(PETRIFIED) and not elf.has(INCAPACITATED)
    assert elf.alive and elf.health == 11  # stone, not dead: the missile's one wound only
    assert any(isinstance(e, E.StatusChanged) and e.status == PETRIFIED and e.on for e in g.events)
    g.side_idles()
    # An incapacitated hero is back after the next round; a hero of stone is not.
    for _ in range(2):
        assert g.state.side == "heroes" and not g.rules.can_act(g.state, g.character("hero-elfo"))
        g.side_idles()
        g.side_idles()
    assert g.character("hero-elfo").has(PETRIFIED)


def test_the_keeper_wins_when_every_hero_is_dead_or_turned_to_stone() -> None:
    """catacombs-1e-rules-italian.txt: Condizioni di Vittoria; Cose importanti (3)"""
    g = gorgon_lair()
    for hero in ("hero-barbaro", "hero-ladra", "hero-mago"):
        g.do(A.SetHealth(hero, 0, "a test of the end"))
    assert g.state.outcome is None
    g.do(A.DeclareAction("lord-gorgone", 1))
    g.do(A.ResolveShot("lord-gorgone", "missile", direct_hits=("hero-elfo",)))
    assert g.character("hero-elfo").alive and g.character("hero-elfo").has(PETRIFIED)
    assert g.state.outcome == "overseer"


def test_the_referee_can_put_a_hero_to_stone_or_free_him() -> None:
    """catacombs-1e-rules-italian.txt: Punti importanti (4: the Keeper is the final arbiter)"""
    g = catacombs_1e()
    g.do(A.SetStatus("hero-ladra", PETRIFIED, True, "the gaze was seen"))
    assert g.character("hero-ladra").has(PETRIFIED)
    g.do(A.SetStatus("hero-ladra", PETRIFIED, False, "it missed after all"))
    g.do(A.SetStatus("hero-ladra", INCAPACITATED, True, "stunned"))
    assert g.character("hero-ladra").status == (INCAPACITATED,)
