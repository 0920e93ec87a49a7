"""Each game's rules do no I/O, for every game in the registry (docs/architecture.md, "The house").

The contract is drawn from the registry rather than listed in pyproject.toml, so a new game is covered
without a line there: a game's rules are the packages its rule set class and the classes it builds on come
from (``service/games/catacombs/flow`` and ``third_edition`` for Catacombs 3E). No import chain may lead
from them to a port, the broker, the web, a database, the clock, chance, physics, a file parser, or a part
of the product above the games. Its content module and game-log adapter, beside the rules in the game's
package, are the game's side that reads files.
"""

from __future__ import annotations

import grimp
import pytest

from service.games import definitions

# The same list as the rules core's contract in pyproject.toml ("The rules core does no I/O").
FORBIDDEN = (
    "serial",
    "paho",
    "flask",
    "sqlite3",
    "socket",
    "time",
    "random",
    "pymunk",
    "yaml",
    "jsonschema",
    "service.content",
    "service.publish",
    "service.eventlog",
    "service.gamelog",
    "service.table",
    "service.daemon",
    "firmware_bridge",
    "web_dashboard",
)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("service", "firmware_bridge", "web_dashboard", include_external_packages=True)


def rules_packages() -> list[tuple[str, str]]:
    """(rule set, package) for each package a registered rule set's class or one of its bases lives in."""
    found = set()
    for game in definitions():
        for cls in game.ruleset.__mro__:
            if cls.__module__.startswith("service.games."):
                found.add((game.name, cls.__module__.rsplit(".", 1)[0]))
    return sorted(found)


def forbidden_chains(graph: grimp.ImportGraph, package: str) -> list[tuple[str, ...]]:
    chains = []
    for forbidden in FORBIDDEN:
        if forbidden in graph.modules:
            chain = graph.find_shortest_chain(importer=package, imported=forbidden, as_packages=True)
            if chain is not None:
                chains.append(chain)
    return chains


def test_the_rules_packages_are_each_games_own() -> None:
    packages = dict.fromkeys(package for _, package in rules_packages())
    assert {
        "service.games.catacombs.flow",
        "service.games.catacombs.third_edition",
        "service.games.catacombs.first_edition",
        "service.games.castles.second_edition",
        "service.games.castles.first_edition",
    } <= set(packages)
    assert all(package.startswith("service.games.") for package in packages)


@pytest.mark.parametrize(("ruleset", "package"), rules_packages(), ids=lambda v: v)
def test_a_games_rules_reach_no_io(graph: grimp.ImportGraph, ruleset: str, package: str) -> None:
    assert forbidden_chains(graph, package) == []


def test_the_check_sees_a_chain_to_a_file_parser(graph: grimp.ImportGraph) -> None:
    """The content loaders beside the rules do read files: the check finds that chain."""
    chains = forbidden_chains(graph, "service.games.castles.loading")
    assert any(chain[-1] == "yaml" or chain[-1] == "jsonschema" for chain in chains)
