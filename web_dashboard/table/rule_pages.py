"""The rules a refusal cites, as pages the referee's "rule" link opens: read-only, GET only, no login.

``/rules/rulings`` is docs/rulings.md, each ruling's row anchored as ``#ruling-<n>`` (a refusal citing
"RULINGS.md 5" links to ``#ruling-5``). ``/rules/book/<file>`` is a rulebook transcription from the table's
rulebook folder (``RULEBOOKS_DIR``, or the ``SMARTMAT_RULEBOOKS_DIR`` environment variable), every heading
anchored; ``?section=Battle Phase: Taking Damage`` sends the browser to the heading that section names. The
rulebooks are the publisher's text: a table that keeps no copy says so, with the section the rule cited.

Markdown is rendered by markdown-it-py with raw HTML turned off, so nothing in a document reaches the page
unescaped; a plain-text rulebook is escaped by Jinja.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, redirect, render_template, request, url_for
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from web_dashboard.table import rule_words
from web_dashboard.table.resources import current_dashboard

bp = Blueprint("rules", __name__, url_prefix="/rules")

REPOSITORY_DOCS = Path(__file__).resolve().parents[2] / "docs"
BOOK_NAME = re.compile(r"[A-Za-z0-9][\w-]*\.(?:txt|md)")  # a plain file name: no folder, no "..", no dot file
MAX_HEADING_CHARS = 70


def slug(text: str) -> str:
    """ "Battle Phase: Taking Damage" → "battle-phase-taking-damage"; letters of any language are kept."""
    return re.sub(r"[\W_]+", "-", text.casefold()).strip("-") or "section"


@dataclass(frozen=True)
class Block:
    """One piece of a plain-text rulebook: a heading (with its anchor) or a paragraph."""

    text: str
    anchor: str | None = None


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _unique(anchor: str, taken: set[str]) -> str:
    n, candidate = 1, anchor
    while candidate in taken:
        n += 1
        candidate = f"{anchor}-{n}"
    taken.add(candidate)
    return candidate


def render_markdown(text: str, *, for_people: bool = False) -> tuple[Markup, list[str]]:
    """The document as HTML (raw HTML in it escaped) with an id on every heading and on every table row whose
    first cell is a number (``ruling-<n>``); returns the HTML and the anchors in order. ``for_people``:
    without the developer's signposts (rule_words.py)."""
    md = _markdown()
    tokens = md.parse(text)
    if for_people:
        tokens = rule_words.for_people(tokens)
    taken: set[str] = set()
    anchors: list[str] = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            anchor = _unique(slug(tokens[i + 1].content), taken)
        elif token.type == "tr_open" and (number := _first_cell_number(tokens, i)) is not None:
            anchor = _unique(f"ruling-{number}", taken)
        else:
            continue
        token.attrSet("id", anchor)
        anchors.append(anchor)
    return Markup(md.renderer.render(tokens, md.options, {})), anchors


def _first_cell_number(tokens: list[Token], row: int) -> int | None:
    # tr_open, td_open, inline, ...: a header row (th) never names a ruling
    if row + 2 < len(tokens) and tokens[row + 1].type == "td_open":
        content = tokens[row + 2].content.strip()
        if content.isdigit():
            return int(content)
    return None


def plain_text_blocks(text: str) -> list[Block]:
    """A plain-text transcription, split at blank lines. A lone short line that reads as a title (no tab,
    no closing punctuation) is a heading with an anchor; the contents table's lines hold tabs: never one."""
    taken: set[str] = set()
    blocks = []
    for chunk in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        chunk = chunk.strip("\n")
        if not chunk.strip():
            continue
        line = chunk.strip()
        titled = len(line) <= MAX_HEADING_CHARS and line[-1] not in ".,;:"
        if titled and "\n" not in line and "\t" not in line:
            blocks.append(Block(line, _unique(slug(line), taken)))
        else:
            blocks.append(Block(chunk))
    return blocks


def section_anchor(section: str, anchors: list[str]) -> str | None:
    """The heading a citation's section names. "Battle Phase: Taking Damage" may be the heading "Taking
    Damage" under "Battle Phase", or one heading with the whole name; "Nullifying Shots; Suppression" names
    two sections, the first wins. The most specific heading found is taken."""
    known = set(anchors)
    for part in (p.strip() for p in section.split(";")):
        pieces = [p.strip() for p in part.split(":") if p.strip()]
        for candidate in [part, *reversed(pieces)]:
            if slug(candidate) in known:
                return slug(candidate)
    return None


def _docs_dir() -> Path:
    configured = current_app.config.get("DOCS_DIR") or os.environ.get("SMARTMAT_DOCS_DIR")
    return Path(configured) if configured else REPOSITORY_DOCS


def _rulebooks_dir() -> Path | None:
    configured = current_app.config.get("RULEBOOKS_DIR") or os.environ.get("SMARTMAT_RULEBOOKS_DIR")
    return Path(configured) if configured else None


@bp.get("/rulings")
def rulings() -> str:
    path = _docs_dir() / "rulings.md"
    try:
        html, _ = render_markdown(path.read_text(encoding="utf-8"), for_people=True)
    except FileNotFoundError:
        abort(404, description=f"the rulings ({path}) are not installed at this table; set SMARTMAT_DOCS_DIR")
    return render_template("rules.html", table=current_dashboard().table, title="Rulings", html=html)


@bp.get("/book/<name>")
def book(name: str) -> Response | str:
    if not BOOK_NAME.fullmatch(name):
        abort(404, description=f"{name!r} is not a rulebook file name (such as catacombs-3e-reference.txt)")
    section = request.args.get("section", "").strip()
    folder = _rulebooks_dir()
    path = folder / name if folder else None
    table = current_dashboard().table
    if path is None or not path.is_file():
        where = f"in {folder}" if folder else "(no rulebook folder is set: SMARTMAT_RULEBOOKS_DIR)"
        title = rule_words.book_title(name)
        response = Response(
            render_template("rules.html", table=table, title=title, missing=where, section=section),
            status=404,
        )
        return response
    text = path.read_text(encoding="utf-8", errors="replace")
    if name.endswith(".md"):
        html, anchors = render_markdown(text)
        blocks: list[Block] = []
    else:
        html, blocks = None, plain_text_blocks(text)
        anchors = [b.anchor for b in blocks if b.anchor]
    if section:
        anchor = section_anchor(section, anchors)
        if anchor:
            return redirect(url_for("rules.book", name=name) + "#" + anchor)  # type: ignore[return-value]
    return render_template(
        "rules.html",
        table=table,
        title=rule_words.book_title(name),
        html=html,
        blocks=blocks,
        section=section,
        not_found=bool(section),
    )
