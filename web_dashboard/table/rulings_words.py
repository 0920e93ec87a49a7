"""The rulings (docs/rulings.md) as the people at the table read them: docs/rulings.md is also the developers'
map of where each ruling is applied, so its code spans name files, functions and table-file keys. On the page
a command is said in words (the command catalogue's summary) and every other code reference leaves the
sentence for a folded "In the code" note under it, so what people read is the ruling itself.
"""

from __future__ import annotations

import re
from html import escape

from markdown_it.token import Token

from service.table.commands.catalogue import CATALOGUE

GAP = "\x00"  # where a code reference stood, until the sentence around it is tidied
# A code span that reads as a word (a field of a card, "yes") stays; one with a path, a dot, an underscore,
# a placeholder or a key's colon is for developers.
PLAIN_WORD = re.compile(r"[a-z]+(?: [a-z]+)*")
# The rulebook transcriptions a ruling cites, by the titles people know them by.
BOOK_TITLES = {
    "catacombs-3e-reference.txt": "the Catacombs 3E rulebook",
    "catacombs-3e-shot-modifiers.txt": "the Catacombs 3E shot modifiers",
    "catacombs-1e-rules-italian.txt": "the Catacombs 1E rulebook (Italian)",
    "catacombs-and-castles-1e-manual.txt": "the Catacombs & Castles 1E manual",
    "catacombs-and-castles-2e-manual.md": "the Catacombs & Castles 2E manual",
}
FILE_PATH = re.compile(r"[\w./-]+\.(?:py|md|yaml|yml|txt|jsonl|json)\b")
RULING_CITED = re.compile(r"\bRULINGS\.md (\d+)")
TIDY = (
    (re.compile(rf"\b(?:Code|code):\s*(?:{GAP}[\s,;]*)+\.?"), ""),  # "Code: `a.py` `f`, `g`." goes whole
    (re.compile(rf" ?\([^()]*{GAP}[^()]*\)"), ""),  # an aside about the code: "(`plan`, `tx.py`)"
    (re.compile(rf"(?:{GAP}[\s,;]*)*{GAP}"), ""),
    (re.compile(r"\(\s*[,;]?\s*\)"), ""),
    (re.compile(r"\(\s*[,;:]\s*"), "("),
    (re.compile(r"\s*[,;:]\s*\)"), ")"),
    (re.compile(r"[,;:]\s*([.;])"), r"\1"),
    (re.compile(r" {2,}"), " "),
    (re.compile(r" +([,.;:)])"), r"\1"),
)


def command_words(name: str) -> str | None:
    """ "enter_room" → "“flip the next Room card”": a command as its catalogue summary's first clause."""
    spec = CATALOGUE.get(name)
    if spec is None:
        return None
    clause = re.split(r" \(|\. |: ", spec.summary.rstrip("."), maxsplit=1)[0]
    return f"“{clause[0].lower()}{clause[1:]}”"


def book_title(name: str) -> str:
    """A rulebook file's title: "catacombs-3e-reference.txt" → "the Catacombs 3E rulebook"; a file not known
    here reads as its name in words ("house-rules.md" → "house rules")."""
    if name in BOOK_TITLES:
        return BOOK_TITLES[name]
    return re.sub(r"[-_]+", " ", name.rsplit(".", 1)[0])


def _fold_paths(text: str, taken: list[str]) -> str:
    """Rulebooks by title, "RULINGS.md 6" as "ruling 6", and any other file for the "In the code" note."""
    for name, title in BOOK_TITLES.items():
        text = text.replace(name, title)
    text = RULING_CITED.sub(r"ruling \1", text)

    def fold(match: re.Match[str]) -> str:
        taken.append(match.group(0))
        return GAP

    return FILE_PATH.sub(fold, text)


def _tidy(text: str) -> str:
    for pattern, replacement in TIDY:
        text = pattern.sub(replacement, text)
    return text


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _words_of(inline: Token) -> list[str]:
    """Rewrites ``inline``'s children for people; returns the code references taken out of it."""
    children: list[Token] = []
    taken: list[str] = []
    for child in inline.children or []:
        if child.type == "code_inline" and not PLAIN_WORD.fullmatch(child.content):
            words = command_words(child.content)
            if words is None:
                taken.append(child.content)
            child = _text(words or GAP)
        elif child.type == "text":
            child.content = _fold_paths(child.content, taken)
        if child.type == "text" and children and children[-1].type == "text":
            children[-1].content += child.content
        else:
            children.append(child)
    for child in children:
        if child.type == "text":
            child.content = _tidy(child.content)
    inline.children = children
    return taken


def _in_the_code(references: list[str]) -> Token:
    note = Token("html_block", "", 0)
    codes = " ".join(f"<code>{escape(r)}</code>" for r in references)
    note.content = f'<details class="in-code"><summary>In the code</summary><p>{codes}</p></details>\n'
    return note


CODE_COLUMN = "where in the code"  # the rulings table's column for developers: folded whole


def for_people(tokens: list[Token]) -> list[Token]:
    """The document's tokens with each block's code references folded under it (see the module's words)."""
    out: list[Token] = []
    waiting: Token | None = None  # a note for the paragraph being closed
    headers: list[str] = []
    column = 0
    for n, token in enumerate(tokens):
        out.append(token)
        if token.type == "tr_open":
            column = 0
        elif token.type in ("th_open", "td_open"):
            column += 1
            if token.type == "th_open":
                headers.append(tokens[n + 1].content.strip())
        if token.type == "inline":
            in_code_column = tokens[n - 1].type == "td_open" and headers[column - 1 : column] == [CODE_COLUMN]
            if in_code_column:
                taken, token.children = [token.content], []
            else:
                taken = _words_of(token)
            if taken:
                waiting = _in_the_code(taken)
            continue
        if waiting is not None:
            if token.type == "paragraph_close" and not token.hidden:
                out.append(waiting)
            else:
                out.insert(len(out) - 1, waiting)
            waiting = None
    return out
