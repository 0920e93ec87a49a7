"""A checker over what a page shows people: no raw id, command name, record number, file name or Python
literal in its visible text, and no horizontal scroll."""

from __future__ import annotations

import re
from typing import Any

# Each pattern names what it catches; the text checked is the page's rendered ``innerText`` (what is visible).
PATTERNS = {
    "raw id": re.compile(
        r"(?<![\w/-])(?:hero|monster|lord|boss|warrior|ally|side|dungeon|vermin|undead|infernal)-[a-z0-9-]*[a-z0-9]\b"
    ),
    "command name": re.compile(
        r"\b(?:setup_game|confirm_hits|manual_shot|dismiss_shot|new_game|enrol_start|assign_tracker|"
        r"resolve_shot|end_turn|skip_shot|start_battle|enter_room|set_health|set_gold|bind_disc)\b"
    ),
    "code name": re.compile(r"(?<![\w/.-])[a-z]+(?:_[a-z]+)+(?![\w/.-])"),  # ice_boulder, pending_shot
    "record number": re.compile(r"\b(?:record|seq|log seq)\s*#?\d+\b", re.IGNORECASE),
    "file name": re.compile(r"\b[\w-]+\.(?:txt|md|yaml|yml|json|jsonl|py|sqlite)\b"),
    # A value as Python prints it: a list or dict of strings, or None/True/False where a value stands (after
    # ":", "=", "(", "[" or ","), not "None right?" opening a sentence.
    "Python literal": re.compile(r"\[\s*'[^']*'|\{\s*'[^']*'\s*:|[:=(\[,]\s?(?:None|True|False)\b"),
}


def text_problems(text: str) -> list[str]:
    """Every match in ``text``, as "<what>: <the words around it>"."""
    found = []
    for what, pattern in PATTERNS.items():
        for match in pattern.finditer(text):
            start, end = max(0, match.start() - 30), match.end() + 30
            found.append(f"{what}: …{text[start:end]}…".replace("\n", " "))
    return found


def page_problems(page: Any) -> list[str]:
    """What a person would trip over on ``page`` as rendered now: words, and a page wider than the screen."""
    problems = text_problems(page.evaluate("document.body.innerText"))
    wide = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    if wide[0] > wide[1]:
        problems.append(f"horizontal scroll: the page is {wide[0]} px wide on a {wide[1]} px screen")
    return problems
