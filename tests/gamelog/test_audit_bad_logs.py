"""A damaged or foreign game log given to ``smartmat replay``: a one-line error naming the line (or the
setup field) and exit status 1, never a traceback (docs/game-log.md: Errors)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from service.cli import main

EXAMPLE = Path(__file__).parents[2] / "examples" / "logs" / "barracks-cleared.jsonl"
LINES = EXAMPLE.read_text(encoding="utf-8").splitlines()


def write(tmp_path: Path, lines: list[str], ending: str = "\n") -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + ending, encoding="utf-8")
    return path


def replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["replay", str(path)])
    return status, capsys.readouterr().err


def with_setup(change: Callable[[dict[str, Any]], None]) -> list[str]:
    setup = json.loads(LINES[0])
    change(setup["payload"])
    return [json.dumps(setup), *LINES[1:]]


def test_the_example_log_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert replay(write(tmp_path, LINES), capsys) == (0, "")


@pytest.mark.parametrize("ending", ["\n", ""])
def test_a_last_line_cut_off_by_a_power_cut_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ending: str
) -> None:
    lines = [*LINES[:-1], LINES[-1][:40]]
    status, err = replay(write(tmp_path, lines, ending), capsys)
    assert status == 1
    assert f"game.jsonl: line {len(LINES)}: not JSON" in err


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("this is not a record", "line 3: not JSON ("),  # then the json module's own words
        ("[" * 100_000 + "]" * 100_000, "line 3: not a record (JSON nested too deeply)"),
        ('["v", 1]', "line 3: a record must be a JSON object, not list"),
        (LINES[2].replace('"v":1', '"v":2'), "line 3: record version 2 is not supported (expected 1)"),
        (LINES[2].replace('"v":1', '"v":"1"'), "line 3: record version '1' is not supported"),
        (LINES[2].replace('"v":1', '"v":true'), "line 3: record version True is not supported"),
        (LINES[2].replace('"kind":"action"', '"kind":"Teleport!"'), "line 3: kind 'Teleport!' must be"),
        (LINES[2].replace('"seq":3', '"seq":4'), "line 3: seq 4 where 3 was expected"),
        (LINES[2].replace('"at":"2026-11-22T10:00:00Z"', '"at":"yesterday"'), "line 3: at 'yesterday'"),
        (LINES[2].replace('"by":"referee:anna"', '"by":""'), "line 3: by '' must name who"),
    ],
)
def test_a_broken_line_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    assert line != LINES[2]
    status, err = replay(write(tmp_path, [*LINES[:2], line, *LINES[3:]]), capsys)
    assert status == 1
    assert message in err
    assert "Traceback" not in err


def test_a_line_that_is_not_utf8_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(("\n".join(LINES[:3]) + "\n").encode() + b'{"by": "referee:ren\xe9e"}\n')
    status, err = replay(path, capsys)
    assert status == 1
    assert "line 4: not UTF-8 text (byte 0xe9 at column 20)" in err
    assert main(["eventlog", "check", str(path)]) == 1  # the event log's import reads it the same way
    assert "line 4: not UTF-8 text" in capsys.readouterr().err


def test_an_unknown_record_kind_is_passed_over_but_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """docs/game-log.md: a newer daemon may add kinds, so an unknown one is kept and passed over; the
    referee replaying the log is told which record the rules did not read."""
    kept = json.loads(LINES[2])
    teleport = {**kept, "kind": "teleport", "payload": {"to": "the-lair"}}
    lines = [
        *LINES[:2],
        json.dumps(teleport),
        *(json.dumps({**json.loads(x), "seq": json.loads(x)["seq"] + 1}) for x in LINES[2:]),
    ]
    with caplog.at_level(logging.WARNING):
        status = main(["replay", "--json", str(write(tmp_path, lines))])
    assert status == 0
    view = json.loads(capsys.readouterr().out)
    assert view["seq"] == len(LINES) + 1 and view["rejected"] == []
    assert "seq 3: record kind 'teleport' is unknown to this version; passed over" in caplog.text


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.update(ruleset=["catacombs-3e"]), "unknown rule set ['catacombs-3e']; known:"),
        (lambda s: s.update(ruleset="catacombs-9e"), "unknown rule set 'catacombs-9e'"),
        (lambda s: s.update(settings="gentle"), "bad settings: expected an object, got 'gentle'"),
        (
            lambda s: s.update(settings={"advanced_hero_death": "yes please"}),
            "bad settings: settings.advanced_hero_death: expected true/false, got 'yes please'",
        ),
        (
            lambda s: s.update(settings={"inn_sleep_cost": "8"}),
            "settings.inn_sleep_cost: expected an integer",
        ),
        (lambda s: s.update(settings={"sudden_death": True}), "unknown field(s) ['sudden_death']"),
        (lambda s: s.update(items=["healing-salve"]), "setup 'items' must map hero card ids to card ids"),
        (lambda s: s.update(spells="fireball"), "setup 'spells' must map hero card ids to card ids"),
        (lambda s: s.update(seed=float("inf")), "cannot start the game: cannot convert float infinity"),
        (lambda s: s.update(seed="lucky"), "cannot start the game: invalid literal for int()"),
        (lambda s: s.update(content="homebrew"), "setup 'content' must be 'shipped' or 'sample'"),
        (
            lambda s: s.update(content="shipped", overlay="/no/such/overlay"),
            "the setup's content cannot be loaded: /no/such/overlay: overlay directory does not exist",
        ),
        (lambda s: s.update(content="shipped", overlay=7), "setup 'overlay' must be a directory name, got 7"),
        (lambda s: s.pop("heroes"), "setup needs 'heroes'"),
    ],
)
def test_a_setup_that_cannot_start_a_game_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[dict[str, Any]], None], message: str
) -> None:
    status, err = replay(write(tmp_path, with_setup(change)), capsys)
    assert status == 1
    assert message in err
    assert "Traceback" not in err


def test_a_log_without_its_setup_or_with_two_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert replay(write(tmp_path, []), capsys) == (
        1,
        f"smartmat replay: {tmp_path / 'game.jsonl'}: the log has no setup record\n",
    )
    second_setup = json.dumps({**json.loads(LINES[0]), "seq": 3})
    status, err = replay(write(tmp_path, [*LINES[:2], second_setup]), capsys)
    assert status == 1 and "seq 3: a log holds one game; a second setup record" in err
    no_setup = [json.dumps({**json.loads(x), "seq": n}) for n, x in enumerate(LINES[1:], start=1)]
    status, err = replay(write(tmp_path, no_setup), capsys)
    assert status == 1 and "seq 1: the first record must be the setup" in err


def test_a_file_that_is_not_a_log_at_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path)]) == 2  # a directory
    assert "cannot read" in capsys.readouterr().err
    binary = tmp_path / "photo.jpg"
    binary.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01")
    status, err = replay(binary, capsys)
    assert status == 1 and "line 1: not UTF-8 text (byte 0xff at column 1)" in err
