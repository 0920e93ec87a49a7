"""Inflicting damage as Catacombs & Castles 2E defines it, Armour Tokens, and the five transfer types.

catacombs-and-castles-2e-manual.md: Inflicting Damage (direct hits only, the Friendly Fire Rule, the Chain
Rule); Health and Transfer Types (power, assist, health, void, capture; the Charging Rule); Armour Tokens;
Attributes / Hero Attributes (heat resistant, toughness, toxic, bloodless, climber, construct); Warriors.
Hits wait in the turn (``CastlesTurn.hits``) so an Armour Token or transfer decision can come in between.
"""

from __future__ import annotations

from collections.abc import Mapping

from service.games.castles.core import events as CE
from service.games.castles.core.cards import CastlesCards, ChargedCard
from service.games.castles.core.state import FULL_ARMOUR, HALF_ARMOUR, CastlesState, Fighter, Hit, Planned
from service.games.castles.core.tx import CastlesTx
from service.rules import events as E
from service.rules.decisions import Option, Pending
from service.rules.evolve import evolve

UNKNOWN_CHARGE_ROOM = 1_000
CHARACTER_SHOTS = (
    "rush",
    "melee",
    "critical_melee",
    "leech",
    "target_melee",
    "temporal_shift",
    "runic_shift",
)


def damage_amount(target: Fighter, shot: str, base: int) -> int:
    """Hero Attributes: heat resistant (fireball 0, giant fireball 1), toughness (one less, minimum one)."""
    amount = base
    if target.has("heat_resistant"):
        if shot == "fireball":
            amount = 0
        elif shot == "giant_fireball":
            amount = min(amount, 1)
    if target.has("toughness") and amount > 0:
        amount = max(1, amount - 1)
    return amount


def queue_hits(
    tx: CastlesTx,
    cards: CastlesCards,
    planned: Planned,
    targets: tuple[str, ...],
    transfers: tuple[str, ...],
    *,
    chain_rule: bool = True,
    after: Mapping[str, tuple[tuple[Planned, ...], str]] | None = None,
) -> None:
    """The damage ``planned`` does to each enemy it hit directly, after the First Strike and Chain Rules.

    ``after`` (1E) holds, per target, the shots and effect that follow once its damage is taken."""
    turn = tx.state.turn
    assert turn is not None
    attacker = tx.char(planned.actor)
    base = cards.shot(planned.shot).damage if planned.damaging else 0
    hits: list[Hit] = []
    last = turn.last_damaged_in(planned.group)
    for target_id in targets:
        target = tx.char(target_id)
        if tx.state.first_strike and attacker.side == tx.state.first_side:
            tx.emit(
                E.HitIgnored(
                    f"{target.name} is hit, but the First Strike Rule holds",
                    target.id,
                    attacker.id,
                    "first strike",
                )
            )
            continue
        if chain_rule and target_id == last:
            # The Chain Rule: "the same target cannot be damaged consecutively during the same shot sequence".
            tx.emit(
                E.HitIgnored(
                    f"{target.name} was damaged last: the Chain Rule ignores this hit",
                    target.id,
                    attacker.id,
                    "chain rule",
                )
            )
            continue
        amount = damage_amount(target, planned.shot, base)
        if amount <= 0:
            if base > 0:
                tx.emit(
                    E.HitIgnored(f"{target.name} is heat resistant", target.id, attacker.id, "heat resistant")
                )
            continue
        then, effect = (after or {}).get(target_id, ((), ""))
        hits.append(Hit(attacker.id, target.id, amount, planned.shot, transfers, then=then, effect=effect))
        last = target_id
    turn = tx.state.turn
    assert turn is not None
    chain = dict(turn.last_damaged)
    if last is not None:
        chain[planned.group] = last
    tx.set_turn(evolve(turn, hits=(*turn.hits, *hits), last_damaged=tuple(sorted(chain.items()))))


