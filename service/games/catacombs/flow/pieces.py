"""Catacombs 3E: pieces that come and go during a room, and the refusals that keep a log honest.

Shield pieces (Shield Shots), teleporting another character (Teleport Shots), the two pieces an open portal
switches (Open Portal), summons that find no piece in the Monster Pool (Summon Shot), and Or-alternatives the
rules do not offer this turn (Stun, Teleport Shots, The Gelatinous Cube Monster). Each refusal names its rule.
"""

from __future__ import annotations

from typing import Protocol

from service.games.catacombs.flow import shot_resolution
from service.games.catacombs.flow.cards import Content, MonsterCard
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.shots import Sequence, Shot
from service.games.catacombs.flow.state import (
    DEVOURED,
    FROZEN,
    STUNNED,
    TELEPORTED,
    Character,
    GameState,
    Turn,
)
from service.games.catacombs.flow.tx import Tx
from service.rules import actions as A
from service.rules import events as E
from service.rules.errors import IllegalActionError, NoSuchAlternativeError, UnexpectedShotError
from service.rules.evolve import evolve

SHIELD = cite("Battle Phase: Shield Shots")
TELEPORT = cite("Advanced Shots: Teleport Shots")
PORTAL = cite("Advanced Shots: Open Portal")
SUMMON = cite("Advanced Shots: Summon Shot")


class PieceRules(Protocol):
    """What these checks read of the rule set (``Catacombs3E`` and its variants)."""

    @property
    def content(self) -> Content: ...

    def pieces_available(self, state: GameState, card: MonsterCard) -> int: ...

    def piece_in_use_by(self, state: GameState, card: MonsterCard) -> Character | None: ...

    def declarable(self, state: GameState, c: Character) -> list[tuple[int | None, Sequence]]: ...


class SummonUnavailableError(IllegalActionError):
    """A summon shot whose monster has no piece left in the Monster Pool (or an Antient already present)."""


class ForcedSequenceError(NoSuchAlternativeError):
    """An explicit Or-alternative where the rules give the character one sequence this turn."""


# -- shot records ------------------------------------------------------------------------------------------
def planned_shot(state: GameState, action: A.ResolveShot) -> tuple[Character, str] | None:
    """(performer, shot kind) of the shot ``action`` resolves, once the base checks have passed."""
    turn = state.turn
    if turn is None:
        return None
    planned = shot_resolution.planned_for(turn, action)
    if planned is None:
        return None
    return state.character(planned.actor or turn.character), planned.shot.summons or ""


def check_shot_record(rules: PieceRules, state: GameState, action: A.ResolveShot) -> None:
    """The fields only some shots carry: who is teleported, which pieces a portal switches, the summon."""
    found = planned_shot(state, action)
    if found is None:
        return
    performer, summons = found
    if action.teleported is not None and action.shot != "teleport":
        raise UnexpectedShotError(f"only a teleport shot teleports a character, not {action.shot}", TELEPORT)
    if action.swapped and action.shot != "open_portal":
        raise UnexpectedShotError(f"only an open portal switches pieces, not {action.shot}", PORTAL)
    if action.shot == "teleport":
        check_teleport(state, performer, action.teleported)
    if action.shot == "open_portal":
        check_portal(state, performer, action.swapped)
    if action.shot == "summon" and summons:
        check_summon(rules, state, summons)


def check_teleport(state: GameState, performer: Character, teleported: str | None) -> None:
    target = state.find(teleported or performer.id)
    if target is None:
        raise IllegalActionError(f"no character {teleported!r} in this game", TELEPORT)
    if target.id == performer.id and (performer.has(STUNNED) or performer.has(FROZEN)):
        raise IllegalActionError(
            f"{performer.name} is {'stunned' if performer.has(STUNNED) else 'frozen'} and cannot teleport "
            "itself (it can be teleported by another character)",
            TELEPORT,
        )
    if target.kind == "antient":
        raise IllegalActionError(f"{target.name} cannot be teleported", cite("Advanced Concepts: Antients"))
    if target.has(DEVOURED):
        raise IllegalActionError(f"{target.name} cannot be teleported off the Devoured! card", TELEPORT)
    if not target.on_mat:
        raise IllegalActionError(f"{target.name} is not on the playmat", TELEPORT)


