"""Positions: one self-contained JSON document holding everything that decides a Catacombs 3E game from a
point on (docs/positions.md), as FEN is to chess.

``position_of(state)`` exports the canonical form: every field, keys sorted. ``load_position(rules, doc)``
builds the state back; a hand-written position may leave out what a character's card gives (its shot
sequences, defensive boxes, gold reward, family...) and what the Room card gives (its name, kind and
suppressed shots): those are filled in from the content. A position that cannot occur is refused with a
``PositionError`` naming the key that is wrong. Loading an exported position gives back the very same state.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, Protocol

from service.games.catacombs.flow.actions import CORRECTABLE_STATUSES
from service.games.catacombs.flow.cards import Content, UnknownCardError
from service.games.catacombs.flow.expansion import FlowExpansion
from service.games.catacombs.flow.settings import Settings
from service.games.catacombs.flow.shots import Sequence, Shot
from service.games.catacombs.flow.state import HEROES, NEUTRAL, OVERSEER, Character, GameState
from service.rules.actions import CARD_HOLDINGS
from service.rules.codec import DecodeError, decode_dataclass, encode


class PositionRules(Protocol):
    """What reading and checking a position needs of its rule set (``Catacombs3E`` and its variants)."""

    @property
    def name(self) -> str: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def content(self) -> Content: ...

    @property
    def expansion(self) -> FlowExpansion: ...

    @property
    def gold_in_box(self) -> int: ...


FORMAT = 1
PHASES = ("setup", "battle", "resolution", "special_room", "game_over")
KINDS = ("hero", "ally", "familiar", "monster", "lord", "antient", "fire_wall")
# Fields the state holds that the content or the setup decides, so a position leaves them out.
DERIVED = (
    "ruleset", "settings", "room_id", "room_name", "room_kind", "suppresses", "mercenary", "pays_alone",
)  # fmt: skip
DECKS = ("rooms", "monster_metre", "poison", "items", "tavern", "allies")


class PositionError(ValueError):
    """A position that is malformed or cannot occur; the message names the key."""


# == export ========================================================================================
def position_of(state: GameState) -> dict[str, Any]:
    """The canonical position of ``state`` (every field; ``load_position`` gives ``state`` back)."""
    body = encode(state)
    assert isinstance(body, dict)
    for key in DERIVED:
        body.pop(key, None)
    body["format"] = FORMAT
    if state.settings.physical_decks:
        # The table's own cards: which are left is known, their order is not (every draw is named).
        body["deck_order"] = "unknown"
        body["poison_deck"] = sorted(state.poison_deck)
        body["item_deck"] = sorted(state.item_deck)
    body["monster_supply"] = dict(state.monster_supply)
    body["table_draws"] = {deck: list(cards) for deck, cards in state.table_draws}
    return body


def referee_view(state: GameState) -> dict[str, Any]:
    """What decides the game that spectators are not shown: the decks as they stand (their order matters
    only for seeded decks), the shots still to come this turn, Monster Metre icons to resolve, named draws."""
    turn = state.turn
    return {
        "rooms_ahead": list(state.room_deck[state.room_index + 1 :]),
        "poison_deck": list(state.poison_deck),
        "item_deck": list(state.item_deck),
        "shots_to_come": []
        if turn is None
        else [{"shot": p.shot.label, "by": p.actor or turn.character, "piece": p.piece} for p in turn.queue],
        "monster_metre_queue": list(state.monster_metre_queue),
        "held_discs": {hero: list(discs) for hero, discs in state.held_discs().items()},
        "shields": list(state.shields),
        "cards_named": {deck: list(cards) for deck, cards in state.table_draws},
        "decks": "physical" if state.settings.physical_decks else "digital",
    }


# == import ========================================================================================
def load_position(rules: PositionRules, doc: Any) -> GameState:
    if not isinstance(doc, dict):
        raise PositionError(f"position: expected a JSON object, got {type(doc).__name__}")
    if doc.get("format", FORMAT) != FORMAT:
        raise PositionError(f"position.format: this version reads format {FORMAT}, got {doc.get('format')!r}")
    blank = GameState(rules.name, "setup", (), (), "", "", 0, (), 1)
    template = encode(blank)
    assert isinstance(template, dict)
    unknown = sorted(set(doc) - set(template) - {"format", "deck_order"} - set(DERIVED))
    if unknown:
        raise PositionError(
            f"position: unknown key(s) {unknown}; known: {sorted(set(template) - set(DERIVED))}"
        )
    for key in ("lord", "room_deck", "characters"):
        if key not in doc:
            raise PositionError(f"position.{key} is missing")
    if doc.get("deck_order", "known") not in ("known", "unknown"):
        raise PositionError(f"position.deck_order: 'known' or 'unknown', got {doc.get('deck_order')!r}")
    raw = {k: v for k, v in doc.items() if k not in ("format", "deck_order")}
    lord = _card(rules, "lord", raw["lord"], "position.lord")
    if not isinstance(raw["characters"], list):
        raise PositionError("position.characters: expected a list of characters")
    characters = [_character(rules, c, f"position.characters[{i}]") for i, c in enumerate(raw["characters"])]
    merged = {**template, **raw}
    merged.update(
        ruleset=rules.name,
        settings=encode(rules.settings),
        mercenary=lord.mercenary_monster,
        characters=[encode(c) for c in characters],
        monster_supply=_pairs(raw.get("monster_supply"), "position.monster_supply")
        if "monster_supply" in raw
        else sorted([m.id, m.pieces] for m in rules.content.monsters() if not m.antient),
        table_draws=_draws(raw.get("table_draws", {})),
        pays_alone=list(rules.expansion.pays_alone(characters)),
    )
    if "rng" not in raw:
        merged["rng"] = 0x2545F4914F6CDD1D  # any non-zero state: the position names none
    _supply_left(rules, raw, merged, characters)
    _room(rules, merged)
    try:
        state = decode_dataclass(GameState, merged, "position")
    except DecodeError as exc:
        raise PositionError(str(exc)) from exc
    check_position(rules, state)
    return state


def _supply_left(
    rules: PositionRules, raw: dict[str, Any], merged: dict[str, Any], characters: list[Character]
) -> None:
    """What a hand-written position leaves out of the supply is the box less what the characters hold: the
    Treasury less their gold, the Poison deck less their Poison cards, the Item deck less their Items."""
    if "treasury" not in raw:
        merged["treasury"] = max(0, rules.gold_in_box - sum(c.gold for c in characters))
    if "poison_deck" not in raw:
        held = Counter(v for c in characters for v in c.poison)
        merged["poison_deck"] = _less(rules.content.poison_deck(), held)
    if "item_deck" not in raw:
        market = raw.get("market", [])
        held_items = Counter(i for c in characters for i in c.items)
        held_items.update(market if isinstance(market, list) else [])
        merged["item_deck"] = _less(rules.content.item_deck(), held_items)


def _less(deck: Any, taken: Counter[Any]) -> list[Any]:
    left, out = Counter(taken), []
    for card in deck:
        if left[card] > 0:
            left[card] -= 1
        else:
            out.append(card)
    return out


def _card(rules: PositionRules, kind: str, card_id: Any, where: str) -> Any:
    if not isinstance(card_id, str):
        raise PositionError(f"{where}: expected a card id, got {card_id!r}")
    try:
        if kind == "lord":
            return rules.content.lord(card_id)
        if kind == "hero":
            return rules.content.hero(card_id)
        if kind == "monster":
            return rules.content.monster(card_id)
        if kind == "room":
            return rules.content.room(card_id)
        return rules.content.card(kind, card_id)
    except (UnknownCardError, LookupError):
        raise PositionError(f"{where}: there is no {kind} card {card_id!r}") from None


def _character(rules: PositionRules, raw: Any, where: str) -> Character:
    """A character as written, with what its card gives filled in."""
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected an object, got {raw!r}")
    for key in ("id", "card", "kind"):
        if not isinstance(raw.get(key), str):
            raise PositionError(f"{where}.{key}: expected a string, got {raw.get(key)!r}")
    kind = raw["kind"]
    if kind not in KINDS:
        raise PositionError(f"{where}.kind: expected one of {list(KINDS)}, got {kind!r}")
    card = raw["card"]
    if kind in ("hero", "ally"):
        hero = _card(rules, "hero", card, f"{where}.card")
        base = Character(
            id=raw["id"], name=hero.name, side=HEROES, kind=kind, card=card,
            health=hero.starting_health if kind == "hero" else 4,
            max_health=hero.starting_health if kind == "hero" else 4,
            shot_sequences=hero.shot_sequences, nullifies=hero.nullifies, reflects=hero.reflects,
            extra_gold_per_kill=hero.extra_gold_per_kill if kind == "hero" else 0,
            abilities=hero.abilities if kind == "hero" else (), spell_caster=hero.spell_caster,
        )  # fmt: skip
    elif kind == "familiar":
        item = _card(rules, "item", card, f"{where}.card")
        base = Character(
            id=raw["id"], name=item.name, side=HEROES, kind=kind, card=card, health=item.familiar_health,
            max_health=item.familiar_health, nullifies=item.nullifies, reflects=item.reflects,
            shot_sequences=item.shot_sequences or (Sequence((Shot("melee"),)),),
        )  # fmt: skip
    elif kind == "lord":
        lord = _card(rules, "lord", card, f"{where}.card")
        base = Character(
            id=raw["id"], name=lord.name, side=OVERSEER, kind=kind, card=card, health=lord.starting_health,
            max_health=lord.starting_health, shot_sequences=lord.shot_sequences,
        )  # fmt: skip
    else:
        monster = _card(rules, "monster", card, f"{where}.card")
        name = monster.name if kind == "antient" else f"{monster.name} {raw['id'].rsplit('-', 1)[-1]}"
        base = Character(
            id=raw["id"], name=f"Fire wall ({name})" if kind == "fire_wall" else name,
            side=NEUTRAL if kind == "antient" else OVERSEER, kind=kind, card=card,
            health=monster.health or 1, max_health=monster.health or 1,
            shot_sequences=monster.shot_sequences, nullifies=monster.nullifies, reflects=monster.reflects,
            reward_gold=monster.reward_gold, family=monster.family, level=monster.level,
            shadow=monster.shadow, small=monster.small, ordered_by_round=monster.ordered_by_round,
        )  # fmt: skip
    fields = encode(base)
    assert isinstance(fields, dict)
    unknown = sorted(set(raw) - {f.name for f in dataclasses.fields(Character)})
    if unknown:
        raise PositionError(f"{where}: unknown key(s) {unknown}")
    try:
        return decode_dataclass(Character, {**fields, **raw}, where)
    except DecodeError as exc:
        raise PositionError(str(exc)) from exc


def _pairs(raw: Any, where: str) -> list[list[Any]]:
    if not isinstance(raw, dict):
        raise PositionError(f"{where}: expected an object of card id to number")
    return sorted([k, v] for k, v in raw.items())


def _draws(raw: Any) -> list[list[Any]]:
    if not isinstance(raw, dict):
        raise PositionError("position.table_draws: expected an object of deck to cards")
    for deck in raw:
        if deck not in DECKS:
            raise PositionError(f"position.table_draws.{deck}: unknown deck; decks: {list(DECKS)}")
    return sorted([deck, cards] for deck, cards in raw.items() if cards)


def _room(rules: PositionRules, merged: dict[str, Any]) -> None:
    """The current Room card's name, kind and Suppresses box, from the card the deck names."""
    deck, index = merged.get("room_deck"), merged.get("room_index")
    if not isinstance(deck, list) or not isinstance(index, int) or isinstance(index, bool):
        return  # the decoder names the wrong type
    for i, room in enumerate(deck):
        _card(rules, "room", room, f"position.room_deck[{i}]")
    if index < -1 or index >= len(deck):
        raise PositionError(f"position.room_index: {index} is not a card of the {len(deck)}-card room deck")
    if index >= 0:
        room = rules.content.room(deck[index])
        merged.update(
            room_id=room.id, room_name=room.name, room_kind=room.kind, suppresses=encode(room.suppresses)
        )


