"""Turn order as Catacombs & Castles 1E has it: the portrait rotation of Team Mode, Boss Mode's whole turns.

catacombs-and-castles-1e-manual.txt, Turn Overview / Game Overview: in Team Mode the teams alternate one
hero at a time; a hero's Portrait card is rotated once it has acted, it cannot act again until all of its
teammates have, and when all have, the team's portraits reset (so a hero may act last in one cycle and first
in the next, as the Queen of Storms does in the Team Mode Quick Start Tutorial). A hero under a net or web
holds the reset back until its team's turn comes with no other hero able to act. In Boss Mode each side takes
all its actions at once (the 2E flow, ``CastlesTx``). Egg Shot: a warrior placed cannot act on the turn it
was placed; Reinforcements: new warriors act before the Lord and the others.
"""

from __future__ import annotations

from service.games.castles.core.state import BOSS_MODES, Fighter
from service.games.castles.core.tx import CastlesTx
from service.games.castles.first_edition.pieces import place_shield
from service.rules import events as E
from service.rules.evolve import evolve


class FirstEditionTx(CastlesTx):
    def end_turn(self) -> None:
        turn = self.state.turn
        if turn is None:
            return
        c = self.char(turn.character)
        reinforcing = tuple(w for w in self.state.reinforcing if w != c.id)
        self.state = evolve(self.state, reinforcing=reinforcing)
        if turn.shield is not None:
            # Shields: the sequence over (its shield step made or not), the disc goes back beside the hero.
            place_shield(self, c)
        super().end_turn()

    def can_take_turn(self, c: Fighter) -> bool:
        # Egg: "The Warrior may not take an action on the turn that it was first placed."
        return c.id not in self.state.placed and super().can_take_turn(c)

    def advance(self, last_side: str) -> None:
        if self.state.mode in BOSS_MODES:
            super().advance(last_side)
            return
        self.reset_portraits(last_side, due=False)
        other = self.state.other_side(last_side)
        self.reset_portraits(other, due=True)
        if self.eligible(other):
            self.to_side(other)
            return
        self.reset_portraits(last_side, due=True)
        if self.eligible(last_side):
            self.to_side(last_side)  # every opposing hero is trapped: the turn comes back

    def reset_portraits(self, side_id: str, *, due: bool) -> None:
        """Game Overview: "When all heroes on a team have taken an action, all their Portrait cards reset".
        A hero under a net or web has not taken its action: the team's portraits wait for it until the team's
        turn is ``due`` and no hero of it could act otherwise (docs/rulings.md), so a hero freed before then
        still takes its action before the others go again."""
        heroes = [h for h in self.state.members(side_id, "hero") if h.on_mat]
        waiting = [h for h in heroes if h.id not in self.state.acted]
        if not heroes or len(waiting) == len(heroes):
            return
        if waiting and not (due and all(h.trapped for h in waiting)):
            return
        ids = {h.id for h in self.state.members(side_id, "hero")}
        self.state = evolve(self.state, acted=tuple(a for a in self.state.acted if a not in ids))
        self.emit(E.RoundStarted(f"{side_id}'s Portrait cards are turned upright again", self.state.round))
        if side_id == self.state.first_side:
            self.state = evolve(self.state, round=self.state.round + 1)

    def new_round(self, starting: str) -> None:
        self.state = evolve(self.state, placed=(), reinforcing=())
        super().new_round(starting)
