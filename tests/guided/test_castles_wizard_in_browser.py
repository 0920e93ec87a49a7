"""Headless Chromium sets up a Catacombs & Castles 2E game with the set-up wizard on the simulated mat: the
referee picks Boss Mode, the hero team, the boss and its warriors; a choice the rules refuse says why.

catacombs-and-castles-2e-manual.md: Boss Mode Rules (a hero team against one boss player with three different
warriors of the boss' team; the boss player's tokens are stated: docs/rulings.md, "Boss Mode token numbers").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.guided.test_calibrate_at_the_table import CalibratingTable
from tests.helpers.broker import (
    mosquitto_broker,  # noqa: F401  (the fixture)
)
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, phone  # noqa: F401
from tests.helpers.referee_pages import PIN, dashboard, table  # noqa: F401  (the fixtures)
from web_dashboard.server import DashboardServer

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
TABLE_FILE = Path("content/tables/castles-demo.yaml")  # the referee_pages fixtures read it


def test_the_referee_sets_up_boss_mode_at_a_castles_table(
    chromium,  # noqa: F811
    dashboard: DashboardServer,  # noqa: F811
    table: CalibratingTable,  # noqa: F811
) -> None:  # type: ignore[no-untyped-def]
    expect = sync_api.expect
    page, errors = phone(chromium, dashboard.url + "login?next=/referee/setup/")
    log_in(page, PIN)
    expect(page.locator("#wiz-ruleset")).to_have_text("Catacombs & Castles 2E")
    # The table file's game is on the table: its Quick Start teams.
    expect(page.locator("#wiz-current")).to_contain_text("game 1: Team Mode: ")
    expect(page.locator("#wiz-3e")).to_be_hidden()

    page.select_option("#wiz-mode", "boss")
    page.select_option("#wiz-first", "castle")
    castle = page.locator(".wiz-side[data-team=castle]")
    catacomb = page.locator(".wiz-side[data-team=catacomb]")
    expect(castle.locator(".plays-boss").first).to_be_hidden()  # Team Catacomb is the boss player
    expect(catacomb.locator(".heroes")).to_be_hidden()
    # A side is offered only its own team's heroes, boss and warriors.
    expect(castle.locator(".heroes input[value=hakoru]")).to_have_count(0)
    expect(catacomb.locator(".boss option")).to_have_text(["Xaugorth the Wraith Knight"])
    for hero in ("larra", "kethyst", "delilah"):
        castle.locator(f".heroes input[value={hero}]").check()
    castle.locator(".health").fill("12")
    catacomb.locator(".health").fill("14")
    catacomb.locator(".reinforcements").fill("2")
    for warrior in ("catacomb-warrior-a", "catacomb-warrior-b"):
        catacomb.locator(f".warriors input[value={warrior}]").check()

    # Two warriors: the rules refuse, the game on the table goes on.
    page.click("#wiz-start")
    answer = page.locator("#wiz-start + .answer")
    expect(answer).to_contain_text(
        "✘ Not done: cannot start the game: the second side chooses three different warriors"
    )
    # Right under the button, in the screen the referee tapped it in, and without a Python value.
    button, said = page.locator("#wiz-start").bounding_box(), answer.bounding_box()
    assert button is not None and said is not None and 0 <= said["y"] - (button["y"] + button["height"]) < 40
    assert "[" not in (answer.text_content() or "")
    expect(page.locator("#wiz-current")).to_contain_text("game 1: Team Mode: ")

    catacomb.locator(".warriors input[value=catacomb-warrior-c]").check()
    page.click("#wiz-start")
    expect(page.locator("#wiz-start + .answer")).to_have_text("✔ The new game is on the table")
    expect(page.locator("#wiz-current")).to_have_text(
        "game 2: Boss Mode: Delilah the Mage Princess, Kethyst the Ranger, Larra the Huntress, "
        "Xaugorth the Wraith Knight"
    )
    # Step 2 lists the new game's discs: the heroes and the boss, each not on the mat yet.
    expect(page.locator("#wiz-pieces li[data-piece=hero-larra]")).to_have_attribute("data-ok", "false")
    expect(page.locator("#wiz-pieces li[data-piece=catacomb-boss]")).to_have_count(1)
    # The only error the page logged is the refused command's answer (HTTP 409).
    assert errors == ["Failed to load resource: the server responded with a status of 409 (CONFLICT)"]
