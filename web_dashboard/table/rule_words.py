"""The rulings as a referee reads them: docs/rulings.md without the developer's signposts.

The rulings document serves two readers. Developers follow its code locations and setting names; a referee
who opens a refusal's "rule" link wants the ruling itself. So the page drops the "where in the code" column
and every code location, says setting names in words ("then any order"), names a rulebook by its title and
links it to its page (opened at the cited section where one is named), and turns "RULINGS.md 6" into a link
to ruling 6. The document stays the one source: nothing here restates a ruling.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from markdown_it.token import Token

CODE_COLUMN = "where in the code"
# A code span that points into the code rather than naming a setting or a value: a path, a module, a class.
CODE_LOCATION = re.compile(r"/|\.py\b|\w\.\w|^[A-Z][A-Za-z]+$|^[A-Z_]+$|\(\)")
RULEBOOK = re.compile(r"(?<![/\w.-])([a-z0-9]+(?:-[a-z0-9]+)+\.(?:txt|md))(?::\s*([^;)\"]*[^;)\"\s]))?")
RULING = re.compile(r"\bRULINGS\.md(?:\s+(\d+))?")
OTHER_FILE = re.compile(r"\s*\b[\w./-]+\.(?:py|yaml|yml|json|jsonl|md|txt)\b(?:,\s*)?")
EMPTY_BRACKETS = re.compile(r"\(\s*[,;:]?\s*\)")
EDITION = re.compile(r"^\d+e$")


def book_title(name: str) -> str:
    """ "catacombs-and-castles-1e-manual.txt" → "the Catacombs & Castles 1E manual"; the words before the
    edition are the game's name, the rest what the book is."""
    words = name.rsplit(".", 1)[0].split("-")
    out, in_title = [], True
    for word in words:
        if EDITION.match(word):
            out.append(word.upper())
            in_title = False
        elif word == "and" and in_title:
            out.append("&")
        elif word == "italian":
            out.append("(Italian)")
        else:
            out.append(word.capitalize() if in_title else word)
    return "the " + " ".join(out)


def for_people(tokens: list[Token]) -> list[Token]:
    """The parsed rulings with the code column dropped and every inline run put in words."""
    tokens = list(_without_column(tokens, CODE_COLUMN))
    for token in tokens:
        if token.type == "inline" and token.children is not None:
            token.children = _tidy(list(_in_words(token.children)))
    return tokens


def _without_column(tokens: list[Token], heading: str) -> Iterator[Token]:
    """Every token but the cells of the column whose header reads ``heading`` (in each table that has one)."""
    drop: int | None = None
    cell = -1
    skipping = False
    for i, token in enumerate(tokens):
        if token.type == "table_open":
            drop = _column_index(tokens, i, heading)
        elif token.type == "tr_open":
            cell = -1
        elif token.type in ("th_open", "td_open"):
            cell += 1
            skipping = drop is not None and cell == drop
        if not skipping:
            yield token
        if token.type in ("th_close", "td_close"):
            skipping = False
        elif token.type == "table_close":
            drop = None


def _column_index(tokens: list[Token], start: int, heading: str) -> int | None:
    index = -1
    for token in tokens[start:]:
        if token.type == "th_open":
            index += 1
        elif token.type == "inline" and index >= 0 and token.content.strip().casefold() == heading:
            return index
        elif token.type == "tr_close":
            return None
    return None


def _in_words(children: list[Token]) -> Iterator[Token]:
    for child in children:
        if child.type == "code_inline":
            if not CODE_LOCATION.search(child.content):
                child.content = child.content.replace("_", " ")
                yield child
        elif child.type == "text":
            yield from _text_in_words(child.content)
        else:
            yield child


def _text_in_words(text: str) -> Iterator[Token]:
    """Rulebook names as links under their titles, "RULINGS.md 6" as a link to ruling 6, other files
    dropped."""
    position = 0
    pattern = re.compile(f"{RULEBOOK.pattern}|{RULING.pattern}")
    for match in pattern.finditer(text):
        yield _text(OTHER_FILE.sub("", text[position : match.start()]))
        book, ruling = match.group(1), match.group(3)
        section = (match.group(2) or "").rstrip(": ")  # 'Team Actions: "this is not optional"': the heading
        if book is not None and not book.startswith("RULINGS"):
            href = f"/rules/book/{book}"
            words = book_title(book)
            if section:
                href += "?section=" + re.sub(r"\s+", "%20", section)
                words += f": {section}"
            yield from _link(href, words)
        else:
            anchor = f"#ruling-{ruling}" if ruling else ""
            yield from _link("/rules/rulings" + anchor, f"ruling {ruling}" if ruling else "the rulings")
        position = match.end()
    yield _text(OTHER_FILE.sub("", text[position:]))


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _link(href: str, words: str) -> list[Token]:
    opening = Token("link_open", "a", 1)
    opening.attrSet("href", href)
    return [opening, _text(words.strip()), Token("link_close", "a", -1)]


def _tidy(children: list[Token]) -> list[Token]:
    """Brackets left empty where a code location stood, and doubled spaces, are taken out."""
    for child in children:
        if child.type == "text":
            child.content = EMPTY_BRACKETS.sub("", child.content).replace("  ", " ")
            child.content = re.sub(r"\(\s*,\s*", "(", child.content)
    return children
