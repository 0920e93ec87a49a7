"""Catacombs 1E: basic and modified attacks, sequences and Equipment cards, each played as at a table (the
sections the other 1E tests do not cite; docs/rules-api.md lists them all)."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.games.catacombs.first_edition.ruleset import INCAPACITATED
from service.games.catacombs.flow import actions as A
from service.rules.errors import IllegalActionError
from tests.helpers.game_setups import catacombs_1e

AFTER = ["mercante", "corridoio", "signore-della-catacomba"]


def test_every_basic_attack_inflicts_one_wound() -> None:
    """catacombs-1e-rules-italian.txt: Attacchi di Tipo Base ("Tutti gli attacchi base infliggono un punto
    ferita"): melee, ranged (the Elf's arrow) and fireball (the Wizard's)"""
    g = catacombs_1e(["caserma", *AFTER])
    g.enter_battle()
    g.act("hero-barbaro", "melee", "monster-orco-1")
    g.do(A.PlayCard("hero-elfo", "freccia"))
    g.do(A.ResolveShot("hero-elfo", "missile", direct_hits=("monster-orco-2",)))
    g.finish("hero-elfo")
    assert g.character("monster-orco-1").health == 1 and g.character("monster-orco-2").health == 1
    g.do(A.PlayCard("hero-mago", "palla-di-fuoco"))
    g.do(A.ResolveShot("hero-mago", "fireball", direct_hits=("monster-orco-1",)))
    g.finish("hero-mago")
    assert not g.character("monster-orco-1").alive


def test_a_critical_attack_inflicts_an_extra_wound() -> None:
    """catacombs-1e-rules-italian.txt: Gli Attacchi Modificati (Colpo Critico: "infliggerà 2 danni invece di
    1")"""
    g = catacombs_1e(["caserma", *AFTER], items={"barbaro": ["spada-affilata"]})
    g.enter_battle()
    g.do(A.PlayCard("hero-barbaro", "spada-affilata"))
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("monster-orco-1",)))
    g.finish("hero-barbaro")
    assert not g.character("monster-orco-1").alive  # two health points, two wounds


def test_a_then_sequence_is_one_action_and_an_or_sequence_one_of_its_attacks() -> None:
    """catacombs-1e-rules-italian.txt: Attacchi in Sequenza (two attacks "come parte della stessa azione"; the
    Skeleton Archer's melee or ranged attack, "non entrambi")"""
    g = catacombs_1e(["ossario", *AFTER])
    g.enter_battle()
    g.do(A.PlayCard("hero-ladra", "attacco-extra"))
    assert g.state.turn is not None
    assert [p.shot.kind for p in g.state.turn.queue] == ["melee", "melee"]
    g.do(A.ResolveShot("hero-ladra", "melee", direct_hits=("monster-scheletro-arciere-1",)))
    g.do(A.ResolveShot("hero-ladra", "melee", direct_hits=("monster-scheletro-arciere-2",)))
    assert (
        not g.character("monster-scheletro-arciere-1").alive
        and not g.character("monster-scheletro-arciere-2").alive
    )
    assert g.state.turn is None and "hero-ladra" in g.state.acted  # one action, both attacks


def test_the_skeleton_archer_chooses_melee_or_missile_not_both() -> None:
    """catacombs-1e-rules-italian.txt: Attacchi in Sequenza (Or)"""
    g = catacombs_1e(["ossario", *AFTER])
    g.enter_battle()
    g.side_idles()
    g.do(A.DeclareAction("monster-scheletro-arciere-1", 1))
    assert g.state.turn is not None
    assert [p.shot.kind for p in g.state.turn.queue] == ["missile"]
    with pytest.raises(IllegalActionError):
        g.rules.check(g.state, A.ResolveShot("monster-scheletro-arciere-1", "melee"))


