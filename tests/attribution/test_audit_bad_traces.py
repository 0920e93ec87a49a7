"""What tests/attribution/test_trace_format.py leaves out: a trace file that is not UTF-8 or nests too
deeply is refused by ``smartmat attribute`` naming the line, with exit status 2 and no traceback
(docs/trace-format.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.cli import main


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
