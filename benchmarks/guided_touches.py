"""What the guided touch flicks buy: each table of a written hidden set played twice through the CLI with a
referee (benchmarks/referee_driver.py), once from wide priors and once from the calibration its guided touch
flicks taught (``smartmat attribute TOUCHES --table CAL --learn --referee ANSWERS --guided-touches``).

    cd benchmarks && ../.venv/bin/python guided_touches.py hidden-set [--flicks 6] [--mistakes 0.04]

The touch flicks are played on each table's own hidden mat (service/simulator/hidden_mats.py): a hero disc
set 20-50 mm (edge to edge) from a monster disc at ``--flicks`` places spread over the mat, flicked softly
(650-1000 mm/s) straight at it; the routine's answer is what the flicked disc truly touched (the referee
watches it). Writes table-K.touch.trace.jsonl, table-K.touch.answers.jsonl, table-K.touch.cal.json and the
plays' table-K.guided.out.jsonl; score with ``benchmarks/attribution_hidden.py --score hidden-set --outputs
guided.out`` against ``--outputs out``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
from pathlib import Path

from referee_driver import SMARTMAT, play_table

from service.bench.referee import MISTAKE_RATE
from service.mat.trace import trace_to_json
from service.simulator.hidden_mats import hidden_table


def write_touches(directory: Path, seed: int, k: int, flicks: int, sensors: str) -> tuple[Path, Path]:
    table = hidden_table(seed, k, sensors, "shared", "study")
    lab = table.lab(seed=random.Random(f"touch-lab/{seed}/{k}").randrange(2**31))
    rng = random.Random(f"touches/{seed}/{k}")
    w, h = table.mat.width_mm, table.mat.height_mm
    traces, answers = [], []
    for i in range(flicks):
        # Places spread over the mat: a ring of spots between the middle and the walls.
        around = 2 * math.pi * i / flicks
        cx = w / 2 + 0.3 * w * math.cos(around) + rng.uniform(-30, 30)
        cy = h / 2 + 0.3 * h * math.sin(around) + rng.uniform(-30, 30)
        aim = rng.uniform(0, 2 * math.pi)
        gap = rng.uniform(20, 50) + lab.classes["hero"].radius_mm + lab.classes["monster-medium"].radius_mm
        lab.place("touch-a", "hero", cx, cy, side="heroes")
        lab.place(
            "touch-b",
            "monster-medium",
            cx + gap * math.cos(aim),
            cy + gap * math.sin(aim),
            side="overseer",
            kind="monster",
        )
        shot = lab.shoot("touch-a", aim + rng.gauss(0, 0.03), rng.uniform(650, 1000))
        traces.append(json.dumps(trace_to_json(shot.trace) | {"meta": {"table": k, "touch": i}}))
        answers.append(json.dumps({"direct_hits": sorted(shot.truth.direct_hits)}))
        lab.remove("touch-a")
        lab.remove("touch-b")
    trace_path = directory / f"table-{k}.touch.trace.jsonl"
    answer_path = directory / f"table-{k}.touch.answers.jsonl"
    trace_path.write_text("\n".join(traces) + "\n")
    answer_path.write_text("\n".join(answers) + "\n")
    return trace_path, answer_path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path, help="a directory written by attribution_hidden.py --out")
    parser.add_argument("--flicks", type=int, default=6)
    parser.add_argument("--mistakes", type=float, default=MISTAKE_RATE)
    args = parser.parse_args()
    constants = json.loads((args.set / "constants.json").read_text())
    tables = sorted(int(p.name.split(".")[0][6:]) for p in args.set.glob("table-*.truth.jsonl"))
    for k in tables:
        traces, answers = write_touches(args.set, constants["seed"], k, args.flicks, constants["sensors"])
        cal = args.set / f"table-{k}.touch.cal.json"
        cal.unlink(missing_ok=True)
        command = [*SMARTMAT, str(traces), "--json", "--table", str(cal), "--learn"]
        command += ["--referee", str(answers), "--guided-touches"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        touched = [json.loads(line)["direct_hits"] for line in answers.read_text().splitlines()]
        print(f"table {k}: {sum(map(bool, touched))}/{len(touched)} flicks touched", file=sys.stderr)
        if not (args.set / f"table-{k}.out.jsonl").exists():
            play_table(args.set, k, args.mistakes, with_referee=True)
        play_table(args.set, k, args.mistakes, with_referee=True, start=cal, tag="guided.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
