"""What the Castles shots do in a Catacombs 3E game beyond their damage.

catacombs-and-castles-2e-manual.md: Catacombs & Castles Shots In Catacombs 3E: grapple (grab and rescue),
leech (always regeneration), longbow, net and web (their variant rules), shuriken, target melee and vortex
"directly compatible"; hook, ice boulder and lightning from the Ice Box expansion. "The transfer related
rules for shots from Castles 2E are ignored". Their damage is in ``shots.py``; the leech's regeneration and
the target melee's declared target are read where 3E's regeneration and target shot are
(``shot_resolution.py``). A rush "with that enemy's piece" is planned as the fear rush is: the attacker
flicks the other piece, which harms nobody.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.games.catacombs.flow import events as E
from service.games.catacombs.flow.shots import Shot
from service.games.catacombs.flow.state import Character, PlannedShot
from service.games.catacombs.third_edition.expansions import castles_integration as integration3e
from service.games.catacombs.third_edition.expansions.castles_integration import NET_AND_WEB, PieceMoved
from service.rules.actions import ResolveShot
from service.rules.evolve import evolve

if TYPE_CHECKING:
    from service.games.catacombs.flow.tx import Tx

TRAPPED = "trapped"  # under a net or web piece: no turn until it is knocked off
TRAPPING_SHOTS = ("net", "web")
TARGET_SHOTS = ("target", "target_melee")  # Target Melee: the Target Shot's declared target and retry
LIGHTNING_FLICKS = 3  # Lightning Shot: "flicks the lightning piece three times consecutively"


def struck(
    tx: Tx, attacker: Character, shot: Shot, hits: tuple[str, ...], target: str | None
) -> tuple[str, ...]:
    """The hits a Castles shot damages. Grapple "Only affects one target": the enemy named as ``target``, else
    the first enemy hit (as in Castles 2E, docs/rulings.md); the teammates it hits are rescued, not hurt."""
    if shot.kind != "grapple":
        return hits
    enemies = tuple(h for h in hits if _enemy(tx, attacker, h) and tx.char(h).on_mat)
    if not enemies:
        return ()
    return (target if target in enemies else enemies[0],)


def effects(tx: Tx, attacker: Character, shot: Shot, action: ResolveShot, damaged: tuple[str, ...]) -> None:
    """After the hits of one shot are resolved (damage, modifiers): what a Castles shot does to pieces, and
    what the damaged characters' Hero Attributes do."""
    attribute_effects(tx, attacker, shot, damaged)
    hits = tuple(dict.fromkeys(h for h in action.direct_hits if h != attacker.id))
    enemies = tuple(h for h in hits if _enemy(tx, attacker, h) and tx.char(h).on_mat)
    if shot.kind == "grapple":
        grapple(tx, attacker, hits, struck(tx, attacker, shot, enemies, action.target))
    elif shot.kind == "shuriken" and any(_enemy(tx, attacker, h) for h in hits):
        # Shuriken: "After hitting (but not necessarily damaging) an enemy ... the attacker *must* immediately
        # perform a rush shot": the attacker's own piece, as Castles 2E reads it (docs/rulings.md).
        _rush_with(tx, attacker, (attacker.id,))
    elif shot.kind == "vortex" and enemies:
        # Vortex: "For each enemy hit (but not necessarily damaged) ... a single rush shot with that enemy's
        # piece" (the shield pieces of 2E's heroes have no owner among 3E's monsters).
        _rush_with(tx, attacker, enemies)
    elif shot.kind in TRAPPING_SHOTS:
        # "they only trap one enemy character at a time (the attacker decides which)": the one named as
        # ``target``, else the first damaged (as in Castles 2E).
        trapped = tuple(d for d in damaged if tx.char(d).on_mat and not tx.char(d).has(TRAPPED))
        if trapped:
            trap(tx, attacker, tx.char(action.target if action.target in trapped else trapped[0]), shot)


