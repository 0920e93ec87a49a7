"""Headless Chromium sets up a Catacombs & Castles First Edition game with the set-up wizard on the simulated
mat.

catacombs-and-castles-1e-manual.txt: Team Mode Setup and Placing The Heroes (the side of the board played is
chosen; "the opposite team to the side of the board being played goes first", so the wizard offers no choice
of who starts) and Armour Tokens (each hero may start with one: the wizard's tick box).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.guided.test_calibrate_at_the_table import CalibratingTable
from tests.guided.test_catacombs_1e_wizard_in_browser import table_view
from tests.helpers.broker import (
    mosquitto_broker,  # noqa: F401  (the fixture)
)
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, phone  # noqa: F401
from tests.helpers.page_words import page_problems
from tests.helpers.referee_pages import PIN, dashboard, table  # noqa: F401  (the fixtures)
from web_dashboard.server import DashboardServer

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
TABLE_FILE = Path("content/tables/castles-1e-demo.yaml")  # the referee_pages fixtures read it
CARDS = "shipped"


def test_the_referee_picks_the_board_side_and_the_other_team_goes_first(
    chromium,  # noqa: F811
    dashboard: DashboardServer,  # noqa: F811
    table: CalibratingTable,  # noqa: F811
) -> None:  # type: ignore[no-untyped-def]
    expect = sync_api.expect
    page, errors = phone(chromium, dashboard.url + "login?next=/referee/setup/")
    log_in(page, PIN)
    expect(page.locator("#wiz-ruleset")).to_have_text("Catacombs & Castles 1E")
    expect(page.locator("#wiz-3e")).to_be_hidden()
    expect(page.locator("#wiz-first")).to_have_count(0)
    expect(page.locator("#wiz-quick-start")).to_have_count(0)

    page.select_option("#wiz-mode", "team")
    page.select_option("#wiz-board-side", "catacomb")
    page.locator("#wiz-armour").uncheck()
    castle = page.locator(".wiz-side[data-team=castle]")
    catacomb = page.locator(".wiz-side[data-team=catacomb]")
    for hero in ("larra", "kethyst"):
        castle.locator(f".heroes input[value={hero}]").check()
    for hero in ("hakoru", "formilus"):
        catacomb.locator(f".heroes input[value={hero}]").check()
    page.click("#wiz-start")
    expect(page.locator("#wiz-start + .answer")).to_have_text("✔ The new game is on the table")
    expect(page.locator("#wiz-current")).to_contain_text("game 2: Team Mode: ")

    state: dict[str, Any] = table_view(page)["state"]
    heroes = {c["id"]: c for c in state["characters"] if c["kind"] == "hero"}
    assert sorted(heroes) == ["hero-formilus", "hero-hakoru", "hero-kethyst", "hero-larra"]
    assert all(c["armour"] == [] for c in heroes.values()), heroes  # no Armour Tokens this game
    # Played on the Catacomb side of the board: Team Castle goes first.
    assert {a["character"] for a in state["actions"]} == {"hero-larra", "hero-kethyst"}, state["actions"]
    assert page_problems(page) == []
    assert errors == []
