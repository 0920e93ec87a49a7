"""Prints the lines of a plain-text manual that may be section headings, for a person to read against it.

A heading is a short line standing alone between blank lines (the Italian translation), or a short line whose
words all start with a capital (the Catacombs & Castles 1E manual, a page layout turned to text). Neither rule
is exact, so the lists beside this file were made with it and then checked by hand. From the repository root:

    python tests/data/rulebook-headings/candidates.py ../shared/rulebooks/catacombs-1e-rules-italian.txt

Not a test: the suite reads only the lists (tests/games/test_first_edition_coverage.py).
"""

from __future__ import annotations

import re
import sys

SMALL = {"a", "an", "the", "and", "or", "of", "in", "to", "for", "on", "at", "by", "with", "vs", "from"}


def standing_alone(lines: list[str]) -> list[tuple[int, str]]:
    found = []
    for i, line in enumerate(lines):
        text = line.strip()
        if not text or len(text) > 70 or text.endswith((".", ",", ";", ":")) or text.startswith(("-", "*")):
            continue
        before = i == 0 or not lines[i - 1].strip()
        after = i + 1 == len(lines) or not lines[i + 1].strip()
        if before and after and (text[0].isupper() or text[0].isdigit()):
            found.append((i + 1, text))
    return found


def title_case(lines: list[str]) -> list[tuple[int, str]]:
    found = []
    for i, line in enumerate(lines):
        text = re.sub(r"<\|[^|]*\|>", "", line).strip()
        if not text or len(text) > 60 or text.endswith((".", ",", ";")) or re.search(r"\bx\d|piece", text):
            continue
        words = re.findall(r"[A-Za-z’']+", text)
        big = [w for w in words if w.lower() not in SMALL]
        if big and len(words) <= 9 and all(w[0].isupper() for w in big):
            found.append((i + 1, text))
    return found


def main(path: str) -> None:
    lines = open(path, encoding="utf-8").read().split("\n")
    seen = set()
    for number, text in sorted(standing_alone(lines) + title_case(lines)):
        if (number, text) not in seen:
            seen.add((number, text))
            print(f"{number}\t{text}")


if __name__ == "__main__":
    main(sys.argv[1])