def drain(tx: CastlesTx, cards: CastlesCards) -> None:
    """Resolves waiting hits until one needs a decision (armour, transfer) or none is left."""
    while not tx.over and tx.state.pending is None:
        turn = tx.state.turn
        if turn is None or not turn.hits:
            return
        hit = turn.hits[0]
        target = tx.char(hit.target)
        if target.kind in ("hero", "boss") and target.armour and not hit.armour_asked:
            tx.set_turn(evolve(turn, hits=(evolve(hit, armour_asked=True), *turn.hits[1:])))
            tx.ask(
                "armour",
                target.id,
                f"{target.name} is hit for {hit.amount}: block it with an Armour Token?",
                (Option("block", "block with the Armour Token"), Option("take", "take the damage")),
                (hit.target,),
            )
            return
        tx.set_turn(evolve(turn, hits=turn.hits[1:]))
        inflict(tx, cards, hit)


def block(tx: CastlesTx, cards: CastlesCards) -> None:
    """Armour Tokens: the hit is nullified with its transfers; a full token flips, a half one is discarded."""
    turn = tx.state.turn
    assert turn is not None
    hit = turn.hits[0]
    tx.set_turn(evolve(turn, hits=turn.hits[1:]))
    target = tx.char(hit.target)
    armour = (target.armour[0] - 1, *target.armour[1:])
    armour = tuple(a for a in armour if a > 0)
    tx.update(evolve(target, armour=armour))
    tx.emit(
        CE.ArmourUsed(
            f"{target.name} blocks the hit with an Armour Token", target.id, armour[0] if armour else 0
        )
    )
    boss = cards.bosses.get(target.card) if target.kind == "boss" else None
    if boss is not None and not armour and boss.form_change == "last_armour" and len(boss.forms) > 1:
        # Castle and Catacomb Bosses: Sothemir changes to his alternate form with his last Armour Token.
        form = boss.forms[1][0]
        tx.update(evolve(tx.char(target.id), form=form))
        tx.emit(CE.FormChanged(f"{target.name} changes to his {form} form", target.id, form))


def inflict(tx: CastlesTx, cards: CastlesCards, hit: Hit) -> None:
    attacker = tx.char(hit.attacker)
    target = tx.char(hit.target)
    if target.kind == "warrior":
        # Warriors: "a single health point, so they are removed from the playmat when damaged".
        tx.update(evolve(target, on_mat=False, trapped=False))
        tx.emit(CE.WarriorRemoved(f"{attacker.name} removes {target.name}", target.id, attacker.id))
        return
    taken = tx.lose_tokens(target.side, hit.amount, target.id, attacker.id)
    if tx.over:
        return
    follow_up(tx, hit)
    if target.has("toxic") and hit.shot in CHARACTER_SHOTS:
        # Toxic: the attacker suffers one point of damage (defensive properties are ignored).
        if attacker.kind == "warrior":
            tx.update(evolve(attacker, on_mat=False))
            tx.emit(
                CE.WarriorRemoved(
                    f"{target.name} is toxic: {attacker.name} is removed", attacker.id, target.id
                )
            )
        else:
            tx.lose_tokens(attacker.side, 1, attacker.id, target.id)
            if tx.over:
                return
    if taken:
        offer_transfer(tx, cards, attacker, target, taken, hit.transfers)
    after_damage(tx, target)


def follow_up(tx: CastlesTx, hit: Hit) -> None:
    """1E: the effects a shot has once its damage is taken (an Armour Token would have nullified them)."""
    target = tx.char(hit.target)
    if hit.effect == "trap":
        tx.update(evolve(target, trapped=True))
        tx.emit(CE.TrapChanged(f"{target.name} is trapped under the {hit.shot} piece", target.id, True))
    elif hit.effect == "return":
        tx.emit(CE.ReturnedToStart(f"{target.name} returns to its Start Zone", target.id, hit.attacker))
    tx.insert_next(*hit.then)


