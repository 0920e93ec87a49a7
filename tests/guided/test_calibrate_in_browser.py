"""Headless Chromium walks the guided calibration in the referee's set-up page, against the simulated mat.

The daemon runs on the simulated mat's pseudo-terminal and a private Mosquitto; the dashboard is served for
real. The referee starts the routine, the simulated mat is tapped on each point the page asks for, and the
page ends on the calibration's figures and age.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.guided.test_calibrate_at_the_table import CalibratingTable
from tests.helpers.broker import (
    mosquitto_broker,  # noqa: F401  (the fixture)
)
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, phone, shots_dir  # noqa: F401
from tests.helpers.referee_pages import PIN, dashboard, table  # noqa: F401  (the fixtures)
from web_dashboard.server import DashboardServer

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")


def test_the_referee_calibrates_the_mat_from_the_set_up_page(
    chromium,  # noqa: F811
    dashboard: DashboardServer,  # noqa: F811
    table: CalibratingTable,  # noqa: F811
    shots_dir: Path,  # noqa: F811
) -> None:  # type: ignore[no-untyped-def]
    expect = sync_api.expect
    page, errors = phone(chromium, dashboard.url + "login?next=/referee/setup/calibrate")
    log_in(page, PIN)
    expect(page.locator("#cal-status")).to_have_text("never calibrated with the guided routine")
    page.select_option("#cal-rounds", "1")
    page.click("#cal-start")
    expect(page.locator("#cal-point")).to_have_text("1")
    expect(page.locator("#cal-mat circle")).to_have_count(9)
    expect(page.locator("#cal-mat circle.current")).to_have_attribute("data-point", "1")
    for done in range(1, 10):
        routine = table.daemon.calibration_desk.routine
        assert routine is not None and routine.current is not None
        point = routine.current
        table.source.tap(point.x_mm, point.y_mm)  # the referee taps the point the page shows
        table.until(lambda taken=done, r=routine: r.position == taken)  # the table took the tap
    expect(page.locator("#cal-progress")).to_have_text("9 of 9 taps (round 1 of 1)")
    expect(page.locator("#cal-last-tap")).to_have_text("Last tap, point 9: heard by 8 piezos")
    expect(page.locator("#cal-mat-text")).to_have_text("Walls: closed wall system; fixed obstacles: 0.")
    page.click("#cal-finish")  # not yet confirmed: the dashboard says what is missing
    answer = page.locator("#cal-finish + .answer")
    expect(answer).to_contain_text("the playmat's walls, gaps and obstacles are checked")
    expect(answer).not_to_contain_text("False")  # in words, not as the value code got
    page.check("#cal-mat-confirmed")
    page.click("#cal-finish")
    expect(page.locator("#cal-finish + .answer")).to_have_text("✔ Calibration saved")
    expect(page.locator("#cal-status")).to_have_text("calibrated just now")
    expect(page.locator("#cal-figures dd[data-figure='Source']")).to_have_text("guided")
    expect(page.locator("#cal-figures dd[data-figure='Taps heard']")).to_have_text("9 of 9")
    expect(page.locator("#cal-start-card")).to_be_visible()
    page.screenshot(path=str(shots_dir / "referee-calibrate.png"))
    assert table.calibration_file.exists()
    # The browser logs the one refused request (the unconfirmed finish) and nothing else.
    assert errors == ["Failed to load resource: the server responded with a status of 400 (BAD REQUEST)"]
