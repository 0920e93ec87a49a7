"""The Swiss as a federation runs it: byes, sides and pairing quality against an independent check written
here from the FIDE Dutch system's principles (FIDE Handbook C.04.3), and the TRF16 export read by py4swiss,
an existing TRF reader from PyPI (a test dependency, requirements/test.lock)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from service.hub import exports, swiss
from service.hub.model import DRAW, Tournament
from service.hub.records import TournamentRecord

TABLES = [f"t{i}" for i in range(1, 10)]


class Event:
    """A tournament in memory, record by record (the pure model, no file): quick enough for many events."""

    def __init__(self, players: int, seed: int) -> None:
        self.tournament = Tournament()
        self.random = random.Random(seed)
        self.add("event", {"name": f"Random {seed}", "format": "castles-1v1"})
        for i in range(players):
            self.add("entrant", {"id": f"p{i + 1:02d}", "name": f"Player {i + 1}"})
        self.add("referee", {"name": "hana", "role": "head", "tables": [], "pin_hash": "x"})

    def add(self, kind: str, payload: dict, by: str = "organiser") -> None:
        self.tournament.check(kind, payload, by)
        seq = self.tournament.last_seq + 1
        self.tournament.apply(TournamentRecord(seq, "2026-11-28T10:00:00Z", by, kind, payload))

    def pair(self) -> list:
        matches = swiss.pair_next_round(self.tournament, TABLES)
        number = self.tournament.current_round() + 1
        self.add(
            "round", {"number": number, "matches": [{"table": m.table, "a": m.a, "b": m.b} for m in matches]}
        )
        return self.tournament.rounds[-1]

    def play(self, swap_sides_at: float = 0.0) -> None:
        """Every game ends: a win for either side or (one in six) a draw; now and then the table seats the
        players the other way round, which the sign-off records."""
        for match in self.tournament.rounds[-1]:
            if match.b is None:
                continue
            winner = self.random.choice([match.a, match.a, match.b, match.b, match.a, DRAW])
            sides = [match.b, match.a] if self.random.random() < swap_sides_at else [match.a, match.b]
            payload = {
                "round": match.round,
                "table": match.table,
                "game": f"g{match.round}{match.table}",
                "final_seq": 9,
                "winner": winner,
                "sides": sides,
                "outcome": None,
            }
            self.add("signoff", payload, "referee:hana")


# ---- the independent check ----------------------------------------------------------------------------
def perfect_matchings(people: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for i, partner in enumerate(rest):
        for others in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *others]


def scores(t: Tournament) -> dict[str, Fraction]:
    """Points from the records, counted here: win 1, draw ½, bye 1."""
    points = {e: Fraction(0) for e in t.entrants}
    for matches in t.rounds:
        for m in matches:
            if m.b is None:
                points[m.a] += 1
                continue
            result = t.results.get((m.round, m.table))
            if result is None:
                continue
            if result.winner == DRAW:
                points[m.a] += Fraction(1, 2)
                points[m.b] += Fraction(1, 2)
            else:
                points[result.winner] += 1
    return points


def opponents(t: Tournament) -> dict[str, set[str]]:
    met: dict[str, set[str]] = {e: set() for e in t.entrants}
    for matches in t.rounds:
        for m in matches:
            if m.b is not None:
                met[m.a].add(m.b)
                met[m.b].add(m.a)
    return met


def expected_bye(t: Tournament, ranking: list[str]) -> str:
    """C.04.3 A.8 / C.2 as the docs state it: the lowest-ranked entrant who has not had a bye and without
    whom the others can be paired with no rematch (then the next one up); when no such entrant exists (a
    small field late in an event), the lowest-ranked without a bye."""
    had = {m.a for matches in t.rounds for m in matches if m.b is None}
    met = opponents(t)
    candidates = [e for e in reversed(ranking) if e not in had]
    for candidate in candidates:
        rest = [e for e in ranking if e != candidate]
        if any(rematches(p, met) == 0 for p in perfect_matchings(rest)):
            return candidate
    return candidates[0]


def rematches(pairs: list[tuple[str, str]], met: dict[str, set[str]]) -> int:
    return sum(1 for a, b in pairs if b in met[a])


def gap_cost(pairs: list[tuple[str, str]], points: dict[str, Fraction]) -> Fraction:
    return sum(((2 * (points[a] - points[b])) ** 2 for a, b in pairs), Fraction(0))


def must_have(played: dict[str, list[str]]) -> dict[str, str | None]:
    """C.04.3 A.6a: the side an entrant must have next (absolute preference), if any: a colour difference
    of two or more, or the same side in the last two games."""
    musts: dict[str, str | None] = {}
    for entrant, sides in played.items():
        difference = sides.count("w") - sides.count("b")
        if difference >= 2 or sides[-2:] == ["b", "b"]:
            musts[entrant] = "b" if difference >= 2 else "w"
        elif difference <= -2 or sides[-2:] == ["w", "w"]:
            musts[entrant] = "w" if difference <= -2 else "b"
        else:
            musts[entrant] = None
    return musts


def clashes(pairs: list[tuple[str, str]], musts: dict[str, str | None]) -> int:
    """Pairs of two who must both have the same side (C.04.3 C.3)."""
    return sum(1 for a, b in pairs if musts[a] is not None and musts[a] == musts[b])


def side_runs(t: Tournament) -> dict[str, list[str]]:
    """Each entrant's sides, read from the sign-offs (first side 'w'), round by round."""
    played: dict[str, list[str]] = {e: [] for e in t.entrants}
    for matches in t.rounds:
        for m in matches:
            result = t.results.get((m.round, m.table))
            if m.b is None or result is None:
                continue
            first, second = result.sides
            played[first].append("w")
            played[second].append("b")
    return played


