"""Changes to a Catacombs 1E game's state as the first edition makes them (``Catacombs1ETx``), and the
statuses it adds: incapacitation (Incapacità) and the Gorgon's stone (La Battaglia Finale)."""

from __future__ import annotations

from service.games.catacombs.first_edition import rounds
from service.games.catacombs.first_edition.services import FirstEditionRules
from service.games.catacombs.flow import events as E
from service.games.catacombs.flow.state import STUNNED, Character, GameState
from service.games.catacombs.flow.tx import Tx
from service.rules.evolve import evolve

INCAPACITATED = "incapacitated"
INCAPACITATED_THIS_ROUND = "incapacitated-this-round"
PETRIFIED = "petrified"  # La Battaglia Finale: the Gorgon "trasformare un eroe in pietra"


class Catacombs1ETx(Tx):
    """Changes as the first edition makes them: a stun incapacitates (Incapacità), a dead hero keeps its gold
    and items, loses the room's gold and stays dead (Morte di un eroe); a critical attack's extra point on
    every target; the round's end and the Keeper's win as catacombs1e_rounds has them."""

    rules: FirstEditionRules

    def __init__(self, state: GameState, rules: FirstEditionRules) -> None:
        super().__init__(state, rules)
        self.critical_by: str | None = None  # the attacker whose critical attack is being resolved

    def damage(self, target: Character, amount: int, by: Character | None, what: str) -> None:
        if by is not None and by.id == self.critical_by and amount > 0:
            amount, what = amount + 1, f"critical {what}"  # Colpo Critico: 2 instead of 1, on each target
        super().damage(target, amount, by, what)

    def advance(self) -> None:
        rounds.advance(self.rules, self)

    def after_change(self) -> None:
        if rounds.keeper_wins(self.rules, self):
            return
        super().after_change()

    def update(self, c: Character) -> None:
        if c.has(STUNNED):
            # Gli Attacchi Modificati, Colpo stordente: the target is incapacitated instead.
            c = c.without_status(STUNNED)
            before = self.state.find(c.id)
            able = c.kind not in ("ally", "familiar") and c.alive
            if able and not (before is not None and before.has(INCAPACITATED)):
                c = c.with_status(INCAPACITATED).with_status(INCAPACITATED_THIS_ROUND)
                self.emit(E.StatusChanged(f"{c.name} is incapacitated", c.id, INCAPACITATED, True))
        super().update(c)

    def kill(self, c: Character, by: Character | None, cause: str) -> None:
        """La Battaglia Finale: the Gorgon's gaze (the petrify modifier) turns a hero to stone: not dead, he
        takes no action until the battle ends; an ally or familiar turned to stone is gone as if destroyed."""
        # modifiers.apply_modifier kills with the cause "petrified" (3E: "The character is dead").
        if cause == PETRIFIED and c.kind == "hero" and c.alive:
            self.update(self.char(c.id).with_status(PETRIFIED))
            return
        super().kill(c, by, cause)

    def hero_dies(self, hero: Character, cause: str) -> None:
        # His monsters' discs stay on his board to the Resolution Phase, which returns them unpaid.
        hero = evolve(hero, alive=False, health=0, status=(), returns_next_room=False)
        self.update(hero)
        self.emit(E.HeroDied(f"{hero.name} dies ({cause})", hero.id, cause))
        for c in self.state.characters:
            if c.kind in ("familiar", "ally") and c.owner == hero.id and c.in_room:
                self.update(evolve(c, in_room=False))
