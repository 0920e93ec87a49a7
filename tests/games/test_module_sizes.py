"""Each module of the games and the rules core reads in one sitting (docs/architecture.md, "The house"):
no module over 500 lines, and no function over 80 lines unless its docstring says why it is kept whole
("Kept as one ...")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import service.games
import service.rules

ROOTS = (Path(service.games.__file__).parent, Path(service.rules.__file__).parent)
MODULES = sorted(p for root in ROOTS for p in root.rglob("*.py"))
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def long_functions_without_a_reason(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES and "Kept as one" not in (ast.get_docstring(node) or ""):
                found.append(f"{node.name} ({length} lines)")
    return found


def test_the_check_sees_a_long_function_without_a_reason() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    assert long_functions_without_a_reason(f"def f():\n{body}") == [f"f ({MAX_FUNCTION_LINES + 1} lines)"]
    kept = f'def f():\n    """Kept as one function: a table."""\n{body}'
    assert long_functions_without_a_reason(kept) == []


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(ROOTS[0].parents[1])))
def test_each_module_reads_in_one_sitting(module: Path) -> None:
    source = module.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MAX_MODULE_LINES
    assert long_functions_without_a_reason(source) == []
