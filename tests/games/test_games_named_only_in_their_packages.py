"""Nothing outside ``service/games/`` names a game: no module imports a game's package, and no string in code
is a game's setup name (``catacombs-3e``), the start of one (``catacombs-and-castles``) or the name of a
tournament a game offers (``castles-1v1``); no page's template or script has one in a quoted string. They ask
the registry instead (``service.games.definition_of``, ``tournament_formats``), so a fifth game touches only
its package, the registry and content/ (docs/architecture.md, "Adding a game"). Docstrings and comments may
cite rulebooks by file name. The tournament hub (its package and its pages) goes further: not even a word of a
game's name (``Castles``) is in its code, its templates or its scripts.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from service.games import game_names, tournament_formats

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "service" / "games"
SCANNED = ("service", "web_dashboard", "firmware_bridge")
PAGES = ("*.html", "*.js")  # the pages' templates and scripts
HUB = ("service/hub", "web_dashboard/hub")  # the tournament hub and its pages
SHORTEST_PREFIX = 8  # the start of a game's name: "catacombs-and-", not "cat" or the team "catacomb"
QUOTED = re.compile(r"""(["'])([^"'\n]{1,100})\1""")


# No module outside service/games/ names a game: the content loader, the mat, the table file's schema, the
# set-up pages, the console's correction form and the hub ask the registry.
def game_packages() -> set[str]:
    return {p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists()}


def registered_names() -> tuple[str, ...]:
    """Every game's setup name and every tournament format a game offers."""
    return (*game_names(), *tournament_formats())


def named_by(text: str, names: tuple[str, ...]) -> set[str]:
    """The names ``text`` is, or (long enough and dashed) starts: a prefix test tells games apart; a text that
    is a name itself (``catacombs-3e``) names only that one, not a format that starts with it."""
    if text in names:
        return {text}
    return {name for name in names if len(text) >= SHORTEST_PREFIX and "-" in text and name.startswith(text)}


def names_in_page(text: str, names: tuple[str, ...]) -> set[str]:
    """The game names a template or a page's script has in a quoted string (a comparison, a table's key)."""
    return {name for match in QUOTED.finditer(text) for name in named_by(match.group(2), names)}


def words_of(packages: set[str]) -> re.Pattern[str]:
    """A game package's name as a word in text for people (``Castles``, ``coin flick``), any case."""
    spelled = sorted(re.escape(p).replace("_", "[ _-]") for p in packages)
    return re.compile(rf"\b({'|'.join(spelled)})\b", re.IGNORECASE)


def game_words_in(path: Path, packages: set[str]) -> set[str]:
    """The game words in a hub module's code strings (docstrings may cite rulebooks) or a hub page's text."""
    text = path.read_text(encoding="utf-8")
    pattern = words_of(packages)
    if path.suffix != ".py":
        return {m.group(1).lower() for m in pattern.finditer(text)}
    tree = ast.parse(text)
    skipped = docstrings(tree)
    return {
        m.group(1).lower()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped
        for m in pattern.finditer(node.value)
    }


def hub_naming_files(packages: set[str]) -> set[tuple[str, str]]:
    """Each hub file that has a game's word, with the word."""
    found: set[tuple[str, str]] = set()
    for folder in HUB:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".html", ".js", ".json"):
                relative = path.relative_to(ROOT).as_posix()
                found.update((relative, word) for word in game_words_in(path, packages))
    return found


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
            found.update(named_by(text, names))
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
        found.update(named_by(text, names))
    return found


def naming_modules() -> set[tuple[str, str]]:
    names, packages = registered_names(), game_packages()
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
        for pattern in PAGES:
            for path in sorted((ROOT / folder).rglob(pattern)):
                relative = path.relative_to(ROOT).as_posix()
                found.update(
                    (relative, name) for name in names_in_page(path.read_text(encoding="utf-8"), names)
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


def test_the_scan_sees_a_page_that_tells_games_or_formats_apart_by_name() -> None:
    names = ("catacombs-3e", "catacombs-and-castles-2e", "castles-1v1", "catacombs-3e-campaign")
    template = """<h2>{% if format == "catacombs-3e-campaign" %}Leaderboard{% endif %}</h2>
    <script>const CORRECTIONS = {'catacombs-3e': []}; ruleset.startsWith("catacombs-and-");</script>
    <p>(catacombs-3e-reference.txt: Battle Phase) is a rulebook, "castles" a word</p>"""
    assert names_in_page(template, names) == {
        "catacombs-3e-campaign",
        "catacombs-3e",
        "catacombs-and-castles-2e",
    }


def test_the_scan_sees_a_game_word_in_the_hubs_code_and_pages(tmp_path: Path) -> None:
    module = tmp_path / "standings.py"
    module.write_text(
        '"""Standings, as the Castles rulebook ranks them (a docstring may cite it)."""\n'
        'TITLE = "Catacombs & Castles Open"\n'
        'MODE = {"coin-flick": "Coin flick singles"}\n',
        encoding="utf-8",
    )
    page = tmp_path / "standings.html"
    page.write_text("<h2>{% if campaign %}Catacombs leaderboard{% endif %}</h2>", encoding="utf-8")
    packages = {"catacombs", "castles", "coin_flick"}
    assert game_words_in(module, packages) == {"catacombs", "castles", "coin flick", "coin-flick"}
    assert game_words_in(page, packages) == {"catacombs"}


def test_the_hub_names_no_game_nor_a_word_of_one() -> None:
    """Its formats are the games' (``GameDefinition.tournament_formats``), and a campaign's score is read by
    the game the table plays (``service.games.party_progress``): a fifth game offers a tournament with no
    edit here."""
    assert sorted(hub_naming_files(game_packages())) == []


def test_no_module_outside_the_games_names_a_game_or_imports_a_games_package() -> None:
    found = naming_modules()
    assert sorted(found) == [], "ask the registry (service.games.definition_of) instead"
