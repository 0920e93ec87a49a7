"""Playing Spell, Ability and Item cards (catacombs-3e-reference.txt: Playing Spell, Ability, or Item Cards;
Item Cards; Combo Items; Healing Damage; Curing Poison)."""

from __future__ import annotations

from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow import events as E
from service.games.catacombs.flow.cards import ActionCard, UnknownCardError
from service.games.catacombs.flow.rulebooks import cite
from service.games.catacombs.flow.shots import Sequence, Shot
from service.games.catacombs.flow.state import (
    STUNNED,
    TELEPORTED,
    Character,
    GameState,
    Option,
    Pending,
    Turn,
)
from service.games.catacombs.flow.tx import FlowRules, Tx
from service.rules import rng
from service.rules.errors import (
    CardNotPlayableError,
    CharacterCannotActError,
    NoSuchAlternativeError,
    NotYourTurnError,
)
from service.rules.evolve import evolve

PLAYING = cite("Battle Phase: Playing Spell, Ability, or Item Cards")
ITEMS = cite("Item Cards")
COMBO = cite("Item Cards: Combo Items")
DEFENSIVE = cite("Defensive Properties: Reflecting Shots")


def usable_by(rules: FlowRules, c: Character, card: ActionCard) -> str | None:
    """Why ``c`` may not use ``card`` (Item Cards: Usage Restrictions), or None when it may."""
    if card.kind != "item":
        return None
    if c.kind != "hero":
        return f"only heroes use Item cards ({c.name} is {c.kind})"
    if card.magic and not c.spell_caster:
        return f"{card.name} is a magic item: Spell Casters only"
    if card.weapon:
        try:
            weapons = rules.content.hero(c.card).can_use_weapons
        except UnknownCardError:
            weapons = None
        if weapons is False:
            return f"{c.name} cannot wield weapons such as {card.name}"
    return starting_health_restriction(rules, c, card)


def starting_health_restriction(rules: FlowRules, c: Character, card: ActionCard) -> str | None:
    """Item Cards: Usage Restrictions: "some items can only be used by heroes with a certain amount of health
    at the start of the game". The hero card's starting health counts, not the current health (nor a health
    the Inn's sleep raised above it)."""
    low, high = card.starting_health_min, card.starting_health_max
    if low is None and high is None:
        return None
    try:
        start = rules.content.hero(c.card).starting_health
    except UnknownCardError:
        start = c.max_health
    if (low is None or start >= low) and (high is None or start <= high):
        return None
    if low is not None and high is not None:
        wanted = f"{low}" if low == high else f"{low} to {high}"
    elif low is not None:
        wanted = f"{low} or more"
    else:
        wanted = f"{high} or less"
    return f"{card.name} is for heroes with a starting health of {wanted} ({c.name} starts with {start})"


def held(c: Character, card: ActionCard) -> bool:
    pile: tuple[str, ...] = getattr(c, PILES[card.kind])
    return pile.count(card.id) > c.face_down.count(f"{card.kind}:{card.id}")


PILES = {"spell": "spells", "ability": "abilities", "item": "items"}


def card_kind(c: Character, action: A.PlayCard) -> str:
    """Which of the hero's piles the card comes from (Varesh may hold a Fireball ability and spell)."""
    if action.kind is not None:
        if action.kind not in PILES:
            raise CardNotPlayableError(
                f"card kind must be one of {sorted(PILES)}, got {action.kind!r}", PLAYING
            )
        return action.kind
    kinds = [kind for kind, pile in PILES.items() if action.card in getattr(c, pile)]
    if not kinds:
        raise CardNotPlayableError(f"{c.name} holds no {action.card}", PLAYING)
    if len(kinds) > 1:
        raise CardNotPlayableError(
            f"{c.name} holds {action.card} as {' and '.join(kinds)}: say which kind", PLAYING
        )
    return kinds[0]


