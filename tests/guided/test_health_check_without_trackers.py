"""The set-up wizard's health check at a table whose file lists no LED trackers (the shipped demo table):
the trackers are optional, so their check passes and the rest decide whether the table is ready."""

from __future__ import annotations

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


def test_a_table_without_trackers_passes_the_trackers_check(
    chromium,  # noqa: F811
    dashboard: DashboardServer,  # noqa: F811
    table: CalibratingTable,  # noqa: F811
) -> None:  # type: ignore[no-untyped-def]
    expect = sync_api.expect
    assert table.daemon.trackers == ()  # the demo table file lists none
    page, errors = phone(chromium, dashboard.url + "login?next=/referee/setup/")
    log_in(page, PIN)
    trackers = page.locator("#wiz-health li[data-check=trackers]")
    expect(trackers).to_have_text("Trackers: none at this table (they are optional)")
    expect(trackers).to_have_attribute("data-ok", "true")
    expect(page.locator("#wiz-trackers li")).to_have_text("No LED trackers at this table: nothing to assign.")
    expect(page.locator("#wiz-health li[data-check=serial]")).to_have_attribute("data-ok", "true")
    # Only what is really missing counts against the table: here the calibration, never made.
    failing = page.locator("#wiz-health li[data-ok=false]")
    expect(failing).to_have_count(1)
    expect(failing).to_have_attribute("data-check", "calibration")
    expect(page.locator("#wiz-verdict")).to_have_text("1 check(s) need attention before play.")
    assert errors == []
