"""Applying one legal 2E action: swaps in new immutable states, collects events, and moves the turn on.

Turn order (catacombs-and-castles-2e-manual.md: Team Mode Turn Order; Boss Mode Turn Order; Boss vs Boss Mode
Turn Order): in Team Mode and One versus One the sides alternate one hero at a time; in the boss modes a side
takes all its characters' turns (any order) before the other side. A round ends once every character able to
act has acted; the next round starts with the side that did not take the last turn.
"""

from __future__ import annotations

from service.games.castles.core import events as CE
from service.games.castles.core.state import BOSS_MODES, CastlesState, CastlesTurn, Fighter, Planned
from service.rules import events as E
from service.rules.decisions import Option, Pending
from service.rules.evolve import evolve


class CastlesTx:
    def __init__(self, state: CastlesState) -> None:
        self.state = state
        self.events: list[E.Event] = []

    # -- small edits ------------------------------------------------------------------------------
    def emit(self, event: E.Event) -> None:
        self.events.append(event)

    def char(self, character_id: str) -> Fighter:
        return self.state.character(character_id)

    def update(self, c: Fighter) -> None:
        self.state = self.state.with_character(c)

    def set_turn(self, turn: CastlesTurn | None) -> None:
        self.state = evolve(self.state, turn=turn)

    def ask(
        self,
        kind: str,
        character: str | None,
        prompt: str,
        options: tuple[Option, ...],
        context: tuple[str, ...],
    ) -> None:
        n = self.state.decisions_made + 1
        pending = Pending(f"d{n}", kind, character, prompt, options, None, context)
        self.state = evolve(self.state, pending=pending, decisions_made=n)
        self.emit(E.DecisionRequired(prompt, pending.id, kind))

    def insert_next(self, *planned: Planned) -> None:
        """Shots the rules add (vortex and grapple rushes, a target retry): they come before the rest."""
        turn = self.state.turn
        if turn is not None and planned:
            self.set_turn(evolve(turn, queue=(*planned, *turn.queue)))

    # -- game over ---------------------------------------------------------------------------------
    def lose_tokens(self, side_id: str, amount: int, character: str, by: str) -> int:
        """Takes up to ``amount`` Health Tokens from a pool; returns how many were there to take."""
        side = self.state.side(side_id)
        taken = min(amount, side.health)
        self.state = self.state.with_side(evolve(side, health=side.health - taken))
        name = self.char(character).name if self.state.find(character) else side_id
        self.emit(
            CE.TokensLost(
                f"{name} loses {taken} Health Token(s): {side.id} has {side.health - taken} left",
                side_id,
                character,
                by,
                taken,
                side.health - taken,
            )
        )
        if side.health - taken == 0:
            self.game_over(self.state.other_side(side_id))
        return taken

    def game_over(self, winner: str) -> None:
        """Team Mode Objective: "When a team's Health Pool is depleted, the game is over"."""
        self.state = evolve(self.state, outcome=winner, phase="game_over", turn=None, pending=None)
        self.emit(E.GameOver(f"{winner}'s opponents have no Health Tokens left: {winner} wins", winner))

    @property
    def over(self) -> bool:
        return self.state.outcome is not None

    # -- turns -------------------------------------------------------------------------------------
    def finish_turn_if_done(self) -> None:
        turn = self.state.turn
        if (
            turn is not None
            and not turn.queue
            and not turn.hits
            and self.state.pending is None
            and not self.over
        ):
            self.end_turn()

    def end_turn(self) -> None:
        turn = self.state.turn
        if turn is None:
            return
        c = self.char(turn.character)
        state = self.state
        bonus = state.warrior_bonus
        if c.kind == "warrior" and state.mode not in BOSS_MODES:
            bonus = None  # Warriors: the one friendly warrior after a hero's turn has acted
        else:
            state = evolve(state, acted=(*state.acted, c.id), side_turn_acted=(*state.side_turn_acted, c.id))
            if state.mode not in BOSS_MODES and any(w.on_mat for w in state.members(c.side, "warrior")):
                bonus = c.side
        self.state = evolve(state, turn=None, warrior_bonus=bonus, turns_taken=state.turns_taken + 1)
        self.emit(E.TurnEnded(f"{c.name}'s turn ends", c.id))
        self.advance(c.side)

    def can_take_turn(self, c: Fighter) -> bool:
        if not c.on_mat or c.trapped or c.id in self.state.acted:
            return False
        if c.kind == "warrior":
            return self.state.mode in BOSS_MODES
        return True

    def eligible(self, side_id: str) -> bool:
        return any(self.can_take_turn(c) for c in self.state.members(side_id))

    def advance(self, last_side: str) -> None:
        state = self.state
        other = state.other_side(last_side)
        boss_like = state.mode in BOSS_MODES
        if boss_like and self.eligible(last_side):
            return  # the side goes on with its other characters
        if state.first_strike and (not boss_like or last_side == state.first_side):
            # First Strike Rule (RULINGS.md 9): only the first turn (a hero; a boss player's whole turn).
            self.state = evolve(self.state, first_strike=False)
        if self.eligible(other):
            self.to_side(other)
        elif not boss_like and self.eligible(last_side):
            self.to_side(last_side)
        else:
            self.new_round(other)

    def to_side(self, side_id: str) -> None:
        if side_id != self.state.side_to_move:
            self.state = evolve(self.state, side_to_move=side_id, side_turn_acted=())
            self.emit(E.SideToAct(f"{side_id} to act", side_id))

    def new_round(self, starting: str) -> None:
        n = self.state.round + 1
        self.state = evolve(self.state, round=n, acted=(), side_turn_acted=())
        self.emit(E.RoundStarted(f"Round {n} begins", n))
        if not self.eligible(starting) and self.eligible(self.state.other_side(starting)):
            starting = self.state.other_side(starting)
        self.state = evolve(self.state, side_to_move=starting)
        self.emit(E.SideToAct(f"{starting} to act", starting))
