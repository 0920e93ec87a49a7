"""Power loss on the event log: the WAL's tail torn or garbled the way an interrupted write leaves it.

A writer process appends records and reports, after each append returned, the size of the write-ahead log;
it is then SIGKILLed, so the records are still in ``<file>-wal``, not yet checkpointed. Copies of the log
then get the WAL cut at many points (inside a frame header, inside a page, on a frame boundary), a garbled
frame, or garbage after the last frame. Each copy must open (``smartmat eventlog check`` passes) at exactly
the last record whose commit lies wholly before the damage, with every record before it intact.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from service.cli import main as smartmat
from service.eventlog import SqliteEventLog

REPO = Path(__file__).resolve().parents[2]
WAL_HEADER = 32
FRAME_HEADER = 24

WRITER = textwrap.dedent(
    """
    import os, sys
    from service.eventlog import SqliteEventLog
    path = sys.argv[1]
    log = SqliteEventLog(path)
    print(0, os.path.getsize(path + "-wal"), flush=True)
    for shot in range(int(sys.argv[2])):
        payload = {"shot": shot, "piece": "hero-xoric", "note": "x" * (shot * 37 % 3000)}
        seq = log.append("action", payload, by="sensor")
        print(seq, os.path.getsize(path + "-wal"), flush=True)
    sys.stdout.flush()
    os.kill(os.getpid(), 9)
    """
)


@pytest.fixture(scope="module")
def crashed_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, int]]:
    """A log SIGKILLed after 60 appends, and the WAL size after each append returned (seq 0: the schema)."""
    path = tmp_path_factory.mktemp("torn") / "table.sqlite"
    done = subprocess.run(
        [sys.executable, "-c", WRITER, str(path), "60"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    sizes = {int(seq): int(size) for seq, size in (line.split() for line in done.stdout.splitlines())}
    assert sorted(sizes) == list(range(61))
    assert all(sizes[s] < sizes[s + 1] for s in range(60)), "the WAL was checkpointed: no tail to tear"
    return path, sizes


def damaged_copy(source: Path, target_dir: Path, wal: bytes) -> Path:
    target_dir.mkdir()
    copy = target_dir / source.name
    shutil.copyfile(source, copy)  # the main file as the crash left it; the -shm index is rebuilt
    (target_dir / (source.name + "-wal")).write_bytes(wal)
    return copy


def opens_at(path: Path) -> tuple[int, list[dict]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = smartmat(["eventlog", "check", str(path)])
    assert code == 0, out.getvalue()
    with SqliteEventLog(path) as log:
        return log.last_seq(), [r.payload for r in log.records()]


def expected_payload(shot: int) -> dict:
    return {"shot": shot, "piece": "hero-xoric", "note": "x" * (shot * 37 % 3000)}


def last_committed_before(sizes: dict[int, int], cut: int) -> int:
    return max(seq for seq, size in sizes.items() if size <= cut)


@pytest.mark.timeout(120)
def test_a_torn_wal_tail_opens_at_the_last_whole_commit(
    tmp_path: Path, crashed_log: tuple[Path, dict[int, int]]
) -> None:
    path, sizes = crashed_log
    wal = Path(str(path) + "-wal").read_bytes()
    assert len(wal) == sizes[60]
    page = int.from_bytes(wal[8:12], "big")
    frame = FRAME_HEADER + page
    rng = random.Random(9)
    cuts = {sizes[60], sizes[60] - 1, sizes[30], sizes[30] + 1, sizes[30] + FRAME_HEADER + 100}
    cuts |= {sizes[s] + frame - 1 for s in (10, 45)}  # the next commit's frame lacks one byte
    cuts |= {rng.randrange(sizes[0], sizes[60]) for _ in range(25)}  # anywhere: headers, pages, boundaries
    for n, cut in enumerate(sorted(cuts)):
        copy = damaged_copy(path, tmp_path / f"cut-{n}", wal[:cut])
        want = last_committed_before(sizes, cut)
        last, payloads = opens_at(copy)
        assert last == want, f"WAL cut at byte {cut}: opened at seq {last}, last whole commit is {want}"
        assert payloads == [expected_payload(s) for s in range(want)]


@pytest.mark.timeout(120)
def test_a_garbled_frame_ends_the_log_before_it(
    tmp_path: Path, crashed_log: tuple[Path, dict[int, int]]
) -> None:
    path, sizes = crashed_log
    wal = Path(str(path) + "-wal").read_bytes()
    page = int.from_bytes(wal[8:12], "big")
    frame = FRAME_HEADER + page
    frames = (len(wal) - WAL_HEADER) // frame
    rng = random.Random(4)
    for n, index in enumerate(sorted({frames - 1, frames - 2, *rng.sample(range(frames // 2, frames), 6)})):
        start = WAL_HEADER + index * frame
        damaged = bytearray(wal)
        spot = start + FRAME_HEADER + rng.randrange(page)  # a bit flipped in the frame's page
        damaged[spot] ^= 0x5A
        copy = damaged_copy(path, tmp_path / f"garbled-{n}", bytes(damaged))
        want = last_committed_before(sizes, start)
        last, payloads = opens_at(copy)
        assert last == want, f"frame {index} garbled: opened at seq {last}, last commit before it is {want}"
        assert payloads == [expected_payload(s) for s in range(want)]


@pytest.mark.timeout(60)
def test_garbage_after_the_last_frame_loses_nothing(
    tmp_path: Path, crashed_log: tuple[Path, dict[int, int]]
) -> None:
    path, _ = crashed_log
    wal = Path(str(path) + "-wal").read_bytes()
    garbage = random.Random(5).randbytes(3000)
    last, payloads = opens_at(damaged_copy(path, tmp_path / "tail", wal + garbage))
    assert last == 60
    assert payloads == [expected_payload(s) for s in range(60)]
