"""The TV view beside the table, readable from three metres: on a 1920 × 1080 screen every word, the mat's
initials and numbers too, is at least 28 px, and the page fits the screen without scrolling; so does it on
1366 × 768 and 1280 × 720 screens. Each game as the table session publishes it after a real example log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.gamelog.records import read_log
from service.table.session import TableSession
from tests.dashboard.table_game import opening_board
from tests.helpers.browser import chromium, module_chromium, needs_chromium  # noqa: F401
from tests.helpers.page_words import page_problems, page_scrolls, text_smaller_than
from web_dashboard.server import DashboardServer, serve_dashboard
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed

pytestmark = [pytest.mark.browser, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
GAMES = {"catacombs-3e": "barracks-cleared.jsonl", "castles-1e": "castles-1e-boss.jsonl"}


@pytest.fixture(params=sorted(GAMES))
def table(request: pytest.FixtureRequest) -> Iterator[DashboardServer]:
    feed = FakeFeed("t1")
    feed.online()
    session = TableSession()
    for record in read_log(EXAMPLES / GAMES[request.param]):
        for event in session.apply(record):
            feed.publish("event", {**event, "seq": record.seq})
    feed.snapshot(session.snapshot(), seq=session.seq)
    feed.board(opening_board())
    server = serve_dashboard(
        {"TABLE": "t1", "PORT": 0, "TABLE_FEED": feed.feed, "COMMAND_CHANNEL": FakeCommandChannel()}
    )
    try:
        yield server
    finally:
        server.stop()


def tv(chromium: Any, url: str, width: int, height: int) -> tuple[Any, list[str]]:  # noqa: F811
    page = chromium.new_context(viewport={"width": width, "height": height}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "table/t1/tv")
    sync_api.expect(page.locator("#link-status")).to_have_text("live")
    sync_api.expect(page.locator("#board .piece").first).to_be_visible()
    page.wait_for_timeout(300)  # the stream's last messages drawn
    return page, errors


def test_a_full_hd_tv_shows_every_word_at_28_px_or_more_and_fits(
    chromium: Any,  # noqa: F811
    table: DashboardServer,
) -> None:
    page, errors = tv(chromium, table.url, 1920, 1080)
    assert text_smaller_than(page, 28) == []
    assert not page_scrolls(page)
    assert page_problems(page) == []
    assert errors == []


@pytest.mark.parametrize("size", [(1366, 768), (1280, 720)])
def test_a_smaller_tv_fits_without_scrolling(
    chromium: Any,  # noqa: F811
    table: DashboardServer,
    size: tuple[int, int],
) -> None:
    page, errors = tv(chromium, table.url, *size)
    assert not page_scrolls(page)
    assert text_smaller_than(page, 16) == []
    assert errors == []
