"""Swiss pairings and standings (players or teams, as the format says), from signed-off results.

Scoring: a win is 1 point, a draw ½, a loss 0, a bye 1 (the usual Swiss scale, which TRF and every Swiss
tool read). Ties are broken, in order, by

1. Buchholz: the sum of the opponents' points (a bye adds no opponent) — who met the stronger field;
2. Sonneborn–Berger: the points of the opponents one beat, plus half those of the ones one drew;
3. wins: the number of games won over the board (a bye is not a win);
4. seed: registration order, the last resort, so the order never depends on chance.

Pairing follows the principles of the FIDE Dutch system (FIDE Handbook C.04.3), solved as one
maximum-weight matching (networkx's Edmonds blossom algorithm) rather than bracket by bracket:

- the bye first: in an odd field it goes to the lowest-ranked entrant who has not had one and without whom
  everyone else can still be paired without a rematch (then the next one up);
- no rematches (if none is possible, the fewest);
- no two entrants who must both have the same side (C.04.3 C.3: a colour difference of two, or the same side
  twice running), if that can be avoided;
- then the smallest score differences between opponents (the sum of their squares: winners meet winners);
- then colour (here: side) preferences that can both be granted;
- then, within a score group, top half against bottom half.

Each criterion's weight outweighs every lower one's largest possible total, so the matching optimises them in
that order exactly. A game's sides are its colours: ``Match.a`` plays the first side of the game's setup
("white" in a TRF), ``Match.b`` the second, allocated by the Dutch colour rules (C.04.3 E.1–E.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import networkx as nx  # type: ignore[import-untyped]

from service.hub.model import DRAW, Match, Tournament, TournamentError


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


WHITE, BLACK = "w", "b"
# Criterion weights, each above the largest total of every lower one (fields up to a few hundred entrants).
_BASE = 10**26
_REMATCH = 10**24  # C.04.3 C.1: no rematch
_ABSOLUTE_CLASH = 10**20  # C.3: two who must both have the same side (difference ±2, or it twice running)
_SCORE_GAP = 10**11  # per (2 × point difference)²: winners meet winners
_STRONG_CLASH = 10**5  # two who both firmly want the same side (difference ±1)
# Top half against bottom half: at most ``n`` per pair, far below the colour weights.


def colour_history(tournament: Tournament) -> dict[str, list[str]]:
    """Per entrant, the side played in each paired game, in order: the sides the table recorded in the
    sign-off where it did, else the pairing's (``a`` first). Byes and unplayed rounds have none."""
    history: dict[str, list[str]] = {e: [] for e in tournament.entrants}
    for matches in tournament.rounds:
        for match in matches:
            if match.b is None:
                continue
            result = tournament.results.get((match.round, match.table))
            first = match.a
            if result is not None and result.sides and set(result.sides) == {match.a, match.b}:
                first = result.sides[0]
            second = match.b if first == match.a else match.a
            history[first].append(WHITE)
            history[second].append(BLACK)
    return history


@dataclass(frozen=True)
class _Preference:
    colour: str | None  # the side wanted, None when the entrant has not played yet
    strength: int  # 3 absolute, 2 strong, 1 mild, 0 none (C.04.3 A.6)


def _preference(sides: list[str]) -> _Preference:
    if not sides:
        return _Preference(None, 0)
    difference = sides.count(WHITE) - sides.count(BLACK)
    other = BLACK if sides[-1] == WHITE else WHITE
    if difference > 1 or difference < -1 or (len(sides) >= 2 and sides[-1] == sides[-2]):
        wanted = BLACK if difference > 1 else WHITE if difference < -1 else other
        return _Preference(wanted, 3)
    if difference != 0:
        return _Preference(BLACK if difference > 0 else WHITE, 2)
    return _Preference(other, 1)


def allocate_sides(
    higher: str, lower: str, history: dict[str, list[str]], higher_position: int
) -> tuple[str, str]:
    """(first side, second side) for a pair, by the Dutch colour rules; ``higher`` is the higher ranked and
    ``higher_position`` its 1-based place in the ranking used for pairing."""
    mine, theirs = _preference(history[higher]), _preference(history[lower])
    if mine.colour and theirs.colour != mine.colour:  # E.1: both preferences granted
        choice = mine.colour
    elif theirs.colour and mine.colour != theirs.colour:
        choice = BLACK if theirs.colour == WHITE else WHITE
    elif mine.colour is not None and mine.strength != theirs.strength:  # E.2: the stronger preference
        choice = (
            mine.colour if mine.strength > theirs.strength else (BLACK if mine.colour == WHITE else WHITE)
        )
    elif mine.colour is not None:
        choice = _alternate(history[higher], history[lower]) or mine.colour  # E.3, then E.4
    else:
        # E.5: round one (or two newcomers): the higher ranked takes the first side on odd places.
        choice = WHITE if higher_position % 2 == 1 else BLACK
    return (higher, lower) if choice == WHITE else (lower, higher)