def check_portal(state: GameState, performer: Character, swapped: tuple[str, ...]) -> None:
    if not swapped:
        return
    if len(swapped) != 2 or swapped[0] == swapped[1]:
        raise IllegalActionError(f"an open portal switches two pieces, got {list(swapped)}", PORTAL)
    for cid in swapped:
        c = state.find(cid)
        if c is None:
            raise IllegalActionError(f"no character {cid!r} in this game", PORTAL)
        if not c.on_mat:
            raise IllegalActionError(f"{c.name} is not on the playmat", PORTAL)
        friendly = c.side == performer.side if performer.kind != "antient" else c.side == state.side
        if not friendly:
            raise IllegalActionError(f"{c.name} is not a friendly character of {performer.name}", PORTAL)


def check_summon(rules: PieceRules, state: GameState, card_id: str) -> None:
    """Summon Shot: "the monster piece being summoned must be available from the Monster Pool"."""
    card = rules.content.monster(card_id)
    if card.antient:
        if state.find(f"antient-{card.id}") is not None:
            raise SummonUnavailableError(
                f"{card.name} is already in the room; skip the summon", cite("Advanced Concepts: Antients")
            )
        return
    if rules.pieces_available(state, card) <= 0:
        holder = rules.piece_in_use_by(state, card)
        why = f"its piece is in use as {holder.name}" if holder else "no piece is left in the Monster Pool"
        raise SummonUnavailableError(f"{card.name} cannot be summoned: {why}; skip the summon", SUMMON)


# -- declarations ----------------------------------------------------------------------------------------
def check_alternative(rules: PieceRules, state: GameState, action: A.DeclareAction) -> None:
    """An explicit Or-alternative is refused where the rules replace the card's sequences this turn, instead
    of being quietly replaced by what the rules allow."""
    c = state.find(action.character)
    if action.alternative is None or c is None or state.phase != "battle":
        return
    offered = rules.declarable(state, c)
    if any(alternative == action.alternative for alternative, _ in offered):
        return
    if c.has(TELEPORTED):
        raise ForcedSequenceError(
            f"{c.name} returns from the Teleported! card with a single melee shot; declare it without an "
            f"alternative (got {action.alternative})",
            TELEPORT,
        )
    if offered == [(None, Sequence((Shot("rush"),)))] and c.has(STUNNED):
        raise ForcedSequenceError(
            f"{c.name} is stunned and may only perform a single rush shot; declare it without an alternative "
            f"(got {action.alternative})",
            cite("Stun Shot Modifier", "catacombs-3e-shot-modifiers.txt"),
        )
    if c.ordered_by_round and c.shot_sequences:
        raise ForcedSequenceError(
            f"{c.name} performs sequence {offered[0][0]} in round {state.round}, not {action.alternative}",
            cite("Advanced Shots: The Gelatinous Cube Monster"),
        )


def forced_alternative(state: GameState, action: A.DeclareAction) -> A.DeclareAction:
    """The Gelatinous Cube's printed alternative names its round's one sequence (0 of what it may do)."""
    c = state.find(action.character)
    if c is not None and c.ordered_by_round and action.alternative is not None:
        return A.DeclareAction(action.character, 0)
    return action


# -- shield pieces ---------------------------------------------------------------------------------------
def note_shield_shot(tx: Tx, action: A.ResolveShot) -> None:
    if action.shot != "shield":
        return
    found = planned_shot(tx.state, action)
    if found is not None and found[0].id not in tx.state.shield_raised:
        tx.state = evolve(tx.state, shield_raised=(*tx.state.shield_raised, found[0].id))


def place_shields(tx: Tx, turn: Turn) -> None:
    """Shield Shots: "Immediately after the entire shot sequence (which contains a shield shot icon) is
    complete, the shield piece is placed within 2.5cm (1") of the shield's owner"."""
    raised = tx.state.shield_raised
    if not raised:
        return
    shields = list(tx.state.shields)
    for owner in raised:
        c = tx.char(owner)
        if c.alive and owner not in shields:
            shields.append(owner)
            tx.emit(E.ShieldMoved(f"{c.name}'s shield piece is placed beside it", owner, True))
    tx.state = evolve(tx.state, shields=tuple(shields), shield_raised=())


def without_shields_of_the_dead(state: GameState, events: list[E.Event]) -> tuple[GameState, list[E.Event]]:
    """Shield Shots: "Shield pieces are removed from the playmat when their owner dies"."""
    dead = [o for o in (*state.shields, *state.shield_raised) if not state.character(o).alive]
    if not dead:
        return state, events
    for owner in dict.fromkeys(o for o in state.shields if o in dead):
        name = state.character(owner).name
        events = [*events, E.ShieldMoved(f"{name}'s shield piece is removed from the playmat", owner, False)]
    state = evolve(
        state,
        shields=tuple(o for o in state.shields if o not in dead),
        shield_raised=tuple(o for o in state.shield_raised if o not in dead),
    )
    return state, events
