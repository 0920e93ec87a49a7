"""Swiss pairings and standings for Catacombs & Castles (One versus One, and teams), from signed-off results.

Scoring: a win is 1 point, a draw ½, a loss 0, a bye 1 (the usual Swiss scale, which TRF and every Swiss
tool read). Ties are broken, in order, by

1. Buchholz: the sum of the opponents' points (a bye adds no opponent) — who met the stronger field;
2. Sonneborn–Berger: the points of the opponents one beat, plus half those of the ones one drew;
3. wins: the number of games won over the board (a bye is not a win);
4. seed: registration order, the last resort, so the order never depends on chance.

Pairing is a maximum-weight matching (networkx's Edmonds blossom algorithm) over every pair that has not met:
the weight prefers opponents with equal points above all, then, within a score group, the Dutch idea of top
half against bottom half; an odd entrant out gets the bye, the lowest-ranked who has not had one. Since the
matching is exact over all pairs at once, no score group ever leaves a float that cannot be paired.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import networkx as nx  # type: ignore[import-untyped]

from service.hub.model import DRAW, Match, Tournament, TournamentError

BYE = "__bye__"


@dataclass(frozen=True)
class Standing:
    rank: int
    entrant: str
    name: str
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    wins: int
    played: int
    byes: int
    members: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "entrant": self.entrant,
            "name": self.name,
            "members": list(self.members),
            "points": float(self.points),
            "buchholz": float(self.buchholz),
            "sonneborn_berger": float(self.sonneborn_berger),
            "wins": self.wins,
            "played": self.played,
            "byes": self.byes,
        }


def game_points(tournament: Tournament) -> dict[str, list[tuple[str | None, Fraction]]]:
    """Per entrant, each signed-off game as (opponent or None for a bye, points scored)."""
    games: dict[str, list[tuple[str | None, Fraction]]] = {e: [] for e in tournament.entrants}
    for matches in tournament.rounds:
        for match in matches:
            if match.b is None:
                games[match.a].append((None, Fraction(1)))
                continue
            result = tournament.results.get((match.round, match.table))
            if result is None:
                continue
            if result.winner == DRAW:
                score_a = score_b = Fraction(1, 2)
            else:
                score_a = Fraction(int(result.winner == match.a))
                score_b = 1 - score_a
            games[match.a].append((match.b, score_a))
            games[match.b].append((match.a, score_b))
    return games


def standings(tournament: Tournament) -> list[Standing]:
    games = game_points(tournament)
    points = {e: sum((p for _, p in g), Fraction(0)) for e, g in games.items()}
    rows = []
    for entrant_id, played in games.items():
        entrant = tournament.entrants[entrant_id]
        opponents = [(o, p) for o, p in played if o is not None]
        buchholz = sum((points[o] for o, _ in opponents), Fraction(0))
        sb = sum((points[o] * p for o, p in opponents), Fraction(0))
        wins = sum(1 for _, p in opponents if p == 1)
        byes = sum(1 for o, _ in played if o is None)
        rows.append((entrant, points[entrant_id], buchholz, sb, wins, len(opponents), byes))
    rows.sort(key=lambda r: (-r[1], -r[2], -r[3], -r[4], r[0].seed))
    return [
        Standing(rank, e.id, e.name, pts, bh, sb, wins, played, byes, e.members)
        for rank, (e, pts, bh, sb, wins, played, byes) in enumerate(rows, start=1)
    ]


def pair_next_round(tournament: Tournament, tables: list[str]) -> list[Match]:
    """The next round's matches, one per table in the order given (the top board first)."""
    number = tournament.current_round() + 1
    if tournament.rounds and not tournament.round_complete(number - 1):
        raise TournamentError(f"round {number - 1} still has games without a signed-off result")
    ranked = [s for s in standings(tournament) if not tournament.entrants[s.entrant].withdrawn]
    if len(ranked) < 2:
        raise TournamentError("at least two active entrants are needed to pair a round")
    games = game_points(tournament)
    met = {e: {o for o, _ in g if o is not None} for e, g in games.items()}
    had_bye = {e for e, g in games.items() if any(o is None for o, _ in g)}
    position = {s.entrant: i for i, s in enumerate(ranked)}
    points = {s.entrant: s.points for s in ranked}
    matched = _match(ranked, points, position, met, had_bye, allow_rematch=False)
    if matched is None:
        matched = _match(ranked, points, position, met, had_bye, allow_rematch=True)
    if matched is None:
        raise TournamentError("no pairing exists for these entrants")
    pairs, bye = matched
    pairs.sort(key=lambda p: min(position[p[0]], position[p[1]]))
    if len(tables) < len(pairs):
        raise TournamentError(f"{len(pairs)} games need {len(pairs)} tables; only {len(tables)} named")
    matches = []
    for table, (first, second) in zip(tables, pairs, strict=False):
        a, b = sorted((first, second), key=lambda e: position[e])
        matches.append(Match(number, table, a, b))
    if bye is not None:
        matches.append(Match(number, "bye", bye, None))
    return matches


def _match(
    ranked: list[Standing],
    points: dict[str, Fraction],
    position: dict[str, int],
    met: dict[str, set[str]],
    had_bye: set[str],
    allow_rematch: bool,
) -> tuple[list[tuple[str, str]], str | None] | None:
    graph = nx.Graph()
    ids = [s.entrant for s in ranked]
    n = len(ids)
    half = n // 2
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            rematch = b in met[a]
            if rematch and not allow_rematch:
                continue
            gap = abs(points[a] - points[b])
            # Integers keep the blossom algorithm exact: points are halves, so scale by 2.
            weight = 10**9 - 10**6 * int((2 * gap) ** 2) - 1000 * abs(abs(position[a] - position[b]) - half)
            if rematch:
                weight -= 10**8
            graph.add_edge(a, b, weight=weight)
    if n % 2:
        for a in ids:
            if a in had_bye:
                continue
            # Lowest ranked first: a larger position gets a heavier bye edge.
            graph.add_edge(a, BYE, weight=10**9 - 10**6 * 64 + 1000 * position[a])
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    needed = (n + 1) // 2
    if len(matching) < needed:
        return None
    pairs: list[tuple[str, str]] = []
    bye = None
    for a, b in matching:
        if BYE in (a, b):
            bye = a if b == BYE else b
        else:
            pairs.append((a, b))
    return pairs, bye
