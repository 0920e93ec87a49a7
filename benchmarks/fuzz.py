"""Fuzz every outside input of the table for a time budget and count: examples tried and failures per target.

The targets and their checks are those of ``tests/fuzz/`` (``tests/fuzz/targets.py``): bytes from the serial
port into the frame decoder, HELLO capabilities, payloads on ``cmd/request`` into the daemon, an organiser's
content overlay into ``load_content``, and HTTP requests into the dashboard. The tests run each a bounded
number of times; this runs each for ``--budget-s`` seconds, in rounds of fresh random examples (no
shrinking, no example database), and keeps going after a failure so the counts are real.

A failure is either a *crash* (an exception that is not the project's own refusal escaped: a 5xx, a
traceback) or a *broken promise* (an assertion of the target's check: a command left unanswered, a refusal
that changed the game, the game differing from its log's replay, a good frame lost). Each distinct one is
printed once with the input that showed it; the exit status is 1 when there was any.

    .venv/bin/python benchmarks/fuzz.py --budget-s 60 [--targets frames,commands] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere, as a script

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from tests.fuzz.targets import TARGETS, Target  # noqa: E402

ROUND = 50  # examples per Hypothesis run; the budget is checked between rounds


def inputs_in(target: Target, example: Any) -> int:
    """How many single inputs one example holds (frames pieces, commands, files, HTTP requests)."""
    if target.name == "frames":
        return len(example[0]) + 1
    if target.name == "commands":
        return len(example[1])
    if target.name == "dashboard":
        return len(example[1])
    if target.name == "content":
        return len(example)
    return 1


def fuzz(target: Target, budget_s: float, first_seed: int) -> dict[str, Any]:
    tried = inputs = 0
    failures: dict[str, dict[str, Any]] = {}
    started = time.monotonic()
    rounds = 0
    while time.monotonic() - started < budget_s:

        @seed(first_seed + rounds)
        @settings(
            max_examples=ROUND,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(target.strategy)
        def one_round(example: Any) -> None:
            nonlocal tried, inputs
            if time.monotonic() - started >= budget_s:
                return
            tried += 1
            inputs += inputs_in(target, example)
            try:
                target.check(example)
            except Exception as error:  # counted and shown, never stops the run
                kind = "broken promise" if isinstance(error, AssertionError) else "crash"
                where = traceback.extract_tb(error.__traceback__)[-1]
                key = f"{kind}: {type(error).__name__} at {Path(where.filename).name}:{where.lineno}"
                entry = failures.setdefault(key, {"count": 0, "message": str(error)[:300], "example": None})
                entry["count"] += 1
                entry["example"] = entry["example"] or repr(example)[:600]

        one_round()
        rounds += 1
    elapsed = time.monotonic() - started
    return {
        "target": target.name,
        "examples": tried,
        "inputs": inputs,
        "seconds": round(elapsed, 1),
        "per_second": round(tried / elapsed, 1) if elapsed else 0.0,
        "crashes": sum(f["count"] for k, f in failures.items() if k.startswith("crash")),
        "broken_promises": sum(f["count"] for k, f in failures.items() if k.startswith("broken")),
        "failures": failures,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget-s", type=float, default=60.0, help="seconds of fuzzing per target")
    parser.add_argument("--targets", default=",".join(t.name for t in TARGETS), help="comma-separated names")
    parser.add_argument("--seed", type=int, default=1, help="first Hypothesis seed (one per round after it)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)  # refusals are logged by design; thousands of them say nothing here
    wanted = [name.strip() for name in args.targets.split(",") if name.strip()]
    unknown = sorted(set(wanted) - {t.name for t in TARGETS})
    if unknown:
        parser.error(f"unknown target(s) {unknown}; known: {[t.name for t in TARGETS]}")
    results = [fuzz(t, args.budget_s, args.seed) for t in TARGETS if t.name in wanted]
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print(
            f"{'target':<20} {'examples':>9} {'inputs':>9} {'per s':>7} {'crashes':>8} {'broken':>7}  seconds"
        )
        for r in results:
            print(
                f"{r['target']:<20} {r['examples']:>9} {r['inputs']:>9} {r['per_second']:>7} "
                f"{r['crashes']:>8} {r['broken_promises']:>7}  {r['seconds']}"
            )
        for r in results:
            for key, failure in r["failures"].items():
                print(f"\n{r['target']}: {key} ×{failure['count']}\n  {failure['message']}")
                print(f"  e.g. {failure['example']}")
    return 1 if any(r["crashes"] or r["broken_promises"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
