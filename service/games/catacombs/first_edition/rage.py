"""The Barbarian's rage track in Catacombs 1E (catacombs-1e-rules-italian.txt).

- Preparazione degli eroi: "un segnalino sul livello 2 della tabella della furia (non livello 3)": the marker
  starts at the hero card's ``rage``, below the track's top (``rage_top``, content/catacombs-1e/heroes.yaml).
- Panoramica dei componenti: a marker tracks "il livello della furia per l'abilità speciale Frenesia del
  Barbaro"; Scegliere il Proprio Eroe: "Può utilizzare la sua furia per azioni speciali". A special action
  with a rage cost (the Frenzy, ``furia``) spends it when played and is refused while the track is lower.
- When the marker moves up is printed on his sheet, which the manual does not transcribe: ``GainRage`` records
  it (never past the top) and the referee's ``SetRage`` corrects it (docs/rulings.md, "Catacombs 1E").

Legality (``check_*``) is apart from application; the level lives on the hero (``Character.rage``).
"""

from __future__ import annotations

from service.games.catacombs.first_edition import actions as A
from service.games.catacombs.first_edition import events as E
from service.games.catacombs.first_edition.cards import Catacombs1ECards
from service.games.catacombs.flow.state import Character, GameState
from service.games.catacombs.flow.tx import Tx
from service.rules.errors import CardNotPlayableError, IllegalActionError, UnknownCharacterError
from service.rules.evolve import evolve

MANUAL = "catacombs-1e-rules-italian.txt"
TRACK = f"{MANUAL}: Preparazione degli eroi"
SPENDING = f"{MANUAL}: Scegliere il Proprio Eroe"


def with_rage_tracks(cards: Catacombs1ECards, state: GameState) -> GameState:
    """Each hero whose sheet has a rage track starts at its starting level (unless a position set it)."""
    for c in state.heroes:
        track = cards.rage_tracks.get(c.card)
        if track is not None and c.rage is None:
            state = state.with_character(evolve(c, rage=track[0]))
    return state


def top(cards: Catacombs1ECards, c: Character) -> int:
    return cards.rage_tracks[c.card][1]


def cost(cards: Catacombs1ECards, c: Character, action: A.PlayCard) -> int:
    """Rage a card play spends: only a special action (an Ability card) of the hero's has a cost."""
    if action.kind not in (None, "ability") or action.card not in c.abilities:
        return 0
    return cards.rage_costs.get(action.card, 0)


def _tracked(cards: Catacombs1ECards, state: GameState, character: str) -> Character:
    c = state.find(character)
    if c is None:
        raise UnknownCharacterError(f"no character {character!r} in this game", TRACK)
    if c.rage is None or c.card not in cards.rage_tracks:
        raise IllegalActionError(f"{c.name} has no rage track on his sheet", TRACK)
    return c


# == spending: a special action played ============================================================
def check_spend(cards: Catacombs1ECards, state: GameState, action: A.PlayCard) -> None:
    c = state.find(action.character)
    if c is None:
        return  # the card play's own check names the unknown character
    needed = cost(cards, c, action)
    if needed and (c.rage or 0) < needed:
        raise CardNotPlayableError(
            f"{c.name}'s rage is at {c.rage or 0}: {action.card} spends {needed}", SPENDING
        )


def spend(cards: Catacombs1ECards, tx: Tx, action: A.PlayCard) -> None:
    c = tx.char(action.character)
    needed = cost(cards, c, action)
    if needed:
        _move(tx, c, (c.rage or 0) - needed, f"{c.name} spends {needed} rage on {action.card}")


# == gaining: as the sheet says; correcting: the referee ==========================================
def check_gain(cards: Catacombs1ECards, state: GameState, action: A.GainRage) -> None:
    c = _tracked(cards, state, action.character)
    if not c.alive:
        raise IllegalActionError(f"{c.name} is dead: his rage marker does not move", TRACK)
    if action.levels < 1:
        raise IllegalActionError(f"rage is gained a level at a time or more, got {action.levels}", TRACK)
    if (c.rage or 0) + action.levels > top(cards, c):
        raise IllegalActionError(
            f"{c.name}'s rage track ends at level {top(cards, c)} (he is at {c.rage})", TRACK
        )


def gain(cards: Catacombs1ECards, tx: Tx, action: A.GainRage) -> None:
    c = tx.char(action.character)
    _move(tx, c, (c.rage or 0) + action.levels, f"{c.name} gains {action.levels} rage")


def check_set(cards: Catacombs1ECards, state: GameState, action: A.SetRage) -> None:
    c = _tracked(cards, state, action.character)
    if not 0 <= action.rage <= top(cards, c):
        raise IllegalActionError(f"{c.name}'s rage track runs from 0 to {top(cards, c)}", TRACK)


def set_rage(cards: Catacombs1ECards, tx: Tx, action: A.SetRage) -> None:
    c = tx.char(action.character)
    said = f"Referee sets {c.name}'s rage to {action.rage}" + (f": {action.reason}" if action.reason else "")
    _move(tx, c, action.rage, said)
    tx.emit(E.Corrected(said, c.id, action.reason))


def _move(tx: Tx, c: Character, level: int, said: str) -> None:
    before = c.rage or 0
    tx.update(evolve(c, rage=level))
    tx.emit(E.RageChanged(f"{said} (rage {level})", c.id, level, level - before))
