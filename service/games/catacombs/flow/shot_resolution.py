"""Resolving one attributed shot: who was hit directly, what each hit does (catacombs-3e-reference.txt:
Taking Damage; Defensive Properties; Advanced Shots)."""

from __future__ import annotations

from collections.abc import Callable

from service.games.catacombs.flow import events as E
from service.games.catacombs.flow import modifiers
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.shots import Shot
from service.games.catacombs.flow.state import (
    FROZEN,
    HEROES,
    RECKLESS,
    STUNNED,
    TELEPORTED,
    Character,
    Option,
    PlannedShot,
    Turn,
)
from service.games.catacombs.flow.tx import Tx
from service.rules.actions import ResolveShot
from service.rules.errors import IllegalActionError, UnexpectedShotError
from service.rules.evolve import evolve


def flicks(planned: PlannedShot, performer: str, flicked: str | None) -> bool:
    """Is ``flicked`` (the character whose disc the mat saw flicked; None: not known) the piece this planned
    shot flicks? Character Shots flick the planned piece (the performer's own; the frightened character in a
    fear rush); Ranged Shots "involve flicking a separate ranged piece" placed beside the performer, which is
    named by the performer, by the ranged piece's id, or not at all."""
    if flicked is None:
        return True
    if planned.shot.ranged:
        return flicked in (planned.actor or performer, f"ranged-{planned.shot.kind}")
    return flicked == planned.piece


def planned_for(turn: Turn, action: ResolveShot) -> PlannedShot | None:
    """The expected shot this flick performs: of its kind, flicking the disc the mat names."""
    return next(
        (
            p
            for p in turn.candidates()
            if p.shot.kind == action.shot and flicks(p, turn.character, action.flicked)
        ),
        None,
    )


def flicked_refusal(
    turn: Turn, action: ResolveShot, name_of: Callable[[str], str]
) -> IllegalActionError | None:
    """Why a flick of an expected kind with a disc it does not flick is refused (None when it is not so)."""
    same_kind = [p for p in turn.candidates() if p.shot.kind == action.shot]
    if not same_kind or action.flicked is None or planned_for(turn, action) is not None:
        return None
    planned = same_kind[0]
    if planned.shot.ranged:
        whose = f"a ranged piece beside {name_of(planned.actor or turn.character)}"
        rule = cite("Battle Phase: Ranged Shots")
    elif planned.piece != (planned.actor or turn.character):
        whose = f"{name_of(planned.piece)}'s piece"
        rule = cite("Fear Shot Modifier", "catacombs-3e-shot-modifiers.txt")
    else:
        whose = f"{name_of(planned.piece)}'s own piece"
        rule = cite("Character Shots")
    return UnexpectedShotError(
        f"this {planned.shot.label} flicks {whose}, not {name_of(action.flicked)}'s disc", rule
    )


