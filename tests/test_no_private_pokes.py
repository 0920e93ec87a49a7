"""Tests reach the product through its public API (docs/architecture.md, "Writing a game test"): no test reads
or calls another object's ``_private`` attribute, nor imports a ``_private`` name of the product. A test that
needs a seam gives the product a small public one."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PRODUCT = ("service", "firmware_bridge", "web_dashboard")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def pokes(source: str) -> list[str]:
    """Each ``obj._name`` (obj neither ``self`` nor ``cls``) and ``from <product> import _name``, by line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PRODUCT):
            found += [f"{node.lineno}: import {a.name}" for a in node.names if _private(a.name)]
    return sorted(found, key=lambda hit: int(hit.split(":")[0]))


def test_the_check_sees_a_poke_and_passes_self() -> None:
    assert pokes("table._record(x)\nself._own = 1\nfrom service.app.cli import _size_of\n") == [
        "1: ._record",
        "3: import _size_of",
    ]


def test_no_test_pokes_a_private_attribute() -> None:
    found = {
        str(path.relative_to(TESTS)): hits
        for path in sorted(TESTS.rglob("*.py"))
        if (hits := pokes(path.read_text(encoding="utf-8")))
    }
    assert found == {}
