"""A table takes its tournament match from the hub's offer (docs/tournaments.md, "Running the rounds"): the
referee starts it with one tap, or the set-up wizard's game becomes the match; each side is then named by its
entrant, the setup names the match, and the hub signs off that very game, even after the table has started
its next one. Nothing reaches the game but the referee's command."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.hub.hub import Hub
from service.hub.shipper import game_id
from service.hub.store import HubStore
from tests.daemon.test_castles_table import castles_table
from tests.helpers.game_script import GameScript
from tests.hub.builders import PIN_HASH

TABLE = "castles-demo"  # the shipped Castles demo table's id


def offer(round_number: int = 1, a: str = "ada", b: str = "cy", table: str = TABLE) -> dict[str, Any]:
    """What the hub publishes on smartmat/<t>/match (service/hub/offers.py)."""
    return {
        "event": "Castles Open",
        "format": "castles-1v1",
        "mode": "one-versus-one",
        "round": round_number,
        "table": table,
        "sides": [{"id": a, "name": a.title()}, {"id": b, "name": b.title()}],
    }


@pytest.fixture
def table() -> Iterator[GameScript]:
    running = GameScript(table=castles_table("one-versus-one", first="castle"))
    try:
        yield running
    finally:
        running.close()


def test_one_tap_starts_the_offered_match_with_the_entrants_on_their_sides(table: GameScript) -> None:
    answer = table.send("setup_game", match=offer())
    assert answer["ok"], answer
    records = table.eventlog.records()
    assert [r.kind for r in records[-2:]] == ["new_game", "setup"]
    setup = records[-1]
    assert setup.by == "referee:anna"  # the referee's command, not the hub's
    assert setup.payload["match"] == {"event": "Castles Open", "round": 1, "table": TABLE}
    assert setup.payload["mode"] == "one-versus-one"  # the table file's game for the match's mode
    assert [(s["id"], s["name"], s["team"]) for s in setup.payload["sides"]] == [
        ("ada", "Ada", "castle"),
        ("cy", "Cy", "catacomb"),
    ]
    assert setup.payload["first"] == "ada"  # the table file's first team (castle) is Ada's side
    state = table.state
    assert [s["id"] for s in state["sides"]] == ["ada", "cy"]
    assert {c["side"] for c in state["characters"]} == {"ada", "cy"}


def test_the_wizards_own_choice_can_be_the_match(table: GameScript) -> None:
    sides = [{"team": "castle", "heroes": ["larra"]}, {"team": "catacomb", "heroes": ["hakoru"]}]
    answer = table.send("setup_game", mode="one-versus-one", first="catacomb", sides=sides, match=offer())
    assert answer["ok"], answer
    setup = table.eventlog.records()[-1].payload
    assert [(s["id"], s["heroes"]) for s in setup["sides"]] == [("ada", ["larra"]), ("cy", ["hakoru"])]
    assert setup["first"] == "cy" and setup["match"]["round"] == 1


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"table": "t9"}, "this offer is for table 't9'"),
        ({"mode": "tag-team"}, "the table file has no .tag-team. game"),
        ({"round": 0}, "'round' must be a round number"),
        ({"sides": [{"id": "ada", "name": "Ada"}]}, "expected the two entrants"),
        ({"sides": [{"id": "Ada!", "name": "Ada"}, {"id": "cy", "name": "Cy"}]}, "expected an id"),
        ({"sides": [{"id": "ada", "name": "Ada"}, {"id": "ada", "name": "Ada"}]}, "must differ"),
        ({"extra": 1}, "does not take 'extra'"),
    ],
)
def test_a_wrong_offer_is_refused_and_changes_nothing(table: GameScript, change: dict, words: str) -> None:
    before = table.eventlog.last_seq()
    answer = table.send("setup_game", match={**offer(), **change})
    assert not answer["ok"]
    assert re.search(words, answer["error"]), answer["error"]
    assert table.eventlog.last_seq() == before


def test_a_3e_table_refuses_a_castles_match() -> None:
    running = GameScript()
    try:
        answer = running.send("setup_game", match=offer(table=running.table.table))
        assert not answer["ok"], answer
        assert (
            "a tournament match is played from the table file's game.modes; this table plays catacombs-3e"
            in (answer["error"])
        )
    finally:
        running.close()


def feed(hub: Hub, table: GameScript, hub_table: str) -> str:
    """Everything in the table's log, as its shipper sends it to the hub; returns the log's id."""
    records = table.eventlog.records()
    game = game_id(records[0], hub_table)
    for record in records:
        hub.on_log(hub_table, game, record.to_json())
    hub.on_head(hub_table, game, records[-1].seq)
    return game


def test_the_hub_signs_off_the_match_after_the_table_started_its_next_game(
    table: GameScript, tmp_path: Path
) -> None:
    """The issue's case: a table that starts its next game lost the finished one's sign-off. Here Ada beats
    Cy (Cy's Health Pool emptied), the referee starts another game at once, and the hub still signs off
    the match's own game, with the winner its log names and the sides as played."""
    hub = Hub(HubStore(tmp_path / "hub.sqlite"))
    hub.submit("event", {"name": "Castles Open", "format": "castles-1v1"}, "organiser")
    for entrant in ("ada", "bo", "cy", "dee"):
        hub.submit("entrant", {"id": entrant, "name": entrant.title()}, "organiser")
    hub.submit(
        "referee", {"name": "rita", "role": "table", "tables": [TABLE], "pin_hash": PIN_HASH}, "organiser"
    )
    hub.pair_next_round("organiser", [TABLE, "t2"])
    match = hub.tournament.rounds[0][0]
    offered = hub.match_offers()[TABLE]
    assert offered is not None and [s["id"] for s in offered["sides"]] == [match.a, match.b]

    assert table.send("setup_game", match=offered)["ok"]
    ended = table.send("correct", target=match.b, field="health", value=0, reason="test: pool emptied")
    assert ended["ok"], ended
    assert table.state["outcome"] == match.a
    assert table.send("new_game", reason="the next game")["ok"]  # before anyone signed off
    feed(hub, table, TABLE)
    hub.on_state(TABLE, table.state)

    row = hub.table_view(TABLE)
    assert row["setup_match"] is None  # the newest game on the table is not the match's
    signed = hub.sign_off("referee:rita", TABLE)  # the log names the winner: the referee confirms
    payload = signed.payload
    assert payload["winner"] == match.a and payload["sides"] == [match.a, match.b]
    setups = [r.seq for r in table.eventlog.records() if r.kind == "setup"]
    assert payload["game_start"] == setups[-2]  # the match's game, not the newest one
    with pytest.raises(Exception, match="already signed off"):
        hub.sign_off("referee:rita", TABLE)
    hub.store.close()


def test_a_game_stopped_at_time_is_signed_off_as_a_draw(table: GameScript, tmp_path: Path) -> None:
    """A tournament's time limit: the game has not ended by its rules (catacombs-and-castles-2e-manual.md:
    One versus One Mode — it ends when a hero loses all Health Tokens), so the referee signs it off as
    stopped at time with a draw; the Health Pools at the stop are recorded."""
    hub = Hub(HubStore(tmp_path / "hub.sqlite"))
    hub.submit("event", {"name": "Castles Open", "format": "castles-1v1"}, "organiser")
    for entrant in ("ada", "cy"):
        hub.submit("entrant", {"id": entrant, "name": entrant.title()}, "organiser")
    hub.submit(
        "referee", {"name": "rita", "role": "table", "tables": [TABLE], "pin_hash": PIN_HASH}, "organiser"
    )
    hub.pair_next_round("organiser", [TABLE])
    assert table.send("setup_game", match=hub.match_offers()[TABLE])["ok"]
    feed(hub, table, TABLE)
    hub.on_state(TABLE, table.state)
    with pytest.raises(Exception, match="has not ended .* sign it off as stopped at time"):
        hub.sign_off("referee:rita", TABLE, winner="draw")
    with pytest.raises(Exception, match="name the winner at castles-demo: Ada, Cy or a draw"):
        hub.sign_off("referee:rita", TABLE, stopped_at_time=True)
    signed = hub.sign_off("referee:rita", TABLE, winner="draw", stopped_at_time=True)
    assert signed.payload["stopped_at_time"] is True and signed.payload["winner"] == "draw"
    assert set(signed.payload["health"]) == {"ada", "cy"}
    assert [r["points"] for r in hub.standings()] == [0.5, 0.5]
    hub.store.close()
