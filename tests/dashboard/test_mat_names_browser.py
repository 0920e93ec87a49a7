"""Every piece on the mat has a name, at a phone's 390 px: a Catacombs & Castles 2E Boss vs Boss game (the
table session's own snapshot of a real example log) drawn by the spectator page from a board with a warrior of
each lettered group, a thrown piece, a shield and a disc nobody stands on.

catacombs-and-castles-2e-manual.md, Components: each team has warriors in groups A, B and C, shield pieces and
ranged shot pieces; none of them may read alike or as an anonymous dot.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.gamelog.records import read_log
from service.table.session import TableSession
from tests.helpers.browser import chromium, module_chromium, needs_chromium, phone  # noqa: F401
from tests.helpers.page_words import page_problems
from web_dashboard.server import DashboardServer, serve_dashboard
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed

pytestmark = [pytest.mark.browser, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"


def boss_versus_boss() -> dict[str, Any]:
    session = TableSession()
    for record in read_log(EXAMPLES / "castles-2e-boss-versus-boss.jsonl"):
        session.apply(record)
    snapshot = session.snapshot()
    snapshot["result"], snapshot["outcome"], snapshot["phase"] = None, None, "battle"  # still in play
    return snapshot


BOARD_PIECES = [
    # piece, character, side, class, x, y
    ("castle-warrior-1", "warrior-castle-castle-warrior-a-1", "castle", "castles-warrior", 150, 450),
    ("castle-warrior-2", "warrior-castle-castle-warrior-b-1", "castle", "castles-warrior", 300, 450),
    ("castle-warrior-3", "warrior-castle-castle-warrior-c-1", "castle", "castles-warrior", 450, 450),
    ("boss-xaugorth", "boss-xaugorth", "catacomb", "castles-boss", 600, 150),
    ("missile-1", None, "neutral", "castles-ranged-extra-small", 420, 300),
    ("castle-shield", None, "neutral", "castles-shield", 700, 450),
    ("catacomb-warrior-9", None, "neutral", "castles-warrior", 100, 120),
]


def board() -> dict[str, Any]:
    return {
        "mat": {"width_mm": 860, "height_mm": 610, "obstacles": []},
        "connected": True,
        "pieces": [
            {
                "piece": p,
                "character": c,
                "side": s,
                "class": k,
                "x_mm": x,
                "y_mm": y,
                "sigma_mm": 2,
                "radius_mm": 16,
            }
            for p, c, s, k, x, y in BOARD_PIECES
        ],
    }


def shot(undone: bool) -> dict[str, Any]:
    """Team Castle's first warrior rushed from (100, 300) to rest at (150, 450), where it lies now."""
    return {
        "shot_seq": 40,
        "character": "warrior-castle-castle-warrior-a-1",
        "shot": "rush",
        "declaration": {
            "character": "warrior-castle-castle-warrior-a-1",
            "flicked": "castle-warrior-1",
            "shot": "rush",
        },
        "candidates": [{"direct_hits": [], "probability": 0.97, "path": [[0, 100, 300], [0.5, 150, 450]]}],
        "auto_apply": True,
        "resolved": True,
        "status": "resolved",
        "undone": undone,
    }


@pytest.fixture
def table() -> Iterator[tuple[FakeFeed, DashboardServer]]:
    feed = FakeFeed("castles-demo")
    feed.online()
    server = serve_dashboard(
        {"TABLE": "castles-demo", "PORT": 0, "TABLE_FEED": feed.feed, "COMMAND_CHANNEL": FakeCommandChannel()}
    )
    try:
        yield feed, server
    finally:
        server.stop()


def test_every_piece_on_the_mat_is_named_and_the_legend_names_the_sides(
    chromium: Any,  # noqa: F811
    table: tuple[FakeFeed, DashboardServer],
) -> None:
    expect = sync_api.expect
    feed, server = table
    snapshot = boss_versus_boss()
    for character in snapshot["characters"]:
        bound = {c: p for p, c, *_ in BOARD_PIECES if c}
        character["piece"] = {v: k for k, v in bound.items()}.get(character["id"], bound.get(character["id"]))
        if character["id"] in bound:
            character["alive"], character["on_mat"] = True, True
    feed.snapshot(snapshot, seq=41)
    feed.board(board())
    feed.shot(shot(undone=False))
    page, errors = phone(chromium, server.url)
    pieces = page.locator("#board .piece")
    expect(pieces).to_have_count(len(BOARD_PIECES))
    initials = {
        p: page.locator(f"#board .piece[data-piece='{p}'] .initials").text_content() for p, *_ in BOARD_PIECES
    }
    # The three warriors of groups A, B and C read apart; the boss by its name; the rest by what they are.
    assert initials == {
        "castle-warrior-1": "A1",
        "castle-warrior-2": "B1",
        "castle-warrior-3": "C1",
        "boss-xaugorth": "XW",
        "missile-1": "Th",
        "castle-shield": "Sh",
        "catacomb-warrior-9": "CW9",
    }
    # Tapping the unnamed pieces opens their names.
    page.locator("#board .piece[data-piece='missile-1']").click()
    expect(page.locator(".piece-details .name")).to_have_text("Thrown piece")
    page.locator("#board .piece[data-piece='catacomb-warrior-9']").click()
    expect(page.locator(".piece-details .name")).to_have_text("Catacomb Warrior disc 9")
    expect(page.locator(".piece-details .side")).to_have_text("No character on it")
    # The legend calls the sides by their teams, and says what the badge counts.
    legend = page.locator(".board-card .legend")
    expect(legend).to_contain_text("Team Castle: solid ring")
    expect(legend).to_contain_text("Team Catacomb: dashed ring")
    expect(legend).to_contain_text("number: the side's Health Tokens")
    expect(legend).not_to_contain_text("Overseer")
    # The end square lies under the flicked disc, whose initials stay on top of it.
    order = page.evaluate(
        """() => { const kids = [...document.querySelectorAll('#board > *')];
        return [kids.findIndex((n) => n.matches('rect.path-end')),
                kids.findIndex((n) => n.matches(".piece[data-piece='castle-warrior-1']"))]; }"""
    )
    assert -1 < order[0] < order[1]
    expect(page.locator("#board polyline.reconstructed")).to_have_count(1)
    # The referee takes the shot back: its path is no longer drawn.
    feed.shot(shot(undone=True))
    expect(page.locator("#board polyline.reconstructed")).to_have_count(0)
    expect(page.locator("#board rect.path-end")).to_have_count(0)
    expect(page.locator(".replay-shot")).to_be_disabled()
    assert page_problems(page) == []
    assert errors == []


