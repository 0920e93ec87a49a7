"""Catacombs 1E rules, each played as at a table (the 1E manual, cited by its Italian headings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.games.catacombs.first_edition.ruleset import INCAPACITATED
from service.games.catacombs.flow import actions as A
from service.rules.errors import IllegalActionError
from tests.helpers.game_setups import catacombs_1e
from tests.helpers.rules_script import RulesScript

ROOMS = [
    "corridoio",
    "caserma",
    "mercante",
    "ossario",
    "sala-delle-fiamme",
    "guaritore",
    "labirinto",
    "signore-della-catacomba",
]


def overlay(tmp_path: Path, monsters: str) -> Path:
    (tmp_path / "monsters.yaml").write_text("monsters:\n" + monsters, encoding="utf-8")
    return tmp_path


# == preparation ==================================================================================
def test_the_heroes_start_with_their_health_no_gold_and_the_wizards_spells() -> None:
    """catacombs-1e-rules-italian.txt: Preparazione degli eroi"""
    g = catacombs_1e()
    health = {h.card: h.health for h in g.state.heroes}
    assert health == {"barbaro": 12, "elfo": 12, "ladra": 10, "mago": 8}
    assert all(h.gold == 0 for h in g.state.heroes)
    assert set(g.character("hero-mago").spells) == {"evocazione-dello-scheletro", "assorbi-energia"}
    assert g.character("hero-elfo").abilities == ("freccia", "freccia")  # two arrow discs


def test_the_catacomb_is_built_level_by_level_with_the_merchant_healer_and_lord() -> None:
    """catacombs-1e-rules-italian.txt: Configurare la Catacomba; Preparazione del gioco (the four heroes,
    whatever the number of players)"""
    deck = catacombs_1e().state.room_deck
    cards = catacombs_1e().rules.content
    levels = [
        cards.room(r).difficulty if cards.room(r).kind == "battle" else cards.room(r).kind for r in deck
    ]
    assert levels == [0, 1, "merchant", 1, 1, "healer", 2, "lair"]
    with pytest.raises(IllegalActionError, match="four heroes"):
        catacombs_1e(heroes=["barbaro", "elfo"])


def test_exploration_flips_the_next_room_and_preparation_places_its_monsters() -> None:
    """catacombs-1e-rules-italian.txt: 1: La Fase Esplorazione; 2: La Fase di Preparazione; Le Carte Stanza
    (the monsters the card names)"""
    g = catacombs_1e(ROOMS)
    g.enter_room()
    assert g.state.room_id == "corridoio" and g.state.phase == "setup"
    assert sorted(m.card for m in g.state.room_monsters) == ["zombie", "zombie", "zombie"]


def test_wandering_monsters_come_from_the_lords_sheet() -> None:
    """catacombs-1e-rules-italian.txt: I Mostri Erranti"""
    g = catacombs_1e(["caserma", *ROOMS[1:]], lord="dragone")
    g.enter_room()
    # La Caserma shows one wandering monster icon; in the Dragon's catacomb it is a Fire Spirit.
    assert sorted(m.card for m in g.state.room_monsters) == [
        "orco",
        "orco",
        "scheletro-guerriero",
        "spirito-del-fuoco",
    ]


# == combat =======================================================================================
def test_a_round_is_every_heros_action_then_the_keepers_monsters() -> None:
    """catacombs-1e-rules-italian.txt: 3. La Fase Combattimento"""
    g = catacombs_1e(ROOMS)
    g.enter_battle()
    g.idle("hero-mago")  # the heroes act in any order
    with pytest.raises(IllegalActionError):
        g.do(A.DeclareAction("monster-zombie-1", 0))
    g.side_idles("hero-mago")
    assert g.state.side == "overseer"
    g.side_idles()
    assert g.state.side == "heroes" and g.state.round == 2


def test_an_action_is_the_basic_melee_or_a_special_action_not_both() -> None:
    """catacombs-1e-rules-italian.txt: 3. La Fase Combattimento (un'azione)"""
    g = catacombs_1e(ROOMS)
    g.enter_battle()
    g.do(A.PlayCard("hero-elfo", "freccia"))
    g.do(A.ResolveShot("hero-elfo", "missile", direct_hits=("monster-zombie-1",)))
    assert not g.character("monster-zombie-1").alive
    with pytest.raises(IllegalActionError):
        g.do(A.DeclareAction("hero-elfo", 0))


def test_a_hit_wounds_one_point_a_two_point_monster_is_flipped_and_no_friendly_fire() -> None:
    """catacombs-1e-rules-italian.txt: Colpi e danni"""
    g = catacombs_1e(["caserma", *ROOMS[1:]])
    g.enter_battle()
    g.act("hero-barbaro", "melee", "monster-orco-1", "hero-elfo")
    assert g.character("monster-orco-1").health == 1 and g.character("monster-orco-1").alive
    assert g.character("hero-elfo").health == 12
    g.act("hero-elfo", "melee", "monster-orco-1")
    assert not g.character("monster-orco-1").alive


def test_resolution_pays_each_hero_the_gold_of_the_monsters_it_killed_in_hundreds() -> None:
    """catacombs-1e-rules-italian.txt: 5. La Fase di Risoluzione; 3. La Fase Combattimento (Nota: the room is
    complete "al termine di un round"): the heroes who have not acted still act, then the gold is paid"""
    g = catacombs_1e(["cripta", *ROOMS[1:]])
    g.enter_battle()
    g.act("hero-mago", "melee", "monster-scheletro-guerriero-1")
    g.act("hero-barbaro", "melee", "monster-scheletro-guerriero-2")
    g.act("hero-ladra", "melee", "monster-scheletro-arciere-1")
    assert g.state.phase == "battle" and g.rules.can_act(g.state, g.character("hero-elfo"))
    assert all(h.gold == 0 for h in g.state.heroes)  # nothing is paid before the round ends
    assert len(g.character("hero-mago").trophies) == 1  # the disc waits beside the Wizard's sheet
    g.idle("hero-elfo")
    assert g.state.phase == "resolution" and g.state.round == 1
    gold = {h.card: h.gold for h in g.state.heroes}
    # Two Skeleton Warriors at 200 each; the Thief earns 100 more for each monster she eliminates.
    assert gold == {"mago": 200, "barbaro": 200, "ladra": 200, "elfo": 0}


# == incapacitation ===============================================================================
def test_a_stunned_hero_is_incapacitated_for_the_next_round_then_recovers(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: Incapacità; Gli Attacchi Modificati (Colpo stordente)"""
    stun = "  zombie:\n    shot_sequences: [[{shot: melee, modifier: stun}]]\n"
    g = catacombs_1e(ROOMS, overlay=overlay(tmp_path, stun))
    g.enter_battle()
    g.side_idles()
    g.act("monster-zombie-1", "melee", "hero-elfo")
    elf = g.character("hero-elfo")
    assert elf.health == 11 and elf.has(INCAPACITATED)
    g.side_idles()
    assert g.state.round == 2 and g.character("hero-elfo").has(INCAPACITATED)
    assert not g.rules.can_act(g.state, g.character("hero-elfo"))  # the Elf skips this round
    g.side_idles()
    # While incapacitated he can be wounded, but not stunned again.
    g.act("monster-zombie-2", "melee", "hero-elfo")
    g.side_idles()
    assert g.state.round == 3 and not g.character("hero-elfo").has(INCAPACITATED)
    assert g.rules.can_act(g.state, g.character("hero-elfo"))


def test_the_barbarians_frenzy_leaves_him_incapacitated() -> None:
    """catacombs-1e-rules-italian.txt: Colpi in sequenza"""
    g = catacombs_1e(["caserma", *ROOMS[1:]])
    g.enter_battle()
    g.do(A.PlayCard("hero-barbaro", "furia"))
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("monster-orco-1",)))
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("monster-orco-2",)))
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("monster-orco-2",)))  # twice in a row: ignored
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("monster-orco-1",)))
    assert not g.character("monster-orco-1").alive and g.character("monster-orco-2").health == 1
    assert g.character("hero-barbaro").has(INCAPACITATED)


def test_the_keeper_wins_when_every_hero_is_dead_or_incapacitated(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: Cose importanti (3); Condizioni di Vittoria"""
    stun = "  zombie:\n    shot_sequences: [[{shot: melee, modifier: stun}]]\n"
    g = catacombs_1e(ROOMS, overlay=overlay(tmp_path, stun))
    g.enter_battle()
    for hero in ("hero-barbaro", "hero-elfo", "hero-ladra"):
        g.do(A.SetHealth(hero, 0, "a test of the end"))
    g.idle("hero-mago")
    g.act("monster-zombie-1", "melee", "hero-mago")
    assert g.state.outcome == "overseer"


# == monster abilities ============================================================================
def test_retaliation_a_monster_hit_by_melee_strikes_back_even_when_destroyed() -> None:
    """catacombs-1e-rules-italian.txt: Abilità dei mostri (Rappresaglia)"""
    g = catacombs_1e(["labirinto", *ROOMS[1:]])
    g.enter_battle()
    g.do(A.DeclareAction("hero-barbaro", 0))
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("monster-minotauro-1",)))
    assert g.state.turn is not None and g.state.turn.queue[0].actor == "monster-minotauro-1"
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("hero-elfo",)))
    assert g.character("hero-elfo").health == 11  # a melee attack: one point


