"""Properties that hold in every game, checked over randomly played games (hypothesis)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.gamelog import replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A
from service.games.catacombs.flow.events import Damaged
from service.games.catacombs.flow.state import GameState
from service.rules import IllegalActionError
from service.rules.ruleset import RuleSet
from tests.helpers.game_setups import catacombs_3e
from tests.helpers.rules_script import RulesScript

ROOM_DECKS = [
    ["the-barracks", "amaranth-inn", "spider-den", "catacomb-lords-lair"],
    ["rat-nest", "althea-the-healer", "cube-chamber", "alewife-tavern", "zothas-gatehouse"],
    ["oakheart-hall", "izchak-the-merchant", "phantom-crypt", "amaranth-inn", "the-mitholaq-hive"],
]
SERVICES = [
    "free_cure",
    "heal",
    "cure_poison",
    "resurrect",
    "sleep",
    "cellar",
    "meal",
    "peek",
    "buy",
    "map",
    "bet",
]


def candidate_actions(rules: RuleSet, state: GameState, data: st.DataObject) -> A.Action:
    """A plausible next action: mostly legal, sometimes not (the rules must refuse those cleanly)."""
    ids = [c.id for c in state.characters]
    if state.pending is not None:
        option = data.draw(st.sampled_from([o.id for o in state.pending.options] + ["nonsense"]))
        return A.Decide(state.pending.id, option)
    if state.phase == "special_room" and data.draw(st.integers(0, 2)):
        heroes = [c.id for c in state.characters if c.kind in ("hero", "ally")]
        return A.UseService(
            data.draw(st.sampled_from(SERVICES)),
            target=data.draw(st.sampled_from([None, *heroes])),
            item=data.draw(st.sampled_from([None, *state.market])),
        )
    if state.phase in ("resolution", "special_room") or state.room_index < 0:
        return A.EnterRoom()
    if state.phase == "setup":
        return A.StartBattle()
    if state.turn is None:
        actors = [c.id for c in rules.actors(state)] or ids
        who = data.draw(st.sampled_from(actors + ids[:1]))
        return A.DeclareAction(who, data.draw(st.sampled_from([None, 0, 1, 2])))
    shot = state.expected_shot()
    if shot is None or data.draw(st.integers(0, 9)) == 0:
        return data.draw(st.sampled_from([A.EndTurn(state.turn.character), A.SkipShot(state.turn.character)]))
    actor = state.character(state.turn.character)
    enemies = [c.id for c in state.characters if c.on_mat and c.side != actor.side] or ids
    pool = enemies if data.draw(st.integers(0, 3)) else ids
    hits = tuple(data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3)))
    kind = shot["shot"] if data.draw(st.integers(0, 19)) else "bite"
    return A.ResolveShot(
        state.turn.character,
        kind,
        direct_hits=hits,
        pushed_off_mat=tuple(data.draw(st.lists(st.sampled_from(ids), max_size=1))),
        target=data.draw(st.sampled_from(ids)) if kind == "target" else None,
    )


def play(data: st.DataObject, steps: int) -> tuple[RulesScript, LogWriter, list[tuple[GameState, A.Action]]]:
    deck = data.draw(st.sampled_from(ROOM_DECKS))
    seed = data.draw(st.integers(0, 2**32))
    table = catacombs_3e(deck, seed=seed)
    log = LogWriter()
    log.setup(
        {
            "ruleset": "catacombs-3e",
            "content": "sample",
            "heroes": ["xoric", "varesh", "roosan", "elani"],
            "lord": "hmotha-the-lich-lord",
            "rooms": deck,
            "seed": seed,
        }
    )
    refused: list[tuple[GameState, A.Action]] = []
    for hero in table.state.heroes:  # the party arrives with some gold to spend in the special rooms
        purse = A.SetGold(hero.id, data.draw(st.integers(0, 12)), "starting purse")
        table.do(purse)
        log.action(purse)
    slept = False
    for _ in range(steps):
        if table.state.outcome is not None:
            break
        action = candidate_actions(table.rules, table.state, data)
        before = table.state
        try:
            table.do(action)
        except IllegalActionError:
            assert table.state is before
            refused.append((before, action))
            continue
        log.action(action)
        slept = slept or (isinstance(action, A.UseService) and action.service == "sleep")
        # The game never gets stuck: until it ends there is always something legal to do.
        assert (
            table.state.outcome is not None
            or table.state.room_index + 1 >= len(deck)
            and table.state.phase in ("resolution", "special_room")
            or table.rules.choices(table.state)
        ), table.state
        for c in table.state.characters:
            # Healing Damage: "A character's health may not be increased beyond its starting level",
            # except after a night at the Amaranth Inn (RULINGS.md 6).
            assert 0 <= c.health, c
            assert c.health <= c.max_health or (slept and c.kind == "hero"), c
    return table, log, refused


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_replaying_the_recorded_log_gives_the_live_state(data: st.DataObject) -> None:
    table, log, _ = play(data, 120)
    assert replay(log.records).state == table.state
    assert GameState.from_json(table.state.to_json()) == table.state  # the canonical form loads back


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_no_friendly_fire(data: st.DataObject) -> None:
    """catacombs-3e-reference.txt: Battle Phase: Taking Damage (There is no "friendly fire")."""
    table, _, _ = play(data, 120)
    sides = {c.id: c.side for c in table.state.characters}
    for event in table.events:
        if isinstance(event, Damaged) and event.by and event.by in sides and event.character in sides:
            assert sides[event.by] != sides[event.character], event.text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_an_illegal_action_changes_nothing_and_check_agrees_with_apply(data: st.DataObject) -> None:
    table, _, refused = play(data, 80)
    for before, action in refused:
        text = before.to_json()
        assert not table.rules.is_legal(before, action)
        try:
            table.rules.apply(before, action)
        except IllegalActionError as exc:
            assert ": " in exc.rule  # cites "<file>: <section>"
        else:
            raise AssertionError(f"{action} was refused once and accepted now")
        assert before.to_json() == text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_offered_choice_applies(data: st.DataObject) -> None:
    """Games driven by ``choices()`` (plus attributed shots) never hit an error the rules did not foresee."""
    deck = data.draw(st.sampled_from(ROOM_DECKS))
    table = catacombs_3e(
        deck,
        seed=data.draw(st.integers(0, 2**32)),
        items={
            "xoric": ["berserker-battle-axe"],
            "elani": ["throwing-axe", "raisthrims-potion", "mirror-shield"],
        },
        spells={"varesh": ["heal", "cure-poison", "drain-energy", "teleport-hero"]},
    )
    for hero in table.state.heroes:
        table.do(A.SetGold(hero.id, 10))
    for _ in range(150):
        if table.state.outcome is not None:
            break
        json.dumps(table.state.public_view())  # the published snapshot is always plain JSON
        shot = table.state.expected_shot()
        choices = table.rules.choices(table.state)
        if shot is not None and data.draw(st.integers(0, 3)):
            ids = [c.id for c in table.state.characters if c.on_mat]
            hits = tuple(data.draw(st.lists(st.sampled_from(ids), max_size=3)))
            target = hits[0] if hits and shot["shot"] == "target" else data.draw(st.sampled_from(ids))
            table.do(A.ResolveShot(shot["character"], shot["shot"], direct_hits=hits, target=target))
        elif choices:
            table.do(data.draw(st.sampled_from(choices)))
        else:
            break
