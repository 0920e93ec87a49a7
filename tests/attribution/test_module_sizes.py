"""Each module of attribution reads in one sitting, as the games' and the rules core's do
(docs/architecture.md, "The house"): no module over 500 lines, and no function over 80 lines unless its
docstring says why it is kept whole ("Kept as one ...")."""

from __future__ import annotations

from pathlib import Path

import pytest

import service.attribution
from tests.games.test_module_sizes import MAX_MODULE_LINES, long_functions_without_a_reason

ROOT = Path(service.attribution.__file__).parent
MODULES = sorted(ROOT.rglob("*.py"))


def test_every_module_of_attribution_is_checked() -> None:
    names = {p.name for p in MODULES}
    assert {"infer.py", "gates.py", "camera.py", "acoustics.py", "learning.py"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_each_module_reads_in_one_sitting(module: Path) -> None:
    source = module.read_text(encoding="utf-8")
    assert len(source.splitlines()) <= MAX_MODULE_LINES
    assert long_functions_without_a_reason(source) == []
