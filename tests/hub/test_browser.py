"""The hub's pages in headless Chromium: the big screen updates by itself when a table changes, and a table
referee signs off from a phone, after which the public standings change."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers.browser import needs_chromium, phone
from tests.hub.builders import PIN, finish_game, new_hub
from web_dashboard.hub import create_hub_app
from web_dashboard.server import serve_hub

pytestmark = [pytest.mark.browser, needs_chromium]
# The hub's pages run under the web server's Content-Security-Policy (script-src 'self'), as the table's do:
# the tests wait through Playwright's locators, never through script text evaluated in the page.
expect = pytest.importorskip("playwright.sync_api").expect


def test_big_screen_updates_live_and_a_referee_signs_off_from_a_phone(
    tmp_path: Path,
    chromium,
    shots_dir: Path,
) -> None:
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo", "cy", "dee"))
    hub.pair_next_round("organiser", ["t1", "t2"])  # ada v cy at t1, bo v dee at t2
    hub.on_status("t1", "online")
    hub.on_state(
        "t1",
        {
            "ruleset": "catacombs-and-castles-2e",
            "phase": "battle",
            "outcome": None,
            "seq": 1,
            "turn": {"side": "ada"},
        },
    )
    server = serve_hub(create_hub_app(hub), "127.0.0.1", 0)
    try:
        screen, screen_errors = phone(chromium, f"{server.url}hub/standings")
        live_t1 = screen.locator("ul.live-scores li[data-table=t1]")
        assert "battle" in live_t1.inner_text()

        # The table's game ends: the big screen shows it without a reload.
        finish_game(hub, "t1", "g1", records=6, outcome="cy")  # the setup named its sides by entrant
        expect(screen.locator("li[data-table=t1]")).to_contain_text("finished", use_inner_text=True)
        assert "not connected yet" in screen.locator("li[data-table=t2]").inner_text()
        assert screen.locator("table.standings tbody tr").first.inner_text().split("\t")[2] == "0.0"

        referee, referee_errors = phone(chromium, f"{server.url}hub/login")
        referee.fill("input[name=name]", "rita")
        referee.fill("input[name=pin]", PIN)
        referee.click("form.login button")
        row = referee.locator("tr[data-table=t1]")
        assert "ada v cy".lower() in row.inner_text().lower()
        # The log names the winner: the button offers exactly that, and its answer is in words beside it.
        button = row.locator("form.sign-off button")
        assert button.inner_text() == "Sign off: Cy won"
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
        button.click()
        expect(row).to_contain_text("signed off", use_inner_text=True)
        # The answer stays beside it, in words: names, not ids.
        expect(referee.locator("output[data-answer-for=t1]")).to_have_text(
            "Signed off at table t1, round 1: Cy beat Ada."
        )

        # The public standings follow the sign-off by themselves: Cy leads.
        expect(screen.locator("table.standings tbody tr").first).to_contain_text("Cy", use_inner_text=True)
        screen.screenshot(path=str(shots_dir / "hub-standings-phone.png"))
        referee.screenshot(path=str(shots_dir / "hub-overview-phone.png"))
        big = chromium.new_context(viewport={"width": 1280, "height": 720}).new_page()
        big.goto(f"{server.url}hub/standings")
        assert big.locator("table.standings tbody tr").first.inner_text().startswith("1\tCy")
        big.screenshot(path=str(shots_dir / "hub-standings-screen.png"))
        assert hub.tournament.results[(1, "t1")].winner == "cy"
        assert screen_errors == [] and referee_errors == []
    finally:
        server.stop()
        hub.store.close()


def test_a_winner_chosen_just_before_the_page_redraws_is_the_winner_signed_off(
    tmp_path: Path, chromium
) -> None:
    """The referee picks the winner, and before the tap on Sign off another table's news redraws the live
    part of the page: the pick survives the redraw, and the sign-off sends it."""
    hub = new_hub(tmp_path / "hub.sqlite", players=("ada", "bo", "cy", "dee"))
    hub.pair_next_round("organiser", ["t1", "t2"])
    hub.on_status("t1", "online")
    finish_game(hub, "t1", "g1", records=6, outcome="castle")  # sides not named by entrant: the referee says
    server = serve_hub(create_hub_app(hub), "127.0.0.1", 0)
    try:
        referee, errors = phone(chromium, f"{server.url}hub/login")
        referee.fill("input[name=name]", "rita")
        referee.fill("input[name=pin]", PIN)
        referee.click("form.login button")
        dialogs: list[str] = []
        referee.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        winner = referee.locator("tr[data-table=t1] select[name=winner]")
        winner.wait_for()
        assert winner.input_value() == ""  # nothing chosen for the referee: no default loser
        # Signing off with no winner named is refused beside the button, in words, with no pop-up.
        referee.locator("tr[data-table=t1] form.sign-off button").click()
        refusal = referee.locator("output[data-answer-for=t1]")
        refusal.wait_for()
        expect(refusal).to_contain_text("Not done")
        assert refusal.inner_text() == "Not done: name the winner at t1: Ada, Cy or a draw"
        assert dialogs == []
        # Measured in one step in the page: the answer may redraw the row between two steps of the test.
        height, right = referee.evaluate(
            "(() => { const r = document.querySelector('tr[data-table=t1] select[name=winner]')"
            ".getBoundingClientRect(); return [r.height, r.right]; })()"
        )
        assert height >= 44 and right <= 390  # not cut off
        winner.select_option("cy")
        referee.evaluate("document.activeElement && document.activeElement.blur()")  # the thumb moves on
        drawn = referee.evaluate("document.getElementById('live').dataset.updated || ''")
        hub.on_status("t2", "online")  # news from another table: the live part is read again and redrawn
        live = referee.locator("#live")
        if drawn:
            expect(live).not_to_have_attribute("data-updated", drawn)
        else:
            expect(live).to_have_attribute("data-updated", re.compile("."))
        assert winner.input_value() == "cy"
        referee.locator("tr[data-table=t1] form.sign-off button").click()
        expect(referee.locator("tr[data-table=t1]")).to_contain_text("signed off", use_inner_text=True)
        assert hub.tournament.results[(1, "t1")].winner == "cy"
        assert errors == ["Failed to load resource: the server responded with a status of 409 (CONFLICT)"]
    finally:
        server.stop()
        hub.store.close()
