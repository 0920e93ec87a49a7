"""Audit: shot sequences as printed on every shipped Hero, Lord and Monster card.

Each card's sequences are declared one alternative at a time and walked shot by shot through
``expected_shot``; the engine must offer exactly the printed shots, in the printed order, and accept a
skip, a resolution or an early end for each of them.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.games.catacombs.adapter import rules_content
from service.games.catacombs.content import load_content
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.cards import CardIndex, MonsterCard, QuadrantEntry, RoomCard
from service.games.catacombs.flow.shots import Sequence, Shot
from service.games.catacombs.flow.state import GameState
from service.games.catacombs.third_edition.ruleset import Catacombs3E
from service.rules import IllegalActionError

HEROES = ["xoric", "varesh", "roosan", "elani"]
LORD = "hmotha-the-lich-lord"


@pytest.fixture(scope="module")
def loaded() -> Any:
    return load_content("catacombs-3e", None, expansions=("soloth",))


@pytest.fixture(scope="module")
def shipped(loaded: Any) -> CardIndex:
    return rules_content(loaded)


def _printed(alternatives: Any) -> list[list[tuple[str, str | None]]]:
    return [[(s.shot, s.modifier) for s in alt] for alt in alternatives]


def _with_room(shipped: CardIndex, monster: str) -> CardIndex:
    room = RoomCard(
        "audit-room", "Audit Room", "battle", 1, (), {1: (QuadrantEntry("specific", 1, monster),)}
    )
    return CardIndex(
        [shipped.hero(h) for h in _hero_ids(shipped)],
        [m for m in _monsters(shipped)],
        [room],
        list(shipped.lords()),
        shipped.poison_deck(),
        list(shipped.cards()),
    )


def _hero_ids(shipped: CardIndex) -> list[str]:
    return [h.id for h in shipped.heroes()]


def _monsters(shipped: CardIndex) -> list[MonsterCard]:
    return list(shipped.monsters())


def _battle(rules: Catacombs3E, state: GameState) -> GameState:
    state, _ = rules.apply(state, A.EnterRoom())
    while state.pending is not None:
        state, _ = rules.apply(state, A.Decide(state.pending.id, state.pending.options[0].id))
    state, _ = rules.apply(state, A.StartBattle())
    return state


def _heroes_pass(rules: Catacombs3E, state: GameState) -> GameState:
    while state.side == "heroes":
        actor = rules.actors(state)[0].id
        state, _ = rules.apply(state, A.DeclareAction(actor, 0))
        if state.turn is not None:
            state, _ = rules.apply(state, A.EndTurn(actor))
    return state


def _walk_skipping(
    rules: Catacombs3E, state: GameState, who: str, alternative: int
) -> list[tuple[str, str | None]]:
    """Declare one alternative and skip every shot, recording what the sensors are told to expect."""
    state, _ = rules.apply(state, A.DeclareAction(who, alternative))
    seen: list[tuple[str, str | None]] = []
    while state.turn is not None and state.turn.character == who:
        expected = state.expected_shot()
        assert expected is not None and expected["character"] == who
        assert expected["optional"] is True
        assert expected["index"] == len(seen)
        assert expected["any_of"] is None  # no shipped card prints an Elastic connector
        assert A.SkipShot(who) in rules.choices(state) and A.EndTurn(who) in rules.choices(state)
        seen.append((expected["shot"], expected["modifier"]))
        state, _ = rules.apply(state, A.SkipShot(who))
    return seen


def _monster_cards(loaded: Any) -> list[Any]:
    return [m for m in loaded.monsters.values() if m.sequence_selection != "ordered_by_round"]


def test_every_monster_sequence_is_offered_as_printed(loaded: Any, shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (Then in printed order, Or alternatives)."""
    for card in _monster_cards(loaded):
        rules = Catacombs3E(_with_room(shipped, card.id))
        state = _heroes_pass(rules, _battle(rules, rules.new_game(HEROES, LORD, ["audit-room"], seed=3)))
        who = f"monster-{card.id}-1"
        printed = _printed(card.shot_sequences)
        offered = [a for a in rules.choices(state) if isinstance(a, A.DeclareAction) and a.character == who]
        assert [a.alternative for a in offered] == list(range(len(printed))), card.id
        for i, alternative in enumerate(printed):
            assert _walk_skipping(rules, state, who, i) == alternative, (card.id, i)


