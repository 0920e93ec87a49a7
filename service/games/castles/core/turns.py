"""The steps of a shot both Catacombs & Castles editions take alike once it is resolved: pieces knocked off
the characters they trapped, and the direct hits split into the enemies it may damage and teammates, who
take no friendly fire (catacombs-and-castles-2e-manual.md: Shot Sequences; the 1E rulebook reads the same)."""

from __future__ import annotations

from collections.abc import Sequence

from service.games.castles.core import events as CE
from service.games.castles.core.state import Fighter
from service.games.castles.core.tx import CastlesTx
from service.rules import events as E
from service.rules.evolve import evolve


def release(tx: CastlesTx, knocked_off: tuple[str, ...]) -> None:
    """A net or web piece knocked off its character frees it."""
    for cid in knocked_off:
        c = tx.char(cid)
        if c.trapped:
            tx.update(evolve(c, trapped=False))
            tx.emit(CE.TrapChanged(f"The piece trapping {c.name} is knocked off", c.id, False))


def enemies_hit(tx: CastlesTx, actor: Fighter, hits: Sequence[str]) -> tuple[str, ...]:
    """The enemies on the mat among ``hits``; each teammate hit is told to have taken no friendly fire."""
    enemies = tuple(h for h in hits if tx.char(h).on_mat and tx.char(h).side != actor.side)
    for friend in (h for h in hits if tx.char(h).side == actor.side):
        tx.emit(
            E.HitIgnored(
                f"{tx.char(friend).name} is a teammate: no friendly fire",
                friend,
                actor.id,
                "friendly fire",
            )
        )
    return enemies
