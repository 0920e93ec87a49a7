"""Catacombs 1E as its own manual has it where the third edition's rules used to leak in: the end of a
room and of a round, the Keeper's win, the Room cards' order and boards, critical attacks, regeneration, the
discs on a hero's board, the Lord's sheet and the players (catacombs-1e-rules-italian.txt, its headings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.content import ContentError
from service.games.catacombs.first_edition.ruleset import INCAPACITATED, Catacombs1E
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.position import load_position, position_of
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.state import GameState
from service.rules.errors import IllegalActionError
from tests.helpers.game_setups import CATACOMBS_1E, catacombs_1e, shipped_cards
from tests.helpers.rules_script import RulesScript

AFTER = ["mercante", "corridoio", "signore-della-catacomba"]
MANUAL = "catacombs-1e-rules-italian.txt"


def refused(g: RulesScript, action: A.Action) -> str:
    with pytest.raises(IllegalActionError) as refusal:
        g.rules.check(g.state, action)
    return refusal.value.rule


# == the end of a room: at the end of its round ====================================================
def test_the_room_ends_at_the_end_of_the_round_in_which_its_last_monster_falls() -> None:
    """catacombs-1e-rules-italian.txt: 3. La Fase Combattimento (Nota: "una stanza viene considerata
    completa se solo gli eroi, alleati ... si trova sul tavolo di gioco al termine di un round"); Riassunto
    delle regole (Fine del Round: "Ci sono ancora dei mostri presenti sulla plancia di Gioco? ... No: La Fase
    di Combattimento termina ed inizia la Fase di Risoluzione")"""
    g = catacombs_1e(["corridoio", *AFTER])
    g.enter_battle()
    for zombie, hero in zip(("1", "2", "3"), ("hero-barbaro", "hero-elfo", "hero-ladra"), strict=True):
        g.act(hero, "melee", f"monster-zombie-{zombie}")
    # The last monster has fallen; the Wizard has not acted and still may, before any gold is paid.
    assert g.state.phase == "battle" and g.state.side == "heroes"
    assert g.rules.can_act(g.state, g.character("hero-mago")) and g.state.treasury == 12000
    g.do(A.PlayCard("hero-mago", "palla-di-fuoco"))
    g.do(A.ResolveShot("hero-mago", "fireball"))
    # The Keeper's turn has no monster: the round ends and the Resolution Phase pays (100 a zombie).
    assert g.state.phase == "resolution"
    assert {h.card: h.gold for h in g.state.heroes} == {"barbaro": 100, "elfo": 100, "ladra": 200, "mago": 0}


def test_turning_the_next_room_card_with_no_monster_left_ends_the_round_and_pays_first() -> None:
    """catacombs-1e-rules-italian.txt: 3. La Fase Combattimento (the heroes "possono fare un'azione"; the room
    complete at the end of the round); 5. La Fase di Risoluzione; 1: La Fase Esplorazione"""
    g = catacombs_1e(["corridoio", *AFTER])
    g.enter_battle()
    g.act("hero-barbaro", "melee", "monster-zombie-1")
    rule = refused(g, A.EnterRoom())  # monsters are still on the board
    assert rule == f"{MANUAL}: 3. La Fase Combattimento"
    for zombie in ("monster-zombie-2", "monster-zombie-3"):
        g.do(A.SetHealth(zombie, 0, "cleared by the table"))
    assert A.EnterRoom() in g.rules.choices(g.state)
    g.do(A.EnterRoom())  # the Elf, the Thief and the Wizard forgo their actions
    assert g.character("hero-barbaro").gold == 100 and g.state.room_id == "mercante"


def test_a_monster_destroyed_in_the_keepers_turn_ends_the_room_only_when_the_turn_is_over(
    tmp_path: Path,
) -> None:
    """catacombs-1e-rules-italian.txt: 3. La Fase Combattimento (Nota: "al termine di un round"); Abilità dei
    mostri (Rappresaglia: the monster's attack comes before it leaves the board)"""
    lone = tmp_path / "monsters.yaml"
    lone.write_text("monsters:\n  minotauro:\n    health: 1\n", encoding="utf-8")
    g = catacombs_1e(["labirinto", *AFTER], overlay=tmp_path)
    g.enter_battle()
    for m in [m for m in g.state.room_monsters if m.card != "minotauro"]:
        g.do(A.SetHealth(m.id, 0, "cleared"))
    g.do(A.DeclareAction("hero-elfo", 0))
    g.do(A.ResolveShot("hero-elfo", "melee", direct_hits=("monster-minotauro-1",)))
    g.do(A.SkipShot("hero-elfo"))  # the Keeper does not take the retaliation
    assert g.state.phase == "battle" and g.state.turn is None
    g.side_idles()
    assert g.state.phase == "resolution" and g.character("hero-elfo").gold == 300


# == the Keeper's win: at any moment ===============================================================
def test_the_keeper_wins_the_moment_a_frenzy_leaves_no_hero_able_to_act() -> None:
    """catacombs-1e-rules-italian.txt: Cose importanti (3: "In un qualunque momento in cui tutti gli eroi sono
    incapaci o morti e nessun giocatore può effettuare un'azione, allora il gioco termina con la vittoria del
    Custode"); Colpi in sequenza (the Barbarian incapacitated after his Frenzy)"""
    g = catacombs_1e(["caserma", *AFTER])
    g.enter_battle()
    for hero in ("hero-elfo", "hero-ladra"):
        g.do(A.SetHealth(hero, 0, "fallen"))
    g.do(A.SetStatus("hero-mago", INCAPACITATED, True, "stunned in the last round"))
    g.do(A.PlayCard("hero-barbaro", "furia"))
    for _ in range(4):
        g.do(A.ResolveShot("hero-barbaro", "melee"))
    # No Keeper's shot is needed: nobody can act any more, and the Wizard would recover at the round's end.
    assert g.state.outcome == "overseer" and g.state.phase == "game_over"
    assert not g.rules.is_legal(g.state, A.DeclareAction("monster-orco-1", 0))


def test_the_keeper_wins_when_a_stun_incapacitates_the_last_hero_able_to_act(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: Condizioni di Vittoria ("Se tutti gli eroi sono stati eliminati o sono
    incapacitati in un qualunque momento"); Incapacità"""
    (tmp_path / "monsters.yaml").write_text(
        "monsters:\n  zombie:\n    shot_sequences: [[{shot: melee, modifier: stun}]]\n", encoding="utf-8"
    )
    g = catacombs_1e(["corridoio", *AFTER], overlay=tmp_path)
    g.enter_battle()
    for hero in ("hero-barbaro", "hero-elfo", "hero-ladra"):
        g.do(A.SetStatus(hero, INCAPACITATED, True, "stunned in the last round"))
    g.idle("hero-mago")
    g.do(A.DeclareAction("monster-zombie-1", 0))
    g.do(A.ResolveShot("monster-zombie-1", "melee", direct_hits=("hero-mago",)))
    assert g.state.outcome == "overseer"


# == the Room cards: the top card, its board ======================================================
def test_the_keeper_turns_the_top_room_card_and_another_named_card_is_refused() -> None:
    """catacombs-1e-rules-italian.txt: 1: La Fase Esplorazione ("Partendo dalla cima, il Custode gira la prima
    carta stanza non rivelata")"""
    g = catacombs_1e(["corridoio", "caserma", "mercante", "ossario", *AFTER[1:]])
    rule = refused(g, A.DrawCards("rooms", ("mercante",)))
    assert rule == f"{MANUAL}: 1: La Fase Esplorazione"
    g.do(A.DrawCards("rooms", ("corridoio",)))
    g.enter_room()
    assert g.state.room_id == "corridoio"


def test_at_a_physical_table_the_named_card_must_be_of_the_top_cards_level() -> None:
    """catacombs-1e-rules-italian.txt: Configurare la Catacomba (each level's cards shuffled, dealt face down:
    level 0, level 1, the Merchant, two level 1 cards, the Healer, level 2, the Lord); 1: La Fase
    Esplorazione"""
    rules = Catacombs1E(shipped_cards(CATACOMBS_1E), Settings(physical_decks=True))
    deck = ["corridoio", "caserma", "mercante", "ossario", "tana-del-troll", "guaritore", "labirinto"]
    state = rules.new_game(
        ["barbaro", "elfo", "ladra", "mago"], "dragone", [*deck, "signore-della-catacomba"], 1
    )
    for out_of_order in ("caserma", "mercante", "signore-della-catacomba"):
        assert not rules.is_legal(state, A.DrawCards("rooms", (out_of_order,)))
    state, _ = rules.apply(state, A.DrawCards("rooms", ("corridoio", "tana-del-troll", "mercante")))
    state, _ = rules.apply(state, A.EnterRoom())
    assert state.room_id == "corridoio"
    for zombie in [m.id for m in state.room_monsters]:
        state, _ = rules.apply(state, A.SetHealth(zombie, 0, "cleared"))
    state, _ = rules.apply(state, A.StartBattle())
    state, _ = rules.apply(state, A.EnterRoom())
    # The level 1 card turned changes places with the one on top: the Merchant is still the third card.
    assert state.room_id == "tana-del-troll"
    assert state.room_deck[:5] == ("corridoio", "tana-del-troll", "mercante", "ossario", "caserma")


def test_the_board_is_the_one_the_room_card_names_and_the_same_side_may_come_twice() -> None:
    """catacombs-1e-rules-italian.txt: 2: La Fase di Preparazione ("Prende la plancia di gioco indicata dalla
    carta stanza"; the third edition's rule against one side twice running is not in this manual); Carte
    Stanze Speciali (no board for the Merchant)"""
    g = catacombs_1e(["cripta", "ossario", "mercante", *AFTER[1:]])
    assert g.rules.content.board_of("cripta") == g.rules.content.board_of("ossario") == "plancia-1-a"
    assert refused(g, A.EnterRoom(playmat="plancia-2-a")) == f"{MANUAL}: 2: La Fase di Preparazione"
    g.do(A.EnterRoom(playmat="plancia-1-a"))
    assert g.state.playmat == "plancia-1-a"
    assert any("plancia-1-a" in e.text for e in g.events if type(e).__name__ == "RoomEntered")
    for m in g.state.room_monsters:
        g.do(A.SetHealth(m.id, 0, "cleared"))
    g.do(A.StartBattle())
    g.do(A.EnterRoom(playmat="plancia-1-a"))  # the same side again: the card calls for it
    assert g.state.room_id == "ossario" and g.state.playmat == "plancia-1-a"
    for m in g.state.room_monsters:
        g.do(A.SetHealth(m.id, 0, "cleared"))
    g.do(A.StartBattle())
    assert refused(g, A.EnterRoom(playmat="plancia-1-a")) == f"{MANUAL}: Carte Stanze Speciali"


def test_a_battle_room_card_without_its_board_is_refused_by_the_content_check(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: Le Carte Stanza (3: "Sfondo della plancia di gioco"); Componenti (three
    double-sided boards)"""
    (tmp_path / "rooms.yaml").write_text(
        "rooms:\n  nuova:\n    name: Nuova\n    kind: battle\n    level: 1\n"
        "    monsters: [{monster: orco, count: 1}]\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentError, match="board side"):
        catacombs_1e(overlay=tmp_path)


# == attacks ======================================================================================
def test_no_rush_comes_before_a_spell() -> None:
    """catacombs-1e-rules-italian.txt: 3. La Fase Combattimento ("Un'azione è considerata essere o un attacco
    base da mischia dell'eroe ... o un'azione speciale. Comunque non possono effettuare entrambe")"""
    g = catacombs_1e(["corridoio", *AFTER])
    g.enter_battle()
    spell = A.PlayCard("hero-mago", "evocazione-dello-scheletro", rush_first=True)
    assert refused(g, spell) == f"{MANUAL}: 3. La Fase Combattimento"
    g.do(A.PlayCard("hero-mago", "evocazione-dello-scheletro"))
    assert g.state.turn is not None and [p.shot.kind for p in g.state.turn.queue] == ["summon"]


def test_a_critical_attack_adds_its_point_to_every_target_it_strikes() -> None:
    """catacombs-1e-rules-italian.txt: Gli Attacchi Modificati (Colpo Critico: "infliggono un punto ferita
    extra ogni volta che vanno a segno"); Colpi e danni ("Mostri multipli possono essere feriti da un singolo
    attacco se l'attacco colpisce loro direttamente")"""
    g = catacombs_1e(["caserma", *AFTER], items={"barbaro": ["spada-affilata"]})
    g.enter_battle()
    g.do(A.PlayCard("hero-barbaro", "spada-affilata"))
    g.do(A.ResolveShot("hero-barbaro", "melee", direct_hits=("monster-orco-1", "monster-orco-2")))
    assert g.state.pending is None  # no target to choose: both take two points
    assert not g.character("monster-orco-1").alive and not g.character("monster-orco-2").alive
    damage = [(e.character, e.amount) for e in g.events if type(e).__name__ == "Damaged"]
    assert damage == [("monster-orco-1", 2), ("monster-orco-2", 2)]
    assert [e.shot for e in g.events if type(e).__name__ == "ShotResolved"] == ["critical melee"]


# == regeneration ==================================================================================
def wounded_troll() -> RulesScript:
    g = catacombs_1e(["tana-del-troll", *AFTER])
    g.enter_battle()
    g.act("hero-barbaro", "melee", "monster-troll-1")
    g.side_idles()
    g.side_idles()
    return g


def test_the_keeper_may_decline_a_monsters_regeneration() -> None:
    """catacombs-1e-rules-italian.txt: Abilità dei mostri (Rigenerazione: "il Custode può riportarlo a pieni
    punti vita")"""
    g = catacombs_1e(["tana-del-troll", *AFTER])
    g.enter_battle()
    g.act("hero-barbaro", "melee", "monster-troll-1")
    g.side_idles()
    for c in list(g.state.characters):
        if g.state.side == "overseer" and g.rules.can_act(g.state, g.character(c.id)):
            g.do(A.DeclareAction(c.id, 0))
            g.do(A.ResolveShot(c.id, "melee"))
    pending = g.state.pending
    assert pending is not None and pending.kind == "regeneration" and pending.character == "monster-troll-1"
    g.do(A.Decide(pending.id, "no"))
    assert g.character("monster-troll-1").health == 1 and g.state.round == 2


def test_a_table_that_goes_on_without_declining_lets_the_monster_regenerate() -> None:
    """catacombs-1e-rules-italian.txt: Abilità dei mostri (Rigenerazione, "alla fine di un round")"""
    g = catacombs_1e(["tana-del-troll", *AFTER])
    g.enter_battle()
    g.act("hero-barbaro", "melee", "monster-troll-1")
    g.side_idles()
    for c in list(g.state.characters):
        if g.state.side == "overseer" and g.rules.can_act(g.state, g.character(c.id)):
            g.do(A.DeclareAction(c.id, 0))
            g.do(A.ResolveShot(c.id, "melee"))
    assert g.state.pending is not None and g.character("monster-troll-1").health == 1
    g.do(A.DeclareAction("hero-elfo", 0))  # the round goes on: the Keeper did not decline
    assert g.character("monster-troll-1").health == 2 and g.state.turn is not None


# == discs, the Lord's sheet, the players ===========================================================
def test_a_dead_heros_discs_stay_on_his_board_until_the_resolution_returns_them_unpaid() -> None:
    """catacombs-1e-rules-italian.txt: Colpi e danni ("Il disco del mostro eliminato viene posizionato vicino
    alla scheda del giocatore che ha eliminato il mostro"); Morte di un eroe; 5. La Fase di Risoluzione"""
    g = catacombs_1e(["corridoio", *AFTER])
    g.enter_battle()
    g.act("hero-ladra", "melee", "monster-zombie-1")
    g.do(A.SetHealth("hero-ladra", 0, "fallen"))
    supply = dict(g.state.monster_supply)["zombie"]
    assert g.character("hero-ladra").trophies == ("monster-zombie-1",)
    assert g.state.monster_pool()["zombie"] == supply - 3  # two on the board, one beside her sheet
    for zombie in ("monster-zombie-2", "monster-zombie-3"):
        g.do(A.SetHealth(zombie, 0, "cleared"))
    g.side_idles()
    assert (
        g.state.phase == "resolution"
        and g.character("hero-ladra").gold == 0
        and g.character("hero-ladra").trophies == ()
    )
    assert g.state.monster_pool()["zombie"] == supply


def test_in_the_final_battle_a_destroyed_servants_disc_stays_off_the_monster_pool() -> None:
    """catacombs-1e-rules-italian.txt: Colpi e danni (the disc beside the sheet of the hero who eliminated
    it); Punti importanti (2: "se nella riserva non è presente un certo tipo di mostro, allora il Custode non
    potrà usare quel mostro")"""
    g = catacombs_1e(["signore-della-catacomba"], lord="dragone")
    g.enter_battle()
    g.act("hero-barbaro", "melee", "monster-spirito-del-fuoco-1")
    assert g.character("hero-barbaro").trophies == ("monster-spirito-del-fuoco-1",)
    supply = dict(g.state.monster_supply)["spirito-del-fuoco"]
    assert g.state.monster_pool()["spirito-del-fuoco"] == supply - 2


def test_the_lords_sheet_is_set_up_with_the_game_and_his_health_carried_into_the_final_battle() -> None:
    """catacombs-1e-rules-italian.txt: Scegliere un Signore della Catacomba ("piazza un segnalino sul numero
    più alto dell'indicatore dei punti vita"); La Battaglia Finale"""
    g = catacombs_1e(["corridoio", "signore-della-catacomba"], lord="dragone")
    lord = g.character("lord-dragone")
    assert (lord.health, lord.max_health, lord.in_room) == (8, 8, False)
    assert not g.rules.can_act(g.state, lord) and lord not in g.state.room_monsters
    g.do(A.SetHealth("lord-dragone", 6, "the marker as the Keeper's sheet shows it"))
    g.enter_battle()
    for m in g.state.room_monsters:
        g.do(A.SetHealth(m.id, 0, "cleared"))
    g.enter_battle()
    assert (
        g.state.room_kind == "lair"
        and g.character("lord-dragone").in_room
        and g.character("lord-dragone").health == 6
    )


def test_the_players_share_the_four_heroes_as_the_manual_says() -> None:
    """catacombs-1e-rules-italian.txt: Preparazione del gioco ("4 giocatori: Custode, 2 giocatori controllano
    un eroe ciascuno e 1 giocatore controlla 2 eroi"; 3 players: two heroes each; 2 players: all four)"""
    g = catacombs_1e(players={"anna": ["barbaro", "elfo"], "bruno": ["ladra"], "carla": ["mago"]})
    assert {h.card: h.player for h in g.state.heroes} == {
        "barbaro": "anna",
        "elfo": "anna",
        "ladra": "bruno",
        "mago": "carla",
    }
    view = {c["id"]: c.get("player") for c in g.state.public_view()["characters"]}
    assert view["hero-elfo"] == "anna" and view["lord-dragone"] is None
    assert GameState.from_json(g.state.to_json()) == g.state  # the canonical form keeps them
    assert load_position(g.rules, position_of(g.state)) == g.state  # and the position format
    assert '"player"' not in catacombs_1e().state.to_json()  # and names nobody when the setup does not
    assert (
        catacombs_1e(players={"dario": ["barbaro", "elfo", "ladra", "mago"]}).character("hero-mago").player
        == "dario"
    )
    for wrong in (
        {"anna": ["barbaro", "elfo", "ladra"], "bruno": ["mago"]},  # two players: two heroes each
        {"anna": ["barbaro", "elfo"], "bruno": ["ladra"]},  # nobody controls the Wizard
        {"anna": ["barbaro"], "bruno": ["barbaro", "elfo", "ladra", "mago"]},  # the Barbarian twice
        {"anna": ["barbaro", "elfo"], "bruno": ["ladra", "mago", "guerriero"]},  # no such hero
    ):
        with pytest.raises(IllegalActionError) as refusal:
            catacombs_1e(players=wrong)
        assert refusal.value.rule == f"{MANUAL}: Preparazione del gioco"


# == refusals that cite the rule they enforce =======================================================
def test_refusals_name_the_first_edition_rule_they_enforce() -> None:
    """catacombs-1e-rules-italian.txt: Incapacità ("Eroi incapaci non possono effettuare nessuna azione");
    Equipaggiamento ("L'effetto di un oggetto cessa di funzionare quando l'eroe è incapacitato"); Morte di un
    eroe; 3. La Fase Combattimento; Il mercante"""
    g = catacombs_1e(["corridoio", "mercante", *AFTER[1:]], items={"barbaro": ["spada-affilata"]})
    g.enter_battle()
    g.do(A.SetStatus("hero-barbaro", INCAPACITATED, True, "stunned"))
    g.do(A.SetHealth("hero-ladra", 0, "fallen"))
    assert refused(g, A.DeclareAction("hero-barbaro", 0)) == f"{MANUAL}: Incapacità"
    assert refused(g, A.PlayCard("hero-barbaro", "furia")) == f"{MANUAL}: Incapacità"
    assert refused(g, A.PlayCard("hero-barbaro", "spada-affilata")) == f"{MANUAL}: Equipaggiamento"
    assert refused(g, A.DeclareAction("hero-ladra", 0)) == f"{MANUAL}: Morte di un eroe"
    assert refused(g, A.DeclareAction("monster-zombie-1", 0)) == f"{MANUAL}: 3. La Fase Combattimento"
    for z in ("monster-zombie-1", "monster-zombie-2", "monster-zombie-3"):
        g.do(A.SetHealth(z, 0, "cleared"))
    g.do(A.EnterRoom())
    item = next(i for i in g.state.market if not g.rules.content.hero_cards.get(i))
    g.do(A.SetGold("hero-elfo", 100, "gold"))
    overpaid = A.UseService("buy", target="hero-elfo", item=item, payment=(("hero-elfo", 200),))
    assert refused(g, overpaid) == f"{MANUAL}: Il mercante"


def test_a_lord_cannot_summon_a_monster_whose_discs_are_all_on_the_heroes_boards(tmp_path: Path) -> None:
    """catacombs-1e-rules-italian.txt: Punti importanti (2: "se nella riserva non è presente un certo tipo di
    mostro, allora il Custode non potrà usare quel mostro"); Colpi e danni (the discs beside the heroes'
    sheets); Le azioni speciali del Signore della Catacomba"""
    (tmp_path / "monsters.yaml").write_text(
        "monsters:\n  spirito-del-fuoco:\n    pieces: 2\n", encoding="utf-8"
    )
    g = catacombs_1e(["signore-della-catacomba"], lord="dragone", overlay=tmp_path)
    g.enter_battle()
    g.act("hero-barbaro", "melee", "monster-spirito-del-fuoco-1")
    g.act("hero-elfo", "melee", "monster-spirito-del-fuoco-2")
    g.side_idles()
    g.do(A.DeclareAction("lord-dragone", 1))  # his special action: two fire spirits
    rule = refused(g, A.ResolveShot("lord-dragone", "summon"))
    assert rule == f"{MANUAL}: Punti importanti"
    g.do(A.SkipShot("lord-dragone"))
    g.do(A.SkipShot("lord-dragone"))
    assert g.state.round == 2 and not any(m.alive for m in g.state.room_monsters if m.kind == "monster")
