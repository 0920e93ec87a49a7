"""The pages a refusal's "rule" link opens: the rulings (docs/rulings.md) and the section of a rulebook.

A rulebook here is a small transcription written by the test (the real ones are the publisher's text and live
outside the repository); the rulings page reads the repository's own docs/rulings.md.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers.page_words import text_problems
from web_dashboard.table.rule_pages import REPOSITORY_DOCS, plain_text_blocks, render_markdown, section_anchor
from web_dashboard.table.rule_words import book_title

BOOK = """Contents
Taking Damage\t13\tSummon Shot\t29
Hero Death\t14\tAdvanced Concepts\t31

Battle Phase

Each round the heroes act first.

Taking Damage

A character hit by an enemy loses one health.
Heroes never damage one another.

Hero Death
"""


def test_every_ruling_of_the_rulings_page_has_its_own_anchor(client: FlaskClient) -> None:
    """RULINGS.md: a refusal citing "RULINGS.md 5" opens the page at ruling 5."""
    page = client.get("/rules/rulings")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    numbered = [
        line.split("|")[1].strip()
        for line in (REPOSITORY_DOCS / "rulings.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| ") and line.split("|")[1].strip().isdigit()
    ]
    assert len(numbered) >= 10
    for n in numbered:
        assert f'<tr id="ruling-{n}">' in html
    assert 'id="rulings-smartmat-applies"' in html  # the title, as a heading anchor


def test_html_in_a_document_is_shown_as_text_never_run() -> None:
    html, anchors = render_markdown(
        "# Rulings <script>\n\n| # | ruling |\n|---|---|\n"
        "| 3 | <img src=x onerror=alert(1)> |\n\n<b>raw</b>\n"
    )
    assert "<script>" not in html and "<img" not in html and "<b>raw</b>" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert anchors == ["rulings-script", "ruling-3"]


def test_a_plain_text_rulebook_anchors_its_headings_but_not_its_contents_table() -> None:
    blocks = plain_text_blocks(BOOK)
    assert [b.anchor for b in blocks if b.anchor] == ["battle-phase", "taking-damage", "hero-death"]
    assert blocks[0].anchor is None and "Summon Shot" in blocks[0].text
    anchors = [b.anchor for b in blocks if b.anchor]
    assert section_anchor("Battle Phase: Taking Damage", anchors) == "taking-damage"
    assert section_anchor("Nullifying Shots; Hero Death", anchors) == "hero-death"
    assert section_anchor("Castle Sieges", anchors) is None


def test_a_cited_section_opens_the_rulebook_at_its_heading(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    (tmp_path / "catacombs-3e-reference.txt").write_text(
        BOOK + "\n<script>alert(1)</script>\n", encoding="utf-8"
    )
    app.config["RULEBOOKS_DIR"] = str(tmp_path)
    cited = client.get("/rules/book/catacombs-3e-reference.txt?section=Battle Phase: Taking Damage")
    assert cited.status_code == 302
    assert cited.headers["Location"].endswith("/rules/book/catacombs-3e-reference.txt#taking-damage")
    page = client.get("/rules/book/catacombs-3e-reference.txt").get_data(as_text=True)
    assert '<h3 id="taking-damage">Taking Damage</h3>' in page
    assert "Heroes never damage one another." in page
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    # A section no heading names: the book is shown, and says so.
    unknown = client.get("/rules/book/catacombs-3e-reference.txt?section=Castle Sieges")
    assert unknown.status_code == 200 and "No heading here is named “Castle Sieges”" in unknown.get_data(
        as_text=True
    )


def test_a_table_without_the_rulebook_names_the_section_cited(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    app.config["RULEBOOKS_DIR"] = str(tmp_path)
    page = client.get("/rules/book/catacombs-3e-reference.txt?section=Hero Death")
    assert page.status_code == 404
    html = page.get_data(as_text=True)
    assert f"This table keeps no copy of the Catacombs 3E reference in {tmp_path}" in html
    assert '<strong id="cited-section">Hero Death</strong>' in html


def test_only_a_rulebook_file_of_the_folder_is_served(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    (tmp_path / "books").mkdir()
    (tmp_path / "secret.txt").write_text("the referee PIN is 1234", encoding="utf-8")
    app.config["RULEBOOKS_DIR"] = str(tmp_path / "books")
    for name in ("..%2Fsecret.txt", "%2E%2E%2Fsecret.txt", ".hidden.txt", "pin.yaml"):
        response = client.get(f"/rules/book/{name}")
        assert response.status_code == 404
        assert "PIN is 1234" not in response.get_data(as_text=True)
    assert client.post("/rules/rulings").status_code in (400, 405)  # read-only


def test_the_rulings_read_as_rulings_for_a_referee(client: FlaskClient) -> None:
    """The rulings page is docs/rulings.md for the person who opened a "rule" link: no code locations, setting
    names in words, rulebooks by their titles linked to their pages, and every ruling still anchored."""
    html = client.get("/rules/rulings").get_data(as_text=True)
    text = re.sub(r"<[^>]+>", " ", html)
    assert "where in the code" not in text
    assert ".py" not in text and "service/" not in text
    assert "then any order" in text and "then_any_order" not in text  # ruling 2's setting
    assert '<a href="/rules/book/catacombs-and-castles-1e-manual.txt?section=Team%20Actions">' in html
    assert "the Catacombs &amp; Castles 1E manual: Team Actions" in html
    assert text_problems(html_to_text(html)) == []


def test_a_rulebook_is_named_by_its_title() -> None:
    assert book_title("catacombs-and-castles-1e-manual.txt") == "the Catacombs & Castles 1E manual"
    assert book_title("catacombs-3e-shot-modifiers.txt") == "the Catacombs 3E shot modifiers"
    assert book_title("catacombs-1e-rules-italian.txt") == "the Catacombs 1E rules (Italian)"


def html_to_text(html: str) -> str:
    body = html.split("<article", 1)[1].split("</article>", 1)[0]
    return unescape(re.sub(r"<[^>]+>", " ", body))
