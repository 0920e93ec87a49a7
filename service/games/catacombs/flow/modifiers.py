"""Shot modifiers and the one-target effects of ice and devour (catacombs-3e-shot-modifiers.txt)."""

from __future__ import annotations

from service.games.catacombs.flow import events as E
from service.games.catacombs.flow import table_draws
from service.games.catacombs.flow.shots import SINGLE_TARGET_MODIFIERS, Shot
from service.games.catacombs.flow.state import (
    DEVOURED,
    FROZEN,
    HEROES,
    RECKLESS,
    STUNNED,
    Character,
    Option,
    PlannedShot,
)
from service.games.catacombs.flow.tx import Tx
from service.rules import rng
from service.rules.evolve import evolve

# Catacomb Lord's Lair: "immune to the effects of all shot modifiers except chain, critical and regeneration".
LORD_MODIFIERS = frozenset({"chain", "critical", "regeneration"})
STUNNED_CARDS = 3  # Components: Stunned! Cards x3


def offer_modifier(
    tx: Tx, attacker: Character, shot: Shot, affected: tuple[str, ...], damaged: tuple[str, ...]
) -> None:
    modifier = effect_of(shot)
    assert modifier is not None
    if modifier == "transform":
        if not tx.char(attacker.id).on_mat:
            return  # destroyed during its own shot (a reflected point): nothing is left to transform
        tx.ask(
            "transform",
            attacker.id,
            f"Does {attacker.name} transform into a fire wall?",
            (Option("yes", "transform"), Option("no", "stay as it is")),
            shot,
        )
        return
    pool = damaged if modifier in ("critical", "fear") else affected
    eligible = tuple(t for t in pool if modifier_can_affect(tx, modifier, tx.char(t)))
    if len(eligible) == 1:
        apply_modifier(tx, attacker, shot, tx.char(eligible[0]))
    elif len(eligible) > 1:
        # Shot Modifiers: "only applied to one of the affected characters (attacker's choice)".
        tx.ask(
            "choose_modifier_target",
            attacker.id,
            f"Which character does {attacker.name}'s {shot.label} affect?",
            tuple(Option(t, tx.char(t).name) for t in eligible),
            shot,
            eligible,
        )


def modifier_can_affect(tx: Tx, modifier: str, c: Character) -> bool:
    if not c.alive or not c.on_mat:
        return False
    if tx.rules.expansion.unaffected_by(modifier, c):
        return False
    if c.kind == "lord" and modifier not in LORD_MODIFIERS:
        return False
    if c.kind == "familiar" and modifier in ("poison", "stun"):
        return False  # Familiars: "They cannot be poisoned or stunned"
    if c.shadow and modifier == "petrify":
        # Shadow Monsters: "In order to be destroyed, shadow monsters must be pushed completely off the
        # playmat": turning to stone cannot destroy one.
        return False
    if modifier in ("poison", "stun", "corrosion", "reckless"):
        return c.kind in ("hero", "ally") and not (modifier == "corrosion" and c.kind == "ally")
    return c.kind != "antient"


def apply_modifier(tx: Tx, attacker: Character, shot: Shot, target: Character) -> None:
    modifier = effect_of(shot)
    target = tx.char(target.id)
    if modifier == "ice":
        freeze(tx, target, attacker)
    elif modifier == "devour":
        devour(tx, target, attacker)
    elif modifier == "critical":
        tx.damage(target, 1, attacker, "critical")
    elif modifier == "stun":
        in_use = sum(1 for c in tx.state.characters if c.has(STUNNED))
        if in_use >= STUNNED_CARDS and not target.has(STUNNED):
            # Components: three Stunned! cards; the supply is a hard limit (The Setup Phase).
            tx.emit(
                E.HitIgnored(
                    f"No Stunned! card is left for {target.name}",
                    target.id,
                    attacker.id,
                    "all three Stunned! cards are in use",
                )
            )
            return
        tx.update(target.with_status(STUNNED))
        tx.emit(E.StatusChanged(f"{target.name} is stunned", target.id, STUNNED, True))
    elif modifier == "poison":
        poison(tx, target, shot.count)
    elif modifier == "petrify":
        tx.emit(E.StatusChanged(f"{target.name} is turned to stone", target.id, "petrified", True))
        tx.kill(target, attacker, "petrified")
    elif modifier == "reckless":
        tx.update(target.with_status(RECKLESS))
        tx.emit(E.StatusChanged(f"{target.name} is reckless", target.id, RECKLESS, True))
    elif modifier == "corrosion":
        corrode(tx, target)
    elif modifier == "fear" and target.alive and target.on_mat:
        turn = tx.state.turn
        if turn is not None:
            rush = PlannedShot(Shot("rush"), target.id, -1)
            tx.set_turn(evolve(turn, queue=(rush, *turn.queue)))
            tx.emit(
                E.StatusChanged(
                    f"{attacker.name} may rush {target.name} away in fear", target.id, "frightened", True
                )
            )


