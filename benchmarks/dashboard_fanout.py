"""How the dashboard's table feed scales with connected phones, and what one stalled phone costs the others.

Publishes the same burst of events into a TableFeed with 1, 50 and 200 streaming clients (each on its own
thread, as under werkzeug's threaded server) and prints the time until every client has every event, as a
ratio to the one-client time measured in the same run. Then repeats 50 clients with one more that never
reads: publishing never waits for it (a full queue drops that client instead), so the ratio stays near 1.

    .venv/bin/python benchmarks/dashboard_fanout.py [--events 2000]
"""

from __future__ import annotations

import argparse
import threading
import time

from web_dashboard.fake_feed import FakeFeed
from web_dashboard.table_feed import parse_event_id


def run(clients: int, events: int, stalled: int = 0) -> float:
    fake = FakeFeed("bench", queue_size=events + 10, ring_size=events + 10)
    fake.snapshot({"phase": "battle"}, seq=0)
    done = threading.Barrier(clients + 1)
    ready = threading.Barrier(clients + stalled + 1)

    def reader() -> None:
        stream = fake.feed.stream(parse_event_id("0"), keepalive_s=0.01)
        next(stream)  # connected (first keep-alive)
        ready.wait()
        got = 0
        for message in stream:
            if message is not None and message.kind == "event":
                got += 1
                if got == events:
                    break
        stream.close()
        done.wait()

    def staller() -> None:
        stream = fake.feed.stream(parse_event_id("0"), keepalive_s=0.01)
        next(stream)
        ready.wait()  # then never reads again

    threads = [threading.Thread(target=reader, daemon=True) for _ in range(clients)]
    threads += [threading.Thread(target=staller, daemon=True) for _ in range(stalled)]
    for thread in threads:
        thread.start()
    ready.wait()
    start = time.perf_counter()
    for seq in range(1, events + 1):
        fake.event("damage", f"Xoric's melee hits the Troll ({seq})", seq=seq)
    done.wait()
    elapsed = time.perf_counter() - start
    fake.feed.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    args = parser.parse_args()
    baseline = run(1, args.events)
    print(f"{args.events} events, 1 phone: {baseline * 1000:.1f} ms (baseline)")
    for clients in (50, 200):
        elapsed = run(clients, args.events)
        print(
            f"{clients:>4} phones: {elapsed * 1000:8.1f} ms  = {elapsed / baseline:6.1f} x baseline "
            f"({elapsed / baseline / clients:.2f} x per phone)"
        )
    healthy = run(50, args.events)
    with_stalled = run(50, args.events, stalled=1)
    ratio = with_stalled / healthy
    print(f"50 phones + 1 stalled: {with_stalled * 1000:.1f} ms = {ratio:.2f} x 50 phones alone")


if __name__ == "__main__":
    main()
