"""Randomised fault runs against a whole table: how many runs and faults of each kind, and how many failed.

Each run starts its own Mosquitto (``mosquitto -c <tmpconf>`` on a free loopback port), the simulated mat and
players, and the daemon in a process of its own; plays into the battle; applies 1 to ``--max-faults`` faults
drawn at random (SIGKILL at a random moment, inside an event-log append, during a shot's attribution; broker
restart; network partition by SIGSTOP of the broker; board reboot with events in flight; full disk on a small
tmpfs when run as root); plays on; then checks that no acknowledged device event or accepted command was lost
and that every published state, the broker's retained state and the trackers equal the replay of the log
(``tests/faults/harness.py``, docs/faults.md).

Run: ``.venv/bin/python benchmarks/fault_suite.py --runs 30 --seed 1``. Exit code 1 if any run failed.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.faults.harness import FAULT_KINDS, FaultRun  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-faults", type=int, default=3, help="faults per run: 1 to this many")
    parser.add_argument("--play-s", type=float, default=4.0, help="play after the faults, before the checks")
    parser.add_argument(
        "--spread-s", type=float, default=8.0, help="play up to this long before each fault (random)"
    )
    parser.add_argument(
        "--time-limit", type=float, default=3600.0, help="start no new run after this many seconds"
    )
    parser.add_argument(
        "--kinds",
        default=",".join(FAULT_KINDS),
        help=f"fault kinds to draw from (default all: {','.join(FAULT_KINDS)})",
    )
    parser.add_argument("--keep", action="store_true", help="keep each run's directory (logs, journal, log)")
    args = parser.parse_args()
    # SIGTERM (a time limit) unwinds like Ctrl-C, so the current run stops its broker, daemon and tmpfs.
    signal.signal(signal.SIGTERM, signal.default_int_handler)

    chosen = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = sorted(set(chosen) - set(FAULT_KINDS))
    if unknown:
        parser.error(f"unknown fault kind(s) {', '.join(unknown)}; known: {', '.join(FAULT_KINDS)}")
    kinds = [k for k in chosen if k != "disk_full" or os.geteuid() == 0]
    if not kinds:
        parser.error("no fault kind left to try (disk_full needs root)")
    if "disk_full" not in kinds:
        print("not root: no small tmpfs can be mounted, so the disk_full fault is left out")
    rng = random.Random(args.seed)
    root = Path(tempfile.mkdtemp(prefix="smartmat-faults-"))
    started = time.monotonic()
    tried: Counter[str] = Counter()
    failed: list[tuple[int, list[str]]] = []
    totals: Counter[str] = Counter()
    recoveries: list[float] = []
    runs = 0
    for n in range(args.runs):
        if time.monotonic() - started > args.time_limit:
            print(f"time limit reached after {runs} run(s)")
            break
        seed = rng.randrange(1, 1_000_000)
        plan = [rng.choice(kinds) for _ in range(rng.randint(1, args.max_faults))]
        result = FaultRun(root / f"run-{n}-{seed}", seed, plan).run(
            play_s=args.play_s, spread_s=args.spread_s
        )
        runs += 1
        tried.update(result.faults)
        totals.update(
            records=result.records,
            acks=result.acks,
            answers=result.answers,
            states=result.states_checked,
            flicks=result.flicks,
            in_flight=result.impacts_in_flight_at_kill,
            full_disk=result.impacts_refused_by_full_disk,
            set_aside=result.impacts_set_aside,
            reboot=result.impacts_cut_by_reboot,
            journal=result.journal_checked,
        )
        recoveries += result.recoveries_s
        verdict = "ok" if result.ok else "FAILED"
        print(
            f"run {n + 1:3d} seed {seed:6d} {verdict:6s} {result.seconds:5.1f} s  faults {','.join(plan)}  "
            f"records {result.records}, acks {result.acks}, answers {result.answers}, "
            f"states {result.states_checked}, flicks {result.flicks}",
            flush=True,
        )
        for problem in result.problems:
            print(f"    problem: {problem}", flush=True)
        for note in result.notes:
            print(f"    note: {note}", flush=True)
        if not result.ok:
            failed.append((seed, result.problems))
        elif not args.keep:
            _remove(root / f"run-{n}-{seed}")

    elapsed = time.monotonic() - started
    print()
    print(f"fault suite, seed {args.seed}: {runs} run(s) in {elapsed:.0f} s, {len(failed)} failed")
    print(
        "faults tried (a kind:detail line counts where an injected kill landed, or appends the disk refused):"
    )
    for kind in sorted(tried):
        print(f"  {kind:28s} {tried[kind]}")
    print(
        f"checked: {totals['records']} log records, {totals['acks']} acknowledged device events, "
        f"{totals['answers']} answered commands, {totals['states']} published states against the replay, "
        f"{totals['flicks']} flicks"
    )
    print(f"board messages an acknowledgement covered, each found in the device journal: {totals['journal']}")
    if recoveries:
        print(
            f"full disks: the table read the mat again {min(recoveries):.2f}-{max(recoveries):.2f} s after "
            f"the disk had room ({len(recoveries)} fills)"
        )
    print(
        "acknowledged impacts in no shot record: "
        f"{totals['in_flight']} of shots still open when the daemon was killed, "
        f"{totals['reboot']} of shots the board's reboot cut short, "
        f"{totals['full_disk']} of shots whose record the full disk refused, "
        f"{totals['set_aside']} of movements the table set aside (no shot expected, paused, a shot waiting); "
        "all documented in docs/faults.md"
    )
    print(
        "runs that lost something (acknowledged or accepted, then missing) or showed a state other than the "
        f"replay's: {len(failed)}"
    )
    if failed:
        print(f"failed seeds: {[seed for seed, _ in failed]}; run directories kept under {root}")
    else:
        _remove(root)
    return 1 if failed else 0


def _remove(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