# == what cannot occur =============================================================================
def check_position(rules: PositionRules, state: GameState) -> None:
    def no(key: str, why: str) -> None:
        raise PositionError(f"position.{key}: {why}")

    if state.phase not in PHASES:
        no("phase", f"expected one of {list(PHASES)}, got {state.phase!r}")
    if state.side not in (HEROES, OVERSEER):
        no("side", f"expected 'heroes' or 'overseer', got {state.side!r}")
    ids = [c.id for c in state.characters]
    for doubled in sorted(k for k, n in Counter(ids).items() if n > 1):
        no("characters", f"two characters are called {doubled!r}")
    heroes = [c for c in state.characters if c.kind == "hero"]
    if len(heroes) != 4 or len({h.card for h in heroes}) != 4:
        no("characters", f"a game has four different heroes, got {[h.card for h in heroes]}")
    if state.phase == "battle" and state.round < 1:
        no("round", "the Battle Phase counts rounds from 1")
    if state.phase in ("battle", "resolution", "special_room") and state.room_index < 0:
        no("room_index", f"the {state.phase} phase is played in a room: name it (0 = the first Room card)")
    for i, c in enumerate(state.characters):
        where = f"characters[{i}]"
        for status in c.status:
            if status not in CORRECTABLE_STATUSES:
                no(f"{where}.status", f"unknown status {status!r}; statuses: {list(CORRECTABLE_STATUSES)}")
        if c.health < 0:
            no(f"{where}.health", "health cannot be negative")
        if c.alive and c.health == 0 and c.kind != "antient":
            no(f"{where}.health", f"{c.id} is alive with no health left (Tracking Health)")
        if not c.alive and c.health != 0:
            no(f"{where}.health", f"{c.id} is dead but has {c.health} health")
        if c.kind in ("monster", "lord") and c.health > c.max_health:
            no(f"{where}.health", f"{c.id} has more than its {c.max_health} starting health")
        if c.kind == "lord" and {"frozen", "devoured"} & set(c.status):
            # A Lord may be on the Teleported! card ("The Battle Phase continues while monsters and/or
            # Catacomb Lords are on the Teleported! card"); Antients "cannot be teleported".
            no(f"{where}.status", f"{c.id} cannot be frozen or devoured (Catacomb Lord's Lair)")
        if c.kind == "antient" and {"frozen", "devoured", "teleported"} & set(c.status):
            no(f"{where}.status", f"{c.id} cannot be frozen, devoured or teleported (Antients)")
        for m in c.trophies:
            held = state.find(m)
            if held is None or held.kind != "monster":
                no(f"{where}.trophies", f"{m!r} is not a monster of this game")
        for ref in ("owner", "frozen_by", "destroyed_by", "devoured_by"):
            other = getattr(c, ref)
            if other is not None and state.find(other) is None:
                no(f"{where}.{ref}", f"no character {other!r} in this position")
        for pile, kind in CARD_HOLDINGS.items():
            for card in getattr(c, pile):
                _card(rules, kind, card, f"position.{where}.{pile}")
    for acted in state.acted:
        if state.find(acted) is None:
            no("acted", f"no character {acted!r} in this position")
    for owner in (*state.shields, *state.shield_raised):
        if state.find(owner) is None:
            no("shields", f"no character {owner!r} in this position")
    if state.turn is not None and state.find(state.turn.character) is None:
        no("turn.character", f"no character {state.turn.character!r} in this position")
    total = state.treasury + state.party_gold + sum(c.gold for c in state.characters if c.kind != "hero")
    if state.treasury < 0 or total > _gold_in_box(rules):
        no("treasury", f"the Treasury and the heroes' gold come to {total}, more than the box holds")
    box = Counter(rules.content.poison_deck())
    poison = Counter(state.poison_deck) + Counter(v for c in state.characters for v in c.poison)
    extra = poison - box
    if extra:
        no("poison_deck", f"Poison cards {sorted(extra.elements())} are more than the Poison deck holds")
    items = Counter(rules.content.item_deck())
    seen = Counter(state.item_deck) + Counter(state.market)
    unknown_items = seen - items
    if unknown_items:
        no(
            "item_deck",
            f"Item cards {sorted(unknown_items.elements())} are not in the Item deck (or too many copies)",
        )
    for card, pieces in state.monster_supply:
        if state.pieces_out_of_pool(card) > pieces:
            no(
                "characters",
                f"{state.pieces_out_of_pool(card)} {card} pieces are in play; the pool holds {pieces}",
            )


def _gold_in_box(rules: PositionRules) -> int:
    return rules.gold_in_box
