"""Which physical disc stands for which character.

Heroes and Catacomb Lords have discs of their own; monster discs are shared by family colour and size and are
handed out as monsters enter a room. The rule here is the one a table follows by hand: a character keeps its
disc while it is alive; a new monster takes the first free disc of its family and size; the referee can move a
character to another disc (a ``bind`` record) and that choice wins.

Catacombs & Castles follows the same rule with its own pieces: heroes and bosses have discs of their own, and
a warrior entering the playmat takes the first free warrior disc of its team (the table file's ``family``).
A first-edition shield disc on the board stands for itself, so a shot that touches it reaches the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from service.sensing.tags import RegisteredPiece, TagRegistry
from service.table.games import plays_sides

SizeOf = Callable[[str], str | None]  # monster card id -> piece class ("monster-medium"), if known


def resolve_bindings(
    state: Any,
    registry: TagRegistry,
    chosen: Mapping[str, str],
    previous: Mapping[str, str],
    size_of: SizeOf,
) -> dict[str, str]:
    """character id -> piece id for every character on the mat (and a 1E shield disc's id -> itself)."""
    on_mat = [c for c in state.characters if c.on_mat]
    result: dict[str, str] = {}
    taken: set[str] = set()
    known = {entry.piece for entry in registry.pieces}
    for character in on_mat:  # the referee's choices first, then discs already in use
        for source in (chosen, previous):
            piece = source.get(character.id)
            if piece in known and piece not in taken:
                result[character.id] = piece
                taken.add(piece)
                break
    castles = plays_sides(str(getattr(state, "ruleset", "")))
    for character in on_mat:
        if character.id in result:
            continue
        if castles:
            piece = _free_castles_disc(character, state.side(character.side).team, registry, taken)
        else:
            piece = _free_disc(
                character.id, character.kind, character.family, character.card, registry, taken, size_of
            )
        if piece is not None:
            result[character.id] = piece
            taken.add(piece)
    for shield in getattr(state, "shields", ()) if castles else ():
        if shield in known and shield not in taken:  # Catacombs & Castles 1E: Shields, Vortex
            result[shield] = shield
            taken.add(shield)
    return result


def _free_disc(
    character_id: str,
    kind: str,
    family: str,
    card: str,
    registry: TagRegistry,
    taken: set[str],
    size_of: SizeOf,
) -> str | None:
    free = [entry for entry in registry.pieces if entry.piece not in taken]
    own = [entry for entry in free if entry.piece == character_id]
    if own:
        return own[0].piece
    if kind == "lord":
        lords = [entry for entry in free if entry.piece_class == "lord"]
        return lords[0].piece if lords else None
    if kind not in ("monster", "ally", "familiar", "antient"):
        return None
    wanted = size_of(card)
    same_family = [
        entry for entry in free if entry.family == family and entry.piece_class.startswith("monster")
    ]
    exact = [entry for entry in same_family if entry.piece_class == wanted]
    pick = exact or same_family
    return pick[0].piece if pick else None


CASTLES_SHARED = {"warrior": "castles-warrior", "boss": "castles-boss"}


def _free_castles_disc(character: Any, team: str, registry: TagRegistry, taken: set[str]) -> str | None:
    """A Castles character's own disc (its id), else, for warriors and bosses, a free disc of its kind and
    team (a Castle Warrior is a white piece, a Catacomb Warrior a black one: the manual's Components)."""
    free: list[RegisteredPiece] = [entry for entry in registry.pieces if entry.piece not in taken]
    own = [entry for entry in free if entry.piece == character.id]
    if own:
        return own[0].piece
    wanted = CASTLES_SHARED.get(character.kind)
    if wanted is None:
        return None
    fits = [entry for entry in free if entry.piece_class == wanted and entry.family in (team, None)]
    fits.sort(key=lambda entry: entry.family != team)  # the team's colour first, an uncoloured spare after
    return fits[0].piece if fits else None
