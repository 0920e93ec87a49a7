"""The Catacombs rulebooks the flow's refusals cite (``<file>: <section>``), as the referee looks them up."""

from __future__ import annotations

REFERENCE = "catacombs-3e-reference.txt"
MODIFIERS = "catacombs-3e-shot-modifiers.txt"


def cite(section: str, file: str = REFERENCE) -> str:
    return f"{file}: {section}"
