"""Writes the expected end state of every Catacombs 3E example game log (``expected/<log>.json``).

After an intended change of the rules, from the repository root: ``python -m examples.logs.expected.write``.
``tests/gamelog/test_example_end_states.py`` replays each log and compares; a difference is a change of the
rules' behaviour that must be looked at (and the file rewritten only when it is right).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.gamelog.records import read_log
from service.gamelog.replay import replay

LOGS = Path(__file__).resolve().parents[1]


def end_state(log: Path) -> dict[str, Any]:
    result = replay(read_log(log))
    return {
        "log": log.name,
        "rejected": [[seq, why] for seq, why in result.rejected],
        "public": result.state.public_view(),
        "state": json.loads(result.state.to_json()),
    }


def main() -> None:
    for log in sorted(LOGS.glob("*.jsonl")):
        if read_log(log)[0].payload.get("ruleset", "catacombs-3e") != "catacombs-3e":
            continue
        out = Path(__file__).parent / f"{log.stem}.json"
        out.write_text(json.dumps(end_state(log), indent=1, sort_keys=True) + "\n")
        print(out)


if __name__ == "__main__":
    main()