def attribute_effects(tx: Tx, attacker: Character, shot: Shot, damaged: tuple[str, ...]) -> None:
    """catacombs-and-castles-2e-manual.md: Hero Attributes. Toxic: "When damaged by a character shot, the
    attacker must immediately suffer one point of damage to themselves (defensive properties are ignored)".
    Construct: "After resolving damage, the character ... may immediately perform a hook shot". Climber:
    "After resolving damage, the character may attempt to escape ... by performing a single rush shot"."""
    content = tx.rules.content
    for target_id in damaged:
        target = tx.char(target_id)
        if (
            integration3e.has(content, target, "toxic")
            and shot.kind in integration3e.CHARACTER_SHOTS
            and tx.char(attacker.id).alive
        ):
            tx.damage(tx.char(attacker.id), 1, target, "toxic")
        if not target.on_mat:
            continue
        for attribute, escape in (("construct", "hook"), ("climber", "rush")):
            if integration3e.has(content, target, attribute):
                turn = tx.state.turn
                if turn is not None:
                    planned = PlannedShot(Shot(escape), target.id, -1, actor=target.id)
                    tx.set_turn(evolve(turn, queue=(planned, *turn.queue)))


def _enemy(tx: Tx, attacker: Character, target_id: str) -> bool:
    target = tx.char(target_id)
    return target.kind not in ("antient", "fire_wall") and target.side != attacker.side


def grapple(tx: Tx, attacker: Character, hits: tuple[str, ...], grabbed: tuple[str, ...]) -> None:
    """Grapple: Rescue ("If the grapple piece hits a teammate, place their piece within 2.5cm (1") of the
    character performing the grapple shot") and Grab (the enemy "moves it within 2.5cm (1") of the attacker's
    piece. Then the attacking player performs a rush shot with that piece")."""
    for h in hits:
        mate = tx.char(h)
        if mate.side == attacker.side and mate.on_mat and mate.kind != "antient":
            tx.emit(
                PieceMoved(f"{attacker.name}'s grapple rescues {mate.name}", mate.id, attacker.id, "rescue")
            )
    for enemy_id in grabbed:
        enemy = tx.char(enemy_id)
        if not enemy.on_mat:
            continue  # destroyed by the grapple's damage: no piece is left to move
        tx.emit(
            PieceMoved(
                f"{attacker.name}'s grapple drags {enemy.name} within 1\" of {attacker.name}, then rushes it",
                enemy.id,
                attacker.id,
                "grab",
            )
        )
        _rush_with(tx, attacker, (enemy.id,))


def _rush_with(tx: Tx, attacker: Character, pieces: tuple[str, ...]) -> None:
    turn = tx.state.turn
    if turn is None:
        return
    actor = None if attacker.id == turn.character else attacker.id
    rushes = tuple(PlannedShot(Shot("rush"), p, -1, actor=actor) for p in pieces)
    tx.set_turn(evolve(turn, queue=(*rushes, *turn.queue)))


def trap(tx: Tx, attacker: Character, target: Character, shot: Shot) -> None:
    """Net and Web (variant): "place the net or web piece on top of the affected character"; it "may not take
    their turn ... until the net or web piece is completely knocked off"."""
    tx.update(target.with_status(TRAPPED))
    tx.emit(
        E.StatusChanged(
            f"{attacker.name}'s {shot.label} traps {target.name} ({NET_AND_WEB})", target.id, TRAPPED, True
        )
    )


def free_trapped(tx: Tx, knocked_off: tuple[str, ...]) -> None:
    """The net or web piece knocked completely off: "the piece is immediately removed from the playmat"."""
    for cid in dict.fromkeys(knocked_off):
        c = tx.state.find(cid)
        if c is not None and c.has(TRAPPED):
            tx.update(c.without_status(TRAPPED))
            tx.emit(E.StatusChanged(f"{c.name}'s net is knocked off", c.id, TRAPPED, False))


def lightning_flick(tx: Tx, planned: PlannedShot) -> bool:
    """Lightning: "The first two flicks do not inflict any damage, the third flick inflicts one point". The
    shot's ``count`` is the flick it is at (1, 2, 3). True when this flick is one of the first two: it is used
    up here and the next flick comes at once."""
    if planned.shot.kind != "lightning" or planned.shot.count >= LIGHTNING_FLICKS:
        return False
    turn = tx.state.turn
    assert turn is not None
    following = evolve(planned, shot=evolve(planned.shot, count=planned.shot.count + 1))
    rest = tuple(p for p in turn.queue if p is not planned)
    tx.set_turn(evolve(turn, queue=(following, *rest)))
    actor = tx.char(planned.actor or turn.character)
    tx.emit(
        E.ShotResolved(
            f"{actor.name} flicks the lightning piece "
            f"({planned.shot.count} of {LIGHTNING_FLICKS}, no damage)",
            actor.id,
            planned.shot.label,
        )
    )
    return True