def poison(tx: Tx, hero: Character, cards: int) -> None:
    """Poison Cards: draw; a total at or above starting health, or an empty deck, is a lethal dose.

    RULINGS.md 4: a poison rush inflicts no damage (rush damage is 0) and only draws the card(s).
    """
    hero = tx.char(hero.id)
    if not hero.alive:
        return
    taken: list[int] = []
    for _ in range(cards):
        deck = tx.state.poison_deck
        if not deck:
            break
        # The card the table drew (physical decks) or the top of the seeded deck.
        value = int(table_draws.take(tx, "poison", [str(v) for v in deck], str(deck[0])))
        index = deck.index(value)
        tx.state = evolve(tx.state, poison_deck=deck[:index] + deck[index + 1 :])
        taken.append(value)
    drawn = tuple(taken)
    hero = evolve(hero, poison=(*hero.poison, *drawn))
    tx.update(hero)
    tx.emit(
        E.PoisonDrawn(
            f"{hero.name} draws Poison {', '.join(map(str, drawn)) or 'nothing'} (total {hero.poison_total})",
            hero.id,
            drawn,
            hero.poison_total,
        )
    )
    if len(drawn) < cards:
        tx.kill(hero, None, "a lethal dose: no Poison cards left")
    elif hero.poison_total >= hero.max_health:
        tx.kill(hero, None, f"poison total {hero.poison_total} reaches starting health {hero.max_health}")


def corrode(tx: Tx, hero: Character) -> None:
    """Corrosion: a random Item card is destroyed; with none, 3 gold is lost; with no gold, nothing."""
    if hero.items:
        state, index = rng.below(tx.state.rng, len(hero.items))
        tx.state = evolve(tx.state, rng=state)
        lost = hero.items[index]
        tx.update(evolve(hero, items=hero.items[:index] + hero.items[index + 1 :]))
        tx.emit(E.StatusChanged(f"{hero.name}'s {lost} corrodes away", hero.id, "corroded", True))
        tx.remove_item_from_play(tx.char(hero.id), lost)
    else:
        tx.return_gold(hero, 3)


def freeze(tx: Tx, target: Character, by: Character) -> None:
    """Ice Shot: the ice piece sits on the target; it takes no actions and no damage until freed."""
    tx.update(evolve(target.with_status(FROZEN), frozen_by=by.id))
    tx.emit(E.StatusChanged(f"{target.name} is frozen by {by.name}", target.id, FROZEN, True))
    if (
        tx.rules.settings.monster_vulnerabilities
        and target.family == "infernal"
        and by.side == HEROES
        and not target.shadow
    ):
        # Monster Vulnerabilities: infernal monsters also lose one health when frozen; a shadow monster (the
        # Phantom) has no health to lose: it is destroyed only by being pushed off the mat (Shadow Monsters).
        tx.damage(target, 1, by, "ice")


def devour(tx: Tx, target: Character, by: Character) -> None:
    """Devour Shot: onto the Devoured! card until the room is complete or the devourer is destroyed."""
    target = tx.char(target.id)
    if not target.alive:
        return
    tx.update(evolve(target.without_status(STUNNED).with_status(DEVOURED), devoured_by=by.id))
    tx.emit(E.StatusChanged(f"{target.name} is devoured by {by.name}", target.id, DEVOURED, True))


def free_frozen(tx: Tx, knocked_off: tuple[str, ...]) -> None:
    for cid in knocked_off:
        c = tx.char(cid)
        if c.has(FROZEN):
            tx.update(evolve(c.without_status(FROZEN), frozen_by=None))
            tx.emit(E.StatusChanged(f"{c.name} is freed from the ice", c.id, FROZEN, False))


def effect_of(shot: Shot) -> str | None:
    """The one-target effect of a shot: its modifier, or the ice / devour shot itself."""
    if shot.kind in ("ice", "devour"):
        return shot.kind
    if shot.modifier in SINGLE_TARGET_MODIFIERS or shot.modifier == "transform":
        return shot.modifier
    return None
