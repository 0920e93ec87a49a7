"""Catacombs First Edition (catacombs-1e-rules-italian.txt) as a variant of the Catacombs turn flow.

The Keeper (il Custode) is the Overseer side of ``CatacombsFlow``; the room, turn, shot and gold machinery is
the Catacombs game both editions share (``flow.game.CatacombsGame``; Catacombs 3E is its sibling), read from
the first edition's cards (``cards.Catacombs1ECards``). What the first edition does differently is here:

- 1: La Fase Esplorazione / Configurare la Catacomba: the Room deck is level 0, level 1, the Merchant, two
  level 1 cards, the Healer, a level 2 card and the Catacomb Lord; the Keeper turns the top card; the Lord's
  card starts the final battle. 2: La Fase di Preparazione: the board the Room card names
  (``catacombs1e_setup.py``, with who controls which hero and the Lord's sheet).
- Fine del Round: the room ends at the end of the round in which its last monster falls; the Keeper wins at
  the moment no hero can act; the Keeper may decline a regeneration (``catacombs1e_rounds.py``).
- Preparazione degli eroi: the Barbarian's rage track; his Frenzy spends rage (``catacombs1e_rage.py``).
- Incapacità: a stun makes its target incapacitated (no action) until the end of the round after the one in
  which it happened; never again while incapacitated; allies cannot be incapacitated. All heroes dead or
  incapacitated (and no ally able to act): the Keeper wins.
- Morte di un eroe: a dead hero stays dead (keeping gold and items, but no gold for the room) until the
  Healer's Resurrection.
- Abilità dei mostri: retaliation, end-of-round regeneration, fire wall, feeding frenzy, absorption.
- Gli Attacchi Modificati: a critical attack inflicts its extra point on every target it strikes.
- La Battaglia Finale: the Gorgon turns a hero to stone (``petrified``, a status of its own, not
  incapacitation): no action until the battle ends.
- I Mostri Erranti: the Lord's sheet names the wandering monster placed for each icon on a Room card.
- Il mercante / Il guaritore (``catacombs1e_services.py``); gold in hundreds; the Thief's 100 per kill.
- Alleati: the summoned skeleton (one health point, melee, not on the turn it comes, dust when the room is
  complete) and the familiar (a melee that causes no damage; wounded, it is back in the next room).

Readings of unclear text are in docs/rulings.md ("Catacombs 1E").
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence as Seq
from typing import Any

from service.games.catacombs.first_edition import actions as A
from service.games.catacombs.first_edition import rage, refusals, rounds, services
from service.games.catacombs.first_edition import setup as setup1e
from service.games.catacombs.first_edition.cards import Catacombs1ECards
from service.games.catacombs.first_edition.tx import (
    INCAPACITATED,
    INCAPACITATED_THIS_ROUND,
    PETRIFIED,
    Catacombs1ETx,
)
from service.games.catacombs.flow import events as E
from service.games.catacombs.flow import pieces
from service.games.catacombs.flow.game import CatacombsGame
from service.games.catacombs.flow.ruleset import CatacombsFlow
from service.games.catacombs.flow.shots import Sequence, Shot
from service.games.catacombs.flow.state import (
    HEROES,
    OVERSEER,
    Character,
    GameState,
    Pending,
    PlannedShot,
    Turn,
)
from service.games.catacombs.flow.tx import Tx
from service.rules import rng
from service.rules.errors import (
    CardNotPlayableError,
    IllegalActionError,
    WrongPhaseError,
)
from service.rules.evolve import evolve

MANUAL = "catacombs-1e-rules-italian.txt"
SKELETON = "scheletro-evocato"
TREASURY = 20 * 100 + 20 * 500  # Componenti: 40 gold cards of 100 and 500 (the split is a stand-in)
HERO_SIDE = ("hero", "ally", "familiar")


def cite1(section: str) -> str:
    return f"{MANUAL}: {section}"


class Catacombs1E(CatacombsGame):
    name = "catacombs-1e"
    gold_in_box = TREASURY
    content: Catacombs1ECards

    def check(self, state: GameState, action: A.Action) -> None:
        if rounds.regeneration_assumed(state, action):
            state = self.regeneration_accepted(state)
        try:
            super().check(state, action)
        except IllegalActionError as exc:
            manual, _, section = exc.rule.partition(": ")
            if manual.startswith(("RULINGS.md", "catacombs-3e")):
                raise type(exc)(exc.reason, refusals.rule_1e(section)) from None
            raise

    def rule_for_pending(self, state: GameState) -> str:
        kind = state.pending.kind if state.pending is not None else ""
        return refusals.pending_rule(kind)

    def _check_decide(self, state: GameState, action: A.Decide) -> None:
        try:
            super()._check_decide(state, action)
        except IllegalActionError as exc:
            if state.pending is None:
                raise
            raise type(exc)(exc.reason, self.rule_for_pending(state)) from None

    # == a new game ===============================================================================
    def new_game(
        self,
        heroes: Seq[str],
        lord: str,
        rooms: Seq[str],
        seed: int,
        treasury: int | None = None,
        items: Mapping[str, Seq[str]] | None = None,
        spells: Mapping[str, Seq[str]] | None = None,
    ) -> GameState:
        """Preparazione del gioco: four heroes (the players share them out), no gold, full health; the
        Wizard's Spell cards beside his sheet (all of them unless the setup names them)."""
        if len(heroes) != 4 or len(set(heroes)) != 4:
            raise IllegalActionError(
                f"the game is played with the four heroes, got {list(heroes)}",
                cite1("Preparazione del gioco"),
            )
        if not spells:
            everything = tuple(c.id for c in self.content.cards("spell"))
            spells = {h: everything for h in heroes if self.content.hero(h).spell_caster}
        state = super().new_game(
            heroes, lord, rooms, seed, self.gold_in_box if treasury is None else treasury, items, spells
        )
        state = setup1e.with_lord_sheet(self, evolve(state, poison_deck=()))
        return rage.with_rage_tracks(self.content, state)

    def new_game_from_setup(self, setup: Mapping[str, Any]) -> GameState:
        """Configurare la Catacomba: the setup's ``rooms``, or the recommended deck dealt from the seed; a
        ``position`` starts from a described position (docs/positions.md)."""
        if "position" in setup:
            state = super().new_game_from_setup(setup)
            return rage.with_rage_tracks(self.content, setup1e.with_lord_sheet(self, state))
        rooms = setup.get("rooms") or self.deal_rooms(int(setup.get("seed", 0)))
        state = self.new_game(
            setup["heroes"],
            setup["lord"],
            rooms,
            int(setup.get("seed", 0)),
            treasury=setup.get("treasury"),
            items=setup.get("items"),
            spells=setup.get("spells"),
        )
        return setup1e.with_players(state, setup1e.controllers(setup.get("players"), setup["heroes"]))

    def deal_rooms(self, seed: int) -> list[str]:
        """Configurare la Catacomba, steps 1-7: level 0, level 1, Merchant, level 1, level 1, Healer, level 2,
        the Catacomb Lord (each level's cards shuffled)."""
        state = rng.seed_state(seed ^ 0x1E)
        dealt: dict[int, list[str]] = {}
        for level, count in ((0, 1), (1, 3), (2, 1)):
            state, shuffled = rng.shuffled(state, tuple(self.content.rooms_of_level(level)))
            if len(shuffled) < count:
                raise IllegalActionError(
                    f"the content has {len(shuffled)} level {level} Room card(s); the deck needs {count}",
                    cite1("Configurare la Catacomba"),
                )
            dealt[level] = list(shuffled[:count])
        merchant, healer = self.content.special_room("merchant"), self.content.special_room("healer")
        lord = self.content.special_room("lair")
        return [dealt[0][0], dealt[1][0], merchant, dealt[1][1], dealt[1][2], healer, dealt[2][0], lord]

    # == exploration: the top Room card, its board; the Lord's sheet ================================
    def rooms_that_can_come_next(self, state: GameState) -> list[str]:
        return setup1e.rooms_that_can_come_next(self, state)

    def _check_draw_cards(self, state: GameState, action: A.DrawCards) -> None:
        super()._check_draw_cards(state, action)
        if action.deck == "rooms":
            setup1e.check_named_rooms(self, state, action)

    def _check_enter_room(self, state: GameState, action: A.EnterRoom) -> None:
        """1: La Fase Esplorazione; 2: La Fase di Preparazione (the card's board; no rule against the same
        side twice running); moving on from a battle with no monster left ends its round (rounds.move_on)."""
        if state.phase == "battle" and not rounds.board_is_clear(state):
            raise WrongPhaseError(
                "monsters are still on the board: the room ends at the end of a round without them",
                cite1("3. La Fase Combattimento"),
            )
        # The Exploration Phase follows the Resolution Phase that moving on brings (rounds.move_on).
        after = evolve(state, playmat=None, phase="resolution" if state.phase == "battle" else state.phase)
        super()._check_enter_room(after, action)
        setup1e.check_board(self, state, action)

    def _do_enter_room(self, tx: Tx, action: A.EnterRoom) -> None:
        if tx.state.phase == "battle":
            rounds.move_on(self, tx)
        tx.state = setup1e.with_named_room_on_top(tx.state)
        super()._do_enter_room(tx, evolve(action, playmat=None))
        board = self.content.board_of(tx.state.room_id or "") if tx.state.room_index >= 0 else None
        playmat = board or (action.playmat if tx.state.room_kind == "lair" else None)
        if playmat is not None and tx.state.phase != "game_over":
            tx.state = evolve(tx.state, playmat=playmat)
            tx.events = [
                evolve(e, text=f"{e.text} (board {playmat})") if isinstance(e, E.RoomEntered) else e
                for e in tx.events
            ]

    def place_lord(self, tx: Tx) -> None:
        """La Battaglia Finale: the Lord comes onto the board with the health his sheet's track shows."""
        for c in tx.state.characters:
            if c.kind == "lord" and c.card == tx.state.lord and not c.in_room:
                tx.update(evolve(c, in_room=True))
        super().place_lord(tx)

    def return_dead_heroes(self, tx: Tx) -> None:
        """Morte di un eroe: the dead stay dead (only the Healer brings them back); a familiar wounded in the
        last room comes back beside the Wizard in the Preparation Phase (Alleati)."""
        for c in tx.state.characters:
            owner = tx.state.find(c.owner or "")
            if c.kind == "familiar" and not c.in_room and owner is not None and owner.alive:
                tx.update(evolve(c, in_room=True, alive=True, health=c.max_health))

    # == who may act ==============================================================================
    def can_act(self, state: GameState, c: Character) -> bool:
        if c.has(INCAPACITATED) or c.has(PETRIFIED):
            return False  # Incapacità: "Eroi incapaci non possono effettuare nessuna azione"; stone neither
        return super().can_act(state, c)

    def hero_sequences(self, state: GameState, hero: Character) -> tuple[Sequence, ...]:
        return hero.shot_sequences

    def _check_declare(self, state: GameState, action: A.DeclareAction) -> None:
        refusals.why_cannot_act(state, action.character)
        super()._check_declare(state, action)

    # == shots ====================================================================================
    def shot_damage(self, state: GameState, attacker: Character, target: Character, shot: Shot) -> int:
        if attacker.kind == "familiar":
            return 0  # Alleati: the familiar's melee attack "non causa danni"
        if self.content.has(target.card, "absorption") and target.kind == "monster" and shot.kind != "melee":
            return 0  # Assorbimento: "può solo essere danneggiato da attacchi corpo a corpo"
        if target.kind == "lord" and target.card in self.content.illusion_lords:
            # La Battaglia Finale: "maestro dell'illusione, può essere visto, ma non ferito" - read as: not
            # while one of his monsters is still in the room (docs/rulings.md, the sheet is not transcribed).
            if any(m.kind == "monster" and m.alive and m.in_room for m in state.characters):
                return 0
        return shot.base_damage  # a critical attack's extra point: Catacombs1ETx.damage

    def after_hits(self, tx: Tx, attacker: Character, shot: Shot, damaged: tuple[str, ...]) -> None:
        if shot.kind != "melee":
            return
        heroes_hurt = [t for t in damaged if tx.char(t).kind in HERO_SIDE]
        if attacker.kind == "monster" and heroes_hurt:
            if self.content.has(attacker.card, "fire_wall"):
                # Muro di Fuoco: flipped at once; an obstacle that hurts the heroes, no longer a monster.
                tx.update(evolve(tx.char(attacker.id), kind="fire_wall"))
                tx.emit(
                    E.StatusChanged(f"{attacker.name} becomes a wall of fire", attacker.id, "fire_wall", True)
                )
            elif self.content.has(attacker.card, "feeding_frenzy"):
                # Frenesia di nutrimento: flipped and incapacitated after damaging a hero with a melee attack.
                self.incapacitate(tx, tx.char(attacker.id), "feeding frenzy")
        if attacker.kind in ("hero", "ally"):
            for target_id in damaged:
                target = tx.char(target_id)
                if target.kind == "monster" and self.content.has(target.card, "retaliation"):
                    # Rappresaglia: the Keeper may melee with it at once (even if this hit removed it).
                    turn = tx.state.turn
                    if turn is not None:
                        strike = PlannedShot(Shot("melee"), target.id, -1, actor=target.id)
                        tx.set_turn(evolve(turn, queue=(strike, *turn.queue)))
                        tx.emit(
                            E.StatusChanged(f"{target.name} may retaliate", target.id, "retaliation", True)
                        )

    # == the rage track (catacombs1e_rage.py) =====================================================
    def _check_play_card(self, state: GameState, action: A.PlayCard) -> None:
        refusals.why_cannot_act(state, action.character, action)
        super()._check_play_card(state, action)
        if action.rush_first:
            # 3. La Fase Combattimento: an action is the basic melee or a special action, "non possono
            # effettuare entrambe": no rush comes before a spell (the third edition's rule).
            raise CardNotPlayableError(
                "no rush comes before a spell or any card", cite1("3. La Fase Combattimento")
            )
        rage.check_spend(self.content, state, action)

    def _do_play_card(self, tx: Tx, action: A.PlayCard) -> None:
        rage.spend(self.content, tx, action)
        super()._do_play_card(tx, action)

    def _check_gain_rage(self, state: GameState, action: A.GainRage) -> None:
        rage.check_gain(self.content, state, action)

    def _do_gain_rage(self, tx: Tx, action: A.GainRage) -> None:
        rage.gain(self.content, tx, action)

    def _check_set_rage(self, state: GameState, action: A.SetRage) -> None:
        rage.check_set(self.content, state, action)

    def _do_set_rage(self, tx: Tx, action: A.SetRage) -> None:
        rage.set_rage(self.content, tx, action)

    def _check_set_status(self, state: GameState, action: A.SetStatus) -> None:
        """The Keeper as arbiter (Punti importanti 4) also puts the first edition's statuses right."""
        if action.status in (INCAPACITATED, PETRIFIED):
            self._character(state, action.character)
            return
        super()._check_set_status(state, action)

    def _do_resolve_shot(self, tx: Tx, action: A.ResolveShot) -> None:
        """Gli Attacchi Modificati, Colpo Critico: "un punto ferita extra ogni volta che vanno a segno": every
        target the attack strikes takes the extra point with the basic one (docs/rulings.md), where the third
        edition gives it to one target of the attacker's choice."""
        turn = tx.state.turn
        planned = next((p for p in turn.candidates() if p.shot.kind == action.shot), None) if turn else None
        if (
            turn is None
            or planned is None
            or planned.shot.modifier != "critical"
            or not isinstance(tx, Catacombs1ETx)
        ):
            super()._do_resolve_shot(tx, action)
            return
        basic = evolve(planned, shot=evolve(planned.shot, modifier=None))
        tx.set_turn(evolve(turn, queue=tuple(basic if p is planned else p for p in turn.queue)))
        tx.critical_by = planned.actor or turn.character
        already = len(tx.events)
        try:
            super()._do_resolve_shot(tx, action)
        finally:
            tx.critical_by = None
        label = planned.shot.label  # the events name the attack as it was declared
        tx.events[already:] = [
            evolve(e, text=e.text.replace(f" {basic.shot.label} shot", f" {label} shot"), shot=label)
            if isinstance(e, E.ShotResolved)
            else e
            for e in tx.events[already:]
        ]

    def _check_resolve_shot(self, state: GameState, action: A.ResolveShot) -> None:
        turn = state.turn
        planned = turn.candidates() if turn is not None else ()
        if any(p.shot.summons == SKELETON and p.shot.kind == action.shot for p in planned):
            CatacombsFlow._check_resolve_shot(self, state, action)  # the skeleton is no Monster Pool piece
            return
        super()._check_resolve_shot(state, action)

    def summon(self, tx: Tx, summoner: Character, card_id: str) -> None:
        """The Wizard's Evocazione dello Scheletro; a Lord's summons (his sheet) are placed in the room."""
        if summoner.side == HEROES:
            self.summon_skeleton(tx, summoner)
            return
        before = {c.id for c in tx.state.characters}
        self.place_monsters(tx, self.content.monster(card_id), 1)
        for c in tx.state.characters:
            if c.id not in before:
                tx.state = evolve(tx.state, acted=(*tx.state.acted, c.id))  # it acts from the next round

    def summon_skeleton(self, tx: Tx, wizard: Character) -> None:
        """Alleati: within 2.5 cm of the Wizard; melee only; one health point; not on the turn summoned."""
        skeleton = Character(
            id=f"ally-{SKELETON}",
            name="Scheletro Evocato",
            side=HEROES,
            kind="ally",
            card=SKELETON,
            health=1,
            max_health=1,
            shot_sequences=(Sequence((Shot("melee"),)),),
            owner=wizard.id,
        )
        others = tuple(c for c in tx.state.characters if c.id != skeleton.id)
        tx.state = evolve(tx.state, characters=(*others, skeleton), acted=(*tx.state.acted, skeleton.id))
        tx.emit(E.AllyRecruited(f"{wizard.name} summons a skeleton", skeleton.id, wizard.id))

    def turn_ended(self, tx: Tx, turn: Turn, character: Character) -> None:
        super().turn_ended(tx, turn, character)
        if turn.source in self.content.incapacitating and character.alive:
            # Colpi in sequenza: "Il Barbaro dopo aver completato il suo attacco ... incapacitato".
            self.incapacitate(tx, tx.char(character.id), turn.source)

    # == incapacitation ===========================================================================
    def incapacitate(self, tx: Tx, c: Character, why: str) -> None:
        """Incapacità: for the rest of this round and the whole of the next; never twice running; allies and
        familiars never."""
        if c.kind in ("ally", "familiar") or c.has(INCAPACITATED) or not c.alive:
            return
        tx.update(c.with_status(INCAPACITATED).with_status(INCAPACITATED_THIS_ROUND))
        tx.emit(E.StatusChanged(f"{c.name} is incapacitated ({why})", c.id, INCAPACITATED, True))

    def perform(self, state: GameState, action: A.Action) -> tuple[GameState, list[E.Event]]:
        events: list[E.Event] = []
        while rounds.regeneration_assumed(state, action):
            assert state.pending is not None
            monster = state.character(state.pending.character or "").name
            state, accepted = self.perform_one(state, A.Decide(state.pending.id, rounds.REGENERATE))
            said = f"{monster} regenerates: the table went on without the Keeper declining"
            events += [
                E.DecisionMade(said, e.decision, e.option) if isinstance(e, E.DecisionMade) else e
                for e in accepted
            ]
        state, done = self.perform_one(state, action)
        return state, events + done

    def perform_one(self, state: GameState, action: A.Action) -> tuple[GameState, list[E.Event]]:
        tx = Catacombs1ETx(state, self)
        getattr(self, f"_do_{action.name}")(tx, action)
        rounds.keeper_wins(self, tx)  # Cose importanti 3: "In un qualunque momento"
        return pieces.without_shields_of_the_dead(tx.state, tx.events)

    def end_of_round(self, tx: Tx) -> None:
        """Riassunto delle regole: "Qualunque pezzo ... incapacitato ottenuto nel round precedente, ritorna
        nel suo stato normale" (the rest of the round's end: catacombs1e_rounds.end_round)."""
        for c in tx.state.characters:
            if c.has(INCAPACITATED_THIS_ROUND):
                tx.update(c.without_status(INCAPACITATED_THIS_ROUND))
            elif c.has(INCAPACITATED):
                tx.update(c.without_status(INCAPACITATED))
                tx.emit(E.StatusChanged(f"{c.name} is no longer incapacitated", c.id, INCAPACITATED, False))

    def decide_regeneration(self, tx: Tx, pending: Pending, option: str) -> None:
        rounds.decide_regeneration(tx, pending, option)

    def regeneration_accepted(self, state: GameState) -> GameState:
        """The state once the open regeneration decisions are taken as accepted (regeneration_assumed)."""
        while state.pending is not None and state.pending.kind == rounds.REGENERATION:
            state, _ = self.perform_one(state, A.Decide(state.pending.id, rounds.REGENERATE))
        return state

    # == ends of rooms and games ==================================================================
    def overseer_has_won(self, state: GameState) -> bool:
        """Cose importanti 3: all heroes incapacitated or dead and nobody can take an action (a hero of stone
        cannot either)."""
        if any(h.alive and not h.has(INCAPACITATED) and not h.has(PETRIFIED) for h in state.heroes):
            return False
        return not any(c.kind in ("ally", "familiar") and c.alive and c.in_room for c in state.characters)

    def room_is_clear(self, state: GameState) -> bool:
        """Never in the middle of a round: the room ends "al termine di un round" (rounds.end_round), so a
        retaliation still owed by a monster just destroyed comes first (Rappresaglia)."""
        return False

    def keeps_destroyed_disc(self, state: GameState) -> bool:
        """Colpi e danni: "Il disco del mostro eliminato viene posizionato vicino alla scheda del giocatore
        che ha eliminato il mostro", in the final battle too (3E's Lair returns it to the pool)."""
        return True

    def end_battle(self, tx: Tx) -> None:
        """La Fase di Risoluzione; the summoned skeleton "si ridurrà in polvere" when the room is complete."""
        for c in tx.state.characters:
            if c.card == SKELETON and c.kind == "ally" and c.alive:
                tx.update(evolve(c, alive=False, in_room=False))
                tx.emit(E.Destroyed(f"{c.name} crumbles to dust", c.id, None))
            if c.has(INCAPACITATED) or c.has(PETRIFIED):
                tx.update(c.without_status(INCAPACITATED, INCAPACITATED_THIS_ROUND, PETRIFIED))
        super().end_battle(tx)

    # == special rooms ============================================================================
    def choices(self, state: GameState) -> list[A.Action]:
        found = [a for a in super().choices(state) if not isinstance(a, A.UseService)]
        if state.phase == "special_room" and state.pending is None:
            offers = [
                A.UseService(service, target=h.id, item=item)
                for service in services.services_of(state)
                for h in state.heroes
                for item in (dict.fromkeys(state.market) if service == "buy" else (None,))
            ]
            found += [a for a in offers if self.is_legal(state, a)]
        if state.phase == "battle" and self.is_legal(state, A.EnterRoom()):
            found.append(A.EnterRoom())  # no monster is left: the table may move on (catacombs1e_rounds)
        return found

    def _check_use_service(self, state: GameState, action: A.UseService) -> None:
        services.check(self, state, action)

    def _do_use_service(self, tx: Tx, action: A.UseService) -> None:
        services.apply(self, tx, action)


__all__ = ["Catacombs1E", "INCAPACITATED", "OVERSEER", "PETRIFIED"]
