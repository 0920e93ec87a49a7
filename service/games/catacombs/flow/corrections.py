"""The referee's corrections in a Catacombs game (both editions): health, gold, statuses and the cards a
hero holds. The Overseer is the final arbiter (catacombs-3e-reference.txt: The Overseer, Heroes, and
Catacomb Lords: The Overseer Player); each correction is allowed while a decision is pending and after the
game is over (``Action.correction``), and is logged as a ``corrected`` event with its reason."""

from __future__ import annotations

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import events as E
from service.games.catacombs.flow.cards import Content
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.state import DEVOURED, FROZEN, Character, GameState
from service.games.catacombs.flow.tx import Tx
from service.rules.errors import IllegalActionError
from service.rules.evolve import evolve


def check_set_health(state: GameState, c: Character, action: A.SetHealth) -> None:
    if action.health < 0:
        raise IllegalActionError("health cannot be negative", cite("Battle Phase: Tracking Health"))


def check_set_gold(state: GameState, c: Character, action: A.SetGold) -> None:
    if action.gold < 0:
        raise IllegalActionError("gold cannot be negative", cite("Game Phases: The Setup Phase"))
    if action.gold - c.gold > state.treasury:
        raise IllegalActionError(
            "the Treasury does not hold that much gold", cite("Game Phases: The Setup Phase")
        )


def check_set_status(state: GameState, c: Character, action: A.SetStatus) -> None:
    if action.status not in A.CORRECTABLE_STATUSES:
        raise IllegalActionError(
            f"status must be one of {list(A.CORRECTABLE_STATUSES)}, got {action.status!r}",
            cite("The Overseer, Heroes, and Catacomb Lords: The Overseer Player"),
        )


def check_set_cards(state: GameState, c: Character, content: Content, action: A.SetCards) -> None:
    kind = A.CARD_HOLDINGS.get(action.kind)
    if kind is None:
        raise IllegalActionError(
            f"cards are held as {list(A.CARD_HOLDINGS)}, not {action.kind!r}",
            cite("The Overseer, Heroes, and Catacomb Lords: Hero Player Boards"),
        )
    for card in action.cards:
        try:
            content.card(kind, card)
        except LookupError:
            raise IllegalActionError(
                f"there is no {kind} card {card!r}",
                cite("The Overseer, Heroes, and Catacomb Lords: Hero Player Boards"),
            ) from None


def apply_set_health(tx: Tx, action: A.SetHealth) -> None:
    c = tx.state.character(action.character)
    tx.update(evolve(c, health=action.health))
    tx.emit(
        E.Corrected(
            f"Referee sets {c.name}'s health to {action.health}"
            + (f": {action.reason}" if action.reason else ""),
            c.id,
            action.reason,
        )
    )
    if action.health == 0 and c.alive:
        tx.kill(tx.state.character(c.id), None, "referee correction")
    elif action.health > 0 and not c.alive:
        # A character wrongly taken out comes back, and nobody keeps its disc (or its gold).
        tx.update(evolve(tx.state.character(c.id), alive=True, in_room=True, returns_next_room=False))
        for hero in tx.state.characters:
            if c.id in hero.trophies:
                tx.update(evolve(hero, trophies=tuple(t for t in hero.trophies if t != c.id)))
    tx.after_change()


def apply_set_status(tx: Tx, action: A.SetStatus) -> None:
    c = tx.state.character(action.character)
    changed = c.with_status(action.status) if action.on else c.without_status(action.status)
    if action.status == FROZEN and not action.on:
        changed = evolve(changed, frozen_by=None)
    if action.status == DEVOURED and not action.on:
        changed = evolve(changed, devoured_by=None)
    tx.update(changed)
    state_word = "now" if action.on else "no longer"
    tx.emit(
        E.Corrected(
            f"Referee: {c.name} is {state_word} {action.status}"
            + (f": {action.reason}" if action.reason else ""),
            c.id,
            action.reason,
        )
    )
    tx.after_change()


def apply_set_cards(tx: Tx, action: A.SetCards) -> None:
    c = tx.state.character(action.character)
    cards = tuple(action.cards)
    held = set(cards)
    # A card taken away is no longer face down either; one given starts face up.
    face_down = tuple(f for f in c.face_down if f in held or f not in getattr(c, action.kind))
    tx.update(evolve(c, **{action.kind: cards, "face_down": face_down}))
    listed = ", ".join(cards) or "none"
    tx.emit(
        E.Corrected(
            f"Referee sets {c.name}'s {action.kind} to {listed}"
            + (f": {action.reason}" if action.reason else ""),
            c.id,
            action.reason,
        )
    )
    tx.after_change()


def apply_set_gold(tx: Tx, action: A.SetGold) -> None:
    c = tx.state.character(action.character)
    delta = action.gold - c.gold
    tx.state = evolve(tx.state, treasury=tx.state.treasury - delta)
    tx.update(evolve(c, gold=action.gold))
    tx.emit(
        E.Corrected(
            f"Referee sets {c.name}'s gold to {action.gold}"
            + (f": {action.reason}" if action.reason else ""),
            c.id,
            action.reason,
        )
    )
