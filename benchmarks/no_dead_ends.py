"""No dead ends, at length: many long random legal games of every rule set and mode, counted.

The games and their checks are those of ``tests/games/test_no_dead_ends.py`` (``no_dead_ends.py`` beside it):
after every action the game has ended or some action is legal, the state round-trips through the game log,
its canonical form and (Catacombs 3E) the position format, and the invariants hold. The test runs a bounded
number of games; this runs ``--games`` of each rule set (a third of them from a random position), keeps going
after a failure so the counts are real, prints each distinct failure once with the setup and seed that show
it, and exits 1 when there was any.

    .venv/bin/python benchmarks/no_dead_ends.py [--games 40] [--only catacombs-3e,castles-2e-team] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a script

from tests.games.no_dead_ends import play_game, scenarios, valid_setup  # noqa: E402


def run(name: str, games: int, seed: int, max_actions: int) -> dict[str, Any]:
    make = scenarios()[name]
    counts: dict[str, Any] = {
        "games": 0,
        "from_position": 0,
        "ended": 0,
        "actions": 0,
        "options_checked": 0,
        "failures": [],
    }
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        setup = valid_setup(make, random.Random(game_seed))
        from_position = i % 3 == 2
        try:
            result = play_game(setup, game_seed, max_actions=max_actions, from_position=from_position)
        except AssertionError as exc:
            first_line = str(exc).splitlines()[0]
            if first_line not in {f["what"] for f in counts["failures"]}:
                counts["failures"].append({"what": first_line, "seed": game_seed, "detail": str(exc)})
            counts["games"] += 1
            continue
        if not result.started:
            continue  # a drawn setup the rules refuse: not a game
        counts["games"] += 1
        counts["from_position"] += from_position
        counts["ended"] += result.ended
        counts["actions"] += len(result.actions)
        counts["options_checked"] += result.tried
    counts["elapsed_s"] = round(time.perf_counter() - started, 1)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per rule set and mode")
    parser.add_argument("--only", default="", help="comma-separated scenario names (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-actions", type=int, default=400, help="actions per game at most")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or list(scenarios())
    report = {name: run(name, args.games, args.seed, args.max_actions) for name in names}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        header = ("rule set / mode", "games", "ended", "actions", "options", "failed", "s")
        print("{:30} {:>6} {:>6} {:>8} {:>9} {:>6} {:>6}".format(*header))
        for name, c in report.items():
            print(
                f"{name:30} {c['games']:>6} {c['ended']:>6} {c['actions']:>8} {c['options_checked']:>9} "
                f"{len(c['failures']):>6} {c['elapsed_s']:>6}"
            )
            for failure in c["failures"]:
                print(f"  seed {failure['seed']}: {failure['detail']}")
    return 1 if any(c["failures"] for c in report.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
