"""Game-log replay throughput: domain events per second, against a baseline measured in the same run.

The baseline is the cost of merely parsing the same log lines as JSON, so the ratio says how much the rules
add on top of reading the file. Goal: >= 20,000 events/s, so a whole game reloads after a power cut in well
under a second. Run: ``.venv/bin/python benchmarks/replay_throughput.py [rooms]``.
"""

from __future__ import annotations

import json
import sys
import time

from service.gamelog.records import parse_lines
from service.gamelog.replay import new_game_from_setup, replay
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A

HEROES = ("hero-xoric", "hero-varesh", "hero-roosan", "hero-elani")


def long_game(rooms: int) -> list[str]:
    """A game of ``rooms`` Barracks rooms (the shipped cards), each fought over two rounds and cleared."""
    setup = {
        "ruleset": "catacombs-3e",
        "content": "shipped",
        "heroes": ["xoric", "varesh", "roosan", "elani"],
        "lord": "hmotha-the-lich-lord",
        "rooms": ["the-barracks"] * rooms,
        "seed": 1,
    }
    rules, state = new_game_from_setup(setup)
    log = LogWriter()
    log.setup(setup)

    def do(action: A.Action) -> None:
        nonlocal state
        state, _ = rules.apply(state, action)
        log.action(action)

    def turn(character: str, hits: tuple[str, ...], alternative: int | None = None) -> None:
        """Declares, then flicks the card's shots in printed order: the melee hits ``hits``, the rest none."""
        do(A.DeclareAction(character, alternative))
        while state.turn is not None and state.turn.character == character and state.turn.queue:
            kind = state.turn.queue[0].shot.kind
            do(A.ResolveShot(character, kind, hits if kind == "melee" else ()))

    for _ in range(rooms):
        do(A.EnterRoom())
        do(A.StartBattle())
        orcs = [c.id for c in state.room_monsters if c.card == "orc" and c.alive]
        troll = next(c.id for c in state.room_monsters if c.card == "troll" and c.alive)
        viper = next(c.id for c in state.room_monsters if c.card == "pit-viper" and c.alive)
        turn("hero-xoric", (troll, orcs[0]))
        do(A.DeclareAction("hero-elani"))
        do(A.ResolveShot("hero-elani", "melee", (orcs[1],)))
        do(A.SkipShot("hero-elani"))
        for hero in ("hero-varesh", "hero-roosan"):
            do(A.DeclareAction(hero))
            do(A.EndTurn(hero))
        for monster in (orcs[2], orcs[3], viper, troll):  # the Overseer misses every time
            turn(monster, ("hero-elani",) if monster == orcs[2] else (), alternative=0)
            if monster == orcs[2]:
                do(A.SetHealth("hero-elani", 7))
        turn("hero-xoric", (troll, orcs[2], orcs[3], viper))
    return log.lines().splitlines()


def best_of(repeats: int, fn: object) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    rooms = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    lines = long_game(rooms)
    records = list(parse_lines(lines))
    result = replay(records)
    assert not result.rejected, result.rejected[:3]
    events = len(result.events)
    baseline = best_of(5, lambda: [json.loads(line) for line in lines])
    full = best_of(5, lambda: replay(list(parse_lines(lines))))
    print(f"log: {len(lines)} records, {events} domain events, {rooms} rooms")
    print(f"baseline (json.loads of every line): {len(lines) / baseline:,.0f} records/s")
    print(f"replay: {full * 1000:.1f} ms, {events / full:,.0f} events/s, {len(lines) / full:,.0f} records/s")
    print(
        f"replay costs {full / baseline:.1f}x the baseline; goal >= 20,000 events/s: "
        f"{'met' if events / full >= 20000 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