def test_a_retaliation_comes_before_the_last_monster_leaves_the_room(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: Abilità dei mostri (Rappresaglia: before it is removed)"""
    lone = "  minotauro:\n    health: 1\n"
    g = catacombs_1e(["labirinto", *ROOMS[1:]], overlay=overlay(tmp_path, lone))
    g.enter_battle()
    for m in [m for m in g.state.room_monsters if m.card != "minotauro"]:
        g.do(A.SetHealth(m.id, 0, "cleared"))
    g.do(A.DeclareAction("hero-barbaro", 0))
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("monster-minotauro-1",)))
    assert not g.character("monster-minotauro-1").alive and g.state.phase == "battle"
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("hero-ladra",)))
    assert g.character("hero-ladra").health == 9 and g.state.phase == "battle"
    g.side_idles()  # the end of the round: no monster is left
    assert g.state.phase == "resolution"


def test_retaliation_only_answers_melee() -> None:
    """catacombs-1e-rules-italian.txt: Abilità dei mostri (Rappresaglia: only melee attacks)"""
    g = catacombs_1e(["labirinto", *ROOMS[1:]])
    g.enter_battle()
    g.do(A.PlayCard("hero-elfo", "freccia"))
    g.do(A.ResolveShot("hero-elfo", "missile", direct_hits=("monster-minotauro-1",)))
    assert g.state.turn is None


def test_regeneration_a_wounded_monster_is_whole_again_at_the_end_of_the_round() -> None:
    """catacombs-1e-rules-italian.txt: Abilità dei mostri (Rigenerazione)"""
    g = catacombs_1e(["tana-del-troll", *ROOMS[1:]])
    g.enter_battle()
    g.act("hero-barbaro", "melee", "monster-troll-1")
    assert g.character("monster-troll-1").health == 1
    g.side_idles()
    g.side_idles()
    assert g.character("monster-troll-1").health == 2


def test_fire_wall_a_fire_spirit_that_hurts_a_hero_becomes_an_obstacle() -> None:
    """catacombs-1e-rules-italian.txt: Abilità dei mostri (Muro di Fuoco)"""
    g = catacombs_1e(["sala-delle-fiamme", *ROOMS[1:]])
    g.enter_battle()
    g.side_idles()
    g.act("monster-spirito-del-fuoco-1", "melee", "hero-ladra")
    wall = g.character("monster-spirito-del-fuoco-1")
    assert wall.kind == "fire_wall" and g.character("hero-ladra").health == 9
    assert wall not in g.state.room_monsters or wall.kind != "monster"
    # Touching the wall in any way hurts a hero; monsters are immune.
    g.side_idles()
    g.do(A.DeclareAction("hero-elfo", 0))
    g.do(A.ResolveShot("hero-elfo", "melee", fire_wall_contacts=("hero-elfo",)))
    assert g.character("hero-elfo").health == 11


def test_feeding_frenzy_a_zombie_that_hurts_a_hero_is_incapacitated() -> None:
    """catacombs-1e-rules-italian.txt: Abilità dei mostri (Frenesia di nutrimento)"""
    g = catacombs_1e(ROOMS)
    g.enter_battle()
    g.side_idles()
    g.act("monster-zombie-1", "melee", "hero-elfo")
    assert g.character("monster-zombie-1").has(INCAPACITATED)
    g.side_idles()
    g.side_idles()
    assert not g.rules.can_act(g.state, g.character("monster-zombie-1"))  # it skips the Keeper's next turn


def test_absorption_only_melee_attacks_damage_a_fire_demon() -> None:
    """catacombs-1e-rules-italian.txt: Abilità dei mostri (Assorbimento)"""
    g = catacombs_1e(["sala-delle-fiamme", *ROOMS[1:]])
    g.enter_battle()
    g.do(A.PlayCard("hero-mago", "palla-di-fuoco"))
    g.do(A.ResolveShot("hero-mago", "fireball", direct_hits=("monster-demone-del-fuoco-1",)))
    assert g.character("monster-demone-del-fuoco-1").alive
    g.act("hero-barbaro", "melee", "monster-demone-del-fuoco-1")
    assert not g.character("monster-demone-del-fuoco-1").alive


# == death, allies ================================================================================
def test_a_dead_hero_keeps_gold_and_items_earns_nothing_for_the_room_and_stays_dead() -> None:
    """catacombs-1e-rules-italian.txt: Morte di un eroe"""
    g = catacombs_1e(["cripta", "corridoio", *ROOMS[2:]])
    g.enter_battle()
    g.do(A.SetGold("hero-ladra", 500, "gold from an earlier room"))
    g.act("hero-ladra", "melee", "monster-scheletro-guerriero-1")
    g.do(A.SetHealth("hero-ladra", 0, "killed"))
    g.act("hero-barbaro", "melee", "monster-scheletro-guerriero-2")
    g.act("hero-elfo", "melee", "monster-scheletro-arciere-1")
    g.side_idles()
    ladra = g.character("hero-ladra")
    assert g.state.phase == "resolution" and not ladra.alive and ladra.gold == 500
    g.enter_battle()
    assert not g.character("hero-ladra").alive


def test_the_summoned_skeleton_waits_a_turn_fights_and_turns_to_dust() -> None:
    """catacombs-1e-rules-italian.txt: Alleati (lo scheletro evocato)"""
    g = catacombs_1e(ROOMS)
    g.enter_battle()
    g.do(A.PlayCard("hero-mago", "evocazione-dello-scheletro"))
    g.do(A.ResolveShot("hero-mago", "summon"))
    skeleton = g.character("ally-scheletro-evocato")
    assert skeleton.kind == "ally" and skeleton.health == 1
    assert not g.rules.can_act(g.state, skeleton)  # not on the turn it is summoned
    g.side_idles()
    g.side_idles()
    g.act("ally-scheletro-evocato", "melee", "monster-zombie-1")
    assert not g.character("monster-zombie-1").alive
    g.act("hero-barbaro", "melee", "monster-zombie-2")
    g.act("hero-elfo", "melee", "monster-zombie-3")
    assert g.state.phase == "battle" and g.character("ally-scheletro-evocato").alive  # the round goes on
    g.side_idles()
    assert g.state.phase == "resolution" and not g.character("ally-scheletro-evocato").alive
    assert g.character("hero-mago").gold == 100  # monsters killed by an ally belong to its controller


def test_the_familiar_causes_no_damage_and_returns_in_the_next_room() -> None:
    """catacombs-1e-rules-italian.txt: Alleati (il famiglio)"""
    g = catacombs_1e(ROOMS, items={"mago": ["famiglio"]})
    g.enter_battle()
    familiar = next(c for c in g.state.characters if c.kind == "familiar")
    g.act(familiar.id, "melee", "monster-zombie-1")
    assert g.character("monster-zombie-1").alive
    g.side_idles()
    g.act("monster-zombie-1", "melee", familiar.id)
    assert not g.character(familiar.id).in_room
    for z in ("monster-zombie-1", "monster-zombie-2", "monster-zombie-3"):
        g.do(A.SetHealth(z, 0, "cleared"))
    g.enter_battle()
    assert g.character(familiar.id).in_room and g.character(familiar.id).alive


# == special rooms ================================================================================
def to_merchant(g: RulesScript) -> None:
    for _ in range(2):
        g.enter_battle()
        for m in g.state.room_monsters:
            if m.alive:
                g.do(A.SetHealth(m.id, 0, "cleared"))
    g.enter_room()
    assert g.state.room_kind == "merchant"


def test_the_merchant_shows_six_items_and_two_at_half_price() -> None:
    """catacombs-1e-rules-italian.txt: Il mercante; Carte Stanze Speciali (the Merchant's card, flipped in the
    Exploration Phase)"""
    g = catacombs_1e(ROOMS)
    to_merchant(g)
    assert len(g.state.market) == 6
    for hero in ("hero-barbaro", "hero-elfo", "hero-ladra"):
        g.do(A.SetGold(hero, 1000, "gold from the rooms"))
    costs = {i: g.rules.content.card("item", i).cost or 0 for i in g.state.market}
    any_hero = [i for i in g.state.market if not g.rules.content.hero_cards.get(i)]
    first, *rest = sorted(costs, key=lambda i: (i not in any_hero, i))
    g.do(A.UseService("buy", target="hero-elfo", item=first))
    assert (
        g.character("hero-elfo").gold == 1000 - -(-costs[first] // 200) * 100
        and first in g.character("hero-elfo").items
    )


def test_the_merchant_price_is_halved_for_two_items_only_and_heroes_pool_gold() -> None:
    """catacombs-1e-rules-italian.txt: Il mercante (prezzo speciale; scambiarsi l'oro)"""
    g = catacombs_1e(ROOMS)
    to_merchant(g)
    market = list(g.state.market)
    g.do(A.SetGold("hero-barbaro", 3000, "gold"))
    bought = []
    for item in market:
        if g.rules.content.hero_cards.get(item) and "barbaro" not in g.rules.content.hero_cards[item]:
            continue
        before = g.character("hero-barbaro").gold
        g.do(A.UseService("buy", target="hero-barbaro", item=item))
        bought.append(
            (g.rules.content.card("item", item).cost or 0, before - g.character("hero-barbaro").gold)
        )
    assert [paid for _, paid in bought[:2]] == [-(-cost // 200) * 100 for cost, _ in bought[:2]]
    assert all(paid == cost for cost, paid in bought[2:])


def test_the_healer_restores_one_point_for_300_and_resurrects_for_1000() -> None:
    """catacombs-1e-rules-italian.txt: Il guaritore"""
    g = catacombs_1e(["guaritore", *ROOMS])
    g.enter_room()
    g.do(A.SetHealth("hero-barbaro", 10, "wounded"))
    g.do(A.SetHealth("hero-mago", 0, "dead"))
    g.do(A.SetGold("hero-ladra", 1300, "gold"))
    g.do(A.SetGold("hero-elfo", 300, "gold"))
    g.do(A.UseService("restoring_touch", target="hero-barbaro", payment=(("hero-elfo", 300),)))
    assert g.character("hero-barbaro").health == 11 and g.character("hero-elfo").gold == 0
    g.do(A.UseService("resurrection", target="hero-mago", payment=(("hero-ladra", 1000),)))
    assert g.character("hero-mago").alive and g.character("hero-mago").health == 2
    g.do(A.SetHealth("hero-barbaro", 12, "healed"))
    with pytest.raises(IllegalActionError, match="starting level"):
        g.do(A.UseService("restoring_touch", target="hero-barbaro", payment=(("hero-ladra", 300),)))


# == the final battle =============================================================================
def test_the_lord_melees_or_performs_one_special_action_and_dies_to_win_the_game() -> None:
    """catacombs-1e-rules-italian.txt: Condizioni di Vittoria; Scegliere un Signore della Catacomba (his
    marker on the top of his health track)"""
    g = catacombs_1e(["signore-della-catacomba"], lord="dragone")
    g.enter_battle()
    lord = g.character("lord-dragone")
    assert lord.health == 8 and len(lord.shot_sequences) == 3
    assert sorted(m.card for m in g.state.room_monsters if m.kind == "monster") == ["spirito-del-fuoco"] * 2
    g.do(A.SetHealth("lord-dragone", 1, "worn down"))
    g.act("hero-barbaro", "melee", "lord-dragone")
    assert g.state.outcome == "heroes"


def test_the_dragon_summons_two_fire_spirits_as_his_special_action() -> None:
    """catacombs-1e-rules-italian.txt: Le azioni speciali del Signore della Catacomba"""
    g = catacombs_1e(["signore-della-catacomba"], lord="dragone")
    g.enter_battle()
    g.side_idles()
    for m in [m for m in g.state.room_monsters if m.kind == "monster"]:
        g.idle(m.id)
    g.do(A.DeclareAction("lord-dragone", 1))
    g.do(A.ResolveShot("lord-dragone", "summon"))
    g.do(A.ResolveShot("lord-dragone", "summon"))
    spirits = [m for m in g.state.room_monsters if m.card == "spirito-del-fuoco" and m.alive]
    assert len(spirits) == 4


def test_a_refusal_cites_the_first_edition_manual() -> None:
    """catacombs-1e-rules-italian.txt: 3. La Fase Combattimento (the heroes act first)"""
    g = catacombs_1e(ROOMS)
    g.enter_battle()
    with pytest.raises(IllegalActionError) as refused:
        g.do(A.DeclareAction("monster-zombie-1", 0))
    assert refused.value.rule == "catacombs-1e-rules-italian.txt: 3. La Fase Combattimento"


def test_the_elf_shoots_his_two_arrows_a_room_and_no_more() -> None:
    """catacombs-1e-rules-italian.txt: Preparazione degli eroi (two arrow discs); 3. La Fase Combattimento"""
    g = catacombs_1e(["caserma", *ROOMS[1:]])
    g.enter_battle()
    for _ in range(2):
        g.do(A.PlayCard("hero-elfo", "freccia"))
        g.do(A.ResolveShot("hero-elfo", "missile"))
        g.side_idles()
        g.side_idles()
    with pytest.raises(IllegalActionError):
        g.do(A.PlayCard("hero-elfo", "freccia"))


def test_the_sorcerer_is_seen_but_not_hurt_while_his_servants_stand() -> None:
    """catacombs-1e-rules-italian.txt: La Battaglia Finale: Il Signore della Catacomba (Stregone)"""
    g = catacombs_1e(["signore-della-catacomba"], lord="stregone")
    g.enter_battle()
    servants = [m.id for m in g.state.room_monsters if m.kind == "monster" and m.alive]
    assert len(servants) == 2
    g.act("hero-barbaro", "melee", "lord-stregone")
    assert g.character("lord-stregone").health == 6  # an illusion: hit, not wounded
    g.act("hero-elfo", "melee", *servants)
    assert not any(g.character(s).alive for s in servants)
    g.act("hero-ladra", "melee", "lord-stregone")
    assert g.character("lord-stregone").health == 5
