"""Catacombs & Castles Second Edition as a rule set of the game-neutral core.

catacombs-and-castles-2e-manual.md. A side's turn: a character declares its shot sequence (``declare``), or a
charged card (``perform_card``); the sensors resolve each flick (``resolve_shot``); every shot is optional
(``skip_shot``, ``end_turn``). Damage, armour and transfers are in ``damage.py``, turn order in ``tx.py``,
the modes' setup in ``setup.py``. Rulings on unclear text: docs/rulings.md, "Catacombs & Castles 2E".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.games.castles.core import actions as A
from service.games.castles.core import damage, turns
from service.games.castles.core import events as CE
from service.games.castles.core.cards import Alternatives, CastlesCards, ChargedCard, Sequence
from service.games.castles.core.state import BOSS_MODES, CastlesState, CastlesTurn, Fighter, Planned
from service.games.castles.core.tx import CastlesTx
from service.games.castles.second_edition import charged_cards, corrections, shots
from service.games.castles.second_edition.setup import cite2e, new_game
from service.rules import events as E
from service.rules.decisions import Option, Pending
from service.rules.errors import (
    BadDecisionError,
    CardNotPlayableError,
    CharacterCannotActError,
    IllegalActionError,
    NoSuchAlternativeError,
    NotYourTurnError,
    UnexpectedShotError,
    UnknownCharacterError,
)
from service.rules.evolve import evolve
from service.rules.ruleset import RuleSet

TURN_ORDER = cite2e("Team Mode Turn Order")
SEQUENCES = cite2e("Shot Sequences")
ACTIONS = cite2e("Hero Actions")
NO_FLICK = ("move_to_rune", "open_portal")  # special shots: the piece is placed, nothing is flicked
TARGET_SHOTS = ("target", "target_melee")
# Transfer icons that apply only "if shown" on the card (Ranged Shots: fireball; Character Shots: temporal
# shift).
SHOWN_ONLY = {"fireball": ("void",), "temporal_shift": ("assist",)}


class CastlesSecondEdition(RuleSet[CastlesState, CastlesCards]):
    name = "catacombs-and-castles-2e"
    tx_type: type[CastlesTx] = CastlesTx
    target_shots: tuple[str, ...] = TARGET_SHOTS

    # == the base's contract ======================================================================
    def new_game_from_setup(self, setup: Mapping[str, Any]) -> CastlesState:
        """Team Mode Setup (RULINGS.md 10: ``"quick_start": true`` allows the Quick Start's sample team)."""
        return new_game(self.content, setup, self.name, roles_exception=bool(setup.get("quick_start", False)))

    def perform(self, state: CastlesState, action: A.Action) -> tuple[CastlesState, list[E.Event]]:
        tx = self.tx_type(state)
        getattr(self, f"_do_{action.name}")(tx, action)
        return tx.state, tx.events

    def rule_for_pending(self, state: CastlesState) -> str:
        kind = state.pending.kind if state.pending else ""
        return {
            "armour": cite2e("Armour Tokens"),
            "transfer": cite2e("Health and Transfer Types"),
            "summon": cite2e("Warriors"),
        }.get(kind, SEQUENCES)

    def game_over_rule(self) -> str:
        return cite2e("Team Mode Objective")

    def unknown_action_rule(self) -> str:
        return cite2e("Game Overview")

    def choices(self, state: CastlesState) -> list[A.Action]:
        candidates: list[A.Action] = []
        if state.pending is not None:
            candidates += [A.Decide(state.pending.id, o.id) for o in state.pending.options]
        elif state.turn is not None:
            candidates += [A.SkipShot(state.turn.character), A.EndTurn(state.turn.character)]
        elif state.phase == "battle":
            for c in state.characters:
                candidates += [A.DeclareAction(c.id, i) for i in range(len(self.sequences(state, c)))]
                for card in damage.cards_of(self.content, c):
                    candidates.append(A.PerformCard(c.id, self.card_key(c, card), alternative=0))
                candidates.append(A.ChangeForm(c.id))
        return [a for a in candidates if self.is_legal(state, a)]

    # == what a character may do ==================================================================
    def sequences(self, state: CastlesState, c: Fighter) -> Alternatives:
        if c.kind == "hero":
            return self.content.hero(c.card).sequences
        if c.kind == "warrior":
            return self.content.warrior(c.card).sequences
        boss = self.content.boss(c.card)
        return dict(boss.forms).get(c.form or "", ())

    def card_key(self, c: Fighter, card: ChargedCard) -> str:
        return card.kind if c.kind == "hero" else card.id

    def charged_card(self, c: Fighter, key: str) -> ChargedCard | None:
        for card in damage.cards_of(self.content, c):
            if self.card_key(c, card) == key or card.id == key:
                return card
        return None

    def may_move(self, state: CastlesState, c: Fighter) -> bool:
        if c.side == state.side_to_move:
            return True
        return c.kind == "warrior" and state.warrior_bonus == c.side

    # == checks ===================================================================================
    def _character(self, state: CastlesState, character_id: str) -> Fighter:
        c = state.find(character_id)
        if c is None:
            raise UnknownCharacterError(f"no character {character_id!r} in this game", TURN_ORDER)
        return c

    def _check_turn_start(self, state: CastlesState, c: Fighter) -> None:
        if state.turn is not None:
            raise NotYourTurnError(f"{state.turn.character} is still taking its turn", TURN_ORDER)
        if not self.may_move(state, c):
            raise NotYourTurnError(f"it is {state.side_to_move}'s turn, not {c.side}'s", TURN_ORDER)
        if not c.on_mat:
            raise CharacterCannotActError(f"{c.name} is not on the playmat", cite2e("Warriors"))
        if c.trapped:
            raise CharacterCannotActError(
                f"{c.name} is trapped under a net or web piece",
                cite2e("Variant Rules for the Net and Web Shots (Optional)"),
            )
        bonus_warrior = c.kind == "warrior" and state.mode not in BOSS_MODES
        if bonus_warrior and state.warrior_bonus != c.side:
            raise NotYourTurnError(
                "a warrior acts after a hero of its team has taken a turn", cite2e("Warriors")
            )
        if not bonus_warrior and c.id in state.acted:
            raise CharacterCannotActError(
                f"{c.name} has already taken a turn this round", cite2e("Team Mode Turn Order")
            )

    def _check_declare(self, state: CastlesState, action: A.DeclareAction) -> None:
        c = self._character(state, action.character)
        self._check_turn_start(state, c)
        sequences = self.sequences(state, c)
        if not sequences:
            raise CharacterCannotActError(
                f"{c.name}'s shot sequence is not known (add it with a content overlay)", SEQUENCES
            )
        if action.alternative is not None and not 0 <= action.alternative < len(sequences):
            raise NoSuchAlternativeError(
                f"{c.name} has {len(sequences)} alternative(s); {action.alternative} is not one",
                cite2e('"Or" Connector Example'),
            )

    def _check_perform_card(self, state: CastlesState, action: A.PerformCard) -> None:
        c = self._character(state, action.character)
        self._check_turn_start(state, c)
        card = self.charged_card(c, action.card)
        if card is None:
            raise CardNotPlayableError(f"{c.name} has no {action.card} card", ACTIONS)
        charged_cards.check_ready(state, c, card, action, self.team_action_heroes)

    def _check_change_form(self, state: CastlesState, action: A.ChangeForm) -> None:
        c = self._character(state, action.character)
        boss = self.content.bosses.get(c.card) if c.kind == "boss" else None
        rule = cite2e("Castle and Catacomb Bosses")
        if boss is None or boss.form_change != "at_will" or len(boss.forms) < 2:
            raise IllegalActionError(f"{c.name} cannot change form at will", rule)
        self._check_turn_start(state, c)

    def _check_resolve_shot(self, state: CastlesState, action: A.ResolveShot) -> None:
        turn = state.turn
        if turn is None:
            raise NotYourTurnError(f"{action.character} has not declared a shot sequence", TURN_ORDER)
        planned = self._planned_for(turn, action)
        if planned is None:
            shots.check_flicked(self.content, state, turn, action)
            expected = " or ".join(f"{p.shot} ({p.actor})" for p in turn.candidates())
            raise UnexpectedShotError(f"expected {expected or 'no shot'}, not {action.shot}", SEQUENCES)
        if planned.shot in self.target_shots:
            target = action.target or planned.target
            rule = cite2e("Ranged Shots" if planned.shot == "target" else "Character Shots")
            if target is None:
                raise UnexpectedShotError("a target shot needs its declared target (the Target Token)", rule)
            t = self._character(state, target)
            if t.side == state.character(planned.actor).side:
                raise UnexpectedShotError("the Target Token is placed on an enemy", rule)
        for cid in (*action.direct_hits, *action.knocked_off):
            self._character(state, cid)
        if action.target is not None:
            self._character(state, action.target)

    def _planned_for(self, turn: CastlesTurn, action: A.ResolveShot) -> Planned | None:
        return shots.planned_for(self.content, turn, action)

    def _check_skip_shot(self, state: CastlesState, action: A.SkipShot) -> None:
        if state.turn is None or action.character not in (state.turn.character, *self._actors(state.turn)):
            raise NotYourTurnError(f"{action.character} has no shot to skip", SEQUENCES)
        if not state.turn.queue:
            raise UnexpectedShotError("no shot is left to skip", SEQUENCES)

    def _actors(self, turn: CastlesTurn) -> tuple[str, ...]:
        return tuple(p.actor for p in turn.candidates())

    def _check_end_turn(self, state: CastlesState, action: A.EndTurn) -> None:
        if state.turn is None or state.turn.character != action.character:
            raise NotYourTurnError(f"{action.character} is not taking a turn", TURN_ORDER)

    def _check_decide(self, state: CastlesState, action: A.Decide) -> None:
        pending = state.pending
        if pending is None:
            raise BadDecisionError("no decision is pending", SEQUENCES)
        if action.decision != pending.id:
            raise BadDecisionError(
                f"decision {action.decision!r} is not the pending one ({pending.id})",
                self.rule_for_pending(state),
            )
        if action.option not in {o.id for o in pending.options}:
            raise BadDecisionError(
                f"{action.option!r} is not an option of {pending.id}: {[o.id for o in pending.options]}",
                self.rule_for_pending(state),
            )

    def _check_set_pool(self, state: CastlesState, action: A.SetPool) -> None:
        corrections.check_set_pool(state, action)

    def _check_set_charge(self, state: CastlesState, action: A.SetCharge) -> None:
        c = self._character(state, action.character)
        corrections.check_set_charge(c, self.charged_card(c, action.card), action)

    def _check_set_armour(self, state: CastlesState, action: A.SetArmour) -> None:
        corrections.check_set_armour(self._character(state, action.character), action)

    # == application ==============================================================================
    def _do_declare(self, tx: CastlesTx, action: A.DeclareAction) -> None:
        c = tx.char(action.character)
        self._turn_begins(tx, c)
        sequences = self.sequences(tx.state, c)
        if action.alternative is None and len(sequences) > 1:
            self._ask_alternative(tx, c, "sequence", sequences)
            return
        sequence = sequences[action.alternative or 0]
        self._start(tx, c, "sequence", self._plan(tx.state, c, sequence, 0))

    def _turn_begins(self, tx: CastlesTx, c: Fighter) -> None:
        if tx.state.warrior_bonus is not None and (c.kind != "warrior" or tx.state.warrior_bonus != c.side):
            tx.state = evolve(tx.state, warrior_bonus=None)  # the other side moved on: the warrior is forgone
        if tx.state.side_to_move != c.side:
            tx.state = evolve(tx.state, side_to_move=c.side) if c.kind != "warrior" else tx.state

    def _ask_alternative(self, tx: CastlesTx, c: Fighter, source: str, sequences: Alternatives) -> None:
        tx.set_turn(CastlesTurn(c.id, source, "", ()))
        options = tuple(Option(str(i), label(seq)) for i, seq in enumerate(sequences))
        tx.ask("choose_alternative", c.id, f"{c.name}: which shot sequence?", options, (source,))

    def _plan(
        self, state: CastlesState, actor: Fighter, sequence: Sequence, group: int
    ) -> tuple[Planned, ...]:
        planned: list[Planned] = []
        for i, step in enumerate(sequence):
            nxt = sequence[i + 1] if i + 1 < len(sequence) else None
            elastic = step.connector == "elastic" or (nxt is not None and nxt.connector == "elastic")
            transfers = self._transfers(state, step.shot, step.transfers)
            if step.shot == "runic_shift":
                # Runic Shift: placed on a rune (no flick, no damage), then it may perform a melee shot.
                planned.append(Planned("runic_shift", actor.id, actor.id, group, elastic, False, "", ()))
                planned.append(
                    Planned("melee", actor.id, actor.id, group, False, True, "runic_shift", ("power",))
                )
                continue
            if step.shot == "lightning":
                # Lightning Shot: three flicks; the first two inflict no damage.
                for n in range(3):
                    planned.append(
                        Planned("lightning", actor.id, actor.id, group, elastic, n == 2, "", transfers)
                    )
                continue
            planned.append(Planned(step.shot, actor.id, actor.id, group, elastic, True, "", transfers))
        if actor.has("flying"):
            # Flying: an optional Move to Rune at the end of the shot sequence.
            planned.append(Planned("move_to_rune", actor.id, actor.id, group, False, False, "flying"))
        return tuple(planned)

    def _transfers(self, state: CastlesState, shot: str, printed: tuple[str, ...] | None) -> tuple[str, ...]:
        if state.net_variant and shot in ("net", "web"):
            return ("power",)  # Variant Rules for the Net and Web Shots: power transfer only
        if printed is not None:
            return printed
        rule = self.content.shots.get(shot)
        base = rule.transfers if rule else ("power",)
        return tuple(t for t in base if t not in SHOWN_ONLY.get(shot, ()))

    def _start(self, tx: CastlesTx, c: Fighter, source: str, queue: tuple[Planned, ...]) -> None:
        label = ", then ".join(p.shot for p in queue if not p.added) or "no shot"
        tx.set_turn(CastlesTurn(c.id, source, label, queue))
        tx.emit(E.ActionDeclared(f"{c.name} declares {label}", c.id, label))
        tx.finish_turn_if_done()

    def _do_perform_card(self, tx: CastlesTx, action: A.PerformCard) -> None:
        c = tx.char(action.character)
        self._turn_begins(tx, c)
        card = self.charged_card(c, action.card)
        assert card is not None and card.charge is not None
        tokens = c.tokens_on(card.id)
        tx.update(c.with_tokens(card.id, 0))
        tx.emit(
            CE.CardPerformed(
                f"{c.name} discards {tokens} token(s) and performs {card.name}", c.id, card.id, tokens
            )
        )
        if card.reinforcement:
            side = tx.state.side(c.side)
            tx.state = tx.state.with_side(evolve(side, reinforcements=side.reinforcements - 1))
            self._summon(tx, c, "reinforcement")
        if action.alternative is None and len(card.sequences) > 1:
            self._ask_alternative(
                tx, c, card.id + "|" + (action.helper or "") + "|" + ",".join(action.order), card.sequences
            )
            return
        self._start_card(tx, c, card, action.alternative or 0, action.helper, action.order)

    def team_action_heroes(self, state: CastlesState, c: Fighter) -> tuple[Fighter, ...]:
        """Team Actions: "performed by all friendly heroes, even if they have already taken a turn"."""
        return tuple(h for h in state.members(c.side, "hero") if h.on_mat and not h.trapped)

    def _start_card(
        self,
        tx: CastlesTx,
        c: Fighter,
        card: ChargedCard,
        alternative: int,
        helper: str | None,
        order: tuple[str, ...],
    ) -> None:
        sequence = card.sequences[alternative]
        state = tx.state
        queue: tuple[Planned, ...]
        if card.kind == "team_action" and state.mode != "one-versus-one":
            heroes = order or (c.id, *(h.id for h in self.team_action_heroes(state, c) if h.id != c.id))
            queue = tuple(p for g, h in enumerate(heroes) for p in self._plan(state, tx.char(h), sequence, g))
        elif card.horn_from is not None and state.mode != "one-versus-one" and helper is not None:
            # Horn of Heroes: the chosen friendly hero performs the shots after the icon.
            queue = self._plan(state, c, sequence[: card.horn_from], 0) + self._plan(
                state, tx.char(helper), sequence[card.horn_from :], 1
            )
        else:
            queue = self._plan(state, c, sequence, 0)  # One versus One Mode 3 and 4: the icons are ignored
        self._start(tx, c, card.id, queue)

    def _summon(self, tx: CastlesTx, by: Fighter, why: str) -> None:
        """Egg Shot / Summon Reinforcements: a friendly warrior from the supply enters beside ``by``."""
        reserve = [w for w in tx.state.members(by.side, "warrior") if not w.on_mat]
        kinds: dict[str, Fighter] = {}
        for w in reserve:
            kinds.setdefault(w.card, w)
        if not kinds:
            tx.emit(E.HitIgnored(f"No warrior is left in {by.side}'s supply", by.id, by.id, "no warrior"))
            return
        if len(kinds) == 1:
            self._place_warrior(tx, by, next(iter(kinds.values())).id, why)
            return
        options = tuple(Option(w.id, w.name) for w in kinds.values())
        tx.ask("summon", by.id, f"{by.name}: which warrior enters?", options, (by.id, why))

    def _place_warrior(self, tx: CastlesTx, by: Fighter, warrior_id: str, why: str) -> None:
        w = tx.char(warrior_id)
        tx.update(evolve(w, on_mat=True, trapped=False))
        tx.emit(CE.WarriorSummoned(f"{w.name} enters beside {by.name}", w.id, by.id))
        if why == "egg":
            # Egg Shot: "This warrior immediately performs its shot sequence."
            sequences = self.sequences(tx.state, w)
            if sequences:
                turn = tx.state.turn
                group = 1 + max((p.group for p in turn.queue), default=0) if turn else 1
                tx.insert_next(
                    *(evolve(p, added="egg") for p in self._plan(tx.state, w, sequences[0], group))
                )
            if tx.state.mode in BOSS_MODES:
                tx.state = evolve(tx.state, acted=(*tx.state.acted, w.id))

    def _do_change_form(self, tx: CastlesTx, action: A.ChangeForm) -> None:
        c = tx.char(action.character)
        forms = [f for f, _ in self.content.boss(c.card).forms]
        form = forms[(forms.index(c.form) + 1) % len(forms)] if c.form in forms else forms[0]
        tx.update(evolve(c, form=form))
        tx.emit(CE.FormChanged(f"{c.name} changes to his {form} form", c.id, form))

    def _do_resolve_shot(self, tx: CastlesTx, action: A.ResolveShot) -> None:
        turn = tx.state.turn
        assert turn is not None
        planned = self._planned_for(turn, action)
        assert planned is not None
        queue = list(turn.queue)
        queue.remove(planned)
        tx.set_turn(evolve(turn, queue=tuple(queue)))
        actor = tx.char(planned.actor)
        tx.emit(E.ShotResolved(f"{actor.name}: {planned.shot}", actor.id, planned.shot))
        turns.release(tx, action.knocked_off)
        hits = [h for h in dict.fromkeys(action.direct_hits) if h != planned.piece]
        enemies = turns.enemies_hit(tx, actor, hits)
        damaged = self._effects(tx, planned, action, enemies)
        damage.queue_hits(tx, self.content, planned, damaged, planned.transfers or ())
        shots.trap(tx, planned, action, damaged)
        damage.drain(tx, self.content)
        tx.finish_turn_if_done()

    def _effects(
        self, tx: CastlesTx, planned: Planned, action: A.ResolveShot, enemies: tuple[str, ...]
    ) -> tuple[str, ...]:
        """What a shot does beyond damage; returns the enemies it may damage (Ranged / Character Shots)."""
        shot, actor = planned.shot, planned.actor
        if shot in self.target_shots:
            target = action.target or planned.target
            if target in enemies:
                return (target,) if target else ()
            if planned.added != "retry":
                # "If this shot misses, the player may perform another shot" (once: docs/rulings.md).
                tx.insert_next(evolve(planned, added="retry", target=target))
            return ()
        if shot == "grapple" and enemies:
            grabbed = action.target if action.target in enemies else enemies[0]
            assert grabbed is not None
            tx.insert_next(Planned("rush", actor, grabbed, planned.group, added="grapple"))
            return (grabbed,)
        if shot == "vortex":
            tx.insert_next(*(Planned("rush", actor, e, planned.group, added="vortex") for e in enemies))
        if shot == "shuriken" and enemies:
            tx.insert_next(Planned("rush", actor, actor, planned.group, added="shuriken"))
        if shot == "egg" and enemies:
            self._summon(tx, tx.char(actor), "egg")
        return enemies

    def _do_skip_shot(self, tx: CastlesTx, action: A.SkipShot) -> None:
        turn = tx.state.turn
        assert turn is not None
        skipped = turn.queue[0]
        tx.set_turn(evolve(turn, queue=turn.queue[1:]))
        tx.emit(E.ShotSkipped(f"{skipped.actor} skips {skipped.shot}", skipped.actor, skipped.shot))
        tx.finish_turn_if_done()

    def _do_end_turn(self, tx: CastlesTx, action: A.EndTurn) -> None:
        tx.end_turn()

    def _do_decide(self, tx: CastlesTx, action: A.Decide) -> None:
        pending = tx.state.pending
        assert pending is not None
        tx.state = evolve(tx.state, pending=None)
        tx.emit(E.DecisionMade(f"{pending.id}: {action.option}", pending.id, action.option))
        if pending.kind == "choose_alternative":
            self._decide_alternative(tx, pending, int(action.option))
        elif pending.kind == "armour":
            if action.option == "block":
                damage.block(tx, self.content)
            else:
                turn = tx.state.turn
                assert turn is not None
                tx.set_turn(evolve(turn, hits=turn.hits[1:]))
                damage.inflict(tx, self.content, turn.hits[0])
        elif pending.kind == "transfer":
            damage.apply_transfer(tx, self.content, pending.context, action.option)
        elif pending.kind == "summon":
            self._place_warrior(tx, tx.char(pending.context[0]), action.option, pending.context[1])
        damage.drain(tx, self.content)
        tx.finish_turn_if_done()

    def _decide_alternative(self, tx: CastlesTx, pending: Pending, alternative: int) -> None:
        c = tx.char(pending.character or "")
        source = pending.context[0]
        if source == "sequence":
            self._start(
                tx, c, "sequence", self._plan(tx.state, c, self.sequences(tx.state, c)[alternative], 0)
            )
            return
        card_id, helper, order = source.split("|")
        card = self.charged_card(c, card_id)
        assert card is not None
        self._start_card(tx, c, card, alternative, helper or None, tuple(o for o in order.split(",") if o))

    # == referee corrections ======================================================================
    def _do_set_pool(self, tx: CastlesTx, action: A.SetPool) -> None:
        corrections.apply_set_pool(tx, action)

    def _do_set_charge(self, tx: CastlesTx, action: A.SetCharge) -> None:
        c = tx.char(action.character)
        corrections.apply_set_charge(tx, c, self.charged_card(c, action.card), action)

    def _do_set_armour(self, tx: CastlesTx, action: A.SetArmour) -> None:
        corrections.apply_set_armour(tx, tx.char(action.character), action)


def label(sequence: Sequence) -> str:
    return ", then ".join(step.shot for step in sequence) or "no shot"
