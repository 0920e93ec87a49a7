"""Actions and events on the wire: every action round-trips through JSON; malformed payloads are refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.games.catacombs.flow import actions as A
from service.rules import action_from_json, action_to_json
from tests.helpers.game_setups import catacombs_3e

ids = st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True)
ACTIONS = st.one_of(
    st.builds(A.EnterRoom, playmat=st.none() | ids),
    st.builds(A.StartBattle),
    st.builds(A.DeclareAction, ids, st.none() | st.integers(0, 3)),
    st.builds(
        A.PlayCard, ids, ids, st.none() | st.integers(0, 3), st.booleans(), st.none() | st.just("item")
    ),
    st.builds(
        A.ResolveShot,
        ids,
        st.sampled_from(["melee", "rush", "missile"]),
        st.tuples(ids, ids),
        st.tuples(ids),
        st.tuples(),
        st.none() | ids,
        st.tuples(ids),
    ),
    st.builds(A.SkipShot, ids),
    st.builds(A.EndTurn, ids),
    st.builds(A.Decide, ids, ids),
    st.builds(
        A.UseService,
        st.sampled_from(["heal", "bet"]),
        st.none() | ids,
        st.none() | ids,
        st.tuples(st.tuples(ids, st.integers(0, 9))),
    ),
    st.builds(A.SetHealth, ids, st.integers(0, 9), st.text(max_size=10)),
    st.builds(A.SetGold, ids, st.integers(0, 9), st.text(max_size=10)),
    st.builds(A.SetStatus, ids, st.sampled_from(A.CORRECTABLE_STATUSES), st.booleans(), st.text(max_size=10)),
    st.builds(
        A.SetCards,
        ids,
        st.sampled_from(list(A.CARD_HOLDINGS)),
        st.lists(ids, max_size=3).map(tuple),
        st.text(max_size=10),
    ),
)


@given(ACTIONS)
def test_every_action_round_trips_through_json(action: A.Action) -> None:
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ([], "must be a JSON object"),
        ({"action": "fly"}, "unknown action 'fly'"),
        ({"action": "declare"}, "missing field 'character'"),
        ({"action": "declare", "character": 3}, "expected a string"),
        (
            {
                "action": "resolve_shot",
                "character": "hero-xoric",
                "shot": "melee",
                "direct_hits": "monster-orc-1",
            },
            "expected a list",
        ),
        ({"action": "decide", "decision": "d1", "option": "0", "colour": "red"}, "unknown field"),
        ({"action": "declare", "character": "hero-xoric", "alternative": True}, "expected an integer"),
    ],
)
def test_malformed_payloads_are_refused_with_the_reason(payload: object, message: str) -> None:
    with pytest.raises(A.MalformedActionError, match=message):
        action_from_json(payload)


def test_every_event_of_a_game_has_a_sentence_and_serialises() -> None:
    table = catacombs_3e(["the-barracks"])
    table.enter_battle()
    table.turn("hero-xoric", ("melee", "monster-troll-1", "monster-orc-1", "hero-elani"))
    for event in table.events:
        body = json.loads(json.dumps(event.to_json()))
        assert body["type"] == event.type and body["text"] == event.text and event.text
