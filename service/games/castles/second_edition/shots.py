"""Which expected shot a flick performs, and whose disc it may flick (catacombs-and-castles-2e-manual.md:
Character Shots, Ranged Shots), and the net and web variant's trap; the first edition reads them the same."""

from __future__ import annotations

from service.games.castles.core import actions as A
from service.games.castles.core import events as CE
from service.games.castles.core.cards import CastlesCards
from service.games.castles.core.state import CastlesState, CastlesTurn, Planned
from service.games.castles.core.tx import CastlesTx
from service.games.castles.second_edition.setup import cite2e
from service.rules.errors import UnexpectedShotError
from service.rules.evolve import evolve


def planned_for(cards: CastlesCards, turn: CastlesTurn, action: A.ResolveShot) -> Planned | None:
    """The expected shot this flick performs: of its kind, and, when the mat names the flicked disc, the
    one that flicks it (a Team Action's or a Horn's teammate, a grabbed enemy's rush), so that its hits
    are booked to the character who performed it."""
    for p in turn.candidates():
        if (
            p.shot == action.shot
            and action.character in (turn.character, p.actor)
            and flicks(cards, p, action.flicked)
        ):
            return p
    return None


def flicks(cards: CastlesCards, planned: Planned, flicked: str | None) -> bool:
    """Character Shots: "The character's piece is flicked"; Ranged (and shield) Shots flick a ranged piece
    beside the performer, which the mat names by the performer or not at all."""
    if flicked is None:
        return True
    if cards.shot(planned.shot).kind == "character":
        return flicked == planned.piece
    return flicked == planned.actor


def check_flicked(cards: CastlesCards, state: CastlesState, turn: CastlesTurn, action: A.ResolveShot) -> None:
    """A flick of the expected kind with a disc none of its performers flicks: refused, naming whose."""
    same_kind = [
        p
        for p in turn.candidates()
        if p.shot == action.shot and action.character in (turn.character, p.actor)
    ]
    if not same_kind or action.flicked is None:
        return
    ranged = cards.shot(action.shot).kind != "character"
    whose = " or ".join(
        f"{state.character(p.actor if ranged else p.piece).name}'s"
        + (" ranged piece" if ranged else " piece")
        for p in same_kind
    )
    name = state.find(action.flicked)
    flicked = f"{name.name}'s piece" if name is not None else repr(action.flicked)
    raise UnexpectedShotError(
        f"this {action.shot} flicks {whose}, not {flicked}",
        cite2e("Ranged Shots" if ranged else "Character Shots"),
    )


def trap(tx: CastlesTx, planned: Planned, action: A.ResolveShot, damaged: tuple[str, ...]) -> None:
    """Net and web variant: the attacker's chosen (``target``, else first) damaged enemy is trapped."""
    if not tx.state.net_variant or planned.shot not in ("net", "web") or not damaged:
        return
    turn = tx.state.turn
    landed = [h.target for h in turn.hits] if turn else []
    choice = action.target if action.target in landed else (landed[0] if landed else None)
    if choice is None:
        return
    c = tx.char(choice)
    tx.update(evolve(c, trapped=True))
    tx.emit(CE.TrapChanged(f"{c.name} is trapped under the {planned.shot} piece", c.id, True))
