"""The referee's set-up pages on a phone (390 px): each shows the live badge of the table's stream (never
a "connecting…" that does not clear), fits the screen with controls a finger can tap, and Calibrate offers
no Start on a table whose mat has nothing to calibrate (the simulated mat's built-in constants)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.dashboard.conftest import PIN, serve_on
from tests.dashboard.table_game import opening_board, opening_state
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, phone  # noqa: F401
from tests.helpers.page_words import in_view_together, page_problems, small_controls
from web_dashboard.server import DashboardServer
from web_dashboard.table.fake_feed import FakeFeed

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
    server = serve_on(feed)
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
def test_the_wizard_on_a_first_edition_table_offers_that_edition_s_choices(
    chromium: Any,  # noqa: F811
    table: tuple[FakeFeed, DashboardServer],
    ruleset: str,
) -> None:
    """The wizard sets up every game from a choice, the First Editions with their own (docs/setup.md):
    Catacombs 1E the Lord (its four heroes always play), Catacombs & Castles 1E the board's side and the
    Armour Tokens instead of who goes first. All of it in words, with Start in reach."""
    expect = sync_api.expect
    feed, server = table
    feed.snapshot({**opening_state(), "ruleset": ruleset}, seq=4)
    page, errors = phone(chromium, server.url + "login?next=/referee/setup/")
    log_in(page, PIN)
    expect(page.locator("#wiz-start")).to_be_visible()
    expect(page.locator("#wiz-from-file")).to_be_hidden()
    if ruleset == "catacombs-1e":
        expect(page.locator("#wiz-ruleset")).to_have_text("Catacombs 1E")
        expect(page.locator("#wiz-heroes input:checked")).to_have_count(4)
        expect(page.locator("#wiz-lord option")).to_have_count(4)
        expect(page.locator("#wiz-3e-castles-box")).to_be_hidden()
    else:
        expect(page.locator("#wiz-ruleset")).to_have_text("Catacombs & Castles 1E")
        expect(page.locator("#wiz-mode option")).to_have_text(["Boss Mode", "Team Mode"])
        expect(page.locator("#wiz-board-side option")).to_have_text(["the Castle side", "the Catacomb side"])
        expect(page.locator("#wiz-armour")).to_be_checked()
        expect(page.locator("#wiz-first")).to_have_count(0)  # the other team than the board's side starts
    assert page_problems(page) == []
    assert small_controls(page) == []
    assert errors == []


@pytest.mark.parametrize(
    "page_path,button",
    [
        ("/referee/setup/", "#wiz-rescan"),
        ("/referee/setup/enrol", "#enrol-start"),
        ("/referee/setup/calibrate", "#cal-start"),
    ],
)
def test_each_set_up_command_answers_in_words_in_view_of_its_button(
    chromium: Any,  # noqa: F811
    table: tuple[FakeFeed, DashboardServer],
    page_path: str,
    button: str,
) -> None:
    """A command's answer appears right under the button that sent it, inside the screen the referee tapped
    it in (the page scrolled to the button), in words: never a command name or a Python value."""
    expect = sync_api.expect
    feed, server = table
    feed.snapshot({**opening_state(), "calibration": {"active": False, "status": LEARNT}}, seq=4)
    page, errors = phone(chromium, server.url + "login?next=" + page_path)
    log_in(page, PIN)
    control = page.locator(button)
    expect(control).to_be_visible()
    if button == "#enrol-start":  # a set is named before its discs are enrolled
        control.click()
        expect(page.locator(f"{button} + .answer")).to_contain_text(
            "✘ Not done: set must be an id: small letters, digits and dashes"
        )
        page.fill("#enrol-set", "box-7")
        errors.remove("Failed to load resource: the server responded with a status of 400 (BAD REQUEST)")
    control.scroll_into_view_if_needed()
    control.click()
    answer = page.locator(f"{button} + .answer")
    expect(answer).to_contain_text("✔")
    assert in_view_together(control, answer)
    assert page_problems(page) == []
    assert errors == []
