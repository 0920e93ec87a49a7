"""The Catacombs turn flow (Third Edition, and First Edition when it comes): rooms, sides, shot sequences.

Catacombs 3E (``catacombs3e.py``) subclasses ``CatacombsFlow`` and fills in its hooks; the game-neutral
``RuleSet`` base (``ruleset.py``) knows none of this. ``check`` dispatches to ``_check_<action>`` and
``perform`` to ``_do_<action>`` inside one ``Tx``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from collections.abc import Sequence as Seq
from typing import Any, ClassVar

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import (
    allies,
    card_play,
    corrections,
    modifiers,
    shot_resolution,
    special_rooms,
)
from service.games.catacombs.flow.cards import Content, slug
from service.games.catacombs.flow.expansion import WithoutExpansion
from service.games.catacombs.flow.layout import deal_room_deck
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.shots import Sequence, Shot
from service.games.catacombs.flow.state import (
    DEVOURED,
    FROZEN,
    HEROES,
    OVERSEER,
    STUNNED,
    TELEPORTED,
    Character,
    GameState,
    Pending,
    PlannedShot,
    Turn,
    name_of,
    why_cannot_act,
)
from service.games.catacombs.flow.tx import Tx
from service.rules import events as E
from service.rules.errors import (
    BadDecisionError,
    CharacterCannotActError,
    NoSuchAlternativeError,
    NotYourTurnError,
    SuppressedShotError,
    UnexpectedShotError,
    UnknownCharacterError,
    WrongPhaseError,
)
from service.rules.evolve import evolve
from service.rules.ruleset import RuleSet
from service.rules.settings import RuleSettings

TURN_ORDER = cite("Battle Phase: Turn Order")
SEQUENCES = cite("Battle Phase: Shot Sequences and Connectors")
SUPPRESSION = cite("Room Cards: Suppression")
ANTIENTS = cite("Advanced Concepts: Antients")
HEROIC_SIDE_KINDS = ("hero", "ally", "familiar")
OVERSEER_KINDS = ("monster", "lord")


class CatacombsFlow(WithoutExpansion, RuleSet[GameState, Content]):
    """Catacombs' common flow: two sides, rooms, characters with health. Subclasses fill in the hooks."""

    settings_type: ClassVar[type[RuleSettings]] = Settings
    settings: Settings
    # The special rooms an edition's expansions bring, by room kind (Catacombs 3E: the Altar of Soloth).
    expansion_rooms: ClassVar[Mapping[str, special_rooms.ExpansionRoom]] = {}

    # == the public API ===========================================================================
    def perform(self, state: GameState, action: A.Action) -> tuple[GameState, list[E.Event]]:
        tx = Tx(state, self)
        getattr(self, f"_do_{action.name}")(tx, action)
        return tx.state, tx.events

    def rule_for_pending(self, state: GameState) -> str:
        return state_rule(state, self.expansion_decisions())

    def expansion_decisions(self) -> dict[str, str]:
        """The rules behind the decisions the expansion rooms ask, by decision kind."""
        return {kind: rule for room in self.expansion_rooms.values() for kind, rule in room.decisions.items()}

    def game_over_rule(self) -> str:
        return cite("Game Phases: Winning the Game")

    def unknown_action_rule(self) -> str:
        return cite("Components")

    def choices(self, state: GameState) -> list[A.Action]:
        """The legal actions a person could choose now, for consoles and simulated players.

        Shots are not listed (``resolve_shot`` comes from the sensors); special-room services are listed
        without a target or payment when they need none, and once per living hero otherwise.
        """
        candidates: list[A.Action] = []
        if state.pending is not None:
            candidates += [A.Decide(state.pending.id, o.id) for o in state.pending.options]
        elif state.phase in ("setup", "resolution", "special_room"):
            candidates += [A.StartBattle(), A.EnterRoom()]
            if state.phase == "special_room":
                for service in special_rooms.services(self).get(state.room_kind or "", {}):
                    candidates.append(A.UseService(service))
                    candidates += [A.UseService(service, target=h.id) for h in state.heroes]
                    if service == "buy":
                        candidates += [
                            A.UseService(service, target=h.id, item=item)
                            for h in state.heroes
                            for item in dict.fromkeys(state.market)
                        ]
        elif state.phase == "battle":
            movers = [state.character(state.turn.character)] if state.turn else list(self.actors(state))
            for c in movers:
                candidates += [A.DeclareAction(c.id, i) for i in range(len(self.hero_sequences(state, c)))]
                for kind, pile in card_play.PILES.items():
                    candidates += [
                        A.PlayCard(c.id, card, kind=kind) for card in dict.fromkeys(getattr(c, pile))
                    ]
            if state.turn is not None:
                candidates += [A.SkipShot(state.turn.character), A.EndTurn(state.turn.character)]
        return [a for a in candidates if self.is_legal(state, a)]

    @abstractmethod
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
        """The state before the first Room card is flipped."""

    def new_game_from_setup(self, setup: Mapping[str, Any]) -> GameState:
        """The game a log's setup record describes (docs/game-log.md): heroes, lord, rooms or layout, seed."""
        rooms = setup.get("rooms")
        if rooms is None and "layout" in setup:
            rooms = deal_room_deck(self.content, setup["layout"], int(setup.get("seed", 0)))
        return self.new_game(
            setup["heroes"],
            setup["lord"],
            rooms if rooms is not None else setup["rooms"],
            int(setup.get("seed", 0)),
            items=setup.get("items"),
            spells=setup.get("spells"),
        )

    # == hooks for variants =======================================================================
    def hero_character_id(self, hero_name: str) -> str:
        return "hero-" + slug(hero_name.split()[0])

    def lord_character_id(self, lord_name: str) -> str:
        return "lord-" + slug(lord_name.split()[0])

    def hero_sequences(self, state: GameState, hero: Character) -> tuple[Sequence, ...]:
        """What a character may declare this turn (stun, teleport and ordered sequences live here)."""
        return hero.shot_sequences

    def shot_damage(self, state: GameState, attacker: Character, target: Character, shot: Shot) -> int:
        return shot.base_damage

    def after_hits(self, tx: Tx, attacker: Character, shot: Shot, damaged: tuple[str, ...]) -> None:
        """Hook: effects of a shot that depend on who was damaged (vulnerabilities, variant rules)."""

    @abstractmethod
    def summon(self, tx: Tx, summoner: Character, card: str) -> None:
        """Hook: bring a character into play with a summon shot."""

    def end_of_round(self, tx: Tx) -> None:
        """Hook: effects at the end of a round."""

    def keeps_destroyed_disc(self, state: GameState) -> bool:
        """Hook: does a destroyed monster's disc go onto its slayer's board (rather than back to the pool)?"""
        return True

    def turn_ended(self, tx: Tx, turn: Turn, character: Character) -> None:
        """Hook: effects once a character's whole shot sequence is complete."""

    @abstractmethod
    def overseer_has_won(self, state: GameState) -> bool:
        """Hook: the Overseer's win condition."""

    @abstractmethod
    def heroes_have_won(self, state: GameState) -> bool:
        """Hook: the heroes' win condition."""

    @abstractmethod
    def room_is_clear(self, state: GameState) -> bool:
        """Hook: this room's Battle Phase is over."""

    @abstractmethod
    def end_battle(self, tx: Tx) -> None:
        """Hook: what ends a Battle Phase (the Resolution Phase's rewards)."""

    # == who may act ================================================================================
    def can_act(self, state: GameState, c: Character) -> bool:
        if not (c.alive and c.in_room) or c.id in state.acted:
            return False
        if c.has(DEVOURED) or c.has(FROZEN):
            return False
        if c.kind == "antient":
            # Antients: control passes back and forth between the sides, and its controller "performs the
            # Liquid Antient's shot sequence". A card whose sequence the content does not know leaves the
            # controller nothing to perform: its part passes (docs/rulings.md, "Antient control").
            return bool(c.shot_sequences)
        if c.kind not in (HEROIC_SIDE_KINDS if state.side == HEROES else OVERSEER_KINDS):
            return False
        return True

    def actors(self, state: GameState) -> tuple[Character, ...]:
        return tuple(c for c in state.characters if self.can_act(state, c))

    # == checks ===================================================================================
    def _check_battle(self, state: GameState) -> None:
        if state.phase != "battle":
            raise WrongPhaseError(
                f"this happens in the Battle Phase, not {state.phase}", cite("Game Phases: The Battle Phase")
            )

    def _character(self, state: GameState, character_id: str) -> Character:
        c = state.find(character_id)
        if c is None:
            raise UnknownCharacterError(f"no character {character_id!r} in this game", TURN_ORDER)
        return c

    def _check_declare(self, state: GameState, action: A.DeclareAction) -> None:
        self._check_battle(state)
        c = self._character(state, action.character)
        after_pre_combo = (
            state.turn is not None and state.turn.character == c.id and state.turn.stage == "await_main"
        )
        if state.turn is not None and not after_pre_combo:
            raise NotYourTurnError(f"{state.turn.character} is still taking its turn", TURN_ORDER)
        if (
            c.kind in HEROIC_SIDE_KINDS
            and state.side != HEROES
            or c.kind in OVERSEER_KINDS
            and state.side != OVERSEER
        ):
            raise NotYourTurnError(f"it is the {state.side}' turn, not {c.name}'s", TURN_ORDER)
        if c.kind == "antient":
            _check_antient_declare(state, c)
        if not after_pre_combo and not self.can_act(state, c):  # Combo Items: the action follows the combo
            raise CharacterCannotActError(
                f"{c.name} cannot take a turn now ({why_cannot_act(state, c)})", TURN_ORDER
            )
        sequences = self.hero_sequences(state, c)
        if not sequences:
            raise CharacterCannotActError(f"{c.name} has no shot sequence", SEQUENCES)
        if action.alternative is not None and not 0 <= action.alternative < len(sequences):
            raise NoSuchAlternativeError(
                f"{c.name} has {len(sequences)} alternative(s); {action.alternative} is not one", SEQUENCES
            )

    def _check_resolve_shot(self, state: GameState, action: A.ResolveShot) -> None:
        self._check_battle(state)
        turn = state.turn
        if turn is None or turn.character != action.character:
            raise NotYourTurnError(f"{action.character} has not declared an action", TURN_ORDER)
        if not turn.queue:
            raise UnexpectedShotError("no shot is left in the declared sequence", SEQUENCES)
        candidates = turn.candidates()
        refusal = shot_resolution.flicked_refusal(turn, action, lambda cid: name_of(state, cid))
        if refusal is not None:
            raise refusal
        planned = shot_resolution.planned_for(turn, action)
        if planned is None:
            expected = " or ".join(p.shot.label for p in candidates)
            raise UnexpectedShotError(
                f"expected {expected}, not {action.shot}",
                cite("Then connector", "RULINGS.md 2") if not turn.elastic else SEQUENCES,
            )
        if planned.shot.kind == "target" and action.target is None:
            raise UnexpectedShotError(
                "a target shot needs its declared target", cite("Advanced Shots: Target Shot")
            )
        if planned.target is not None and action.target != planned.target:
            raise UnexpectedShotError(
                f"the second flick is at the declared target, {planned.target}",
                cite("Advanced Shots: Target Shot"),
            )
        if planned.suppressed:
            raise SuppressedShotError(f"the room suppresses {planned.shot.label}; skip it", SUPPRESSION)
        for cid in (*action.direct_hits, *action.pushed_off_mat, *action.knocked_off):
            self._character(state, cid)
        if action.target is not None:
            self._character(state, action.target)

    def _check_skip_shot(self, state: GameState, action: A.SkipShot) -> None:
        self._check_battle(state)
        if state.turn is None or state.turn.character != action.character or not state.turn.queue:
            raise NotYourTurnError(f"{action.character} has no shot to skip", SEQUENCES)

    def _check_end_turn(self, state: GameState, action: A.EndTurn) -> None:
        self._check_battle(state)
        if state.turn is None or state.turn.character != action.character:
            raise NotYourTurnError(f"{action.character} is not taking a turn", TURN_ORDER)

    def _check_decide(self, state: GameState, action: A.Decide) -> None:
        pending = state.pending
        if pending is None:
            raise BadDecisionError("no decision is pending", SEQUENCES)
        if action.decision != pending.id:
            raise BadDecisionError(
                f"decision {action.decision!r} is not the pending one ({pending.id})",
                state_rule(state, self.expansion_decisions()),
            )
        if action.option not in {o.id for o in pending.options}:
            raise BadDecisionError(
                f"{action.option!r} is not an option of {pending.id}: {[o.id for o in pending.options]}",
                state_rule(state, self.expansion_decisions()),
            )

    def _check_set_health(self, state: GameState, action: A.SetHealth) -> None:
        corrections.check_set_health(state, self._character(state, action.character), action)

    def _check_set_gold(self, state: GameState, action: A.SetGold) -> None:
        corrections.check_set_gold(state, self._character(state, action.character), action)

    # == application ==============================================================================
    def _do_declare(self, tx: Tx, action: A.DeclareAction) -> None:
        c = tx.state.character(action.character)
        sequences = self.hero_sequences(tx.state, c)
        if c.has(TELEPORTED):
            # Teleport Shots: the character comes back at the edge of the playmat for this turn.
            tx.update(c.without_status(TELEPORTED))
            c = tx.state.character(c.id)
        if action.alternative is None and len(sequences) > 1:
            tx.set_turn(Turn(character=c.id, label="", source="rules", queue=()))
            tx.ask_alternative(c, sequences)
            return
        self.start_sequence(tx, c, sequences[action.alternative or 0])

    def start_sequence(self, tx: Tx, c: Character, sequence: Sequence, source: str = "rules") -> None:
        queue = tuple(self.plan(tx.state, c, shot, i) for i, shot in enumerate(sequence.shots))
        previous = tx.state.turn
        combo_used = previous is not None and previous.character == c.id and previous.combo_used
        tx.set_turn(
            Turn(
                character=c.id,
                label=sequence.label,
                source=source,
                queue=queue,
                # RULINGS.md 2: Then shots in printed order unless the table chose otherwise.
                elastic=sequence.elastic or self.settings.then_any_order,
                combo_used=combo_used,
            )
        )
        tx.emit(E.ActionDeclared(f"{c.name} declares {sequence.label}", c.id, sequence.label))
        tx.finish_turn_if_done()

    def plan(self, state: GameState, c: Character, shot: Shot, position: int) -> PlannedShot:
        """Applies the room's Suppresses box (catacombs-3e-reference.txt: Room Cards: Suppression)."""
        if c.kind in ("lord", "antient"):  # Lords' and Antients' own shots cannot be suppressed
            return PlannedShot(shot, c.id, position)
        for icon in state.suppresses:
            if icon.modifier is None and icon.kind == shot.kind:
                return PlannedShot(shot, c.id, position, suppressed=True)
            if icon.modifier is not None and shot.matches(icon):
                return PlannedShot(evolve(shot, modifier=None, count=1), c.id, position)
        return PlannedShot(shot, c.id, position)

    def _check_play_card(self, state: GameState, action: A.PlayCard) -> None:
        self._check_battle(state)
        card_play.check(self, state, action, self._character(state, action.character))

    def _do_play_card(self, tx: Tx, action: A.PlayCard) -> None:
        card_play.apply(self, tx, action)

    def with_permanent_items(self, hero: Character) -> Character:
        """Defensive Properties: a permanent Item's Nullifies / Reflects boxes protect automatically."""
        nullifies, reflects = list(hero.nullifies), list(hero.reflects)
        for item in hero.items:
            card = self.content.card("item", item)
            if card.frequency == "permanent":
                nullifies.extend(card.nullifies)
                reflects.extend(card.reflects)
        return evolve(hero, nullifies=tuple(nullifies), reflects=tuple(reflects))

    def _check_use_service(self, state: GameState, action: A.UseService) -> None:
        special_rooms.check(self, state, action)

    def _do_use_service(self, tx: Tx, action: A.UseService) -> None:
        special_rooms.apply(self, tx, action)

    def has_post_combo(self, state: GameState, character: Character) -> bool:
        """Combo Items: may a post-Combo item still follow this character's action?"""
        return card_play.has_post_combo(self, state, character)

    def decide_choose_modifier_target(self, tx: Tx, pending: Pending, option: str) -> None:
        assert pending.shot is not None
        modifiers.apply_modifier(tx, tx.char(pending.character or ""), pending.shot, tx.char(option))

    def decide_choose_heal_target(self, tx: Tx, pending: Pending, option: str) -> None:
        card_play.decide_heal(tx, pending, option)

    def decide_choose_poison_card(self, tx: Tx, pending: Pending, option: str) -> None:
        card_play.decide_poison(tx, pending, option)

    def decide_choose_roll_target(self, tx: Tx, pending: Pending, option: str) -> None:
        assert pending.shot is not None
        attacker = tx.char(pending.character or "")
        _, damaged = shot_resolution.hit_targets(tx, attacker, pending.shot, (option,), ())
        turn = tx.state.turn
        if turn is not None:
            tx.set_turn(evolve(turn, last_damaged=damaged, damaged_any=turn.damaged_any or bool(damaged)))

    def decide_choose_tavern_reward(self, tx: Tx, pending: Pending, option: str) -> None:
        special_rooms.decide_tavern_reward(self, tx, pending, option)

    def decide_choose_ally_ability(self, tx: Tx, pending: Pending, option: str) -> None:
        allies.decide_ally_ability(self, tx, pending, option)

    def decide_choose_ally_spell(self, tx: Tx, pending: Pending, option: str) -> None:
        allies.decide_ally_spell(self, tx, pending, option)

    def decide_choose_item(self, tx: Tx, pending: Pending, option: str) -> None:
        special_rooms.decide_item(self, tx, pending, option)

    def lone_hero(self, state: GameState, hero: Character) -> bool:
        """Stun: "If only a single hero is able to perform their normal action(s) ... the stun is ignored"."""
        able = [h for h in state.heroes if h.alive and not (h.has(DEVOURED) or h.has(TELEPORTED))]
        return len(able) == 1 and able[0].id == hero.id

    def _do_resolve_shot(self, tx: Tx, action: A.ResolveShot) -> None:
        shot_resolution.resolve_shot(tx, action)

    def _do_skip_shot(self, tx: Tx, action: A.SkipShot) -> None:
        tx.skip_shot()

    def _do_end_turn(self, tx: Tx, action: A.EndTurn) -> None:
        tx.end_turn()

    def _do_decide(self, tx: Tx, action: A.Decide) -> None:
        tx.decide(action.option)

    def _do_set_health(self, tx: Tx, action: A.SetHealth) -> None:
        corrections.apply_set_health(tx, action)

    def _check_set_status(self, state: GameState, action: A.SetStatus) -> None:
        corrections.check_set_status(state, self._character(state, action.character), action)

    def _do_set_status(self, tx: Tx, action: A.SetStatus) -> None:
        corrections.apply_set_status(tx, action)

    def _check_set_cards(self, state: GameState, action: A.SetCards) -> None:
        corrections.check_set_cards(state, self._character(state, action.character), self.content, action)

    def _do_set_cards(self, tx: Tx, action: A.SetCards) -> None:
        corrections.apply_set_cards(tx, action)

    def _do_set_gold(self, tx: Tx, action: A.SetGold) -> None:
        corrections.apply_set_gold(tx, action)


