"""Every section heading of the two first-edition manuals is in its rule coverage table (docs/rules-api.md):
implemented, with the module and a test that cites the section, or decided in docs/rulings.md. The headings
are listed in tests/data/rulebook-headings/ (made from the manuals, which the suite does not read)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADINGS = ROOT / "tests" / "data" / "rulebook-headings"
TABLES = {
    "catacombs-1e-rules-italian.txt": "### Rule coverage (Catacombs 1E)",
    "catacombs-and-castles-1e-manual.txt": "### Rule coverage (Catacombs & Castles 1E)",
}
DECIDED = "—"  # the "what is implemented" cell of a section decided in docs/rulings.md


def headings(manual: str) -> list[str]:
    lines = (HEADINGS / manual).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def rows(manual: str) -> list[list[str]]:
    """The coverage table's rows under the manual's heading, as lists of cells (header and rule left out)."""
    lines = (ROOT / "docs" / "rules-api.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(TABLES[manual])
    found = []
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        if line.startswith("|"):
            found.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return found[2:]


def sections(cell: str) -> list[str]:
    """The sections a cell names: "Team Mode Setup (Hero Rules Card, Ability Cards)" names three."""
    return [part.strip() for part in re.split(r"[(),]", cell) if part.strip()]


@cache
def files_of_tests() -> dict[str, Path]:
    return {p.name: p for p in (ROOT / "tests").rglob("test_*.py")}


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("manual", sorted(TABLES))
def test_every_section_of_the_manual_is_in_its_coverage_table(manual: str) -> None:
    """docs/rules-api.md (rule coverage): "every section of both manuals", implemented or decided"""
    named = {section for row in rows(manual) for section in sections(row[0])}
    assert [h for h in headings(manual) if h not in named] == []
    assert len(headings(manual)) > 25  # the lists are whole manuals, not a sample


@pytest.mark.parametrize("manual", sorted(TABLES))
def test_each_section_is_cited_by_a_listed_test_or_decided_in_the_rulings(manual: str) -> None:
    """docs/rules-api.md (rule coverage): an implemented section names its module and a test that cites it"""
    rulings = flat((ROOT / "docs" / "rulings.md").read_text(encoding="utf-8"))
    missing = []
    for row in rows(manual):
        first, done, _, where = row
        if done == DECIDED:
            missing += [s for s in sections(first) if f"{manual}: {s}" not in rulings]
            continue
        listed = re.findall(r"`([^`]+\.py)`", where)
        modules = [ROOT / m for m in listed if "/" in m]
        tests = [files_of_tests()[t] for t in listed if "/" not in t]
        assert tests and all(m.exists() for m in modules), row
        cited = " ".join(flat(t.read_text(encoding="utf-8")) for t in tests)
        assert manual in cited, row
        missing += [s for s in sections(first) if s not in cited]
    assert missing == []
