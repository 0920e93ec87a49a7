"""Every page of the dashboard, for every game and a Boss Mode of each Catacombs & Castles edition, at a
phone's 390 px, a laptop's 1366 px and a TV's 1920 px, after the game's example log: no raw id, command
name, record number, file name or Python literal in what it shows, no sideways scroll, and on the phone
every control at least 44 px high and on screen (tests/helpers/page_words.py); and the rules pages a
refusal's "rule" link opens.
The TV page's own size and type at 1920 px: tests/dashboard/test_tv_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.gamelog.records import read_log
from service.table.session import TableSession
from tests.dashboard.conftest import PIN, PIN_HASH
from tests.dashboard.table_game import opening_board
from tests.helpers.browser import chromium, log_in, needs_chromium  # noqa: F401
from tests.helpers.page_words import PHONE_CONSOLE_HEIGHT, page_problems, small_controls
from web_dashboard.server import DashboardServer, serve_dashboard
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed

pytestmark = [pytest.mark.browser, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
GAMES = {
    "catacombs-3e": "whole-game.jsonl",
    "catacombs-1e": "catacombs1e-dragon.jsonl",
    "castles-1e-boss": "castles-1e-boss.jsonl",
    "castles-2e-team": "castles-2e-team.jsonl",
    "castles-2e-boss-versus-boss": "castles-2e-boss-versus-boss.jsonl",
}
PAGES = [
    "/",
    "/table/t1/tv",
    "/referee/turn",
    "/referee/console",
    "/referee/setup/",
    "/referee/setup/enrol",
    "/referee/setup/calibrate",
]


@pytest.fixture(params=sorted(GAMES))
def played(request: pytest.FixtureRequest) -> Iterator[DashboardServer]:
    feed = FakeFeed("t1")
    feed.online()
    session = TableSession()
    for record in read_log(EXAMPLES / GAMES[request.param]):
        for event in session.apply(record):
            feed.publish("event", {**event, "seq": record.seq})
    feed.snapshot(session.snapshot(), seq=session.seq)
    feed.board(opening_board())
    server = serve_dashboard(
        {
            "TABLE": "t1",
            "PORT": 0,
            "TABLE_FEED": feed.feed,
            "COMMAND_CHANNEL": FakeCommandChannel(),
            "REFEREE_PIN_HASH": PIN_HASH,
        }
    )
    try:
        yield server
    finally:
        server.stop()


# A phone, a laptop and a TV: each page is loaded once and looked at in every size.
SCREENS = [(390, 844), (1366, 768), (1920, 1080)]
RULE_PAGES = ["/rules/rulings", "/rules/book/catacombs-3e-reference.txt?section=Battle Phase: Taking Damage"]


def walk(page: Any, base_url: str, paths: list[str], *, live: bool) -> dict[str, list[str]]:
    """What ``page_problems`` (and on a phone ``small_controls``) finds on each page, at every screen size."""
    found = {}
    for path in paths:
        page.set_viewport_size({"width": SCREENS[0][0], "height": SCREENS[0][1]})
        page.goto(base_url.rstrip("/") + path)
        if live:
            sync_api.expect(page.locator("#link-status")).to_have_text("live")
            page.wait_for_timeout(400)  # the stream's story and the set-up pages' first poll drawn
        for width, height in SCREENS:
            page.set_viewport_size({"width": width, "height": height})
            problems = page_problems(page) + (small_controls(page) if width < 600 else [])
            if problems:
                found[f"{path} at {width} px"] = problems
    return found


def test_every_page_speaks_to_people_and_fits(
    chromium: Any,  # noqa: F811
    played: DashboardServer,
) -> None:
    context = chromium.new_context(viewport={"width": SCREENS[0][0], "height": SCREENS[0][1]})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(played.url + "login?next=/referee/turn")
    log_in(page, PIN)
    assert walk(page, played.url, PAGES, live=True) == {}

    # The console, after the whole game, is about two screens long on the phone.
    page.set_viewport_size({"width": SCREENS[0][0], "height": SCREENS[0][1]})
    page.goto(played.url + "referee/console")
    sync_api.expect(page.locator("#link-status")).to_have_text("live")
    page.wait_for_timeout(400)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= PHONE_CONSOLE_HEIGHT, f"the console is {height} px long on a phone"
    assert errors == []


def test_the_rules_pages_speak_to_people_and_fits(chromium: Any) -> None:  # noqa: F811
    """The rulings and a cited rulebook (this table keeps no copy: the page says so, naming the book)."""
    server = serve_dashboard({"TABLE": "t1", "PORT": 0, "TABLE_FEED": FakeFeed("t1").feed})
    page = chromium.new_page()
    try:
        assert walk(page, server.url, RULE_PAGES, live=False) == {}
        assert (
            page.locator("p.error")
            .inner_text()
            .startswith("This table keeps no copy of the Catacombs 3E rulebook")
        )
    finally:
        page.close()
        server.stop()
