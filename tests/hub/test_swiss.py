"""Swiss pairings and tie-breaks for Catacombs & Castles One versus One (docs/tournaments.md, "Swiss")."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.hub.model import TournamentError
from tests.hub.builders import new_hub, play_round

EIGHT = ("ada", "bo", "cy", "dee", "eli", "fay", "gus", "hal")
TABLES = ["t1", "t2", "t3", "t4"]


def pairs(hub) -> list[set[str | None]]:
    return [{m.a, m.b} for m in hub.tournament.rounds[-1]]


def test_round_one_pairs_the_top_half_against_the_bottom_half(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=EIGHT)
    hub.pair_next_round("organiser", TABLES)
    assert [(m.table, m.a, m.b) for m in hub.tournament.rounds[0]] == [
        ("t1", "ada", "eli"),
        ("t2", "bo", "fay"),
        ("t3", "cy", "gus"),
        ("t4", "dee", "hal"),
    ]


def test_winners_meet_winners_and_nobody_meets_twice(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=EIGHT)
    hub.pair_next_round("organiser", TABLES)
    play_round(hub, {"t1": "ada", "t2": "fay", "t3": "cy", "t4": "hal"})
    hub.pair_next_round("organiser", TABLES)
    round_two = pairs(hub)
    winners, losers = {"ada", "fay", "cy", "hal"}, {"eli", "bo", "gus", "dee"}
    assert all(p <= winners or p <= losers for p in round_two)
    assert not any(p in ({"ada", "eli"}, {"bo", "fay"}, {"cy", "gus"}, {"dee", "hal"}) for p in round_two)
    winners_2 = {t: min(m.a, m.b) for t, m in ((m.table, m) for m in hub.tournament.rounds[-1])}
    play_round(hub, winners_2)
    hub.pair_next_round("organiser", TABLES)
    met: set[frozenset[str]] = set()
    for matches in hub.tournament.rounds:
        for match in matches:
            assert frozenset((match.a, match.b)) not in met
            met.add(frozenset((match.a, match.b)))


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_once(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=EIGHT[:5])
    hub.pair_next_round("organiser", TABLES)
    byes = [m.a for m in hub.tournament.rounds[0] if m.b is None]
    assert byes == ["eli"]
    play_round(hub, {m.table: m.a for m in hub.tournament.rounds[0] if m.b})
    hub.pair_next_round("organiser", TABLES)
    second_bye = [m.a for m in hub.tournament.rounds[1] if m.b is None]
    assert second_bye and second_bye != ["eli"]
    standings = {row["entrant"]: row for row in hub.standings()}
    assert (
        standings["eli"]["points"] == 1.0 and standings["eli"]["byes"] == 1 and standings["eli"]["wins"] == 0
    )


def test_tie_breaks_buchholz_then_sonneborn_berger_then_wins(tmp_path: Path) -> None:
    """Four players, two rounds: Dee and Bo both end on 1½; Dee met the stronger field."""
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo", "cy", "dee"))
    hub.pair_next_round("organiser", ["t1", "t2"])  # ada v cy, bo v dee
    play_round(hub, {"t1": "ada", "t2": "draw"})
    hub.pair_next_round("organiser", ["t1", "t2"])
    # Bo and Dee (½ each) tie on Buchholz and Sonneborn-Berger; Bo's earlier seed puts Bo second, so the
    # top half (Ada, Bo) meets the bottom half (Dee, Cy) without a rematch.
    assert [(m.table, m.a, m.b) for m in hub.tournament.rounds[1]] == [
        ("t1", "ada", "dee"),
        ("t2", "bo", "cy"),
    ]
    play_round(hub, {"t1": "dee", "t2": "bo"})
    rows = hub.standings()
    assert [(r["entrant"], r["points"]) for r in rows] == [
        ("dee", 1.5),
        ("bo", 1.5),
        ("ada", 1.0),
        ("cy", 0.0),
    ]
    dee, bo = rows[0], rows[1]
    assert (dee["buchholz"], bo["buchholz"]) == (2.5, 1.5)  # Bo 1½ + Ada 1, against Dee 1½ + Cy 0
    assert (dee["sonneborn_berger"], bo["sonneborn_berger"]) == (1.75, 0.75)
    assert sum(r["points"] for r in rows) == 4.0  # four games, one point each


def test_the_next_round_waits_for_every_sign_off(tmp_path: Path) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo", "cy", "dee"))
    hub.pair_next_round("organiser", ["t1", "t2"])
    with pytest.raises(TournamentError, match="without a signed-off result"):
        hub.pair_next_round("organiser", ["t1", "t2"])
    with pytest.raises(TournamentError, match="need 2 tables"):
        new_hub(tmp_path / "other.sqlite", players=("ada", "bo", "cy", "dee")).pair_next_round(
            "organiser", ["t1"]
        )
