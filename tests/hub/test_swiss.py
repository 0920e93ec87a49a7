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
    """FIDE Handbook C.04.3 (Dutch system) E.5: in round one the higher ranked player takes the first side
    (white) on odd boards and the second on even ones; ``a`` is the game's first side."""
    hub = new_hub(tmp_path / "hub.sqlite", players=EIGHT)
    hub.pair_next_round("organiser", TABLES)
    assert [(m.table, m.a, m.b) for m in hub.tournament.rounds[0]] == [
        ("t1", "ada", "eli"),
        ("t2", "fay", "bo"),
        ("t3", "cy", "gus"),
        ("t4", "hal", "dee"),
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
    """Four players, two rounds: Bo and Dee both end on 1½; Bo met the stronger field."""
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo", "cy", "dee"))
    hub.pair_next_round("organiser", ["t1", "t2"])  # ada (first side) v cy, dee (first side) v bo
    play_round(hub, {"t1": "ada", "t2": "draw"})
    hub.pair_next_round("organiser", ["t1", "t2"])
    # Ada (1) against Dee or Bo (½ each) is the same score gap either way. Each of the four played one
    # game, so each firmly wants the other side (FIDE C.04.3 A.6b: colour difference ±1); Ada v Bo and
    # Cy v Dee grant all four (C.04.3 C.12), which comes before top half against bottom half.
    assert [(m.table, m.a, m.b) for m in hub.tournament.rounds[1]] == [
        ("t1", "bo", "ada"),
        ("t2", "cy", "dee"),
    ]
    play_round(hub, {"t1": "bo", "t2": "dee"})
    rows = hub.standings()
    assert [(r["entrant"], r["points"]) for r in rows] == [
        ("bo", 1.5),
        ("dee", 1.5),
        ("ada", 1.0),
        ("cy", 0.0),
    ]
    bo, dee = rows[0], rows[1]
    assert (bo["buchholz"], dee["buchholz"]) == (2.5, 1.5)  # Dee 1½ + Ada 1, against Bo 1½ + Cy 0
    assert (bo["sonneborn_berger"], dee["sonneborn_berger"]) == (1.75, 0.75)
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
