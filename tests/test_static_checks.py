"""The code's own rules: lint clean, the import contracts hold (layers, no cycles, the rules core free of
I/O), and every package type-checks under mypy --strict."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PACKAGES = ("service", "firmware_bridge", "web_dashboard")


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=170)


def test_import_contracts_hold() -> None:
    """The layers of docs/architecture.md, no package or module cycles, the rules core free of I/O, only the
    transport opening a serial port (pyproject.toml, [tool.importlinter])."""
    result = run(str(BIN / "lint-imports"), "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert {"layers", "acyclic_siblings"} <= {c["type"] for c in contracts}


def _package_of(module: str) -> str:
    # service.attribution, service.simulator, web_dashboard.server: one level below the roots
    return ".".join(module.split(".")[:2])


def _cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The groups of packages that reach one another (strongly connected, more than one package)."""
    out: dict[str, set[str]] = {}
    for a, b in edges:
        out.setdefault(a, set()).add(b)

    def reach(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for nxt in out.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reached = {node: reach(node) for node in out}
    cyclic = [n for n in out if n in reached[n]]
    groups = {frozenset({n} | {m for m in reached[n] if n in reached.get(m, ())}) for n in cyclic}
    return sorted(sorted(g) for g in groups)


def test_no_package_imports_one_that_imports_it_back_across_the_roots() -> None:
    """The acyclic_siblings contract compares the children of one package; this compares the packages of all
    three roots with one another, so a simulator that imports attribution back is caught too. Type-only
    imports count: they stand for the same dependency."""
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)
    edges = {
        (_package_of(importer), _package_of(imported))
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if _package_of(importer) != _package_of(imported)
    }
    assert ("service.sensing", "service.mat") in edges  # the graph is the real one
    assert _cycles(edges) == []


def test_the_cycle_check_sees_a_cycle() -> None:
    assert _cycles({("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}) == [["a", "b", "c"]]


def test_lint() -> None:
    result = run(str(BIN / "ruff"), "check", "--no-cache", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_every_package_passes_mypy_strict(tmp_path: Path) -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True
    assert sorted(config["files"]) == sorted(PACKAGES)
    result = run(str(BIN / "mypy"), "--cache-dir", str(tmp_path / "mypy-cache"))
    assert result.returncode == 0, result.stdout + result.stderr
    # Every source file of the three packages was read, not a subset of them.
    checked = re.search(r"no issues found in (\d+) source files", result.stdout)
    assert checked, result.stdout
    sources = [p for package in PACKAGES for p in (REPO / package).rglob("*.py")]
    assert int(checked.group(1)) == len(sources)