def test_an_item_is_only_for_the_heroes_its_card_names_and_stops_while_its_hero_is_incapacitated() -> None:
    """catacombs-1e-rules-italian.txt: Equipaggiamento ("Un oggetto può essere solo usato dall'eroe o dagli
    eroi indicati sulla carta"; "L'effetto di un oggetto cessa di funzionare quando l'eroe è incapacitato")"""
    g = catacombs_1e(["mercante", "caserma", *AFTER], items={"barbaro": ["spada-affilata"]})
    g.enter_room()
    g.do(A.SetGold("hero-elfo", 1000, "gold from the rooms"))
    cards = g.rules.content.hero_cards
    not_his = [i for i in g.state.market if cards.get(i) and "elfo" not in cards[i]]
    assert not_his  # five of the nine cards are for other heroes; six are revealed
    with pytest.raises(IllegalActionError, match="can be used only by"):
        g.rules.check(g.state, A.UseService("buy", target="hero-elfo", item=not_his[0]))
    g.enter_battle()
    g.do(A.SetStatus("hero-barbaro", INCAPACITATED, True, "stunned last round"))
    with pytest.raises(IllegalActionError):
        g.rules.check(g.state, A.PlayCard("hero-barbaro", "spada-affilata"))
    g.do(A.SetStatus("hero-barbaro", INCAPACITATED, False, "a new round"))
    assert g.rules.is_legal(g.state, A.PlayCard("hero-barbaro", "spada-affilata"))


def test_the_components_are_the_limit_no_gold_card_no_gold_no_piece_no_monster(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: Punti importanti (2: "se non ci sono più Carte Oro ... gli eroi non
    otterranno oro"; "se nella riserva non è presente un certo tipo di mostro ... non potrà usare quel
    mostro")"""
    (tmp_path / "monsters.yaml").write_text("monsters:\n  orco:\n    pieces: 1\n", encoding="utf-8")
    g = catacombs_1e(["caserma", *AFTER], overlay=tmp_path, treasury=0)
    g.enter_battle()
    monsters = [m.id for m in g.state.room_monsters]
    assert [m for m in monsters if "orco" in m] == ["monster-orco-1"]  # the card names two, the box has one
    heroes = ["hero-barbaro", "hero-elfo", "hero-ladra", "hero-mago"]
    for hero, monster in zip(heroes, [*monsters, "monster-orco-1"], strict=False):
        g.act(hero, "melee", monster)
    assert g.state.phase == "resolution"
    assert all(h.gold == 0 for h in g.state.heroes) and g.state.treasury == 0


def test_the_party_pays_together_and_a_price_it_cannot_meet_is_refused_by_the_merchants_rule() -> None:
    """catacombs-1e-rules-italian.txt: Il mercante ("I giocatori possono ... scambiarsi l'oro"); Il
    guaritore"""
    g = catacombs_1e(["mercante", "guaritore", *AFTER])
    g.enter_room()
    item = next(i for i in g.state.market if not g.rules.content.hero_cards.get(i))
    with pytest.raises(IllegalActionError) as refused:
        g.rules.check(g.state, A.UseService("buy", target="hero-elfo", item=item))
    assert refused.value.rule == "catacombs-1e-rules-italian.txt: Il mercante"
    g.do(A.SetGold("hero-barbaro", 1000, "gold from the rooms"))
    g.do(A.UseService("buy", target="hero-elfo", item=item))  # the Barbarian's gold pays for the Elf's item
    assert item in g.character("hero-elfo").items and g.character("hero-barbaro").gold < 1000
    g.enter_room()
    g.do(A.SetGold("hero-barbaro", 200, "what is left"))
    g.do(A.SetHealth("hero-elfo", 5, "wounded"))
    with pytest.raises(IllegalActionError, match="party holds 200") as refused:
        g.rules.check(g.state, A.UseService("restoring_touch", target="hero-elfo"))
    assert refused.value.rule == "catacombs-1e-rules-italian.txt: Il guaritore"
