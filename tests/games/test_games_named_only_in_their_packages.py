"""Nothing outside ``service/games/`` names a game: no module imports a game's package, and no string in code
is a game's setup name (``catacombs-3e``) or the start of one (``catacombs-and-castles``). They ask the
registry instead (``service.games.definition_of``), so a fifth game touches only its package, the registry and
content/ (docs/architecture.md, "Adding a game"). Docstrings and comments may cite rulebooks by file name.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.games import game_names

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "service" / "games"
SCANNED = ("service", "web_dashboard", "firmware_bridge")
SHORTEST_PREFIX = 8  # the start of a game's name: "catacombs-and-", not "cat" or the team "catacomb"

# Modules that still name a game, each with why; the list only shrinks (the test fails on a stale entry too).
# None is left: the content loader, the mat, the table file's schema and the set-up pages ask the registry.
STILL_NAMED: set[tuple[str, str]] = set()


def game_packages() -> set[str]:
    return {p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists()}


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings (of the module, a class or a function, or an attribute's)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for statement in body:
            if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                found.add(id(statement.value))
    return found


def names_in(source: str, names: tuple[str, ...], packages: set[str]) -> set[str]:
    """The game names and game packages ``source`` names in code."""
    tree = ast.parse(source)
    skipped = docstrings(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        for module in modules:
            parts = module.split(".")
            if parts[:2] == ["service", "games"] and len(parts) > 2 and parts[2] in packages:
                found.add(f"service.games.{parts[2]}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            text = node.value
            found.update(
                name
                for name in names
                if text == name or (len(text) >= SHORTEST_PREFIX and "-" in text and name.startswith(text))
            )
    return found


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a JSON document, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def names_in_schema(text: str, names: tuple[str, ...]) -> set[str]:
    """The game names a JSON Schema tells apart: a string that is one, or the start of one (a ``pattern``
    anchored with ``^`` included), as a section picked by the rule set's name would be."""
    found: set[str] = set()
    for string in strings_in(json.loads(text)):
        text = string.removeprefix("^")
        found.update(
            name
            for name in names
            if text == name or (len(text) >= SHORTEST_PREFIX and "-" in text and name.startswith(text))
        )
    return found


def naming_modules() -> set[tuple[str, str]]:
    names, packages = game_names(), game_packages()
    found: set[tuple[str, str]] = set()
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path.is_relative_to(GAMES_DIR):
                continue
            relative = path.relative_to(ROOT).as_posix()
            found.update(
                (relative, name) for name in names_in(path.read_text(encoding="utf-8"), names, packages)
            )
        for path in sorted((ROOT / folder).rglob("schemas/*.json")):  # the content's are plain *.json
            if path.is_relative_to(GAMES_DIR):
                continue
            relative = path.relative_to(ROOT).as_posix()
            found.update(
                (relative, name) for name in names_in_schema(path.read_text(encoding="utf-8"), names)
            )
    return found


def test_the_scan_sees_each_way_of_naming_a_game() -> None:
    names, packages = ("catacombs-3e", "catacombs-and-castles-2e"), {"catacombs", "castles"}
    source = '''"""Plays catacombs-3e (a docstring may cite it)."""
import service.games.castles.core.state
from service.games.catacombs.flow import cards
from service.games import castles
from service.games import definition_of
x = {"catacombs-3e": 1}
if ruleset.startswith("catacombs-and-castles"):
    pass
y = "catacombs-and-castles-2e-manual.md"
'''
    assert names_in(source, names, packages) == {
        "service.games.castles",
        "service.games.catacombs",
        "catacombs-3e",
        "catacombs-and-castles-2e",
    }


def test_the_scan_sees_a_schema_that_tells_games_apart_by_name() -> None:
    names = ("catacombs-3e", "catacombs-and-castles-1e", "catacombs-and-castles-2e")
    schema = {
        "properties": {"ruleset": {"enum": ["catacombs-3e"]}},
        "if": {"properties": {"ruleset": {"pattern": "^catacombs-and-castles"}}},
        "description": "a rule set's name, as the games registry lists it",
    }
    assert names_in_schema(json.dumps(schema), names) == set(names)


def test_no_module_outside_the_games_names_a_game_or_imports_a_games_package() -> None:
    found = naming_modules()
    assert sorted(found - STILL_NAMED) == [], "ask the registry (service.games.definition_of) instead"


@pytest.mark.parametrize("entry", sorted(STILL_NAMED), ids=lambda e: f"{e[0]}:{e[1]}")
def test_each_module_still_naming_a_game_does(entry: tuple[str, str]) -> None:
    """A module that stopped naming a game leaves the list."""
    assert entry in naming_modules()
