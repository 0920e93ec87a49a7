"""Every page of the dashboard, for every game and a Boss Mode of each Catacombs & Castles edition, at a
phone's 390 px, a laptop's 1366 px and a big screen's 1920 px, after the game's example log: no raw id,
command name, record number, file name or Python literal in what it shows, no sideways scroll, and on the
phone every control at least 44 px high and on screen (tests/helpers/page_words.py). The rule pages a
refusal's "rule" link opens are walked too. The TV's own checks (text size, no scrolling):
tests/dashboard/test_tv_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.gamelog.records import read_log
from service.table.session import TableSession
from tests.dashboard.conftest import PIN, serve_on
from tests.dashboard.table_game import opening_board
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium  # noqa: F401
from tests.helpers.page_words import page_problems, small_controls
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
# The other modes, walked on the phone (the narrowest screen, where most goes wrong).
MORE_MODES = {
    "castles-1e-team": "castles-1e-team.jsonl",
    "castles-2e-boss": "castles-2e-boss.jsonl",
    "castles-2e-one-versus-one": "castles-2e-one-versus-one.jsonl",
    "catacombs-3e-with-castles-heroes": "castles-heroes-in-3e.jsonl",
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


@pytest.fixture(scope="module")
def played(request: pytest.FixtureRequest) -> Iterator[tuple[DashboardServer, int]]:
    """A dashboard after the game's example log (shared by the screen sizes of one game: the tests only look)
    and how many events a freshly opened page receives in its catch-up."""
    feed = FakeFeed("t1")
    feed.online()
    session = TableSession()
    for record in read_log(EXAMPLES / {**GAMES, **MORE_MODES}[request.param]):
        for event in session.apply(record):
            feed.publish("event", {**event, "seq": record.seq})
    feed.snapshot(session.snapshot(), seq=session.seq)
    feed.board(opening_board())
    server = serve_on(feed)
    try:
        yield server, len(feed.feed.recent_events(limit=CATCH_UP_EVENTS))
    finally:
        server.stop()


SIZES = [(390, 844), (1366, 768), (1920, 1080)]
PHONE_CONSOLE_HEIGHT = 2_000  # px at 390 px wide, in every game and mode (it was 3,200-4,800)
CATCH_UP_EVENTS = 30  # the events a fresh page's stream opens with (TableFeed.stream's history)
# Counts each poll of the set-up pages' view once the page has drawn it: the page's own fetch, wrapped, and a
# task queued after the code that awaited the answer has run.
COUNT_POLLS = """
window.__viewsDrawn = 0;
const fetchAsPages = window.fetch;
window.fetch = async (...args) => {
  const response = await fetchAsPages(...args);
  const json = response.json.bind(response);
  response.json = async () => {
    const value = await json();
    setTimeout(() => { window.__viewsDrawn += 1; }, 0);
    return value;
  };
  return response;
};
"""
# Drawn: the stream's whole catch-up (each message is drawn as it arrives) and, on a set-up page, its first
# poll of the table's view.
DRAWN = """([events, polls]) => window.Smartmat && window.Smartmat.table.eventMessages >= events
  && window.__viewsDrawn >= polls"""
RULE_PAGES = ["/rules/rulings", "/rules/book/catacombs-and-castles-1e-manual.txt?section=Team Actions"]


WALKS = [(game, *size) for game in sorted(GAMES) for size in SIZES] + [
    (mode, *SIZES[0]) for mode in sorted(MORE_MODES)
]


@pytest.mark.parametrize("played,width,height", WALKS, indirect=["played"])
def test_every_page_speaks_to_people_and_fits(
    chromium: Any,  # noqa: F811
    played: tuple[DashboardServer, int],
    width: int,
    height: int,
) -> None:
    server, events = played
    context = chromium.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(15_000)
    context.add_init_script(COUNT_POLLS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "login?next=/referee/turn")
    log_in(page, PIN)
    found = {}
    for path in PAGES:
        page.goto(server.url.rstrip("/") + path)
        sync_api.expect(page.locator("#link-status")).to_have_text("live")
        polls = 1 if path.startswith("/referee/setup/") else 0
        page.wait_for_function(DRAWN, arg=[events, polls])  # the stream's story, a set-up page's first poll
        problems = page_problems(page) + (small_controls(page) if width < 600 else [])
        if path == "/referee/console" and width < 600:  # about two screens: long lists and tools folded
            long = page.evaluate("document.documentElement.scrollHeight")
            problems += [f"the console is {long} px long"] if long > PHONE_CONSOLE_HEIGHT else []
        if problems:
            found[path] = problems
    assert found == {}
    assert errors == []


@pytest.mark.parametrize("width,height", SIZES)
def test_the_rule_pages_speak_to_people_and_fit(
    chromium: Any,  # noqa: F811
    width: int,
    height: int,
) -> None:
    """The rulings and a rulebook's page (this table keeps no copy of it: the page says so, in words) as the
    referee's "rule" link opens them; they need no login."""
    feed = FakeFeed("t1")
    feed.online()
    server = serve_dashboard(
        {"TABLE": "t1", "PORT": 0, "TABLE_FEED": feed.feed, "COMMAND_CHANNEL": FakeCommandChannel()}
    )
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        found = {}
        for path in RULE_PAGES:
            page.goto(server.url.rstrip("/") + path)
            sync_api.expect(page.locator("article h1").first).to_be_visible()
            problems = page_problems(page) + (small_controls(page) if width < 600 else [])
            if problems:
                found[path] = problems
        assert found == {}
        sync_api.expect(page.locator("article h1").first).to_have_text("the Catacombs & Castles 1E manual")
    finally:
        context.close()
        server.stop()
