"""A checker over what a page shows people: no raw id, command name, record number, file name or Python
literal in its visible text, no horizontal scroll, and every control big enough for a finger and on screen."""

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


# Every control a finger taps, as drawn now: at least 44 px high (WCAG 2.5.5's target size; a checkbox counts
# its whole labelled row) and inside the screen's width. Hidden controls and folded details are skipped, and
# so is a link inside a sentence.
_SMALL_CONTROLS = """() => {
  const out = [];
  const width = document.documentElement.clientWidth + 0.5;
  for (const el of document.querySelectorAll("button, a, select, input:not([type=hidden]), summary")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest("[hidden]")) continue;
    if (el.closest("details:not([open]) > :not(summary)")) continue;
    // A link inside a sentence is exempt (WCAG 2.5.8's "inline" exception): the line height sets its size.
    if (el.tagName === "A" && getComputedStyle(el).display === "inline" && el.closest("p, li, td")) continue;
    const row = el.closest("label.check");
    const h = row ? row.getBoundingClientRect().height : r.height;
    if (h >= 44 && r.left >= 0 && r.right <= width) continue;
    const name = (el.textContent || el.name || "").trim().slice(0, 30);
    const size = `${Math.round(r.width)} x ${Math.round(h)} px at x ${Math.round(r.left)}`;
    out.push(`${el.tagName.toLowerCase()} "${name}": ${size}`);
  }
  return out;
}"""


def small_controls(page: Any) -> list[str]:
    """Every visible control on ``page`` lower than 44 px or reaching past the screen's edge."""
    found: list[str] = page.evaluate(_SMALL_CONTROLS)
    return found


# The size on screen of every visible piece of text in the viewport: CSS pixels, and for SVG text its size in
# the drawing's units times the drawing's scale.
_TEXT_SIZES = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode.textContent.trim();
    const el = walker.currentNode.parentElement;
    if (!text || !el || !el.getClientRects().length) continue;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.bottom <= 0 || r.top >= innerHeight || style.visibility === "hidden") continue;
    let px = parseFloat(style.fontSize);
    const svg = el.closest("svg");
    if (svg && svg.viewBox.baseVal.width) px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    out.push([Math.round(px * 10) / 10, text.slice(0, 40)]);
  }
  return out;
}"""


def text_smaller_than(page: Any, px: float) -> list[str]:
    """Every visible text in the viewport drawn smaller than ``px``, as "<size> px: <text>"."""
    sizes: list[list[Any]] = page.evaluate(_TEXT_SIZES)
    return [f"{size} px: {text}" for size, text in sizes if size < px - 0.5]


def page_scrolls(page: Any) -> bool:
    """Whether the page is larger than its window either way (a TV has no one to scroll it)."""
    root = "document.documentElement"
    scroll: list[int] = page.evaluate(f"[{root}.scrollWidth - innerWidth, {root}.scrollHeight - innerHeight]")
    return max(scroll) > 0


def in_view_together(control: Any, answer: Any) -> bool:
    """Whether a control and the answer to it are both inside the window as it is scrolled now: the person
    who tapped sees the answer without scrolling."""
    found: bool = control.page.evaluate(
        """([a, b]) => [a, b].every((el) => { const r = el.getBoundingClientRect();
            return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; })""",
        [control.element_handle(), answer.element_handle()],
    )
    return found
