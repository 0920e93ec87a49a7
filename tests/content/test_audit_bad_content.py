"""A broken overlay given to ``smartmat content check --overlay DIR``: every problem names the file and
the key, the check exits 1 without a traceback or a hang, and the shipped content is untouched
(docs/content.md)."""

from __future__ import annotations

import io
from argparse import Namespace
from pathlib import Path

import pytest
import yaml

from service.content.errors import Problem
from service.content.sources import read_yaml
from service.games.catacombs.content import load_content
from service.games.content_cli import run_check

SHIPPED = load_content("catacombs-3e")


def check(directory: Path) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = run_check(Namespace(ruleset="catacombs-3e", overlay=directory, expansion=[]), out)
    lines = out.getvalue().splitlines()
    return status, [line.strip() for line in lines[1:]] if status else lines


def overlay(tmp_path: Path, name: str, text: str | bytes) -> tuple[Path, Path]:
    directory = tmp_path / "organiser"
    directory.mkdir(exist_ok=True)
    path = directory / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return directory, path


def laughs(levels: int = 8) -> str:
    """The "billion laughs": each anchor is ten of the one before: short text, huge data."""
    anchors = ["&l0 [" + ", ".join(['"lol"'] * 10) + "]"]
    anchors += [f"&l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return "[" + ", ".join(anchors) + "]"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        pytest.param(
            f"monsters:\n  troll:\n    note: {laughs()}\n",
            "troll.note: invalid YAML: more than 250000 values once its aliases are expanded",
            id="alias bomb",
        ),
        pytest.param(
            "monsters:\n  troll:\n    shot_sequences: &loop [*loop]\n",
            "troll.shot_sequences[0]: invalid YAML: an alias that contains itself",
            id="alias containing itself",
        ),
        pytest.param(
            "monsters:\n  troll:\n    note: " + "[" * 5000 + "]" * 5000 + "\n",
            "troll.note: invalid YAML: nested deeper than 32 levels",
            id="nested 5000 deep",
        ),
    ],
)
def test_yaml_that_would_exhaust_the_checker_is_refused_by_file_and_key(
    tmp_path: Path, text: str, problem: str
) -> None:
    directory, path = overlay(tmp_path, "monsters.yaml", text)
    assert check(directory) == (1, [f"{path}: {problem}"])