def test_a_sides_off_mat_warriors_are_one_line_with_their_names_one_tap_away(
    chromium: Any,  # noqa: F811
    table: tuple[FakeFeed, DashboardServer],
) -> None:
    """Catacombs & Castles 1E: twelve warriors a side, most of them off the playmat in Boss Mode
    (catacombs-and-castles-1e-manual.txt: Boss Mode)."""
    expect = sync_api.expect
    feed, server = table
    session = TableSession()
    for record in read_log(EXAMPLES / "castles-1e-boss.jsonl"):
        session.apply(record)
    snapshot = session.snapshot()
    feed.snapshot(snapshot, seq=session.seq)
    page, errors = phone(chromium, server.url)
    catacomb = page.locator(".pool[data-side='catacomb']")
    away = [
        c
        for c in snapshot["characters"]
        if (c["side"], c["kind"], c["on_mat"]) == ("catacomb", "warrior", False)
    ]
    assert len(away) == 12
    summary = catacomb.locator("details.off-mat-warriors summary")
    expect(summary).to_have_text("12 warriors off the playmat")
    expect(catacomb.locator("details.off-mat-warriors li").first).to_be_hidden()
    box = summary.bounding_box()
    assert box is not None and box["height"] >= 44
    summary.click()
    expect(catacomb.locator("details.off-mat-warriors li")).to_have_count(12)
    expect(catacomb.locator("details.off-mat-warriors")).to_contain_text("Shaman 4")
    # A snapshot redraws the pools: the list stays open.
    feed.snapshot(snapshot, seq=session.seq + 1)
    page.wait_for_timeout(300)
    expect(catacomb.locator("details.off-mat-warriors li").first).to_be_visible()
    assert page_problems(page) == []
    assert errors == []


def test_catacombs_1e_reads_in_english_with_the_printed_italian_beside(
    chromium: Any,  # noqa: F811
    table: tuple[FakeFeed, DashboardServer],
) -> None:
    """catacombs-1e-rules-italian.txt: the cards are Italian; the page speaks English (content english_name)
    and shows the printed name beside it on the party list and a tapped disc's card."""
    expect = sync_api.expect
    feed, server = table
    session = TableSession()
    said: list[str] = []
    for record in read_log(EXAMPLES / "catacombs1e-dragon.jsonl"):
        for event in session.apply(record):
            feed.publish("event", {**event, "seq": record.seq})
            said.append(str(event.get("said") or ""))
    assert any("Barbaro" in s for s in said)  # the table's words are the printed names
    snapshot = session.snapshot()
    snapshot["characters"][0]["piece"] = "hero-barbaro"
    feed.snapshot(snapshot, seq=session.seq)
    feed.board(
        {
            "mat": {"width_mm": 860, "height_mm": 610, "obstacles": []},
            "connected": True,
            "pieces": [
                {
                    "piece": "hero-barbaro",
                    "character": "hero-barbaro",
                    "side": "heroes",
                    "x_mm": 200,
                    "y_mm": 200,
                    "radius_mm": 16,
                    "class": "hero",
                    "sigma_mm": 2,
                }
            ],
        }
    )
    page, errors = phone(chromium, server.url)
    barbarian = page.locator("#heroes [data-character=hero-barbaro] .name")
    expect(barbarian).to_have_text("Barbarian (Barbaro)")
    expect(page.locator("#board .piece[data-piece=hero-barbaro] .initials")).to_have_text("Ba")
    page.locator("#board .piece[data-piece=hero-barbaro]").click()
    expect(page.locator(".piece-details .name")).to_have_text("Barbarian")
    expect(page.locator(".piece-details .printed")).to_have_text("printed on its card: Barbaro")
    feed_text = page.locator("#feed").inner_text()
    assert "Barbarian" in feed_text or "Dragon" in feed_text
    for printed in ("Barbaro", "Dragone", "Spirito del Fuoco", "Ladra"):
        assert printed not in feed_text, printed
    assert errors == []
