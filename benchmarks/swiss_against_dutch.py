"""The hub's Swiss pairings against an existing FIDE Dutch engine (py4swiss, a test dependency).

Random events (7 to 13 players, up to 5 rounds, random results with draws): before each round from the
second on, the hub's TRF export goes to py4swiss's Dutch engine, and its pairing is compared with the hub's
for the same standings. Printed: how often the two give the bye to the same player, the rematches of each,
the sum of squared score differences of the two pairings (over the rounds where the bye is the same, so the
fields are the same), and how often the sides agree for the pairs both chose.

    .venv/bin/python benchmarks/swiss_against_dutch.py [--events 60] [--seed 9000]

The engine is told each round is the event's last (``XXR``), where the Dutch system lets its top scorers
take a side they would otherwise not; the hub has no last round, so the two can part there.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a script

from service.hub import exports, swiss
from service.hub.model import DRAW, Tournament
from service.hub.records import TournamentRecord


class Event:
    def __init__(self, players: int, seed: int) -> None:
        self.tournament = Tournament()
        self.random = random.Random(seed)
        self._add("event", {"name": f"Random {seed}", "format": "castles-1v1"})
        for i in range(players):
            self._add("entrant", {"id": f"p{i + 1:02d}", "name": f"Player {i + 1}"})
        self._add("referee", {"name": "hana", "role": "head", "tables": [], "pin_hash": "x"})

    def _add(self, kind: str, payload: dict, by: str = "organiser") -> None:
        self.tournament.check(kind, payload, by)
        record = TournamentRecord(self.tournament.last_seq + 1, "2026-11-28T10:00:00Z", by, kind, payload)
        self.tournament.apply(record)

    def pair(self) -> list:
        matches = swiss.pair_next_round(self.tournament, [f"t{i}" for i in range(1, 10)])
        payload = [{"table": m.table, "a": m.a, "b": m.b} for m in matches]
        self._add("round", {"number": self.tournament.current_round() + 1, "matches": payload})
        return self.tournament.rounds[-1]

    def play(self) -> None:
        for m in self.tournament.rounds[-1]:
            if m.b is not None:
                winner = self.random.choice([m.a, m.a, m.b, m.b, m.a, DRAW])
                payload = {"round": m.round, "table": m.table, "game": "g", "final_seq": 1, "winner": winner}
                self._add("signoff", payload, "referee:hana")


def points(t: Tournament) -> dict[str, Fraction]:
    return {s.entrant: s.points for s in swiss.standings(t)}


def dutch_pairing(t: Tournament) -> tuple[list[tuple[str, str]], list[str]] | None:
    from py4swiss.engines import DutchEngine
    from py4swiss.trf import TrfParser

    text = exports.to_trf(t).replace(f"XXR {len(t.rounds)}", f"XXR {len(t.rounds) + 1}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "event.trf"
        path.write_text(text, encoding="utf-8")
        try:
            pairings = DutchEngine.generate_pairings(TrfParser.parse(path))
        except Exception as exc:  # an engine that finds no pairing: counted, not fatal
            print(f"  py4swiss found no pairing: {exc}", file=sys.stderr)
            return None
    by_number = {e.seed: e.id for e in t.entrants.values()}
    pairs = [(by_number[p.white], by_number[p.black]) for p in pairings if p.white and p.black]
    byes = [by_number[p.white or p.black] for p in pairings if not (p.white and p.black)]
    return pairs, byes


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--seed", type=int, default=9000)
    args = parser.parse_args()
    rounds = byes = same_bye = rematches_ours = rematches_theirs = 0
    gaps_ours = gaps_theirs = smaller = larger = sides_same = sides_both = 0
    for number in range(args.events):
        players = random.Random(args.seed + number).choice([7, 9, 11, 13, 8, 10, 12])
        event = Event(players, args.seed + number)
        for index in range(min(5, players - 2)):
            t = event.tournament
            theirs = dutch_pairing(t) if index else None
            score = points(t)
            met = {e: set() for e in t.entrants}
            for ms in t.rounds:
                for m in ms:
                    if m.b:
                        met[m.a].add(m.b)
                        met[m.b].add(m.a)
            matches = event.pair()
            if theirs is not None:
                rounds += 1
                ours = [(m.a, m.b) for m in matches if m.b]
                our_bye = [m.a for m in matches if m.b is None]
                pairs, their_bye = theirs
                rematches_ours += sum(b in met[a] for a, b in ours)
                rematches_theirs += sum(b in met[a] for a, b in pairs)
                if our_bye or their_bye:
                    byes += 1
                    same_bye += our_bye == their_bye
                if our_bye == their_bye:
                    gap_ours = sum((2 * (score[a] - score[b])) ** 2 for a, b in ours)
                    gap_theirs = sum((2 * (score[a] - score[b])) ** 2 for a, b in pairs)
                    gaps_ours, gaps_theirs = gaps_ours + gap_ours, gaps_theirs + gap_theirs
                    smaller, larger = smaller + (gap_ours < gap_theirs), larger + (gap_ours > gap_theirs)
                chosen = {frozenset(p): p for p in pairs}
                for pair in ours:
                    if frozenset(pair) in chosen:
                        sides_both += 1
                        sides_same += chosen[frozenset(pair)] == pair
            event.play()
    print(f"rounds compared: {rounds} ({args.events} events)")
    print(f"the same bye: {same_bye} of {byes} rounds with a bye")
    print(f"rematches: hub {rematches_ours}, py4swiss Dutch {rematches_theirs}")
    print(f"sum of squared score differences, rounds with the same bye: hub {gaps_ours}, Dutch {gaps_theirs}")
    print(f"  the hub's smaller in {smaller} rounds, larger in {larger}")
    print(f"sides the same in {sides_same} of the {sides_both} pairs both chose")
    return 0


if __name__ == "__main__":
    sys.exit(main())