def after_damage(tx: CastlesTx, target: Fighter) -> None:
    """Climber (an escaping rush) and construct (a hook shot): "after resolving damage", optional shots."""
    added = []
    if target.has("climber"):
        added.append(Planned("rush", target.id, target.id, group=-1, added="climber"))
    if target.has("construct"):
        added.append(Planned("hook", target.id, target.id, group=-1, added="construct"))
    tx.insert_next(*added)


def charging_room(state: CastlesState, cards: CastlesCards, c: Fighter, card: ChargedCard) -> int:
    """Tokens ``card`` can still take: none while it is being performed, none when its charge is unknown."""
    if not state.charging:
        return 0  # 1E Ability Cards in Boss Mode: "they do not need to be charged up"
    turn = state.turn
    if turn is not None and turn.initiator_uncharged and turn.character == c.id:
        return 0  # 1E Team Actions: the initiator "cannot be charged up by any Health Tokens captured"
    if card.charge is None:
        return UNKNOWN_CHARGE_ROOM  # the charge is not printed: the card collects tokens, never full
    if turn is not None and turn.source == card.id and turn.character == c.id:
        return 0  # "An Ability or Team Action card cannot be charged while it is use."
    return max(0, card.charge - c.tokens_on(card.id))


def cards_of(cards: CastlesCards, c: Fighter) -> tuple[ChargedCard, ...]:
    if c.kind == "hero" and cards.ability_cards:
        # 1E: the two Ability cards chosen at setup (a Boss Mode card once played is out of the game).
        return tuple(cards.ability_cards[k] for k, _ in c.charges if k in cards.ability_cards)
    if c.kind == "hero":
        hero = cards.heroes.get(c.card)
        if hero is None:
            return ()
        return tuple(x for x in (hero.ability, hero.team_action) if x is not None)
    if c.kind == "boss":
        boss = cards.bosses.get(c.card)
        return cards.boss_actions.get(boss.team, ()) if boss else ()
    return ()


def transfer_options(
    state: CastlesState, cards: CastlesCards, attacker: Fighter, target: Fighter, transfers: tuple[str, ...]
) -> tuple[Option, ...]:
    options: list[Option] = []
    for card in cards_of(cards, attacker) if "power" in transfers else ():
        if charging_room(state, cards, attacker, card):
            options.append(Option(f"power:{card.id}", f"power transfer onto {attacker.name}'s {card.name}"))
    if "assist" in transfers and state.mode != "one-versus-one":  # One versus One Mode 5: assists ignored
        for mate in state.members(attacker.side, "hero", "boss"):
            if mate.id == attacker.id:
                continue
            for card in cards_of(cards, mate):
                if charging_room(state, cards, mate, card):
                    options.append(
                        Option(
                            f"assist:{mate.id}:{card.id}", f"assist transfer onto {mate.name}'s {card.name}"
                        )
                    )
    if "health" in transfers and not target.has("bloodless"):
        options.append(Option("health", "health transfer into your Health Pool"))
    if "void" in transfers:
        for card in cards_of(cards, target):
            if target.tokens_on(card.id):
                options.append(
                    Option(
                        f"void:{card.id}", f"void transfer: discard tokens from {target.name}'s {card.name}"
                    )
                )
    if "capture" in transfers:
        for mate in state.members(attacker.side, "hero", "boss"):
            if mate.on_mat and not mate.armour:
                options.append(
                    Option(f"capture:{mate.id}", f"capture transfer: an Armour Token for {mate.name}")
                )
    return tuple(options)


