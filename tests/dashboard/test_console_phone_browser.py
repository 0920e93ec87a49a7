"""The referee console on a phone (390 px), against the daemon itself on a fake mat (a Catacombs & Castles
2E Team Mode game): a header of two rows, a correction form that starts on a choice the game accepts, an Undo
that names what it takes back and takes back exactly that, and no sideways scroll after many commands."""

from __future__ import annotations

from typing import Any

import pytest

from service.daemon.daemon import Daemon
from tests.dashboard.conftest import PIN
from tests.dashboard.test_castles_pools_browser import castles_daemon  # noqa: F401  (the fixture)
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, open_tools, phone  # noqa: F401
from tests.helpers.page_words import in_view_together, page_problems, small_controls

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")


def side_health(daemon: Daemon, side: str) -> int:
    sides = daemon.session.snapshot()["sides"]
    return int(next(s["health"] for s in sides if s["id"] == side))


def test_the_console_fits_a_phone_and_undo_says_what_it_takes_back(
    chromium: Any,  # noqa: F811
    castles_daemon: tuple[Daemon, str],  # noqa: F811
) -> None:
    expect = sync_api.expect
    daemon, url = castles_daemon
    page, errors = phone(chromium, url + "login?next=/referee/console")
    log_in(page, PIN)
    expect(page.locator("#link-status")).to_have_text("live")

    # The header: the table, its live badge and the colours; then Turn, Console and More. Two rows.
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["height"] <= 2 * 44 + 3 * 8 + 2 * 6
    page.locator("details.more summary").click()
    expect(page.locator(".more-links a[href$='/calibrate']")).to_be_visible()
    page.locator("details.more summary").click()

    # The tools used now and then are folded on a phone, so the console is a few screens long, not six.
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2_000, f"the console is {height} px long on a phone"  # 4,400-4,800 before the folds
    expect(page.locator("#correct-form")).to_be_hidden()
    open_tools(page)

    # The correction form starts on a choice this game accepts: a hero's side's Health Tokens.
    form = page.locator("#correct-form")
    assert form.locator("select[name=field]").input_value() == "health"
    offered = form.locator("select[name=field] option")
    expect(offered).to_have_text(["the side's Health Tokens", "tokens on a card"])
    target = form.locator("select[name=target]").input_value()
    first = next(c for c in daemon.session.snapshot()["characters"] if c["id"] == target)
    assert first["kind"] == "hero" and first["alive"]
    expect(form.locator("input[name=card]")).to_be_hidden()  # only what this correction uses
    before = side_health(daemon, first["side"])
    form.locator("input[name=value]").fill(str(before - 2))
    form.locator("input[name=reason]").fill("two tokens fell off the table")
    form.locator("button[type=submit]").click()
    corrected = page.locator("#correct-form ~ .result")
    expect(corrected).to_have_text("✔ Corrected")
    assert in_view_together(form.locator("button[type=submit]"), corrected)
    assert side_health(daemon, first["side"]) == before - 2

    # Undo names the move it would take back; tapped, it takes back exactly that one.
    undo = page.locator("#undo-button")
    expect(undo).to_have_text("Undo a Health Tokens correction")
    page.locator("#undo-form input[name=reason]").fill("wrong side")
    undo.click()
    expect(page.locator("#undo-form ~ .result")).to_have_text("✔ Taken back")
    assert in_view_together(undo, page.locator("#undo-form ~ .result"))
    assert side_health(daemon, first["side"]) == before
    undone = [r.payload for r in daemon.eventlog.records() if r.kind == "undo"]
    corrections = [r.seq for r in daemon.eventlog.records() if r.kind == "correction"]
    assert undone[-1]["seq"] == corrections[-1]

    # Many commands later (the pause switch, twelve times), the page is still no wider than the phone.
    toggle = page.locator("#pause-toggle")
    for n in range(12):
        expect(toggle).to_have_attribute("aria-pressed", "false" if n % 2 == 0 else "true")
        toggle.click()
    expect(page.locator("#command-count")).to_have_text("14 answers")
    assert page_problems(page) == []  # the words on the page, the command log folded away
    page.locator("details.command-log summary").click()
    expect(page.locator("#command-log li")).to_have_count(14)
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"the console is {width[0]} px wide on a {width[1]} px phone"
    assert small_controls(page) == []
    assert errors == []
