"""The end of a round, of a room, and the Keeper's win in Catacombs 1E (catacombs-1e-rules-italian.txt).

- 3. La Fase Combattimento, Nota: a room is complete when only heroes, allies and pieces without a sticker are
  on the board "al termine di un round": the room ends at the end of the round in which its last monster
  falls, not at the fall. The heroes who have not acted still act, the Keeper's turn (no monster left) passes,
  and then 5. La Fase di Risoluzione pays the gold.
- Riassunto delle regole, Fine del Round: the incapacitation of the round before ends; are the heroes all dead
  or incapacitated? The Keeper wins; are there still monsters on the board? A new round; else the Resolution.
- Cose importanti 3 / Condizioni di Vittoria: "In un qualunque momento" every hero incapacitated or dead and
  nobody able to act: the Keeper wins at that moment (after every change, not at the next shot resolved).
- Rigenerazione: "il Custode può riportarlo a pieni punti vita": a decision for each wounded monster at the
  round's end. A table that goes on without answering has not declined: the monster regenerates.
- Moving on (``EnterRoom``) when no monster is left on the board: the heroes who have not acted forgo their
  action, the round ends and the Resolution Phase pays before the next Room card is turned.

Decisions are in docs/rulings.md ("Catacombs 1E").
"""

from __future__ import annotations

from service.games.catacombs.first_edition.services import FirstEditionRules
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import events as E
from service.games.catacombs.flow.state import HEROES, OVERSEER, GameState, Option, Pending
from service.games.catacombs.flow.tx import Tx
from service.rules.evolve import evolve

REGENERATION = "regeneration"  # the kind of the Keeper's decision
REGENERATE, DECLINE = "yes", "no"


def board_is_clear(state: GameState) -> bool:
    """No monster on the board of a battle room (a fire wall "non conta come mostro"; the Lair ends with its
    Lord, Condizioni di Vittoria)."""
    if state.room_kind != "battle":
        return False
    return not any(c.kind == "monster" and c.alive and c.in_room for c in state.characters)


def keeper_wins(rules: FirstEditionRules, tx: Tx) -> bool:
    """Cose importanti 3: the moment no hero can act any more, the Keeper has won."""
    state = tx.state
    if state.outcome is not None or state.phase == "game_over" or state.room_index < 0:
        return state.outcome is not None
    if not rules.overseer_has_won(state):
        return False
    tx.state = evolve(state, outcome=OVERSEER, phase="game_over", turn=None, pending=None)
    tx.emit(E.GameOver("The Keeper wins: every hero is dead or incapacitated and nobody can act", OVERSEER))
    return True


def advance(rules: FirstEditionRules, tx: Tx) -> None:
    """After a turn: the next hero or monster, else the Keeper's turn, else the end of the round."""
    if tx.state.phase != "battle" or keeper_wins(rules, tx):
        return
    if rules.actors(tx.state):
        return
    if tx.state.side == HEROES:
        tx.state = evolve(tx.state, side=OVERSEER)
        tx.emit(E.SideToAct("The Keeper's turn: an action for each monster", OVERSEER))
        if rules.actors(tx.state):
            return
    end_round(rules, tx)


def end_round(rules: FirstEditionRules, tx: Tx) -> None:
    """Riassunto delle regole, Fine del Round."""
    rules.end_of_round(tx)  # the incapacitation of the round before ends
    if keeper_wins(rules, tx):
        return
    if board_is_clear(tx.state):
        rules.end_battle(tx)  # La Fase di Risoluzione
        return
    wounded = tuple(
        c.id
        for c in tx.state.characters
        if c.kind == "monster"
        and c.alive
        and c.in_room
        and c.health < c.max_health
        and rules.content.has(c.card, "regeneration")
    )
    tx.state = evolve(tx.state, side=HEROES, acted=(), round=tx.state.round + 1)
    ask_regeneration(tx, wounded)
    tx.emit(E.RoundStarted(f"Round {tx.state.round} begins", tx.state.round))
    if not rules.actors(tx.state) and any(
        rules.can_act(evolve(tx.state, side=OVERSEER), c) for c in tx.state.characters
    ):
        advance(rules, tx)


def ask_regeneration(tx: Tx, monsters: tuple[str, ...]) -> None:
    """Rigenerazione: the Keeper "può" turn the disc back to full health: one decision per wounded monster."""
    if not monsters:
        return
    monster = tx.char(monsters[0])
    tx.ask(
        REGENERATION,
        monster.id,
        f"Does {monster.name} regenerate to full health (the Keeper may decline)?",
        (Option(REGENERATE, "regenerate"), Option(DECLINE, "stay wounded")),
        context=monsters[1:],
    )


def decide_regeneration(tx: Tx, pending: Pending, option: str) -> None:
    monster = tx.char(pending.character or "")
    if option == REGENERATE:
        tx.heal(monster, monster.max_health - monster.health)
    else:
        tx.emit(
            E.StatusChanged(
                f"The Keeper declines {monster.name}'s regeneration", monster.id, REGENERATION, False
            )
        )
    ask_regeneration(tx, pending.context)


def regeneration_assumed(state: GameState, action: A.Action) -> bool:
    """The table went on while the Keeper's regeneration decision was open: he did not decline it."""
    return (
        state.pending is not None
        and state.pending.kind == REGENERATION
        and not action.correction
        and not isinstance(action, (A.Decide, A.DrawCards))
    )


def move_on(rules: FirstEditionRules, tx: Tx) -> None:
    """The next Room card is turned with no monster left: the round ends now (the heroes who have not acted
    forgo their action, the Keeper has no monster), and the Resolution Phase pays."""
    tx.set_turn(None)
    tx.emit(
        E.SideToAct("No monster is left: the heroes still to act forgo their action; the round ends", HEROES)
    )
    rules.end_of_round(tx)
    rules.end_battle(tx)