def state_rule(state: GameState, expansions: Mapping[str, str]) -> str:
    """The rule behind the pending decision, for error messages (``expansions``: the expansion rooms')."""
    kind = state.pending.kind if state.pending else ""
    return {
        "choose_alternative": SEQUENCES,
        "choose_modifier_target": cite("Shot Modifiers", "catacombs-3e-shot-modifiers.txt"),
        "choose_monster": cite("Room Cards: Monster Metre Icons"),
        "choose_ally_ability": cite("Advanced Concepts: Allies"),
        "choose_ally_spell": cite("Advanced Concepts: Allies"),
        "transform": cite("Transform Shot Modifier", "catacombs-3e-shot-modifiers.txt"),
        **expansions,
    }.get(kind, TURN_ORDER)


def _check_antient_declare(state: GameState, antient: Character) -> None:
    """Antients: "Once that player's turn is over, the Antient card is passed to the Overseer", and back to
    the heroes "upon completion of the Overseer's turn"; its controller performs its shot sequence."""
    if not (antient.alive and antient.in_room):
        return
    if not antient.shot_sequences:
        raise CharacterCannotActError(
            f"{antient.name}'s shot sequence is not in the card data (add it with an overlay); "
            "its controller has nothing to perform",
            ANTIENTS,
        )
    if antient.id in state.acted:
        holder = state.antient_controller(antient)
        after = "" if holder != state.side else " until the Overseer's turn is over"
        raise CharacterCannotActError(
            f"{antient.name} has acted in this part of the round: its card is with the {holder}{after}",
            ANTIENTS,
        )


__all__ = ["CatacombsFlow", "HEROES", "OVERSEER", "STUNNED", "TELEPORTED"]