def check(rules: FlowRules, state: GameState, action: A.PlayCard, c: Character) -> None:
    """``c``: the character who plays, found once the Battle Phase checks have passed."""
    try:
        card = rules.content.card(card_kind(c, action), action.card)
    except UnknownCardError as exc:
        raise CardNotPlayableError(str(exc), PLAYING) from None
    if not held(c, card):
        raise CardNotPlayableError(f"{c.name} holds no unused {card.name}", PLAYING)
    why_not = usable_by(rules, c, card)
    if why_not is not None:
        raise CardNotPlayableError(why_not, cite("Item Cards: Usage Restrictions"))
    if card.kind == "spell" and not c.spell_caster:
        raise CardNotPlayableError(
            f"{c.name} is not a Spell Caster", cite("Playing Spell, Ability, or Item Cards")
        )
    if card.familiar:
        # Familiars: the familiar item brings its own piece, which "performs its shot sequence every round";
        # the card is never played in place of the hero's action (nor used up by it).
        raise CardNotPlayableError(
            f"{card.name} acts with its own piece; it is not played", cite("Item Cards: Familiars")
        )
    if card.frequency == "permanent" and not card.shot_sequences:
        raise CardNotPlayableError(
            f"{card.name} is always in play; it is not played", cite("Item Cards: Frequency Conditions")
        )
    if is_defensive(card):
        # Defensive Properties: the affected player chooses when to use a once-per-room or once-per-game
        # Nullifies / Reflects box, on anyone's turn, against the coming shot.
        if not c.alive or c.kind not in ("hero", "ally"):
            raise CharacterCannotActError(f"{c.name} cannot use {card.name} now", DEFENSIVE)
        if card.kind == "item" and c.has(STUNNED) and not rules.lone_hero(state, c):
            # Item Cards: "Items cannot be used when a hero is stunned", on anyone's turn.
            raise CardNotPlayableError(f"{c.name} is stunned", ITEMS)
        return
    if c.has(TELEPORTED):
        # Teleport Shots: the returning character "performs a single melee shot"; only a post-Combo item may
        # follow that melee (by then the hero is back on the playmat), so no card replaces or precedes it.
        raise CardNotPlayableError(
            f"{c.name} returns from teleport with a single melee shot", cite("Advanced Shots: Teleport Shots")
        )
    turn = state.turn
    if card.combo == "post":
        if turn is None or turn.character != c.id or turn.stage != "await_post":
            raise NotYourTurnError(f"{card.name} is played right after {c.name}'s action", COMBO)
    elif turn is not None:
        if turn.character != c.id or turn.stage != "await_main" or card.combo == "pre":
            raise NotYourTurnError(
                f"{turn.character} is taking its turn", COMBO if turn.combo_used else PLAYING
            )
    else:
        if not rules.can_act(state, c) or c.kind not in ("hero", "ally"):
            raise CharacterCannotActError(f"{c.name} cannot play a card now", PLAYING)
    if c.has(STUNNED) and not card.familiar and not rules.lone_hero(state, c):
        # Item Cards: "Items cannot be used when a hero is stunned unless the item is a familiar".
        raise CardNotPlayableError(
            f"{c.name} is stunned", cite("Stun Shot Modifier", "catacombs-3e-shot-modifiers.txt")
        )
    if action.alternative is not None and not 0 <= action.alternative < max(
        1, len(card.sequences_for(c.card))
    ):
        raise NoSuchAlternativeError(f"{card.name} has no alternative {action.alternative}", PLAYING)
    if action.rush_first and card.kind != "spell":
        raise CardNotPlayableError("only a spell may be preceded by a rush", PLAYING)


def is_defensive(card: ActionCard) -> bool:
    return bool(card.nullifies or card.reflects) and not card.shot_sequences and card.frequency != "permanent"


def apply(rules: FlowRules, tx: Tx, action: A.PlayCard) -> None:
    c = tx.char(action.character)
    card = rules.content.card(card_kind(c, action), action.card)
    c = use_up(tx, c, card)
    if is_defensive(card):
        tx.update(evolve(c, guard_nullifies=card.nullifies, guard_reflects=card.reflects))
        tx.emit(E.CardPlayed(f"{c.name} raises {card.name} against the next shot", c.id, card.id))
        return
    tx.emit(E.CardPlayed(f"{c.name} plays {card.name}", c.id, card.id))
    sequences = card.sequences_for(c.card)
    stage = {"pre": "pre", "post": "post"}.get(card.combo or "", "main")
    previous = tx.state.turn
    shots: tuple[Shot, ...] = ()
    label = card.name
    if sequences:
        chosen = sequences[action.alternative or 0]
        shots = chosen.shots
        label = f"{card.name}: {chosen.label}"
    if action.rush_first:
        shots = (Shot("rush"), *shots)
    queue = tuple(rules.plan(tx.state, c, shot, i) for i, shot in enumerate(shots))
    if previous is not None and stage == "post":
        tx.set_turn(
            evolve(
                previous, queue=queue, stage="post", combo_used=True, label=f"{previous.label}; {card.name}"
            )
        )
    else:
        tx.set_turn(
            Turn(
                character=c.id,
                label=label,
                source=card.id,
                queue=queue,
                elastic=bool(sequences) and sequences[action.alternative or 0].elastic,
                stage=stage,
                combo_used=stage == "pre" or (previous is not None and previous.combo_used),
            )
        )
    if card.heal_all:
        for mate in tx.state.characters:
            if mate.side == c.side and mate.alive and mate.in_room and mate.kind in ("hero", "ally"):
                tx.heal(mate, card.heal_all)
    if card.heal:
        ask_heal_target(tx, c, card)
    elif card.cure_poison and c.poison:
        ask_poison_cure(tx, c, card.cure_poison)
    tx.finish_turn_if_done()