@pytest.mark.parametrize("seed", range(24))
def test_byes_and_pairings_match_an_independent_check(seed: int) -> None:
    """Random fields of 5 to 11 (mostly odd), as many rounds as fit: every bye goes where the independent
    check says, no pairing has a rematch unless every pairing has one (then the fewest), and every round's
    score gaps are the smallest any such pairing of the same entrants reaches (brute force over every
    perfect matching)."""
    rng = random.Random(1000 + seed)
    players = rng.choice([5, 7, 9, 11, 6, 8])
    event = Event(players, seed)
    rounds = min(players - 2, 6)
    rematch_rounds = 0
    for _ in range(rounds):
        t = event.tournament
        ranking = [s.entrant for s in swiss.standings(t)]
        points = scores(t)
        met = opponents(t)
        musts = must_have(side_runs(t))
        bye = expected_bye(t, ranking) if players % 2 else None  # before the round changes the tournament
        matches = event.pair()
        byes = [m.a for m in matches if m.b is None]
        if players % 2:
            assert byes == [bye]
        else:
            assert byes == []
        pairs = [(m.a, m.b) for m in matches if m.b is not None]
        every = list(perfect_matchings([e for e in ranking if e not in byes]))
        fewest = min(rematches(p, met) for p in every)
        assert rematches(pairs, met) == fewest  # none whenever a pairing without one exists
        every = [p for p in every if rematches(p, met) == fewest]
        least_clash = min(clashes(p, musts) for p in every)
        assert clashes(pairs, musts) == least_clash
        best = min(gap_cost(p, points) for p in every if clashes(p, musts) == least_clash)
        assert gap_cost(pairs, points) == best
        rematch_rounds += fewest > 0
        event.play(swap_sides_at=0.1)
    assert rematch_rounds <= 1  # only in a small field's last round
    total = sum(scores(event.tournament).values())
    assert total == sum(1 for matches in event.tournament.rounds for _ in matches)  # a point per game


def test_the_bye_goes_to_the_lowest_ranked_without_one_over_many_odd_events() -> None:
    """The issue's case: a bye decided by score gaps alone went to the wrong player in 68 of 121 byes, six
    times to the leader. Over 40 events of 7 and 9 players, 4 rounds each, every bye goes where the
    independent check says, and never to the leader."""
    byes = 0
    for seed in range(40):
        event = Event(7 + 2 * (seed % 2), 500 + seed)
        for _ in range(4):
            ranking = [s.entrant for s in swiss.standings(event.tournament)]
            expected = expected_bye(event.tournament, ranking)
            played = event.tournament.current_round()
            bye = next(m.a for m in event.pair() if m.b is None)
            assert bye == expected
            assert played == 0 or bye != ranking[0]
            byes += 1
            event.play()
    assert byes == 160


