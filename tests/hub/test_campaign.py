"""The Catacombs 3E campaign leaderboard: real games played through the table's daemon (on fakes), their logs
handed to the hub as the feed would, scored by rooms cleared and then party gold once signed off."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.hub.model import TournamentError
from service.hub.shipper import game_id
from tests.helpers.game_script import GameScript
from tests.hub.builders import new_hub


def hand_over(hub, table_id: str, table: GameScript) -> str:
    """What the bridge and the log shipper deliver: every record of the table's log, and its state."""
    records = table.eventlog.records()
    game = game_id(records[0], table_id)
    for record in records:
        hub.on_log(table_id, game, record.to_json())
    hub.on_status(table_id, "online")
    hub.on_state(table_id, table.state)
    return game


def test_parties_rank_by_rooms_cleared_then_gold(tmp_path: Path) -> None:
    """catacombs-3e-reference.txt: Game Phases: Exploring The Catacomb (the party wins by coming through
    the last room); the campaign ranks how far each party got, then its gold."""
    hub = new_hub(tmp_path / "hub.sqlite", format_="catacombs-3e-campaign")
    hub.submit("entrant", {"id": "red", "name": "Red Party", "table": "t1"}, "organiser")
    hub.submit("entrant", {"id": "blue", "name": "Blue Party", "table": "t2"}, "organiser")
    with pytest.raises(TournamentError, match="already has a party"):
        hub.submit("entrant", {"id": "green", "name": "Green", "table": "t1"}, "organiser")

    finished = GameScript(rooms=("althea-the-healer",))  # one special room: the shortest whole game
    playing = GameScript(rooms=("the-barracks",))
    try:
        assert finished.send("enter_room")["ok"] and finished.send("enter_room")["ok"]
        assert finished.state["outcome"] == "heroes"
        assert playing.send("enter_room")["ok"] and playing.send("start_battle")["ok"]
        assert playing.declare("hero-xoric")["ok"]
        hand_over(hub, "t1", finished)
        hand_over(hub, "t2", playing)

        with pytest.raises(TournamentError, match="has not ended"):
            hub.sign_off("referee:rita", "t2")
        xoric = next(c["name"] for c in playing.state["characters"] if c["id"] == "hero-xoric")
        assert hub.table_view("t2")["turn"] == xoric  # whose turn, as people say it
        board = hub.standings()
        assert all(row["games"] == 0 for row in board)  # nothing counts before a sign-off
        assert {row["entrant"]: row["live"]["phase"] for row in board} == {
            "red": "game_over",
            "blue": "battle",
        }

        signed = hub.sign_off("referee:rita", "t1")
        # The hub replayed the table's log itself: one room cleared, the party's gold as the table shows it.
        assert signed.payload["rooms_cleared"] == 1
        assert signed.payload["gold"] == finished.state["gold"]["party"]
        assert signed.payload["outcome"] == "heroes"
        board = hub.standings()
        assert [row["entrant"] for row in board] == ["red", "blue"]
        assert (board[0]["rooms_cleared"], board[0]["games"]) == (1, 1)

        hub.correct("referee:hana", 1, "t1", "gold from the Tavern counted twice", gold=0)
        assert hub.standings()[0]["gold"] == 0
    finally:
        finished.close()
        playing.close()
