"""Play a written hidden set (benchmarks/attribution_hidden.py --out) through the CLI with a referee, exactly
as an independent check does: one ``smartmat attribute table-K.trace.jsonl --json --table CAL --learn
--referee -`` process per table, answering through a pipe each shot it holds, and nothing else.

    .venv/bin/python benchmarks/referee_driver.py hidden-set [--mistakes 0.04] [--without]

The referee answers from the set's truth file with a few per cent of mistakes (a piece added or dropped, or
no answer; service/bench/referee.py), seeded by the table. Writes ``table-K.out.jsonl`` (the answer lines,
as printed) and ``table-K.cal.json``; with ``--without`` also reads every table again without a referee
(``table-K.noref.out.jsonl``, learning from the shots' own evidence only). Score both with
``benchmarks/attribution_hidden.py --score hidden-set [--outputs noref.out]``; the wall time from each
answer to the next line is in ``table-K.timing.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

from service.bench.referee import MISTAKE_RATE, referee_answer

SMARTMAT = [sys.executable, "-m", "service.cli", "attribute"]


def _pieces(trace_line: str) -> tuple[list[str], str] | None:
    try:
        trace = json.loads(trace_line)
        return [p["piece"] for p in trace["pieces"]], trace["declaration"]["flicked"]
    except (ValueError, KeyError, TypeError):
        return None


def play_table(
    directory: Path, k: int, mistakes: float, *, with_referee: bool, start: Path | None = None, tag: str = ""
) -> dict[str, int]:
    """``start``: a calibration file the table begins from (else wide priors); ``tag`` names the run's
    files (table-K.TAGout.jsonl, table-K.TAGcal.json)."""
    traces = (directory / f"table-{k}.trace.jsonl").read_text().splitlines()
    truths = [json.loads(line) for line in (directory / f"table-{k}.truth.jsonl").read_text().splitlines()]
    suffix = tag + ("out" if with_referee else "noref.out")
    cal = directory / f"table-{k}.{tag}{'cal' if with_referee else 'noref.cal'}.json"
    cal.unlink(missing_ok=True)
    if start is not None:
        cal.write_bytes(start.read_bytes())
    command = [*SMARTMAT, str(directory / f"table-{k}.trace.jsonl"), "--json", "--table", str(cal), "--learn"]
    if with_referee:
        command += ["--referee", "-"]
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert child.stdin is not None and child.stdout is not None
    rng = random.Random(f"referee driver {directory.name} {k}")
    answers = {"right": 0, "wrong": 0, "none": 0, "held": 0}
    waits: list[float] = []
    lines = []
    asked = time.perf_counter()
    for i, truth in enumerate(truths):
        line = child.stdout.readline()
        waits.append(time.perf_counter() - asked)
        if not line:
            raise SystemExit(f"table {k}: the reader stopped after {i} answer lines")
        lines.append(line)
        result = json.loads(line)
        if with_referee and not result["auto_apply"]:
            answers["held"] += 1
            known = _pieces(traces[i]) if i < len(traces) else None
            actual = frozenset(truth["direct_hits"])
            given = referee_answer(actual, *known, rng, mistakes) if known else None
            answers["none" if given is None else ("right" if given == actual else "wrong")] += 1
            reply = {"direct_hits": None if given is None else sorted(given)}
            child.stdin.write(json.dumps(reply) + "\n")
            child.stdin.flush()
        asked = time.perf_counter()
    child.stdin.close()
    rest = child.stdout.read()
    if rest or child.wait() not in (0, 1):
        raise SystemExit(f"table {k}: unexpected end ({child.returncode}): {rest[:200]!r}")
    (directory / f"table-{k}.{suffix}.jsonl").write_text("".join(lines))
    (directory / f"table-{k}.{suffix}.timing.json").write_text(json.dumps({"wait_s": waits}))
    return answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path, help="a directory written by attribution_hidden.py --out")
    parser.add_argument("--mistakes", type=float, default=MISTAKE_RATE)
    parser.add_argument("--without", action="store_true", help="also read every table without a referee")
    args = parser.parse_args()
    tables = sorted(int(p.name.split(".")[0][6:]) for p in args.set.glob("table-*.trace.jsonl"))
    for k in tables:
        answers = play_table(args.set, k, args.mistakes, with_referee=True)
        print(f"table {k}: {answers}", file=sys.stderr, flush=True)
        if args.without:
            play_table(args.set, k, args.mistakes, with_referee=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
