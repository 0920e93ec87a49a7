"""Catacombs & Castles 1E: where the rules place, lift and switch pieces on the game board.

catacombs-and-castles-1e-manual.txt: Shields (a team's shield disc, lifted and put back by a sequence with
the Shield icon, rushed by a vortex); Shot Reference (Open Portal switches two characters of one team; the
Net / Web disc the attacker may lift at the start of a turn); Reinforcements (the warriors the Overseer
places, one a quadrant). Checks raise; the ``tx`` functions apply what a check accepted.
"""

from __future__ import annotations

from service.games.castles.core import events as CE
from service.games.castles.core.state import CastlesState, Fighter
from service.games.castles.core.tx import CastlesTx
from service.games.castles.first_edition.setup import TEAMS, cite1e
from service.rules.errors import IllegalActionError, NotYourTurnError, UnexpectedShotError
from service.rules.events import ShieldMoved
from service.rules.evolve import evolve

SHIELDS = cite1e("Shields")
SHOT_REFERENCE = cite1e("Shot Reference")
REINFORCEMENTS = cite1e("Reinforcements")
SHIELD_PIECES = tuple(f"{team}-shield" for team in TEAMS)  # Components: Catacomb Shield x1, Castle Shield x1
LIFT_NET = "lift-net"  # perform_card's card for lifting the team's net or web disc off its target


# == Shields ======================================================================================
def shield_of(state: CastlesState, c: Fighter) -> str:
    return f"{state.side(c.side).team}-shield"


def is_shield(piece: str) -> bool:
    return piece in SHIELD_PIECES


def lift_shield(tx: CastlesTx, c: Fighter) -> None:
    """Shields: the Shield icon directs the player "to remove the shield disc from its current location (if
    already on the board), then execute the remainder of that hero's shot sequence"."""
    shield = shield_of(tx.state, c)
    if shield in tx.state.shields:
        tx.state = evolve(tx.state, shields=tuple(s for s in tx.state.shields if s != shield))
        tx.emit(ShieldMoved(f"{c.name} lifts the {shield.replace('-', ' ')} disc off the board", c.id, False))


def place_shield(tx: CastlesTx, c: Fighter) -> None:
    """Shields: "then place the shield disc back onto the game board anywhere within 1" / 2.5cm of the hero's
    new location"."""
    shield = shield_of(tx.state, c)
    if shield not in tx.state.shields:
        tx.state = evolve(tx.state, shields=(*tx.state.shields, shield))
        tx.emit(ShieldMoved(f"{c.name} places the {shield.replace('-', ' ')} disc beside it", c.id, True))


def check_shield_hits(state: CastlesState, direct_hits: tuple[str, ...]) -> None:
    for piece in direct_hits:
        if is_shield(piece) and piece not in state.shields:
            raise UnexpectedShotError(f"the {piece.replace('-', ' ')} disc is not on the game board", SHIELDS)


# == Open Portal ==================================================================================
def check_portal(state: CastlesState, performer: Fighter, swapped: tuple[str, ...]) -> None:
    """Shot Reference: Open Portal - "simply switch the position of two characters on the board from the
    same team" (the Reference Chart: "two friendly pieces")."""
    if len(swapped) != 2 or swapped[0] == swapped[1]:
        raise IllegalActionError(
            f"an open portal switches two characters ('swapped' names both), got {list(swapped)}",
            SHOT_REFERENCE,
        )
    for cid in swapped:
        c = state.find(cid)
        if c is None:
            raise IllegalActionError(f"no character {cid!r} in this game", SHOT_REFERENCE)
        if not c.on_mat:
            raise IllegalActionError(f"{c.name} is not on the game board", SHOT_REFERENCE)
        if c.side != performer.side:
            raise IllegalActionError(
                f"{c.name} is not on {performer.name}'s team: a portal switches two friendly characters",
                SHOT_REFERENCE,
            )


# == Net / Web: lifting the disc ==================================================================
def check_lift_net(state: CastlesState, trapped: Fighter) -> None:
    """Shot Reference (Net / Web): "Attacker may choose to remove Net or Web from trapped target at the start
    of their turn" (the disc is the team's: any of its players may, before the turn's first action)."""
    if not trapped.trapped:
        raise IllegalActionError(f"{trapped.name} is under no net or web disc", SHOT_REFERENCE)
    if trapped.side == state.side_to_move:
        raise NotYourTurnError(
            f"the disc on {trapped.name} is lifted by the attacking team, at the start of its turn",
            SHOT_REFERENCE,
        )
    if state.turn is not None or state.side_turn_acted:
        raise NotYourTurnError("a net or web disc is lifted at the start of the turn", SHOT_REFERENCE)


def lift_net(tx: CastlesTx, trapped: Fighter) -> None:
    tx.update(evolve(trapped, trapped=False))
    disc = "net" if tx.state.side(tx.state.side_to_move).team == "castle" else "web"
    tx.emit(
        CE.TrapChanged(f"The {disc} disc is lifted off {trapped.name} to be used again", trapped.id, False)
    )


# == Reinforcements ===============================================================================
def check_placements(state: CastlesState, lord: Fighter, placements: tuple[tuple[str, int], ...]) -> None:
    """Reinforcements: "three different Warriors in each of the three quadrants of the game board which
    does not contain the Castle or Catacomb Lord" (one in each: docs/rulings.md)."""
    kinds = {w.card for w in state.members(lord.side, "warrior") if not w.on_mat}
    wanted = min(3, len(kinds))
    if len(placements) != wanted:
        raise IllegalActionError(
            f"a Reinforcement Token places {wanted} different warriors, one a quadrant; "
            f"got {len(placements)}",
            REINFORCEMENTS,
        )
    cards: list[str] = []
    for warrior_id, quadrant in placements:
        w = state.find(warrior_id)
        if w is None or w.kind != "warrior" or w.side != lord.side:
            raise IllegalActionError(f"{warrior_id!r} is none of {lord.name}'s Warriors", REINFORCEMENTS)
        if w.on_mat:
            raise IllegalActionError(f"{w.name} is already on the game board", REINFORCEMENTS)
        if isinstance(quadrant, bool) or quadrant not in (1, 2, 3, 4):
            raise IllegalActionError(f"a quadrant is 1, 2, 3 or 4, got {quadrant!r}", REINFORCEMENTS)
        cards.append(w.card)
    if len(set(cards)) != len(cards):
        raise IllegalActionError(f"the warriors placed must be different, got {cards}", REINFORCEMENTS)
    quadrants = [q for _, q in placements]
    if len(set(quadrants)) != len(quadrants):
        raise IllegalActionError(
            f"one warrior in each quadrant without the Lord, got quadrants {quadrants}", REINFORCEMENTS
        )