@pytest.mark.parametrize(
    "failure",
    [yaml.YAMLError("some parser's own words about its nesting limit"), RecursionError("too deep")],
    ids=["parser refuses", "parser recurses"],
)
def test_deep_nesting_is_refused_in_our_words_whatever_the_parser_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: BaseException
) -> None:
    """Whether a YAML parser gives up on deep nesting by itself, and how it says so, is the parser's
    business (libyaml has a nesting limit of its own since PyYAML 6.0.3; the pure-Python composer
    recurses): the problem reported is ours, with the key where the nesting goes too deep."""

    def give_up(*args: object, **kwargs: object) -> None:
        raise failure

    deep = "monsters:\n  troll:\n    note: " + "[" * 40 + "]" * 40 + "\n"
    _, path = overlay(tmp_path, "monsters.yaml", deep)
    monkeypatch.setattr(yaml, "load", give_up)
    problems: list[Problem] = []
    assert read_yaml(path, "monsters.yaml", problems) is None
    assert [str(problem) for problem in problems] == [
        "monsters.yaml: troll.note: invalid YAML: nested deeper than 32 levels"
    ]


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        (
            "monsters.yaml",
            b"monsters:\n  troll:\n    name: Trol\xe9\n",
            "cannot read the file: 'utf-8' codec",
        ),
        (
            "monsters.yaml",
            "monsters:\n\ttroll:\n",
            "invalid YAML: line 2, column 1: ",
        ),
        ("monsters.yaml", "monsters:\n  troll: {health: 3\n", "invalid YAML: line 3, column 1"),
        (
            "monsters.yaml",
            "monsters:\n  troll: !!python/object/apply:os.system ['touch /tmp/pwned']\n",
            "invalid YAML: line 2, column 10: ",
        ),
        (
            "monsters.yaml",
            "- troll\n- orc\n",
            "expected a mapping with the single key 'monsters', found list",
        ),
        ("monsters.yaml", "monsters: [troll]\n", "monsters: expected a mapping of id -> record, found list"),
        ("monsters.yaml", "monstres:\n  troll: {health: 3}\n", "single key 'monsters', found ['monstres']"),
        ("monsters.yaml", "monsters:\n  Troll: {health: 3}\n", "Troll: ids are lower-case letters, digits"),
        ("monsters.yaml", "monsters:\n  troll: 3\n", "troll: expected a mapping of fields, found int"),
        (
            "monsters.yaml",
            "monsters:\n  troll:\n    health: three\n",
            "troll.health: expected a whole number, found 'three'",
        ),
        ("monsters.yaml", "monsters:\n  troll:\n    1: 3\n", "troll[1]: unknown field; a monster has"),
        ("monsters.yaml", "monsters:\n  troll:\n    helth: 3\n", "troll.helth: unknown field; a monster has"),
        (
            "monsters.yaml",
            "monsters:\n  troll:\n    shot_sequences: [[{shot: melee, power: 2}]]\n",
            "troll.shot_sequences[0][0]: unknown field 'power'; allowed: connector, count, modifier",
        ),
        (
            "monsters.yaml",
            "monsters:\n  troll:\n    health: 2\n    health: 3\n",
            "key 'health' appears twice",
        ),
        ("treasure.yaml", "treasure: {}\n", "not a content file of this rule set"),
    ],
)
def test_a_broken_file_is_refused_naming_the_file_and_the_key(
    tmp_path: Path, name: str, text: str | bytes, problem: str
) -> None:
    directory, path = overlay(tmp_path, name, text)
    status, problems = check(directory)
    assert status == 1
    assert len(problems) == 1 and problems[0].startswith(f"{path}: "), problems
    assert problem in problems[0]
    assert not Path("/tmp/pwned").exists()


@pytest.mark.parametrize(
    ("name", "text", "problem"),
    [
        (
            "rooms.yaml",
            "rooms:\n  the-barracks:\n    quadrants:\n"
            "      level_1: [{kind: specific, monster: orcc, count: 4}]\n",
            "the-barracks.quadrants.level_1[0].monster: unknown monster 'orcc'",
        ),
        (
            "layouts.yaml",
            "layouts:\n  tutorial:\n    slots: [the-barracks, the-lost-room, lair]\n",
            "tutorial.slots[1]",
        ),
    ],
)
def test_a_dangling_card_reference_names_the_file_and_the_key(
    tmp_path: Path, name: str, text: str, problem: str
) -> None:
    directory, path = overlay(tmp_path, name, text)
    status, problems = check(directory)
    assert status == 1
    assert any(p.startswith(f"{path}: {problem}") for p in problems), problems


def test_an_empty_overlay_file_changes_nothing(tmp_path: Path) -> None:
    directory, _ = overlay(tmp_path, "monsters.yaml", "")
    assert check(directory)[0] == 0
    assert load_content("catacombs-3e", overlay=directory).monsters == SHIPPED.monsters


def test_a_directory_where_a_file_should_be_is_named(tmp_path: Path) -> None:
    directory = tmp_path / "organiser"
    (directory / "monsters.yaml").mkdir(parents=True)
    status, problems = check(directory)
    where = directory / "monsters.yaml"
    assert status == 1
    assert problems == [f"{where}: cannot read the file: [Errno 21] Is a directory: '{where}'"]


def test_a_refused_overlay_leaves_the_shipped_content_as_it_was(tmp_path: Path) -> None:
    directory, _ = overlay(
        tmp_path, "monsters.yaml", "monsters:\n  troll:\n    note: " + "[" * 5000 + "]" * 5000
    )
    assert check(directory)[0] == 1
    assert load_content("catacombs-3e") == SHIPPED