def test_sides_alternate_and_balance_over_many_rounds() -> None:
    """C.04.3 A.6 and C.3: over random events of 10 and 11 players and 6 rounds, nobody's sides differ by
    more than two (colour difference) and nobody plays the same side three times running."""
    worst_difference = 0
    for seed in range(30):
        event = Event(10 + seed % 2, 2000 + seed)
        for _ in range(6):
            event.pair()
            event.play()
        for entrant, sides in side_runs(event.tournament).items():
            difference = abs(sides.count("w") - sides.count("b"))
            worst_difference = max(worst_difference, difference)
            assert difference <= 2, (seed, entrant, sides)
            runs = ["".join(g) for _, g in itertools.groupby(sides)]
            assert max(map(len, runs)) <= 2, (seed, entrant, sides)
    assert worst_difference == 2  # the limit is reached (odd rounds), never passed


def test_the_sides_a_table_recorded_are_what_the_next_pairing_reads() -> None:
    """A table that seated the players the other way round (the sign-off's sides) changes their history:
    each then wants the other side of the one actually played (C.04.3 A.6)."""
    straight, swapped = Event(4, 3), Event(4, 3)
    for event, swap in ((straight, 0.0), (swapped, 1.0)):
        event.pair()
        event.random = random.Random(5)  # the same winners in both
        event.play(swap_sides_at=swap)
        event.pair()
    seats = {(m.a, m.b) for m in straight.tournament.rounds[1]}
    assert {(m.b, m.a) for m in swapped.tournament.rounds[1]} == seats
    assert swiss.colour_history(swapped.tournament) != swiss.colour_history(straight.tournament)


def test_round_one_alternates_sides_board_by_board() -> None:
    """C.04.3 E.5: the higher ranked takes the first side on odd boards (pairing numbers 1, 3, …)."""
    event = Event(8, 1)
    matches = event.pair()
    assert [(m.a, m.b) for m in matches] == [("p01", "p05"), ("p06", "p02"), ("p03", "p07"), ("p08", "p04")]


# ---- TRF16, read by an existing reader ------------------------------------------------------------------
def test_the_trf_export_is_trf16_that_py4swiss_reads_strictly(tmp_path: Path) -> None:
    """FIDE TRF16: no '142' line (a later format's tag), JaVaFo's XXR for the rounds, the sides played as
    colours. py4swiss parses it in strict mode and checks it itself: points against results, each game's
    two entries compatible, opposite colours."""
    from py4swiss.trf import TrfParser  # the test dependency; a missing one fails here, loudly

    event = Event(9, 77)
    for _ in range(4):
        event.pair()
        event.play(swap_sides_at=0.2)
    event.add("withdraw", {"entrant": "p09", "reason": "left early"})
    event.pair()
    event.play(swap_sides_at=0.2)
    event.pair()  # round six paired, not played: a round in progress
    text = exports.to_trf(event.tournament)
    assert not any(line.startswith("142") for line in text.splitlines())
    path = tmp_path / "event.trf"
    path.write_text(text, encoding="utf-8")
    parsed = TrfParser.parse(path, strict=True)
    assert parsed.x_section.number_of_rounds == 6
    by_number = {p.starting_number: p for p in parsed.player_sections}
    assert len(by_number) == 9
    sides = side_runs(event.tournament)
    standings = {s.entrant: s for s in swiss.standings(event.tournament)}
    for entrant in event.tournament.entrants.values():
        player = by_number[entrant.seed]
        assert player.name == entrant.name
        assert player.points_times_ten == int(standings[entrant.id].points * 10)
        colours = [r.color.value for r in player.results if r.result.is_played()]
        assert colours == sides[entrant.id]
    withdrawn = by_number[9].results
    assert [r.result.value for r in withdrawn[4:]] == ["Z", "Z"]  # rounds five and six: not paired
    byes = [r for p in parsed.player_sections for r in p.results if r.result.value == "U"]
    assert len(byes) == 4  # rounds one to four had nine players; five and six have eight
