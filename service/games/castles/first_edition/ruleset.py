"""Catacombs & Castles First Edition as a variant of the 2E rule set (catacombs-and-castles-1e-manual.txt).

The machinery is the second edition's (``CastlesSecondEdition``): declared sequences, sensor-resolved shots,
Health Pools, power / assist / health / void transfers, Armour Tokens, warriors, Lords and their forms. What
the first edition does differently is here (each difference is listed in docs/rulings.md, "Catacombs &
Castles 1E against 2E"): two Ability cards per hero chosen at setup, charged by the opposing team's Health
Tokens or free; Team and Horn icons on Ability cards for all heroes; the portrait-rotation turn rule
(``tx1e.py``); Armour Tokens that nullify a shot's effects too; no First Strike or Chain Rule; the 1E shots
(claw, target ice and fireball, egg, net and web, vortex, temporal shift); Boss Mode with uncharged
once-only Ability cards and Reinforcement Tokens that place three warriors by quadrant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from service.games.castles.core import actions as A
from service.games.castles.core import damage, turns
from service.games.castles.core import events as CE
from service.games.castles.core.cards import ChargedCard
from service.games.castles.core.state import BOSS_MODES, CastlesState, CastlesTurn, Fighter, Planned
from service.games.castles.core.tx import CastlesTx
from service.games.castles.first_edition import pieces as pieces1e
from service.games.castles.first_edition.setup import cite1e, new_game_1e
from service.games.castles.first_edition.tx import FirstEditionTx
from service.games.castles.second_edition.ruleset import CastlesSecondEdition
from service.rules import events as E
from service.rules.errors import (
    CardNotPlayableError,
    CharacterCannotActError,
    IllegalActionError,
    NoSuchAlternativeError,
    NotYourTurnError,
    UnexpectedShotError,
)
from service.rules.evolve import evolve

TURN = cite1e("Turn Overview")
SEQUENCES = cite1e("Shot Sequences")
ABILITIES = cite1e("Ability Cards")
TEAM_ACTIONS = cite1e("Team Actions")
REINFORCEMENTS = cite1e("Reinforcements")
REINFORCEMENT_CARD = "reinforcement"  # perform_card's card for spending a Reinforcement Token
LIFT_NET = pieces1e.LIFT_NET
# The 2E machinery's refusals, cited by the 1E manual's section for the same rule.
SECTIONS_1E = {
    "Team Mode Turn Order": "Turn Overview",
    "Shot Sequences": "Shot Sequences",
    '"Or" Connector Example': "Shot Sequences",
    "Armour Tokens": "Armour Tokens",
    "Health and Transfer Types": "Health and Damage Tokens",
    "Warriors": "The Warriors",
    "Hero Actions": "Ability Cards",
    "Hero Abilities": "Ability Cards",
    "Team Actions": "Team Actions",
    "Character Shots": "Shot Reference",
    "Ranged Shots": "Shot Reference",
    "Castle and Catacomb Bosses": "The Castle Lord",
    "Team Mode Objective": "Health and Damage Tokens",
}
SINGLE_TARGET = ("grapple", "claw", "net", "web", "leech")
GRABS = ("grapple", "claw")


def team_part_due(turn: CastlesTurn) -> list[str]:
    """Team Actions: the Horn's and the Team icon's shots, "this is not optional": the characters whose
    shots of the card are still to come (the shots the rules add, a grab's rush or a retry, are optional)."""
    return list(dict.fromkeys(p.actor for p in turn.queue if p.group >= 1 and not p.added))


class CastlesFirstEdition(CastlesSecondEdition):
    name = "catacombs-and-castles-1e"
    tx_type: type[CastlesTx] = FirstEditionTx
    target_shots = ("target_melee", "target_ice", "target_fireball")

    # == the base's contract ======================================================================
    def check(self, state: CastlesState, action: A.Action) -> None:
        try:
            super().check(state, action)
        except IllegalActionError as exc:
            manual, _, section = exc.rule.partition(": ")
            if manual != "catacombs-and-castles-2e-manual.md":
                raise
            raise type(exc)(exc.reason, cite1e(SECTIONS_1E.get(section, "Game Overview"))) from None

    def new_game_from_setup(self, setup: Mapping[str, Any]) -> CastlesState:
        return new_game_1e(self.content, setup, self.name)

    def rule_for_pending(self, state: CastlesState) -> str:
        kind = state.pending.kind if state.pending else ""
        return {
            "armour": cite1e("Armour Tokens"),
            "transfer": cite1e("Health and Damage Tokens"),
            "summon": cite1e("Shot Reference"),
        }.get(kind, SEQUENCES)

    def game_over_rule(self) -> str:
        return cite1e("Health and Damage Tokens")

    def unknown_action_rule(self) -> str:
        return cite1e("Game Overview")

    def choices(self, state: CastlesState) -> list[A.Action]:
        found = super().choices(state)
        if state.pending is None and state.turn is None and state.phase == "battle":
            for boss in (c for c in state.characters if c.kind == "boss"):
                action = A.PerformCard(boss.id, REINFORCEMENT_CARD)
                if self.is_legal(state, action):
                    found.append(action)
            for trapped in (c for c in state.characters if c.trapped):
                action = A.PerformCard(trapped.id, LIFT_NET)
                if self.is_legal(state, action):
                    found.append(action)
        return found

    def card_key(self, c: Fighter, card: ChargedCard) -> str:
        return card.id  # both of a 1E hero's cards are Ability cards: they go by their ids

    # == checks ===================================================================================
    def _check_turn_start(self, state: CastlesState, c: Fighter) -> None:
        boss_mode = state.mode in BOSS_MODES
        if state.turn is not None:
            raise NotYourTurnError(f"{state.turn.character} is still taking its turn", TURN)
        if not self.may_move(state, c):
            raise NotYourTurnError(
                f"it is {state.side_to_move}'s turn, not {c.side}'s",
                # Boss Mode Overview: each side "take[s] all their actions, in any order, together".
                cite1e("Boss Mode Overview") if boss_mode else TURN,
            )
        if not c.on_mat:
            raise CharacterCannotActError(f"{c.name} is not on the game board", cite1e("The Warriors"))
        if c.trapped:
            raise CharacterCannotActError(
                f"{c.name} is under a net or web disc until a teammate knocks it off",
                cite1e("Shot Reference"),
            )
        if c.id in state.placed:
            raise CharacterCannotActError(
                f"{c.name} was placed this turn and may not act in it", cite1e("Shot Reference")
            )
        bonus_warrior = c.kind == "warrior" and not boss_mode
        if not bonus_warrior and c.id in state.acted:
            raise CharacterCannotActError(*self._acted_refusal(state, c))
        waiting = [
            w
            for w in state.reinforcing
            if state.character(w).on_mat and not state.character(w).trapped and w not in state.acted
        ]
        if waiting and c.id not in waiting:
            raise NotYourTurnError(f"the new warriors {waiting} act first", REINFORCEMENTS)
        if bonus_warrior and state.warrior_bonus != c.side:
            raise NotYourTurnError(
                "in Team Mode a friendly warrior acts after a hero of its team has taken an action",
                cite1e("Shot Reference"),
            )

    def _acted_refusal(self, state: CastlesState, c: Fighter) -> tuple[str, str]:
        if c.kind == "hero" and state.mode not in BOSS_MODES:
            return (
                f"{c.name} has taken an action; its Portrait card stays rotated until every teammate has",
                cite1e("Game Overview"),
            )
        if c.kind == "hero":
            return (
                f"{c.name} has taken its action this turn; the heroes take all their actions together",
                cite1e("Boss Mode Overview"),
            )
        # The Warriors: "After a Warrior has taken an action, it is flipped over" (the Lord's action too).
        return f"{c.name} has taken its action this turn", cite1e("The Warriors")

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
                f"{c.name} has {len(sequences)} alternative(s); {action.alternative} is not one", SEQUENCES
            )

    def _check_resolve_shot(self, state: CastlesState, action: A.ResolveShot) -> None:
        # Shields are discs, not characters: a shot may touch one on the board (Shot Reference, Vortex).
        pieces1e.check_shield_hits(state, action.direct_hits)
        characters_hit = tuple(h for h in action.direct_hits if not pieces1e.is_shield(h))
        super()._check_resolve_shot(state, replace(action, direct_hits=characters_hit))
        assert state.turn is not None
        planned = self._planned_for(state.turn, action)
        assert planned is not None
        if planned.shot == "open_portal":
            pieces1e.check_portal(state, state.character(planned.actor), action.swapped)
        elif action.swapped:
            raise UnexpectedShotError(
                f"only an open portal switches characters, not {action.shot}", cite1e("Shot Reference")
            )

    def _check_end_turn(self, state: CastlesState, action: A.EndTurn) -> None:
        super()._check_end_turn(state, action)
        assert state.turn is not None
        due = team_part_due(state.turn)
        if due:
            raise IllegalActionError(
                f"the Team Action is not optional: {', '.join(due)} still to perform its shots", TEAM_ACTIONS
            )

    def _check_perform_card(self, state: CastlesState, action: A.PerformCard) -> None:
        c = self._character(state, action.character)
        if action.card == REINFORCEMENT_CARD:
            self._check_reinforcement(state, c, action.placements)
            return
        if action.card == LIFT_NET:
            pieces1e.check_lift_net(state, c)
            return
        if action.placements:
            raise IllegalActionError("only a Reinforcement Token places warriors", REINFORCEMENTS)
        self._check_turn_start(state, c)
        card = self.charged_card(c, action.card)
        if (
            c.kind == "hero"
            and card is None
            and not state.charging
            and self._out_of_game(state, c, action.card)
        ):
            raise CardNotPlayableError(
                f"{c.name} holds no Ability card {action.card!r}; once played, a card is out of the game",
                cite1e("Ability Cards in Boss Mode"),
            )
        if c.kind != "hero" or card is None:
            raise CardNotPlayableError(f"{c.name} holds no Ability card {action.card!r}", ABILITIES)
        if not card.sequences:
            raise CardNotPlayableError(
                f"{card.name}'s shots are not known (add them with a content overlay)", ABILITIES
            )
        if state.charging:
            if card.charge is None:
                raise CardNotPlayableError(
                    f"{card.name}'s charge is not known (add it with a content overlay)", ABILITIES
                )
            if c.tokens_on(card.id) < card.charge:
                raise CardNotPlayableError(
                    f"{card.name} holds {c.tokens_on(card.id)} of the {card.charge} Health Tokens it needs",
                    ABILITIES,
                )
        if action.alternative is not None and not 0 <= action.alternative < len(card.sequences):
            raise NoSuchAlternativeError(f"{card.name} has {len(card.sequences)} alternative(s)", SEQUENCES)
        if action.order:
            wanted = {h.id for h in self.participants(state, c, card)}
            if set(action.order) != wanted or len(action.order) != len(wanted):
                raise IllegalActionError(
                    f"the order must name every hero taking part: {sorted(wanted)}", TEAM_ACTIONS
                )

    def _out_of_game(self, state: CastlesState, c: Fighter, card_id: str) -> bool:
        """A card of the hero's team that no hero holds any more: played, in Boss Mode."""
        card = self.content.ability_cards.get(card_id)
        held = {k for h in state.members(c.side, "hero") for k, _ in h.charges}
        return card is not None and card.team == state.side(c.side).team and card_id not in held

    def _check_reinforcement(
        self, state: CastlesState, c: Fighter, placements: tuple[tuple[str, int], ...]
    ) -> None:
        if c.kind != "boss":
            raise CardNotPlayableError("only the Overseer spends Reinforcement Tokens", REINFORCEMENTS)
        if state.turn is not None or state.side_to_move != c.side:
            raise NotYourTurnError(f"it is {state.side_to_move}'s turn", REINFORCEMENTS)
        if state.round == 1:
            raise CardNotPlayableError(
                "the Overseer cannot use a Reinforcement Token on his or her first turn", REINFORCEMENTS
            )
        if state.side_turn_acted:
            raise NotYourTurnError("a Reinforcement Token is spent at the start of the turn", REINFORCEMENTS)
        if state.side(c.side).reinforcements < 1:
            raise CardNotPlayableError("no Reinforcement Token is left", REINFORCEMENTS)
        if all(w.on_mat for w in state.members(c.side, "warrior")):
            raise CardNotPlayableError("no warrior is left to place", REINFORCEMENTS)
        if placements:
            pieces1e.check_placements(state, c, placements)

    # == application ==============================================================================
    def _turn_begins(self, tx: CastlesTx, c: Fighter) -> None:
        placed = tx.state.placed
        if placed and tx.char(placed[0]).side != c.side:
            tx.state = evolve(tx.state, placed=())  # the egg's turn is over: its warrior may act from now on
        super()._turn_begins(tx, c)

    def participants(self, state: CastlesState, c: Fighter, card: ChargedCard) -> tuple[Fighter, ...]:
        """Team Actions: the Team icon's sequence is performed by every hero, the Horn's by the teammates;
        a hero under a net or web cannot take part (it may not take an action)."""
        heroes = tuple(h for h in state.members(c.side, "hero") if h.on_mat and not h.trapped)
        if card.horn_from is not None:
            return tuple(h for h in heroes if h.id != c.id)
        if card.team_from is not None:
            return (c, *(h for h in heroes if h.id != c.id))
        return ()

    def _do_perform_card(self, tx: CastlesTx, action: A.PerformCard) -> None:
        c = tx.char(action.character)
        if action.card == REINFORCEMENT_CARD:
            self._reinforce(tx, c, action.placements)
            return
        if action.card == LIFT_NET:
            pieces1e.lift_net(tx, c)
            return
        self._turn_begins(tx, c)
        card = self.charged_card(c, action.card)
        assert card is not None
        tokens = c.tokens_on(card.id)
        if tx.state.charging:
            tx.update(c.with_tokens(card.id, 0))
            said = f"{c.name} discards {tokens} Health Token(s) and activates {card.name}"
        else:
            # Ability Cards in Boss Mode: "Once an Ability card has been played, it is out of the game."
            tx.update(evolve(c, charges=tuple((k, n) for k, n in c.charges if k != card.id)))
            said = f"{c.name} plays {card.name}; it is out of the game"
        tx.emit(CE.CardPerformed(said, c.id, card.id, tokens))
        team_card = card.horn_from is not None or card.team_from is not None
        if not team_card and action.alternative is None and len(card.sequences) > 1:
            self._ask_alternative(tx, c, card.id + "||" + ",".join(action.order), card.sequences)
            return
        self._start_card(tx, c, card, action.alternative or 0, action.helper, action.order)

    def _start_card(
        self,
        tx: CastlesTx,
        c: Fighter,
        card: ChargedCard,
        alternative: int,
        helper: str | None,
        order: tuple[str, ...],
    ) -> None:
        state = tx.state
        split = card.horn_from if card.horn_from is not None else card.team_from
        if split is None:
            self._start(tx, c, card.id, self._plan(state, c, card.sequences[alternative], 0))
            return
        own = self._plan(state, c, card.sequences[0][:split], 0)
        heroes = order or tuple(h.id for h in self.participants(state, c, card))
        queue = list(own)
        for group, hero_id in enumerate(heroes, start=1):
            hero = tx.char(hero_id)
            for alt, sequence in enumerate(card.sequences):
                mark = alt if len(card.sequences) > 1 else -1
                queue += [evolve(p, alt=mark) for p in self._plan(state, hero, sequence[split:], group)]
        self._start(tx, c, card.id, tuple(queue))
        if tx.state.turn is not None:
            # Team Actions, Important: the initiator's cards take no token captured during the Team Action.
            tx.set_turn(evolve(tx.state.turn, initiator_uncharged=True))

    def _reinforce(self, tx: CastlesTx, lord: Fighter, placements: tuple[tuple[str, int], ...]) -> None:
        """Reinforcements: three different Warriors, one in each quadrant without the Lord (see rulings);
        without ``placements``, one of each kind still in reserve, their quadrants not recorded."""
        side = tx.state.side(lord.side)
        tx.state = tx.state.with_side(evolve(side, reinforcements=side.reinforcements - 1))
        tx.emit(CE.CardPerformed(f"{lord.name} spends a Reinforcement Token", lord.id, REINFORCEMENT_CARD, 0))
        if not placements:
            kinds: dict[str, Fighter] = {}
            for w in tx.state.members(lord.side, "warrior"):
                if not w.on_mat:
                    kinds.setdefault(w.card, w)
            placements = tuple((w.id, 0) for w in list(kinds.values())[:3])
        for wid, quadrant in placements:
            w = tx.char(wid)
            tx.update(evolve(w, on_mat=True))
            where = f"quadrant {quadrant}" if quadrant else f"a quadrant without {lord.name}"
            tx.emit(CE.WarriorSummoned(f"{w.name} enters {where}", w.id, lord.id))
        tx.state = evolve(tx.state, reinforcing=tuple(wid for wid, _ in placements))

    def _start(self, tx: CastlesTx, c: Fighter, source: str, queue: tuple[Planned, ...]) -> None:
        shielded = source == "sequence" and any(p.shot == "shield" and p.actor == c.id for p in queue)
        if shielded:
            pieces1e.lift_shield(tx, c)  # an Ability card's shield icon does not move the disc (Shields)
        super()._start(tx, c, source, queue)
        if shielded and tx.state.turn is not None:
            tx.set_turn(evolve(tx.state.turn, shield=pieces1e.shield_of(tx.state, c)))

    def _place_warrior(self, tx: CastlesTx, by: Fighter, warrior_id: str, why: str) -> None:
        """Egg: one friendly Warrior beside the character; it "may not take an action on the turn that it was
        first placed"."""
        w = tx.char(warrior_id)
        tx.update(evolve(w, on_mat=True, trapped=False))
        tx.state = evolve(tx.state, placed=(*tx.state.placed, w.id))
        tx.emit(CE.WarriorSummoned(f"The egg cracks open: {w.name} enters beside {by.name}", w.id, by.id))

    def _do_resolve_shot(self, tx: CastlesTx, action: A.ResolveShot) -> None:
        turn = tx.state.turn
        assert turn is not None
        planned = self._planned_for(turn, action)
        assert planned is not None
        queue = list(turn.queue)
        queue.remove(planned)  # the first of equal shots only (a sequence may repeat a shot)
        if planned.alt >= 0:
            # The hero chose this alternative of the Team icon's sequence: its others are dropped.
            queue = [p for p in queue if p.group != planned.group or p.alt in (-1, planned.alt)]
        tx.set_turn(evolve(turn, queue=tuple(queue)))
        actor = tx.char(planned.actor)
        tx.emit(E.ShotResolved(f"{actor.name}: {planned.shot}", actor.id, planned.shot))
        if planned.shot in ("net", "web"):
            self._reuse_net(tx, actor)
        turns.release(tx, action.knocked_off)
        if planned.shot == "open_portal":
            first, second = (tx.char(cid) for cid in action.swapped)
            said = f"{actor.name} opens a portal: {first.name} and {second.name} switch places"
            tx.emit(E.PortalOpened(said, actor.id, action.swapped))
        if planned.shot == "shield" and turn.shield is not None:
            pieces1e.place_shield(tx, actor)
        hits = [h for h in dict.fromkeys(action.direct_hits) if h != planned.piece]
        self._shields_hit(tx, planned, actor, [h for h in hits if pieces1e.is_shield(h)])
        hits = [h for h in hits if not pieces1e.is_shield(h)]
        enemies = turns.enemies_hit(tx, actor, hits)
        damaged, after = self._effects_1e(tx, planned, action, enemies)
        damage.queue_hits(
            tx, self.content, planned, damaged, planned.transfers or (), chain_rule=False, after=after
        )
        damage.drain(tx, self.content)
        tx.finish_turn_if_done()

    def _shields_hit(self, tx: CastlesTx, planned: Planned, actor: Fighter, shields: list[str]) -> None:
        """Shields: "an invulnerable disc"; Vortex: a Rush shot for each opposing character hit, "This
        includes shield discs"."""
        own = pieces1e.shield_of(tx.state, actor)
        for shield in shields:
            if planned.shot == "vortex" and shield != own:
                tx.insert_next(Planned("rush", actor.id, shield, planned.group, added="vortex"))
            else:
                said = f"the {shield.replace('-', ' ')} disc is invulnerable"
                tx.emit(E.HitIgnored(said, shield, actor.id, "shield"))

    def _do_skip_shot(self, tx: CastlesTx, action: A.SkipShot) -> None:
        turn = tx.state.turn
        assert turn is not None
        head = turn.queue[0]
        if head.alt >= 0 and not head.added:
            # A shot of a Team icon's Or-alternative made without effect: that alternative is the hero's.
            queue = tuple(p for p in turn.queue if p.group != head.group or p.alt in (-1, head.alt))
            tx.set_turn(evolve(turn, queue=queue))
        super()._do_skip_shot(tx, action)

    def _effects_1e(
        self, tx: CastlesTx, planned: Planned, action: A.ResolveShot, enemies: tuple[str, ...]
    ) -> tuple[tuple[str, ...], dict[str, tuple[tuple[Planned, ...], str]]]:
        """Shot Reference: which enemies a shot may damage, and what follows once each is damaged."""
        shot, actor = planned.shot, planned.actor
        if shot in self.target_shots:
            return self._effects(tx, planned, action, enemies), {}
        if shot in SINGLE_TARGET:
            # Grapple, Claw, Net / Web "only affect a single target"; a Leech damages one (attacker's choice).
            chosen = action.target if action.target in enemies else (enemies[0] if enemies else None)
            if chosen is None:
                return (), {}
            if shot in GRABS:
                # Grab: the opponent is moved beside the attacker, then a Rush shot with that character.
                return (chosen,), {
                    chosen: ((Planned("rush", actor, chosen, planned.group, added="grab"),), "")
                }
            return (chosen,), {chosen: ((), "trap" if shot in ("net", "web") else "")}
        if shot == "vortex":
            # "For each opposing character hit by the vortex disc, the attacker executes a single Rush shot".
            return enemies, {
                e: ((Planned("rush", actor, e, planned.group, added="vortex"),), "") for e in enemies
            }
        if shot == "temporal_shift":
            return enemies, {e: ((), "return") for e in enemies}
        if shot == "egg":
            if enemies:
                self._summon(tx, tx.char(actor), "egg")
            return (), {}
        return enemies, {}

    def _reuse_net(self, tx: CastlesTx, actor: Fighter) -> None:
        """Net / Web: the attacker may remove the disc from its trapped target "to re-use it"."""
        for c in tx.state.characters:
            if c.trapped and c.side != actor.side:
                tx.update(evolve(c, trapped=False))
                tx.emit(
                    CE.TrapChanged(
                        f"The {actor.side} disc is taken off {c.name} to be used again", c.id, False
                    )
                )