def _alternate(mine: list[str], theirs: list[str]) -> str | None:
    """E.3: the higher ranked's side opposite to the latest round in which the two had different sides."""
    for back in range(1, min(len(mine), len(theirs)) + 1):
        if mine[-back] != theirs[-back]:
            return BLACK if mine[-back] == WHITE else WHITE
    return None


def pair_next_round(tournament: Tournament, tables: list[str]) -> list[Match]:
    """The next round's matches, one per table in the order given (the top board first); each match's ``a``
    plays the game's first side."""
    number = tournament.current_round() + 1
    if tournament.rounds and not tournament.round_complete(number - 1):
        raise TournamentError(f"round {number - 1} still has games without a signed-off result")
    ranked = [s for s in standings(tournament) if not tournament.entrants[s.entrant].withdrawn]
    if len(ranked) < 2:
        raise TournamentError("at least two active entrants are needed to pair a round")
    games = game_points(tournament)
    field = _Field(
        ids=[s.entrant for s in ranked],
        points={s.entrant: s.points for s in ranked},
        met={e: {o for o, _ in g if o is not None} for e, g in games.items()},
        history=colour_history(tournament),
    )
    had_bye = {e for e, g in games.items() if any(o is None for o, _ in g)}
    bye, pairs = choose_bye_and_pairs(field, had_bye)
    needed = len(pairs)
    if len(tables) < needed:
        raise TournamentError(f"{needed} games need {needed} tables; only {len(tables)} named")
    position = {e: i for i, e in enumerate(field.ids)}
    pairs.sort(key=lambda p: min(position[p[0]], position[p[1]]))
    matches = []
    for table, pair in zip(tables, pairs, strict=False):
        higher, lower = sorted(pair, key=lambda e: position[e])
        first, second = allocate_sides(higher, lower, field.history, position[higher] + 1)
        matches.append(Match(number, table, first, second))
    if bye is not None:
        matches.append(Match(number, "bye", bye, None))
    return matches


@dataclass(frozen=True)
class _Field:
    ids: list[str]  # the active entrants, in ranking order
    points: dict[str, Fraction]
    met: dict[str, set[str]]
    history: dict[str, list[str]]


def choose_bye_and_pairs(field: _Field, had_bye: set[str]) -> tuple[str | None, list[tuple[str, str]]]:
    """The bye (odd fields) and the pairs. The bye goes to the lowest-ranked entrant without one whose
    absence leaves a pairing without rematches, trying upwards; failing that, the lowest-ranked without one
    with the fewest rematches; only if everyone has had a bye does it go round again."""
    if len(field.ids) % 2 == 0:
        pairs = _match(field, field.ids, allow_rematch=False) or _match(field, field.ids, allow_rematch=True)
        if pairs is None:
            raise TournamentError("no pairing exists for these entrants")
        return None, pairs
    candidates = [e for e in reversed(field.ids) if e not in had_bye] or list(reversed(field.ids))
    for allow_rematch in (False, True):
        for bye in candidates:
            rest = [e for e in field.ids if e != bye]
            pairs = _match(field, rest, allow_rematch)
            if pairs is not None:
                return bye, pairs
    raise TournamentError("no pairing exists for these entrants")


def _match(field: _Field, ids: list[str], allow_rematch: bool) -> list[tuple[str, str]] | None:
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    half = len(ids) // 2
    place = {e: i for i, e in enumerate(ids)}
    preference = {e: _preference(field.history[e]) for e in ids}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            rematch = b in field.met[a]
            if rematch and not allow_rematch:
                continue
            gap = 2 * abs(field.points[a] - field.points[b])  # points are halves: an exact integer
            weight = _BASE - _SCORE_GAP * int(gap) ** 2 - _REMATCH * rematch
            weight -= _clash(preference[a], preference[b])
            weight -= abs(abs(place[a] - place[b]) - half)
            graph.add_edge(a, b, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < len(ids):
        return None
    return [(a, b) for a, b in matching]


def _clash(a: _Preference, b: _Preference) -> int:
    """How badly two entrants' side preferences collide (only one of them can have the side both want)."""
    if a.colour is None or a.colour != b.colour:
        return 0
    strength = min(a.strength, b.strength)
    return _ABSOLUTE_CLASH if strength == 3 else _STRONG_CLASH if strength == 2 else 0
