"""An organiser exports a table's game, checks files, and restores a game onto a spare Pi."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.cli import main
from service.eventlog import SqliteEventLog


def played_table(path: Path) -> None:
    with SqliteEventLog(path) as store:
        store.append("setup", {"ruleset": "catacombs-3e"}, by="daemon")
        store.append("action", {"type": "shot", "shot": "melee"}, by="sensor")


def test_export_check_and_restore(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played_table(tmp_path / "table-1.db")
    assert main(["eventlog", "export", str(tmp_path / "table-1.db"), str(tmp_path / "game.jsonl")]) == 0
    assert "wrote 2 record(s)" in capsys.readouterr().out
    assert main(["eventlog", "check", str(tmp_path / "game.jsonl")]) == 0
    assert "ok, 2 record(s)" in capsys.readouterr().out

    assert main(["eventlog", "import", str(tmp_path / "game.jsonl"), str(tmp_path / "spare.db")]) == 0
    assert "now holds 2" in capsys.readouterr().out
    with SqliteEventLog(tmp_path / "spare.db") as spare, SqliteEventLog(tmp_path / "table-1.db") as original:
        assert spare.records() == original.records()


def test_a_damaged_file_is_reported_not_repaired(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "table-1.db"
    broken.write_bytes(b"\x00garbage" * 1000)
    assert main(["eventlog", "check", str(broken)]) == 1
    assert "BAD" in capsys.readouterr().err
    assert broken.read_bytes() == b"\x00garbage" * 1000

    bad_export = tmp_path / "game.jsonl"
    bad_export.write_text('{"v":1,"seq":1}\n')
    assert main(["eventlog", "import", str(bad_export), str(tmp_path / "spare.db")]) == 1
    assert "line 1: record lacks field" in capsys.readouterr().err
