"""``smartmat attribute TRACES --json --table CAL --learn --referee -`` driven exactly as a checker drives it:
a process with pipes, answered one held shot at a time (docs/attribution.md, "Learning from the referee").

The driver reads one answer line, answers it only if the shot was held, and reads the next: a child that read
before flushing its line, or read ahead, would leave both waiting, which the driver's timeout turns into a
failure instead of a hang."""

from __future__ import annotations

import json
import select
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from service.attribution.calibration import load_calibration
from service.cli import main
from service.mat.trace import trace_to_json
from service.simulator.shot_lab import ShotLab

SMARTMAT = Path(sys.executable).parent / "smartmat"
LINE_TIMEOUT_S = 120.0

pytestmark = pytest.mark.timeout(300)


def _table_shots(tmp_path: Path, bad_line_at: int | None = None) -> tuple[Path, list[list[str]]]:
    """Four shots of a small room (a new table holds them all: its calibration is not settled), with the
    pieces each truly hit directly, as a referee would answer."""
    table = ShotLab(seed=73)
    table.place("hero-xoric", "hero", 150, 300, side="heroes")
    table.place("orc-1", "monster-medium", 400, 300, side="overseer", kind="monster")
    table.place("orc-2", "monster-medium", 600, 450, side="overseer", kind="monster")
    shots = [table.shoot("hero-xoric", angle, 1400) for angle in (0.0, 0.55, 3.1, 0.0)]
    lines = [json.dumps(trace_to_json(s.trace)) for s in shots]
    if bad_line_at is not None:
        lines.insert(bad_line_at, '{"v": 1, "broken')
    path = tmp_path / "TRACES.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path, [sorted(s.truth.direct_hits) for s in shots]


def _read_line(stream: IO[str]) -> str:
    ready, _, _ = select.select([stream], [], [], LINE_TIMEOUT_S)
    assert ready, "no answer line: the child is waiting for input before flushing its output"
    return stream.readline()


def _start(path: Path, cal: Path) -> subprocess.Popen[str]:
    command = [str(SMARTMAT), "attribute", str(path), "--json", "--table", str(cal), "--learn"]
    command += ["--workers", "1", "--referee", "-"]
    return subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=path.parent,
        bufsize=1,
    )


def test_the_referee_answers_each_held_shot_through_a_pipe_and_the_next_shot_is_read_with_it(
    tmp_path: Path,
) -> None:
    path, truths = _table_shots(tmp_path, bad_line_at=2)
    cal = tmp_path / "CAL.json"
    child = _start(path, cal)
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    # Shot 1: the right answer. Shot 2: a piece that is not on the table (a bad answer). The unreadable line:
    # held, so it is answered too. Shot 3: no answer. Shot 4: the referee has gone (end of input).
    replies = [
        json.dumps({"direct_hits": truths[0]}),
        json.dumps({"direct_hits": ["orc-99"]}),
        json.dumps({"direct_hits": []}),
        json.dumps({"direct_hits": None}),
        None,
    ]
    answers = []
    for reply in replies:
        line = _read_line(child.stdout)
        answer = json.loads(line)
        answers.append(answer)
        if len(answers) == 2:
            # Shot 1's answer was learnt from before shot 2 was read: shot 2 was read with the calibration
            # the file held once that answer was in it (nothing has been learnt from shot 2 yet).
            saved = load_calibration(cal)
            assert saved.referee.labelled == 1 and saved.referee.counted("calibration") == (1, 0)
            assert answer["calibration"] == saved.digest
        assert answer["auto_apply"] is False
        if reply is None:
            child.stdin.close()
        else:
            child.stdin.write(reply + "\n")
            child.stdin.flush()
    rest = child.stdout.read()
    assert rest == ""  # one answer line per trace line, nothing more
    err = child.stderr.read()
    assert child.wait(timeout=LINE_TIMEOUT_S) == 1  # one line was not a trace
    assert [a["flicked"] for a in answers] == ["hero-xoric", "hero-xoric", None, "hero-xoric", "hero-xoric"]
    assert "answer 2 (line 2, hero-xoric): direct_hits: no such piece in the shot: orc-99" in err
    assert "Traceback" not in err
    saved = load_calibration(cal)
    assert saved.shots == 4  # every shot taught the table; the unreadable line nothing
    # Shot 1 answered; shot 2's bad answer, shot 3's null and shot 4's missing one are no answers. The answer
    # to the unreadable line was read (and so did not pair with shot 3) but teaches nothing.
    assert saved.referee.labelled == 1
    assert saved.referee.unanswered == 3