def resolve_shot(tx: Tx, action: ResolveShot) -> None:
    """One flick of the declared sequence, in the order the rulebook resolves it: the expected shot it
    performs, ice knocked off, fire walls touched, a fear rush, target and roll shots, chain hits, damage,
    regeneration and the modifier's effect.

    Kept as one function (about 95 lines): each step reads and narrows the same running values (the
    planned shot, the attacker as last updated, the hits still in play), and an early return ends the
    shot; read top to bottom it is the rulebook's order (catacombs-3e-reference.txt: Battle Phase)."""
    turn = tx.state.turn
    assert turn is not None
    candidates = turn.candidates()
    index = next(
        i
        for i, p in enumerate(candidates)
        if p.shot.kind == action.shot and flicks(p, turn.character, action.flicked)
    )
    planned = turn.queue[index]
    tx.set_turn(evolve(turn, queue=turn.queue[:index] + turn.queue[index + 1 :]))
    attacker = tx.char(planned.actor or turn.character)
    shot = planned.shot
    tx.emit(E.ShotResolved(f"{attacker.name} performs {_a(shot.label)}", attacker.id, shot.label))
    modifiers.free_frozen(tx, action.knocked_off)
    touched = action.fire_wall_contacts
    if not shot.ranged and any(tx.char(h).kind == "fire_wall" for h in action.direct_hits):
        # Taking Damage: damage from "hitting a fire wall": the flicked piece itself struck it.
        touched = (*touched, planned.piece)
    fire_wall_contacts(tx, touched)
    if planned.piece != attacker.id:
        # A fear rush moves the frightened character: it is unmodified and harms nobody
        # (catacombs-3e-shot-modifiers.txt: Fear Shot Modifier).
        tx.after_change()
        return
    hits = tuple(dict.fromkeys(h for h in action.direct_hits if h != attacker.id))
    if shot.kind in tx.rules.expansion.target_shots:
        # Target Shot (and the Castles target melee): damage "to the stated target only"; a miss may be
        # retried once.
        if action.target not in hits and not planned.retry:
            turn = tx.state.turn
            if turn is not None:
                retry = evolve(planned, retry=True, target=action.target)
                tx.set_turn(evolve(turn, queue=(retry, *turn.queue)))
        hits = tuple(h for h in hits if h == action.target)
    hits = tx.rules.expansion.struck(tx, attacker, shot, hits, action.target)
    if shot.kind == "roll":
        # Roll Shot: "If more than one character is hit by a roll shot, only one is affected".
        enemies = tuple(h for h in hits if tx.char(h).on_mat and not same_side(tx, attacker, tx.char(h)))
        if len(enemies) > 1:
            tx.ask(
                "choose_roll_target",
                attacker.id,
                f"Which character does {attacker.name}'s roll hit?",
                tuple(Option(h, tx.char(h).name) for h in enemies),
                shot,
                enemies,
            )
            return
    spared = chain_spared(tx, shot, hits)
    affected, damaged = hit_targets(tx, attacker, shot, hits, action.pushed_off_mat)
    turn = tx.state.turn
    if turn is not None:
        tx.set_turn(
            evolve(turn, last_damaged=(*damaged, *spared), damaged_any=turn.damaged_any or bool(damaged))
        )
    attacker = tx.char(attacker.id)
    if (
        # Castles Shots In Catacombs 3E: "Treat the leech shot as if it always has the regeneration modifier".
        (shot.modifier == "regeneration" or shot.kind == "leech")
        and attacker.alive
        and any(regenerates_from(tx, attacker, t) for t in damaged)
    ):
        tx.regenerate(attacker)
    effect = modifiers.effect_of(shot)
    if effect is not None:
        modifiers.offer_modifier(tx, attacker, shot, affected, damaged)
    if tx.state.pending is None:
        tx.rules.after_hits(tx, attacker, shot, damaged)
    if tx.state.pending is None:
        tx.rules.expansion.after_shot(tx, tx.char(attacker.id), shot, action, damaged)
    if shot.kind == "teleport" and attacker.alive:
        # Teleport Shots: "the target character being teleported" is the performer unless another is named.
        teleported = tx.char(action.teleported or attacker.id)
        teleport(tx, teleported)
        forfeit_rest_of_sequence(tx, teleported.id)
    if shot.kind == "open_portal" and action.swapped:
        first, second = (tx.char(c) for c in action.swapped)
        tx.emit(
            E.PortalOpened(
                f"{attacker.name} opens a portal: {first.name} and {second.name} switch places",
                attacker.id,
                action.swapped,
            )
        )
    if shot.kind == "runic_shift" and attacker.alive:
        # Runic Shift: placed on an unoccupied Rune icon, then a melee shot with that character.
        turn = tx.state.turn
        if turn is not None:
            melee = PlannedShot(Shot("melee"), attacker.id, -1, actor=planned.actor)
            tx.set_turn(evolve(turn, queue=(melee, *turn.queue)))
    if shot.kind == "summon" and shot.summons:
        tx.rules.summon(tx, attacker, shot.summons)
    drop_guards(tx)
    tx.after_change()


def regenerates_from(tx: Tx, attacker: Character, target_id: str) -> bool:
    """Regeneration "steals health from an enemy": a reckless hero's hit on a teammate restores nothing, and
    the modifier is ineffective against shadow monsters."""
    target = tx.char(target_id)
    return (
        not target.shadow and not same_side(tx, attacker, target) and not tx.rules.expansion.bloodless(target)
    )


def chain_spared(tx: Tx, shot: Shot, hits: tuple[str, ...]) -> tuple[str, ...]:
    """Chain Shot: "If the same target is hit consecutively, damage that would have been inflicted by the
    additional hit(s) is ignored": a target spared by a chain shot stays spared while the hits on it run on,
    so four axe blows in a row on one Troll damage it once."""
    turn = tx.state.turn
    if shot.modifier != "chain" or turn is None:
        return ()
    return tuple(h for h in hits if h in turn.last_damaged)


def drop_guards(tx: Tx) -> None:
    """A defensive card protects against one shot only."""
    for c in tx.state.characters:
        if c.guard_nullifies or c.guard_reflects:
            tx.update(evolve(c, guard_nullifies=(), guard_reflects=()))


def fire_wall_contacts(tx: Tx, touched: tuple[str, ...]) -> None:
    """Fire Walls: one damage to any of the Heroic Forces touching one, directly or indirectly."""
    if not any(c.kind == "fire_wall" and c.in_room for c in tx.state.characters):
        return
    for cid in dict.fromkeys(touched):
        c = tx.char(cid)
        if c.has(FROZEN) or tx.rules.expansion.fireproof(c):
            continue  # Ice Shot: "While frozen, a character ... does not take damage"; Heat Resistant
        if c.on_mat and c.side == HEROES and c.kind != "antient":
            tx.damage(c, 1, None, "fire wall")
        elif (
            c.on_mat
            and c.kind == "monster"
            and c.family == "undead"
            and tx.rules.settings.monster_vulnerabilities
        ):
            # Monster Vulnerabilities: undead take one damage from fire walls.
            tx.damage(c, 1, None, "fire wall")


def teleport(tx: Tx, c: Character) -> None:
    """Teleport Shots: onto the Teleported! card; back next round with a single melee shot."""
    c = tx.char(c.id)
    if c.kind == "antient":
        return
    tx.update(c.without_status(STUNNED, FROZEN).with_status(TELEPORTED))
    tx.emit(E.StatusChanged(f"{c.name} is teleported off the playmat", c.id, TELEPORTED, True))


