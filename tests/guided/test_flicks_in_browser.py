"""Headless Chromium walks the prescribed flicks in the referee's calibration page, on the simulated mat.

After the taps (sent as the page's commands), the referee starts the flicks on the page: it shows the spot
and the arrow, says in words how the flick was read, and ends on the surface's figures with advice.
"""

from __future__ import annotations

import math

import pytest

from service.mat.geometry import load_piece_classes
from tests.guided.test_calibrate_at_the_table import CalibratingTable
from tests.guided.test_flicks_at_the_table import seen_at
from tests.helpers.broker import (
    mosquitto_broker,  # noqa: F401  (the fixture)
)
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, phone  # noqa: F401
from tests.helpers.referee_pages import PIN, dashboard, table  # noqa: F401  (the fixtures)
from web_dashboard.server import DashboardServer

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
HERO = load_piece_classes()["hero"]


def test_the_page_asks_for_a_flick_reads_it_and_shows_the_surface_in_words(
    chromium,  # noqa: F811
    dashboard: DashboardServer,  # noqa: F811
    table: CalibratingTable,  # noqa: F811
) -> None:  # type: ignore[no-untyped-def]
    expect = sync_api.expect
    page, errors = phone(chromium, dashboard.url + "login?next=/referee/setup/calibrate")
    log_in(page, PIN)
    page.select_option("#cal-rounds", "1")
    page.click("#cal-start")
    desk = table.daemon.calibration_desk
    for done in range(1, 10):  # the taps first (test_calibrate_in_browser.py walks them in detail)
        # The page's start command reaches the daemon over the broker a moment after the click.
        table.until(lambda: desk.routine is not None and desk.routine.current is not None)
        routine = desk.routine
        assert routine is not None and routine.current is not None
        table.source.tap(routine.current.x_mm, routine.current.y_mm)
        table.until(lambda taken=done, r=routine: r.position == taken)
    page.check("#cal-mat-confirmed")
    page.click("#cal-finish")
    expect(page.locator("#cal-status")).to_have_text("calibrated just now")
    page.click("#cal-flicks-start")
    expect(page.locator("#cal-flick-number")).to_have_text("1 of 6")
    run = table.daemon.calibration_desk.flicking
    assert run is not None and run.current is not None
    spot = run.view()["spot"]
    expect(page.locator(f"#cal-flick-mat circle[data-spot='{spot['number']}']")).to_have_count(1)
    expect(page.locator("#cal-flick-mat line.aim")).to_have_attribute("x2", f"{spot['aim_x_mm']:g}")

    heading = math.atan2(spot["aim_y_mm"] - spot["y_mm"], spot["aim_x_mm"] - spot["x_mm"])
    behind = (spot["x_mm"] - 120 * math.cos(heading), spot["y_mm"] - 120 * math.sin(heading))
    with table.source.hands() as world:
        world.place("hero-xoric", HERO, spot["x_mm"], spot["y_mm"], side="heroes")
        world.place("hero-varesh", HERO, *behind, side="heroes")
    table.until(lambda: seen_at(table, "hero-xoric", spot["x_mm"], spot["y_mm"]))
    table.source.flick("hero-varesh", heading, 2300.0)
    expect(page.locator("#cal-last-flick")).to_contain_text("✔ flick 1 read: friction about 0.")
    expect(page.locator("#cal-flick-number")).to_have_text("2 of 6")

    # The referee stops after one flick: it is saved, and the page says in words what is weak.
    page.check("#cal-flicks-confirmed")
    page.click("#cal-flicks-finish")
    expect(page.locator("#cal-flicks-finish + .answer")).to_have_text("✔ Calibration saved")
    expect(page.locator("#cal-figures dd[data-figure='Flicks read']")).to_have_text("1 of 6")
    expect(page.locator("#cal-figures dd[data-figure='Sliding friction']")).to_contain_text(" ± ")
    advice = page.locator("#cal-advice li")
    expect(advice.nth(0)).to_have_text("5 of the 6 flicks were skipped or not read")
    expect(advice.nth(1)).to_have_text("only 1 of the flicks could be read: make the flicks again")
    assert errors == []