def offer_transfer(
    tx: CastlesTx,
    cards: CastlesCards,
    attacker: Fighter,
    target: Fighter,
    tokens: int,
    transfers: tuple[str, ...],
) -> None:
    if attacker.kind == "warrior" and "capture" in transfers:
        # Armour Tokens: warriors "may assign them to a friendly hero or boss".
        transfers = ("capture",)
    elif attacker.kind == "warrior":
        # Warriors "cannot charge up hero Abilities, Team Action cards, or Boss Action cards".
        tx.emit(
            CE.TokensTransferred(
                f"{attacker.name} is a warrior: {tokens} token(s) discarded",
                "discard",
                attacker.id,
                "",
                "",
                tokens,
            )
        )
        return
    options = transfer_options(tx.state, cards, attacker, target, transfers)
    if not options:
        # The Charging Rule: with every card fully charged, surplus tokens are discarded.
        tx.emit(
            CE.TokensTransferred(
                f"{attacker.name}'s cards are full: {tokens} token(s) discarded",
                "discard",
                attacker.id,
                "",
                "",
                tokens,
            )
        )
        return
    context = (attacker.id, target.id, str(tokens))
    if len(options) == 1:
        apply_transfer(tx, cards, context, options[0].id)
        return
    tx.ask(
        "transfer",
        attacker.id,
        f"{attacker.name} took {tokens} Health Token(s) from {target.name}: where to?",
        options,
        context,
    )


def apply_transfer(tx: CastlesTx, cards: CastlesCards, context: tuple[str, ...], option: str) -> None:
    """The transfer the damaging player chose for captured tokens (catacombs-and-castles-2e-manual.md:
    Health and Transfer Types): power, assist, health, void, capture or discard.

    Kept as one function (about 90 lines): one branch per transfer type, each a few lines over the same
    decoded decision (attacker, target, tokens); the branches read as the manual's list."""
    attacker_id, target_id, raw_tokens = context
    tokens = int(raw_tokens)
    attacker = tx.char(attacker_id)
    target = tx.char(target_id)
    kind, _, rest = option.partition(":")
    if kind in ("power", "assist"):
        holder_id, card_id = (attacker_id, rest) if kind == "power" else rest.split(":", 1)
        holder = tx.char(holder_id)
        own = cards_of(cards, holder)
        ordered = sorted(
            own, key=lambda c: c.id != card_id
        )  # the chosen card first, the other takes the rest
        left = tokens
        for card in ordered:
            room = charging_room(tx.state, cards, tx.char(holder_id), card)
            placed = min(room, left)
            if placed:
                h = tx.char(holder_id)
                tx.update(h.with_tokens(card.id, h.tokens_on(card.id) + placed))
                tx.emit(
                    CE.TokensTransferred(
                        f"{placed} token(s) onto {holder.name}'s {card.name} ({kind} transfer)",
                        kind,
                        attacker.id,
                        holder_id,
                        card.id,
                        placed,
                    )
                )
                left -= placed
        if left:
            tx.emit(
                CE.TokensTransferred(
                    f"{left} surplus token(s) discarded (the Charging Rule)",
                    "discard",
                    attacker.id,
                    "",
                    "",
                    left,
                )
            )
    elif kind == "health":
        side = tx.state.side(attacker.side)
        tx.state = tx.state.with_side(evolve(side, health=side.health + tokens))
        tx.emit(
            CE.TokensTransferred(
                f"{tokens} token(s) flipped into {side.id}'s Health Pool (health transfer)",
                "health",
                attacker.id,
                side.id,
                "",
                tokens,
            )
        )
    elif kind == "void":
        voided = min(tokens, target.tokens_on(rest))
        tx.update(target.with_tokens(rest, target.tokens_on(rest) - voided))
        tx.emit(
            CE.TokensTransferred(
                f"void transfer: {voided} token(s) discarded from {target.name}'s card",
                "void",
                attacker.id,
                target.id,
                rest,
                voided,
            )
        )
    elif kind == "capture":
        mate = tx.char(rest)
        uses = HALF_ARMOUR if tokens == 1 else FULL_ARMOUR
        tx.update(evolve(mate, armour=(uses,)))
        tx.emit(
            CE.TokensTransferred(
                f"{tokens} token(s) captured: {mate.name} gains an Armour Token",
                "capture",
                attacker.id,
                mate.id,
                "",
                tokens,
            )
        )
        tx.emit(
            CE.ArmourGained(
                f"{mate.name} gains a {'full' if uses == FULL_ARMOUR else 'half'} power Armour Token",
                mate.id,
                uses,
            )
        )


def pending_context(pending: Pending) -> tuple[str, ...]:
    return pending.context