def forfeit_rest_of_sequence(tx: Tx, cid: str) -> None:
    """Teleport Shots: the piece is on the Teleported! card until its next turn, so it flicks nothing more
    this turn; the shots left in its sequence are forfeited."""
    turn = tx.state.turn
    if turn is None or not tx.char(cid).has(TELEPORTED):
        return
    rest = tuple(p for p in turn.queue if (p.actor or turn.character) != cid)
    tx.set_turn(evolve(turn, queue=rest))


def hit_targets(
    tx: Tx, attacker: Character, shot: Shot, hits: tuple[str, ...], pushed_off: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Damage for every direct hit; returns (characters the modifier may affect, characters damaged).

    Kept as one loop (about 80 lines): each hit is decided against the attacker and target as the hits
    before it left them (reflected, frozen, shielded, destroyed), so the cases stay in one pass."""
    affected: list[str] = []
    damaged: list[str] = []
    turn = tx.state.turn
    for target_id in hits:
        attacker = tx.char(attacker.id)
        target = tx.char(target_id)
        if not target.on_mat or target.kind == "fire_wall":
            continue
        if same_side(tx, attacker, target):
            # A reckless teammate's melee or rush still frees a stunned hero, and also hurts it.
            unstun_by_teammate(tx, attacker, target, shot)
            if not attacker.has(RECKLESS):
                ignore(tx, target, attacker, "no friendly fire", cite("Battle Phase: Taking Damage"))
                continue
            target = tx.char(target_id)
        if target.kind == "antient":
            ignore(tx, target, attacker, "antients are invulnerable", cite("Advanced Concepts: Antients"))
            continue
        if target.has(FROZEN):
            ignore(tx, target, attacker, "frozen characters take no damage", cite("Advanced Shots: Ice Shot"))
            continue
        if any(shot.matches(icon) for icon in (*target.reflects, *target.guard_reflects)):
            ignore(
                tx,
                target,
                attacker,
                f"{shot.label} is reflected",
                cite("Defensive Properties: Reflecting Shots"),
            )
            tx.emit(
                E.Reflected(
                    f"{target.name} reflects 1 damage back at {attacker.name}", target.id, attacker.id
                )
            )
            tx.damage(attacker, 1, target, "reflected")
            continue
        if any(shot.matches(icon) for icon in (*target.nullifies, *target.guard_nullifies)):
            ignore(
                tx,
                target,
                attacker,
                f"{shot.label} is nullified",
                cite("Defensive Properties: Nullifying Shots"),
            )
            continue
        if target.shadow:
            # Shadow Monsters: destroyed only when pushed completely off the playmat by a direct hit.
            if target_id in pushed_off and attacker.side == HEROES:
                tx.destroy(target, attacker)
                damaged.append(target_id)
            else:
                ignore(
                    tx,
                    target,
                    attacker,
                    "shadow monsters are only destroyed by being pushed off the mat",
                    cite("Monster Cards: Shadow Monsters"),
                )
                # Only damage passes it by: an ice shot still freezes it (Ice Shot exempts only Lords and
                # Antients).
                affected.append(target_id)
            continue
        amount = tx.rules.shot_damage(tx.state, attacker, target, shot)
        if shot.modifier == "chain" and turn is not None and target_id in turn.last_damaged:
            ignore(
                tx,
                target,
                attacker,
                "chain: no consecutive damage to the same target",
                cite("Chain Shot", "catacombs-3e-shot-modifiers.txt"),
            )
            continue
        affected.append(target_id)
        if amount > 0:
            tx.damage(target, amount, attacker, shot.label)
            damaged.append(target_id)
    return tuple(affected), tuple(damaged)


def ignore(tx: Tx, target: Character, attacker: Character, reason: str, rule: str) -> None:
    tx.emit(
        E.HitIgnored(
            f"{attacker.name} hits {target.name}: no effect, {reason} ({rule})",
            target.id,
            attacker.id,
            reason,
        )
    )


def same_side(tx: Tx, a: Character, b: Character) -> bool:
    # Taking Damage: "heroes, allies and familiars cannot damage each other in any way. Monsters and
    # Catacomb Lords cannot damage each other either."
    if a.kind == "antient":
        # Antients: whoever controls the Antient this turn aims it at the other side.
        return b.side == tx.state.side
    return a.side == b.side and a.side != "neutral"


def unstun_by_teammate(tx: Tx, attacker: Character, target: Character, shot: Shot) -> None:
    # RULINGS.md 5: only a teammate's direct melee or rush frees a stunned hero (a stunned one too).
    if target.has(STUNNED) and shot.kind in ("melee", "rush") and attacker.side == HEROES:
        tx.update(target.without_status(STUNNED))
        tx.emit(
            E.StatusChanged(
                f"{attacker.name}'s {shot.label} frees {target.name} from the stun",
                target.id,
                STUNNED,
                False,
            )
        )


def _a(label: str) -> str:
    return ("an " if label[0] in "aeiou" else "a ") + label + " shot"
