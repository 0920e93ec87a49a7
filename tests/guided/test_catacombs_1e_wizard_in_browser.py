"""Headless Chromium sets up a Catacombs First Edition game with the set-up wizard on the simulated mat.

catacombs-1e-rules-italian.txt: Preparazione del gioco (the game is played with the four heroes, shared out
among the players) and Scegliere un Signore della Catacomba (the Keeper chooses the Lord); Configurare la
Catacomba (the Room deck is dealt by the rules, so the wizard offers no rooms). The cards are printed in
Italian: the choices read in English with the printed name beside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.guided.test_calibrate_at_the_table import CalibratingTable
from tests.helpers.broker import (
    mosquitto_broker,  # noqa: F401  (the fixture)
)
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, phone  # noqa: F401
from tests.helpers.page_words import page_problems
from tests.helpers.referee_pages import PIN, dashboard, table  # noqa: F401  (the fixtures)
from web_dashboard.server import DashboardServer

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
TABLE_FILE = Path("content/tables/catacombs-1e-demo.yaml")  # the referee_pages fixtures read it
CARDS = "shipped"  # the First Edition is played with its shipped cards only


def table_view(page: Any) -> dict[str, Any]:
    """The table's view as the page reads it (the daemon's published state)."""
    return dict(page.evaluate("async () => (await fetch(document.body.dataset.viewUrl)).json()"))


def test_the_referee_chooses_the_lord_of_a_first_edition_game(
    chromium,  # noqa: F811
    dashboard: DashboardServer,  # noqa: F811
    table: CalibratingTable,  # noqa: F811
) -> None:  # type: ignore[no-untyped-def]
    expect = sync_api.expect
    page, errors = phone(chromium, dashboard.url + "login?next=/referee/setup/")
    log_in(page, PIN)
    expect(page.locator("#wiz-ruleset")).to_have_text("Catacombs 1E")
    expect(page.locator("#wiz-from-file")).to_be_hidden()
    # The four heroes play: shown chosen, not a choice; named in English with the printed name beside it.
    heroes = page.locator("#wiz-heroes input")
    expect(heroes).to_have_count(4)
    for index in range(4):
        expect(heroes.nth(index)).to_be_checked()
        expect(heroes.nth(index)).to_be_disabled()
    expect(page.locator("#wiz-heroes")).to_contain_text("Barbarian (Barbaro)")
    expect(page.locator("#wiz-all-heroes")).to_be_visible()
    # No Castles expansion and no rooms to pick: the rules deal the Room deck.
    expect(page.locator("#wiz-3e-castles-box")).to_be_hidden()
    expect(page.locator("#wiz-rooms-box")).to_be_hidden()
    expect(page.locator("#wiz-rooms-dealt")).to_be_visible()
    expect(page.locator("#wiz-lord option")).to_have_text(
        ["Dragon (Dragone)", "Gorgon (Gorgone)", "Lich", "Sorcerer (Stregone)"]
    )
    expect(page.locator("#wiz-current")).to_contain_text("game 1: ")

    page.select_option("#wiz-lord", "gorgone")
    page.click("#wiz-start")
    answer = page.locator("#wiz-start + .answer")
    expect(answer).to_have_text("✔ The new game is on the table")
    expect(page.locator("#wiz-current")).to_contain_text("game 2: ")
    # The table's game is the chosen one: the Keeper's Lord is the Gorgon (the demo table file names the
    # Dragon).
    state = table_view(page)["state"]
    assert state["ruleset"] == "catacombs-1e"
    lords = [c["id"] for c in state["characters"] if c["kind"] == "lord"]
    assert lords == ["lord-gorgone"], lords
    assert page_problems(page) == []
    assert errors == []
