"""Results take effect on the table referee's sign-off, corrections are the head referee's with a reason,
the hub's file is append-only and survives a restart, and the exports say the same as the standings."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from service.hub import exports
from service.hub.hub import Hub
from service.hub.model import NotAllowedError, TournamentError
from service.hub.store import HubStore
from tests.hub.builders import finish_game, new_hub, play_round

FOUR = ("ada", "bo", "cy", "dee")


def test_a_result_counts_only_once_signed_off(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=FOUR)
    hub.pair_next_round("organiser", ["t1", "t2"])
    finish_game(hub, "t1", "g1", records=5)
    assert all(row["points"] == 0 for row in hub.standings())  # the game ended; nobody signed yet
    with pytest.raises(NotAllowedError, match="not a referee"):
        hub.sign_off("organiser", "t1", winner="ada")
    with pytest.raises(TournamentError, match="name the winner at t1: Ada, Cy or a draw"):
        hub.sign_off("referee:rita", "t1", winner="bo")
    hub.sign_off("referee:rita", "t1", winner="ada")
    assert {r["entrant"]: r["points"] for r in hub.standings()}["ada"] == 1.0


def test_a_game_with_records_missing_cannot_be_signed_off(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=FOUR)
    hub.pair_next_round("organiser", ["t1", "t2"])
    hub.on_log(
        "t1",
        "g1",
        {
            "v": 1,
            "seq": 1,
            "at": "2026-11-25T10:00:00Z",
            "by": "r",
            "kind": "setup",
            "payload": {"ruleset": "catacombs-and-castles-2e"},
        },
    )
    requests = hub.on_log(
        "t1",
        "g1",
        {"v": 1, "seq": 4, "at": "2026-11-25T10:00:00Z", "by": "r", "kind": "action", "payload": {}},
    )
    assert requests == [("t1", "g1", 1)]  # the gap becomes a catch-up request for everything after 1
    hub.on_state(
        "t1", {"ruleset": "catacombs-and-castles-2e", "phase": "game_over", "outcome": "x", "seq": 4}
    )
    with pytest.raises(TournamentError, match="holds records 1–1 of 4"):
        hub.sign_off("referee:rita", "t1", winner="ada")


def test_corrections_are_the_head_referees_with_who_and_why(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=FOUR)
    hub.pair_next_round("organiser", ["t1", "t2"])
    play_round(hub, {"t1": "ada", "t2": "bo"})
    with pytest.raises(NotAllowedError, match="only a head referee"):
        hub.correct("referee:rita", 1, "t1", "typo", winner="cy")
    with pytest.raises(TournamentError, match="'reason'"):
        hub.correct("referee:hana", 1, "t1", "", winner="cy")
    hub.correct("referee:hana", 1, "t1", "the final shot was a push, not a hit", winner="cy")
    result = hub.tournament.results[(1, "t1")]
    assert (result.winner, result.signed_by) == ("cy", "referee:rita")
    assert [(c.by, c.reason, c.changes) for c in result.corrections] == [
        ("referee:hana", "the final shot was a push, not a hit", {"winner": "cy"})
    ]
    row = next(r for r in exports.results_rows(hub.tournament) if r["table"] == "t1")
    assert (row["winner"], row["corrected_by"]) == ("cy", "referee:hana")


def test_the_hubs_file_is_append_only_and_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite"
    hub = new_hub(path, players=FOUR)
    hub.pair_next_round("organiser", ["t1", "t2"])
    play_round(hub, {"t1": "ada", "t2": "draw"})
    before = hub.standings()
    hub.store.close()
    raw = sqlite3.connect(path)
    for statement in ("UPDATE tournament SET by = 'x'", "DELETE FROM tournament", "DELETE FROM game_records"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            raw.execute(statement)
    raw.close()
    again = Hub(HubStore(path))
    assert again.standings() == before
    assert again.table_view("t1")["log_held"] == 3  # the games' logs came back with it
    assert len(again.game_log("r1-t1")) == 3
    # A copy of a record the hub holds is recognised, not counted again.
    assert again.on_log("t1", "r1-t1", again.game_log("r1-t1")[1].to_json()) == []
    assert again.ingested == 0 and len(again.game_log("r1-t1")) == 3


def test_a_later_command_from_another_process_is_picked_up(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite"
    serving = new_hub(path, players=FOUR)
    other = Hub(HubStore(path))  # `smartmat hub withdraw …` while the hub serves
    other.submit("withdraw", {"entrant": "dee", "reason": "had to leave"}, "organiser")
    assert serving.refresh().entrants["dee"].withdrawn


def test_exports_csv_json_and_trf(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=FOUR + ("eli",))
    hub.pair_next_round("organiser", ["t1", "t2"])  # ada v cy, dee v bo (board two: bo second), bye eli
    play_round(hub, {"t1": "ada", "t2": "draw"})
    standings = list(csv.DictReader(io.StringIO(exports.to_csv(hub.standings()))))
    assert [(r["entrant"], r["points"]) for r in standings][:2] == [("ada", "1.0"), ("eli", "1.0")]
    data = json.loads(exports.to_json(hub.tournament, hub.standings()))
    assert data["format"] == "castles-1v1" and len(data["results"]) == 2
    assert data["results"][0]["game_log"] == "/hub/games/r1-t1/log.jsonl?upto=3"
    trf = exports.to_trf(hub.tournament).split("\r\n")
    assert trf[0] == "012 Test Open"
    ada = next(line for line in trf if line.startswith("001    1"))
    # TRF16 columns: name 15-47, points 81-84, rank 86-89, round 1 at 92-99 (opponent, colour, result).
    assert ada[14:17] == "Ada" and ada[80:84] == " 1.0" and ada[85:89] == "   1"
    assert ada[91:99] == "   3 w 1"
    bo = next(line for line in trf if line.startswith("001    2"))
    assert bo[91:99] == "   4 b ="
    eli = next(line for line in trf if line.startswith("001    5"))
    assert eli[91:99] == "0000 - U"


def test_two_games_in_one_table_log_are_two_results(tmp_path: Path) -> None:
    """A table that plays round 2 in the same log (the referee's new_game) gets a second result, not a
    refusal; the first game's sign-off is not taken twice."""
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo"))
    hub.pair_next_round("organiser", ["t1"])
    finish_game(hub, "t1", "log-1", records=4)
    hub.sign_off("referee:rita", "t1", winner="ada")
    hub.pair_next_round("organiser", ["t1"])
    with pytest.raises(TournamentError, match="already signed off"):
        hub.sign_off("referee:rita", "t1", winner="bo")  # still the first game's end on the table
    stamp = "2026-11-25T11:00:00Z"
    hub.on_log(
        "t1", "log-1", {"v": 1, "seq": 5, "at": stamp, "by": "referee:x", "kind": "new_game", "payload": {}}
    )
    hub.on_log(
        "t1",
        "log-1",
        {
            "v": 1,
            "seq": 6,
            "at": stamp,
            "by": "referee:x",
            "kind": "setup",
            "payload": {"ruleset": "catacombs-and-castles-2e"},
        },
    )
    hub.on_log(
        "t1", "log-1", {"v": 1, "seq": 7, "at": stamp, "by": "sensor", "kind": "action", "payload": {}}
    )
    hub.on_state(
        "t1", {"ruleset": "catacombs-and-castles-2e", "phase": "game_over", "outcome": "x", "seq": 7}
    )
    second = hub.sign_off("referee:rita", "t1", winner="bo")
    assert (second.payload["round"], second.payload["game_start"], second.payload["final_seq"]) == (2, 6, 7)
    assert [r["points"] for r in hub.standings()] == [1.0, 1.0]


def test_teams_are_entrants_with_their_members(tmp_path: Path) -> None:
    """catacombs-and-castles-2e-manual.md: Team Mode (a team plays as one side)."""
    hub = new_hub(tmp_path / "hub.sqlite", format_="castles-teams")
    with pytest.raises(TournamentError, match="a team needs its 'members'"):
        hub.submit("entrant", {"id": "owls", "name": "Owls"}, "organiser")
    for team, members in (("owls", ["Ann", "Ben"]), ("foxes", ["Cat", "Dan"]), ("bats", ["Eve", "Fin"])):
        hub.submit("entrant", {"id": team, "name": team.title(), "members": members}, "organiser")
    hub.pair_next_round("organiser", ["t1"])
    assert [(m.a, m.b) for m in hub.tournament.rounds[0]] == [("owls", "foxes"), ("bats", None)]
    play_round(hub, {"t1": "foxes"})
    assert [(r["entrant"], r["points"]) for r in hub.standings()] == [
        ("foxes", 1.0),
        ("bats", 1.0),
        ("owls", 0.0),
    ]
    assert hub.standings()[2]["members"] == ["Ann", "Ben"]
    assert "092 Team: Swiss-System" in exports.to_trf(hub.tournament)


def test_a_table_cannot_claim_another_tables_game(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=FOUR)
    finish_game(hub, "t1", "g1", records=3)
    assert hub.on_head("t2", "g1", 9) == []
    assert hub.on_log("t2", "g1", hub.game_log("g1")[0].to_json()) == []
    assert hub.table_view("t2")["game"] is None
    assert hub.table_view("t1")["log_head"] == 3  # t2's claim moved nothing
