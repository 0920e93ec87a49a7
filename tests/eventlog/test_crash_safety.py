"""A daemon killed with SIGKILL mid-room loses no record whose append had returned."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from service.eventlog import SqliteEventLog

REPO = Path(__file__).resolve().parents[2]

# Appends shots forever, reporting each seq only after append() returned; the parent kills it at some point.
WRITER = textwrap.dedent(
    """
    import sys
    from service.eventlog import SqliteEventLog
    log = SqliteEventLog(sys.argv[1])
    round_ = int(sys.argv[2])
    shot = 0
    while True:
        seq = log.append("action", {"round": round_, "shot": shot, "piece": "hero-xoric"}, by="sensor")
        print(seq, round_, shot, flush=True)
        shot += 1
    """
)


def run_writer_and_kill(path: Path, round_: int, acknowledged_wanted: int) -> list[tuple[int, int, int]]:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(round_)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    acknowledged: list[tuple[int, int, int]] = []
    try:
        assert writer.stdout is not None
        while len(acknowledged) < acknowledged_wanted:
            line = writer.stdout.readline()
            assert line, f"writer stopped early with code {writer.poll()}"
            seq, r, shot = (int(word) for word in line.split())
            acknowledged.append((seq, r, shot))
        os.kill(writer.pid, signal.SIGKILL)
        # The writer may have finished more appends after the last line we read; those are allowed to exist.
    finally:
        writer.kill()
        writer.wait(timeout=10)
        if writer.stdout:
            writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL
    return acknowledged


def test_every_acknowledged_append_survives_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "table-1.db"
    acknowledged: list[tuple[int, int, int]] = []
    for round_, wanted in enumerate((40, 25, 60), start=1):
        acknowledged += run_writer_and_kill(path, round_, wanted)

        with SqliteEventLog(path) as reopened:
            by_seq = {r.seq: r for r in reopened.records()}
            assert sorted(by_seq) == list(range(1, reopened.last_seq() + 1)), "no gaps after a crash"
            for seq, r, shot in acknowledged:
                assert seq in by_seq, f"acknowledged record {seq} lost"
                assert by_seq[seq].payload == {"round": r, "shot": shot, "piece": "hero-xoric"}