def test_answers_from_a_file_pair_with_held_shots_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, truths = _table_shots(tmp_path)
    cal, answers = tmp_path / "CAL.json", tmp_path / "ANSWERS.jsonl"
    # One wrong answer among right ones: counted against the first reading, never a crash or a lost shot.
    wrong = ["orc-1", "orc-2"] if truths[1] != ["orc-1", "orc-2"] else []
    lines = [{"direct_hits": truths[0]}, {"direct_hits": wrong}, "not json", {"direct_hits": truths[3]}]
    answers.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    args = ["attribute", str(path), "--json", "--workers", "1", "--table", str(cal), "--learn"]
    assert main([*args, "--referee", str(answers)]) == 0
    out, err = capsys.readouterr()
    printed = [json.loads(line) for line in out.splitlines()]
    assert len(printed) == 4 and not any(a["auto_apply"] for a in printed)
    assert f"error: {answers}: answer 3 (line 3, hero-xoric): not JSON" in err
    record = load_calibration(cal).referee
    assert record.labelled == 3 and record.unanswered == 1
    tops = [a["candidates"][0]["direct_hits"] for a in printed]
    expected_agreed = sum(
        top == given for top, given in zip(tops, [truths[0], wrong, None, truths[3]], strict=True)
    )
    assert record.agreed == expected_agreed


def test_referee_answers_need_a_table_to_learn_into(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _table_shots(tmp_path)
    assert main(["attribute", str(path), "--json", "--referee", "-"]) == 2
    assert "--referee needs --learn" in capsys.readouterr().err


def test_a_missing_answers_file_is_refused_before_any_shot_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _table_shots(tmp_path)
    cal = tmp_path / "CAL.json"
    args = ["attribute", str(path), "--json", "--table", str(cal), "--learn", "--referee", "nowhere.jsonl"]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and "cannot read nowhere.jsonl" in err and not cal.exists()


def test_guided_touch_flicks_are_each_answered_and_teach_the_touch_loudness_outside_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/calibration.md, "Guided touch flicks": one answer per flick, applied or not; the touches are
    learnt from (the disc-on-disc loudness) and the referee's record of held shots stays empty."""
    path, truths = _table_shots(tmp_path)
    cal, answers = tmp_path / "CAL.json", tmp_path / "TOUCHES.jsonl"
    answers.write_text("".join(json.dumps({"direct_hits": t}) + "\n" for t in truths))
    args = ["attribute", str(path), "--json", "--workers", "1", "--table", str(cal), "--learn"]
    assert main([*args, "--referee", str(answers), "--guided-touches"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 4 and "error" not in err
    learnt = load_calibration(cal)
    assert learnt.referee.labelled == 0 and learnt.referee.unanswered == 0
    plain = tmp_path / "PLAIN.json"
    assert main(["attribute", str(path), "--json", "--workers", "1", "--table", str(plain), "--learn"]) == 0
    assert load_calibration(plain).disc_loudness != learnt.disc_loudness


def test_guided_touches_need_their_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = _table_shots(tmp_path)
    cal = tmp_path / "CAL.json"
    args = ["attribute", str(path), "--json", "--table", str(cal), "--learn", "--guided-touches"]
    assert main(args) == 2
    assert "--guided-touches needs --referee" in capsys.readouterr().err and not cal.exists()