def use_up(tx: Tx, c: Character, card: ActionCard) -> Character:
    """Spells and once-per-game cards leave the game; once-per-room cards are flipped face down."""
    if card.frequency == "once_per_room":
        c = evolve(c, face_down=(*c.face_down, f"{card.kind}:{card.id}"))
    elif card.frequency == "once_per_game":
        pile = PILES[card.kind]
        cards = list(getattr(c, pile))
        cards.remove(card.id)
        c = evolve(c, **{pile: tuple(cards)})
    tx.update(c)
    return c


def ask_heal_target(tx: Tx, c: Character, card: ActionCard) -> None:
    """Healing Damage: the character heals itself, or any one hero or ally instead."""
    options = tuple(
        Option(h.id, h.name)
        for h in tx.state.characters
        if h.side == c.side and h.alive and h.kind in ("hero", "ally")
    )
    tx.ask(
        "choose_heal_target",
        c.id,
        f"Who does {card.name} heal ({card.heal})?",
        options,
        context=(str(card.heal),),
    )


def ask_poison_cure(tx: Tx, c: Character, cures: int) -> None:
    """Curing Poison: the hero discards one Poison card of their choice."""
    options = tuple(Option(str(i), f"Poison {value}") for i, value in enumerate(c.poison))
    tx.ask(
        "choose_poison_card",
        c.id,
        f"Which Poison card does {c.name} discard?",
        options,
        context=(c.id, str(cures)),
    )


def decide_heal(tx: Tx, pending: Pending, option: str) -> None:
    tx.heal(tx.char(option), int(pending.context[0]))


def decide_poison(tx: Tx, pending: Pending, option: str) -> None:
    hero = tx.char(pending.context[0])
    index = int(option)
    value = hero.poison[index]
    tx.update(evolve(hero, poison=hero.poison[:index] + hero.poison[index + 1 :]))
    state, deck = rng.shuffled(tx.state.rng, (*tx.state.poison_deck, value))
    tx.state = evolve(tx.state, rng=state, poison_deck=deck)
    tx.emit(E.StatusChanged(f"{hero.name} is cured of a Poison {value} card", hero.id, "poisoned", False))
    remaining = int(pending.context[1]) - 1
    hero = tx.char(hero.id)
    if remaining > 0 and hero.poison:
        ask_poison_cure(tx, hero, remaining)


def refresh_cards(tx: Tx) -> None:
    """Ability and once-per-room Item cards are flipped face up in the Setup Phase of each room."""
    for c in tx.state.characters:
        if c.face_down:
            tx.update(evolve(c, face_down=()))


def has_post_combo(rules: FlowRules, state: GameState, character: Character) -> bool:
    if not character.on_mat:
        # Teleport Shots: a hero teleported by its own action is off the playmat until its next turn, so
        # no post-Combo shot can follow (the returning melee may be followed by one).
        return False
    if character.has(STUNNED) and not rules.lone_hero(state, character):
        return False  # Item Cards: "Items cannot be used when a hero is stunned": no combo to wait for
    for item in character.items:
        try:
            card = rules.content.card("item", item)
        except UnknownCardError:
            continue
        if card.combo == "post" and held(character, card) and usable_by(rules, character, card) is None:
            return True
    return False


def familiar_characters(rules: FlowRules, hero: Character) -> list[Character]:
    """Familiars: a familiar item brings its own piece, placed beside its hero in every Setup Phase."""
    out = []
    for item in hero.items:
        try:
            card = rules.content.card("item", item)
        except UnknownCardError:
            continue
        if card.familiar:
            out.append(
                Character(
                    id=f"familiar-{card.id}",
                    name=card.name,
                    side=hero.side,
                    kind="familiar",
                    card=card.id,
                    health=card.familiar_health,
                    max_health=card.familiar_health,
                    shot_sequences=card.shot_sequences or (Sequence((Shot("melee"),)),),
                    owner=hero.id,
                    nullifies=card.nullifies,
                    reflects=card.reflects,
                )
            )
    return out
