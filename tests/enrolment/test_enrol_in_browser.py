"""Headless Chromium enrols a box of discs from the referee's set-up page, against the simulated mat.

The daemon owns the simulated mat's pseudo-terminal; the page starts the enrolment and the simulated
organiser puts discs on the mat one at a time (and once, two together by mistake).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.mat.geometry import load_piece_classes
from service.simulator.sensors import tag_uid
from service.table.disc_sets import load_set
from tests.guided.test_calibrate_at_the_table import CalibratingTable
from tests.helpers.broker import (
    mosquitto_broker,  # noqa: F401  (the fixture)
)
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, phone  # noqa: F401
from tests.helpers.referee_pages import PIN, dashboard, table  # noqa: F401  (the fixtures)
from web_dashboard.server import DashboardServer

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
HERO = load_piece_classes()["hero"]


def test_the_referee_enrols_three_discs_and_the_set_file_names_each_tag(
    chromium,  # noqa: F811
    dashboard: DashboardServer,  # noqa: F811
    table: CalibratingTable,  # noqa: F811
    tmp_path: Path,
) -> None:  # type: ignore[no-untyped-def]
    expect = sync_api.expect

    def put_down(label: str, x_mm: float) -> None:
        with table.source.hands() as world:
            world.place(label, HERO, x_mm, 300.0)

    page, errors = phone(chromium, dashboard.url + "login?next=/referee/setup/enrol")
    log_in(page, PIN)
    page.fill("#enrol-set", "box-7")
    page.fill("#enrol-pieces", "hero-xoric, hero-elani, undead-1")
    page.click("#enrol-start")
    expect(page.locator("#enrol-next")).to_have_text("Put Xoric the Barbarian's disc on the mat")
    expect(page.locator("#enrol-progress")).to_have_text("0 of 3 discs enrolled in set box-7")

    put_down("disc-a", 150.0)
    expect(page.locator("#enrol-next")).to_have_text("Put Elani the Thief's disc on the mat")
    expect(page.locator("#enrol-notices li").first).to_have_text(
        f"tag {tag_uid('disc-a').hex()} is now Xoric"
    )

    put_down("disc-b", 350.0)  # two discs at once, by mistake
    put_down("disc-c", 550.0)
    # Each scan that sees both new tags says so again: the newest such notice is checked.
    several = page.locator("#enrol-notices li[data-kind=several_tags]").first
    expect(several).to_have_attribute("data-ok", "false")
    expect(several).to_contain_text(tag_uid("disc-b").hex())
    expect(page.locator("#enrol-progress")).to_have_text("1 of 3 discs enrolled in set box-7")
    with table.source.hands() as world:
        world.remove("disc-c")  # one taken off again: the one left on the mat is the tap
    expect(page.locator("#enrol-next")).to_have_text("Put disc undead 1 on the mat")
    put_down("disc-c", 550.0)
    expect(page.locator("#enrol-next")).to_have_text("Every disc of the set has its tag")
    expect(page.locator("#enrol-done li")).to_have_count(3)
    page.click("#enrol-finish")
    set_file = tmp_path / "sets" / "box-7.yaml"
    expect(page.locator("#enrol-finished")).to_have_text("set box-7: 3 of 3 discs enrolled and saved")

    stored = load_set(set_file)
    assert [(e.piece, e.uid) for e in stored.registry.pieces] == [
        ("hero-xoric", tag_uid("disc-a")),
        ("hero-elani", tag_uid("disc-b")),
        ("undead-1", tag_uid("disc-c")),
    ]
    assert errors == []
