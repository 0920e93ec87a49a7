"""The referee's set-up pages on a phone (390 px): each shows the live badge of the table's stream (never
a "connecting…" that does not clear), fits the screen with controls a finger can tap, and Calibrate offers
no Start on a table whose mat has nothing to calibrate (the simulated mat's built-in constants)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.dashboard.conftest import PIN, PIN_HASH
from tests.dashboard.table_game import opening_board, opening_state
from tests.helpers.browser import chromium, log_in, needs_chromium, phone  # noqa: F401
from tests.helpers.page_words import in_view_together, page_problems, small_controls
from web_dashboard.server import DashboardServer, serve_dashboard
from web_dashboard.table.commands import CommandResult
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed

pytestmark = [pytest.mark.browser, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")

BUILT_IN = {"source": "built-in constants", "ok": True, "text": "the simulated mat's built-in constants"}
LEARNT = {"source": "learnt from play", "ok": False, "text": "never calibrated with the guided routine"}


@pytest.fixture
def table() -> Iterator[tuple[FakeFeed, DashboardServer]]:
    feed = FakeFeed("t1")
    feed.online()
    feed.snapshot({**opening_state(), "calibration": {"active": False, "status": BUILT_IN}}, seq=3)
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
        yield feed, server
    finally:
        server.stop()


@pytest.mark.parametrize("page_path", ["/referee/setup/", "/referee/setup/enrol", "/referee/setup/calibrate"])
def test_each_set_up_page_is_live_and_fits_a_phone(
    chromium: Any,  # noqa: F811
    table: tuple[FakeFeed, DashboardServer],
    page_path: str,
) -> None:
    expect = sync_api.expect
    _, server = table
    page, errors = phone(chromium, server.url + "login?next=" + page_path)
    log_in(page, PIN)
    expect(page.locator("#link-status")).to_have_text("live")
    page.wait_for_timeout(800)  # a poll of the table's view drawn
    assert page_problems(page) == []
    assert small_controls(page) == []
    assert errors == []


def test_calibrate_offers_start_only_when_there_is_something_to_calibrate(
    chromium: Any,  # noqa: F811
    table: tuple[FakeFeed, DashboardServer],
) -> None:
    expect = sync_api.expect
    feed, server = table
    page, errors = phone(chromium, server.url + "login?next=/referee/setup/calibrate")
    log_in(page, PIN)
    expect(page.locator("#cal-status")).to_contain_text("built-in constants")
    expect(page.locator("#cal-start")).to_be_hidden()
    feed.snapshot({**opening_state(), "calibration": {"active": False, "status": LEARNT}}, seq=4)
    expect(page.locator("#cal-start")).to_be_visible()
    assert errors == []


@pytest.mark.parametrize("ruleset", ["catacombs-1e", "catacombs-and-castles-1e"])
def test_the_wizard_on_a_first_edition_table_says_its_game_comes_from_the_table_file(
    chromium: Any,  # noqa: F811
    table: tuple[FakeFeed, DashboardServer],
    ruleset: str,
) -> None:
    """The wizard sets up a Third Edition or a Castles 2E game from a choice; a First Edition table's game is
    its table file's (docs/setup.md). The page says so in words and offers no Start, never empty lists."""
    expect = sync_api.expect
    feed, server = table
    feed.snapshot({**opening_state(), "ruleset": ruleset}, seq=4)
    page, errors = phone(chromium, server.url + "login?next=/referee/setup/")
    log_in(page, PIN)
    expect(page.locator("#wiz-from-file")).to_contain_text("set up from the table file")
    expect(page.locator("#wiz-start")).to_be_hidden()
    expect(page.locator("#wiz-heroes")).to_be_hidden()
    assert page_problems(page) == []
    assert errors == []


def refuse_all(request: dict[str, Any]) -> CommandResult:
    return CommandResult(request["txn"], False, "the mat is still being scanned: wait a moment")


# The referee asks from each set-up page; the table (or the dashboard, for a request it can tell is
# incomplete) says no.
@pytest.mark.parametrize(
    "page_path,button",
    [
        ("/referee/setup/", "#wiz-start"),
        ("/referee/setup/", "#wiz-rescan"),
        ("/referee/setup/enrol", "#enrol-start"),
        ("/referee/setup/calibrate", "#cal-start"),
    ],
)
def test_every_set_up_answer_shows_beside_the_button_that_asked(
    chromium: Any,  # noqa: F811
    table: tuple[FakeFeed, DashboardServer],
    page_path: str,
    button: str,
) -> None:
    """The referee taps a button scrolled to the phone's bottom edge: the table's refusal appears in words
    right under it, both on the screen, with no scrolling by hand (it once came 1,400 px further down)."""
    expect = sync_api.expect
    feed, server = table
    feed.snapshot({**opening_state(), "calibration": {"active": False, "status": LEARNT}}, seq=4)
    server.app.config["COMMAND_CHANNEL"].responder = refuse_all
    page, errors = phone(chromium, server.url + "login?next=" + page_path)
    log_in(page, PIN)
    expect(page.locator("#link-status")).to_have_text("live")
    page.wait_for_timeout(800)  # a poll of the table's view drawn: the lists above the button filled in
    control = page.locator(button)
    expect(control).to_be_visible()
    page.evaluate(  # the button's bottom edge on the screen's: where an answer under it falls out of view
        "(el) => window.scrollBy(0, el.getBoundingClientRect().bottom - innerHeight + 2)",
        control.element_handle(),
    )
    control.click()
    answer = page.locator(f"{button} + .result")
    expect(answer).to_contain_text("✘ Not done: ")  # the table's refusal, or the dashboard's own
    assert in_view_together(control, answer)
    assert page_problems(page) == []
    assert [e for e in errors if "status of 4" not in e] == []  # a refusal's HTTP status is no script error
