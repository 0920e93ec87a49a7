"""The referee's corrections in Catacombs & Castles (both editions): a side's Health Pool, the Health Tokens
on a character's card and its Armour Tokens (catacombs-and-castles-2e-manual.md: Health and Transfer Types,
Hero Abilities, Armour Tokens). Each is logged as a ``corrected`` event with its reason."""

from __future__ import annotations

from service.games.castles.core import actions as A
from service.games.castles.core.cards import ChargedCard
from service.games.castles.core.state import CastlesState, Fighter
from service.games.castles.core.tx import CastlesTx
from service.games.castles.second_edition.setup import cite2e
from service.rules import events as E
from service.rules.errors import IllegalActionError
from service.rules.evolve import evolve


def check_set_pool(state: CastlesState, action: A.SetPool) -> None:
    if action.side not in (s.id for s in state.sides):
        raise IllegalActionError(f"no side {action.side!r}", cite2e("Health and Transfer Types"))
    if action.health < 0:
        raise IllegalActionError("a Health Pool cannot be negative", cite2e("Health and Transfer Types"))


def check_set_charge(c: Fighter, card: ChargedCard | None, action: A.SetCharge) -> None:
    if card is None:
        raise IllegalActionError(f"{c.name} has no {action.card} card", cite2e("Hero Actions"))
    if action.tokens < 0:
        raise IllegalActionError("a card cannot hold fewer than no tokens", cite2e("Hero Abilities"))


def check_set_armour(c: Fighter, action: A.SetArmour) -> None:
    if any(a not in (1, 2) for a in action.armour):
        raise IllegalActionError("an Armour Token has 1 (half) or 2 (full) uses", cite2e("Armour Tokens"))
    if c.kind == "warrior" and action.armour:
        raise IllegalActionError("warriors cannot use Armour Tokens", cite2e("Armour Tokens"))


def apply_set_pool(tx: CastlesTx, action: A.SetPool) -> None:
    side = tx.state.side(action.side)
    tx.state = tx.state.with_side(evolve(side, health=action.health))
    tx.emit(
        E.Corrected(
            f"Referee sets {side.id}'s Health Pool to {action.health}" + _why(action.reason),
            side.id,
            action.reason,
        )
    )
    if action.health == 0 and tx.state.outcome is None:
        tx.game_over(tx.state.other_side(side.id))
    elif action.health > 0 and tx.state.outcome == tx.state.other_side(side.id):
        tx.state = evolve(tx.state, outcome=None, phase="battle")


def apply_set_charge(tx: CastlesTx, c: Fighter, card: ChargedCard | None, action: A.SetCharge) -> None:
    assert card is not None
    tx.update(c.with_tokens(card.id, action.tokens))
    tx.emit(
        E.Corrected(
            f"Referee puts {action.tokens} token(s) on {c.name}'s {card.name}" + _why(action.reason),
            c.id,
            action.reason,
        )
    )


def apply_set_armour(tx: CastlesTx, c: Fighter, action: A.SetArmour) -> None:
    tx.update(evolve(c, armour=tuple(action.armour)))
    tx.emit(E.Corrected(f"Referee sets {c.name}'s Armour Tokens" + _why(action.reason), c.id, action.reason))


def _why(reason: str) -> str:
    return f": {reason}" if reason else ""