def test_every_hero_sequence_is_offered_as_printed(loaded: Any, shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors; Battle Phase (Hero Rules card)."""
    rules = Catacombs3E(shipped)
    for hero in loaded.heroes.values():
        party = [hero.id] + [h for h in HEROES if h != hero.id][:3]
        state = _battle(rules, rules.new_game(party, LORD, ["the-barracks"], seed=3))
        who = next(c.id for c in state.heroes if c.card == hero.id)
        printed = _printed(hero.shot_sequences)
        assert len(rules.hero_sequences(state, state.character(who))) == len(printed), hero.id
        for i, alternative in enumerate(printed):
            assert _walk_skipping(rules, state, who, i) == alternative, (hero.id, i)


def test_every_lord_sequence_is_offered_as_printed(loaded: Any, shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Catacomb Lord's Lair (multiple sequences, one per round)."""
    rules = Catacombs3E(shipped)
    for lord in loaded.lords.values():
        state = rules.new_game(HEROES, lord.id, ["catacomb-lords-lair"], seed=3)
        state = _heroes_pass(rules, _battle(rules, state))
        who = next(c.id for c in state.room_monsters if c.kind == "lord")
        printed = _printed(lord.shot_sequences)
        for i, alternative in enumerate(printed):
            assert _walk_skipping(rules, state, who, i) == alternative, (lord.id, i)


def _resolve_everything(rules: Catacombs3E, state: GameState, who: str, alternative: int, target: str) -> int:
    """Declare one alternative and resolve every shot with nothing struck; returns the shots resolved."""
    state, _ = rules.apply(state, A.DeclareAction(who, alternative))
    resolved = 0
    while state.turn is not None and state.turn.character == who:
        while state.pending is not None:
            state, _ = rules.apply(state, A.Decide(state.pending.id, state.pending.options[0].id))
            if state.turn is None or state.turn.character != who:
                return resolved
        expected = state.expected_shot()
        if expected is None:
            break
        if expected["suppressed"]:
            state, _ = rules.apply(state, A.SkipShot(who))
            continue
        kind = expected["shot"]
        shot = A.ResolveShot(who, kind, direct_hits=(), target=target if kind == "target" else None)
        # A summon with no piece left in the Monster Pool is refused (Summon Shot): the table skips it.
        state, _ = rules.apply(state, shot if rules.is_legal(state, shot) else A.SkipShot(who))
        resolved += 1
        assert resolved < 50, "the sequence never ends"
    return resolved


def test_every_monster_and_lord_shot_can_be_resolved(loaded: Any, shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (every printed shot can be performed)."""
    for card in _monster_cards(loaded):
        rules = Catacombs3E(_with_room(shipped, card.id))
        state = _heroes_pass(rules, _battle(rules, rules.new_game(HEROES, LORD, ["audit-room"], seed=3)))
        for i, alternative in enumerate(card.shot_sequences):
            done = _resolve_everything(rules, state, f"monster-{card.id}-1", i, "hero-xoric")
            assert done >= len(alternative), (card.id, i)
    for lord in loaded.lords.values():
        rules = Catacombs3E(shipped)
        state = _heroes_pass(
            rules, _battle(rules, rules.new_game(HEROES, lord.id, ["catacomb-lords-lair"], seed=3))
        )
        who = next(c.id for c in state.room_monsters if c.kind == "lord")
        for i, alternative in enumerate(lord.shot_sequences):
            assert _resolve_everything(rules, state, who, i, "hero-xoric") >= len(alternative), (lord.id, i)


def test_every_hero_shot_can_be_resolved(loaded: Any, shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (every printed shot can be performed)."""
    rules = Catacombs3E(shipped)
    for hero in loaded.heroes.values():
        party = [hero.id] + [h for h in HEROES if h != hero.id][:3]
        state = _battle(rules, rules.new_game(party, LORD, ["the-barracks"], seed=3))
        who = next(c.id for c in state.heroes if c.card == hero.id)
        target = next(c.id for c in state.room_monsters)
        for i, alternative in enumerate(hero.shot_sequences):
            assert _resolve_everything(rules, state, who, i, target) == len(alternative), (hero.id, i)


def _spider_room(shipped: CardIndex) -> tuple[Catacombs3E, GameState]:
    rules = Catacombs3E(_with_room(shipped, "crypt-spider"))
    state = _heroes_pass(rules, _battle(rules, rules.new_game(HEROES, LORD, ["audit-room"], seed=3)))
    return rules, state


def test_or_connector_one_alternative_per_turn(shipped: CardIndex, loaded: Any) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors ("A player can never perform every shot on a
    card when there is an "Or" connector present"; the Crypt Spider example)."""
    assert _printed(loaded.monsters["crypt-spider"].shot_sequences) == [
        [("melee", "regeneration")],
        [("rush", None), ("missile", "stun"), ("missile", "stun")],
    ]
    rules, state = _spider_room(shipped)
    spider = "monster-crypt-spider-1"
    # Declared without choosing: the Overseer must declare which alternative first.
    undeclared, _ = rules.apply(state, A.DeclareAction(spider))
    assert undeclared.pending is not None and undeclared.pending.kind == "choose_alternative"
    assert undeclared.expected_shot() is None
    assert len(undeclared.pending.options) == 2
    # The first alternative taken in full: the grouped rush, stun missile, stun missile can no longer follow.
    state, _ = rules.apply(state, A.DeclareAction(spider, 0))
    state, _ = rules.apply(state, A.ResolveShot(spider, "melee"))
    assert state.turn is None
    with pytest.raises(IllegalActionError):
        rules.apply(state, A.DeclareAction(spider, 1))
    assert not [a for a in rules.choices(state) if getattr(a, "character", None) == spider]


def test_then_connector_refuses_a_later_shot_first(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (Then: in a row); RULINGS.md 2."""
    rules, state = _spider_room(shipped)
    spider = "monster-crypt-spider-1"
    state, _ = rules.apply(state, A.DeclareAction(spider, 1))
    with pytest.raises(IllegalActionError):
        rules.apply(state, A.ResolveShot(spider, "missile"))
    # The skipped rush is forfeited; the two stun missiles follow in order and the turn ends with them.
    state, _ = rules.apply(state, A.SkipShot(spider))
    assert state.expected_shot()["shot"] == "missile"  # type: ignore[index]
    assert state.expected_shot()["modifier"] == "stun"  # type: ignore[index]
    with pytest.raises(IllegalActionError):
        rules.apply(state, A.ResolveShot(spider, "rush"))
    state, _ = rules.apply(state, A.ResolveShot(spider, "missile"))
    assert state.expected_shot()["index"] == 2  # type: ignore[index]
    state, _ = rules.apply(state, A.EndTurn(spider))
    assert state.turn is None
    assert state.round == 2 and state.side == "heroes"  # the spider was the only monster: a new round


def test_declared_label_describes_the_printed_sequence(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (the Crypt Spider's grouped option)."""
    rules, state = _spider_room(shipped)
    state, _ = rules.apply(state, A.DeclareAction("monster-crypt-spider-1", 1))
    declared = state.public_view()["turn"]["declared"]
    assert "rush" in declared and declared.count("stun missile") == 2
    assert declared.index("rush") < declared.index("stun missile")


def test_elastic_connector_any_order_and_any_of(shipped: CardIndex) -> None:
    """catacombs-3e-reference.txt: Shot Sequences and Connectors (Elastic: the Goblin Fighter's chain melee
    and chain missile in any order)."""
    goblin = MonsterCard(
        "goblin-fighter",
        "Goblin Fighter",
        1,
        "dungeon",
        2,
        1,
        (Sequence((Shot("melee", "chain"), Shot("missile", "chain")), elastic=True),),
    )
    base = _with_room(shipped, "goblin-fighter")
    content = CardIndex(
        [base.hero(h) for h in _hero_ids(base)],
        [*_monsters(base), goblin],
        [base.room("audit-room")],
        list(base.lords()),
        base.poison_deck(),
        list(base.cards()),
    )
    rules = Catacombs3E(content)
    state = _heroes_pass(rules, _battle(rules, rules.new_game(HEROES, LORD, ["audit-room"], seed=3)))
    who = "monster-goblin-fighter-1"
    state, _ = rules.apply(state, A.DeclareAction(who))
    assert state.pending is None  # one alternative: nothing to declare
    assert state.expected_shot()["any_of"] == ["melee", "missile"]  # type: ignore[index]
    state, _ = rules.apply(state, A.ResolveShot(who, "missile"))
    expected = state.expected_shot()
    assert expected is not None and expected["any_of"] == ["melee"] and expected["modifier"] == "chain"
    with pytest.raises(IllegalActionError):
        rules.apply(state, A.ResolveShot(who, "missile"))  # each shot once, whatever the order
    state, _ = rules.apply(state, A.ResolveShot(who, "melee"))
    assert state.turn is None
