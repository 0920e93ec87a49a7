"""What tests/attribution/test_trace_format.py leaves out: a trace file that is not UTF-8 or nests too
deeply is refused by ``smartmat attribute`` naming the line, with exit status 2 and no traceback; a file with
some bad lines loses only those shots, with exit status 1 (docs/trace-format.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.cli import main
from service.mat.trace import trace_to_json
from service.simulator.shot_lab import ShotLab


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (
            b"\n" + b"[" * 100_000 + b"]" * 100_000 + b"\n",
            "shot.jsonl:2: not a trace (JSON nested too deeply)",
        ),
        (b'{"v": 1, "meta": {"table": "caf\xe9"}}\n', "shot.jsonl:1: not UTF-8 text (byte 32 of the line)"),
        (b"\xff\xfe{\x00}\x00\n", "shot.jsonl:1: not UTF-8 text (byte 1 of the line)"),
    ],
)
def test_attribute_names_the_line_of_a_trace_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, problem: str
) -> None:
    path = tmp_path / "shot.jsonl"
    path.write_bytes(content)
    assert main(["attribute", str(path), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert problem in err
    assert "Traceback" not in err


def test_a_bad_line_costs_its_own_shot_and_the_rest_of_the_table_is_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A checker pairs answers with lines: a line that is not a trace gets an answer that says so, for the
    referee, and the shots after it are still read and learnt from."""
    table = ShotLab(seed=41)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    good = [json.dumps(trace_to_json(table.shoot("hero-xoric", 0.0, 1400).trace)) for _ in range(2)]
    path, cal = tmp_path / "TRACES.jsonl", tmp_path / "CAL.json"
    path.write_text(good[0] + '\n{"v": 1, "broken\n\n' + good[1] + "\n")
    args = ["attribute", str(path), "--json", "--workers", "1", "--table", str(cal), "--learn"]
    assert main(args) == 1  # some lines could not be read; every other one was
    out, err = capsys.readouterr()
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["flicked"] for a in answers] == ["hero-xoric", None, "hero-xoric"]  # none for the blank line
    unread = answers[1]
    assert unread["line"] == 2 and unread["auto_apply"] is False and unread["candidates"] == []
    assert unread["reasons"] == [f"line 2 is not a trace this reader accepts: {unread['error']}"]
    assert "TRACES.jsonl:2: not valid JSON" in unread["error"] and "TRACES.jsonl:2" in err
    assert "Traceback" not in err
    assert json.loads(cal.read_text())["shots"] == 2  # both shots taught the table; the bad line nothing
