"""Headless Chromium walks the set-up wizard on the simulated mat: the game, the pieces, the health check.

The daemon runs on the simulated mat's pseudo-terminal and a private Mosquitto, with a table file that lists
one WLED tracker (fed by the bridge, watched by a WLED-shaped client) and a calibration made an hour ago; the
dashboard is served for real.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml

from service.attribution.calibration import save_calibration, wide_priors
from service.guided.report import save_report
from service.mat.geometry import load_piece_classes
from service.table.trackers import load_trackers
from service.trackers.bridge import WledBridge
from tests.guided.test_calibrate_at_the_table import CalibratingTable
from tests.helpers.broker import (
    MosquittoBroker,
    mosquitto_broker,  # noqa: F401  (the fixture)
)
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, phone, shots_dir  # noqa: F401
from tests.helpers.mqtt_probe import MqttProbe
from tests.helpers.referee_pages import PIN, dashboard  # noqa: F401  (the fixture)
from web_dashboard.server import DashboardServer

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
HEROES = ("xoric", "varesh", "roosan", "elani")


@pytest.fixture
def table(tmp_path: Path, mosquitto_broker: MosquittoBroker) -> Iterator[CalibratingTable]:  # noqa: F811
    data = yaml.safe_load(Path("content/tables/demo.yaml").read_text())
    data["trackers"] = [{"id": "board-1", "topic": "wled/board-1", "character": "hero-xoric"}]
    table_file = tmp_path / "demo.yaml"
    table_file.write_text(yaml.safe_dump(data))
    calibration = dataclasses.replace(wide_priors("demo"), source="guided")  # calibrated an hour ago
    save_calibration(calibration, tmp_path / "table-1.calibration.json")
    figures = {"good": True, "taps": 18, "taps_heard": 18, "timing_jitter_us": 28.0}
    save_report(tmp_path / "table-1.calibration.json", datetime.now(UTC) - timedelta(hours=1), figures, {})
    running = CalibratingTable(tmp_path, broker_url=mosquitto_broker.url(), table_file=table_file)
    try:
        yield running
    finally:
        running.close()


def test_the_referee_sets_up_a_game_places_the_pieces_and_ends_on_a_green_health_check(
    chromium,  # noqa: F811
    dashboard: DashboardServer,  # noqa: F811
    table: CalibratingTable,
    mosquitto_broker: MosquittoBroker,  # noqa: F811
    shots_dir: Path,  # noqa: F811
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:  # type: ignore[no-untyped-def]
    expect = sync_api.expect
    table_file = tmp_path / "demo.yaml"
    bridge = WledBridge.connect_to("demo", load_trackers(table_file), mosquitto_broker.url())
    request.addfinalizer(bridge.stop)
    page, errors = phone(chromium, dashboard.url + "login?next=/referee/setup/")
    log_in(page, PIN)

    # 1. The game: four heroes, a Lord, the first room, with the Castles cards (the Castles heroes are offered
    # once they are ticked: catacombs-and-castles-2e-manual.md: Catacombs 3E Integration).
    expect(page.locator("#wiz-heroes input[value=xoric]")).to_be_visible()  # the choices have loaded
    expect(page.locator("#wiz-3e-castles-heroes input[value=hakoru]")).to_be_attached()
    expect(page.locator("#wiz-3e-castles-heroes input[value=hakoru]")).to_be_hidden()
    page.check("#wiz-3e-castles")
    expect(page.locator("#wiz-3e-castles-heroes input[value=hakoru]")).to_be_visible()
    for hero in HEROES:
        page.check(f"#wiz-heroes input[value={hero}]")
    page.select_option("#wiz-lord", "vasesak-the-sorcerer")
    page.check("#wiz-rooms input[value=the-barracks]")
    page.click("#wiz-start")
    expect(page.locator("#wiz-start + .answer")).to_have_text("✔ The new game is on the table")
    expect(page.locator("#wiz-current")).to_contain_text("game 2: ")
    setup = [r.payload for r in table.daemon.eventlog.records() if r.kind == "setup"][-1]
    assert (sorted(setup["heroes"]), setup["expansions"]) == (sorted(HEROES), ["castles"])

    # 2. Place the pieces: the mat confirms each disc it sees.
    for hero in HEROES:
        expect(page.locator(f"#wiz-pieces li[data-piece=hero-{hero}]")).to_have_attribute("data-ok", "false")
    hero_class = load_piece_classes()["hero"]
    with table.source.hands() as world:
        for i, hero in enumerate(HEROES):
            world.place(f"hero-{hero}", hero_class, 150.0 + 180 * i, 120.0, side="heroes")
    page.click("#wiz-rescan")
    for hero in HEROES:
        expect(page.locator(f"#wiz-pieces li[data-piece=hero-{hero}]")).to_have_attribute("data-ok", "true")
    expect(page.locator("#wiz-mat circle.seen")).to_have_count(4)
    expect(page.locator("#wiz-pieces li[data-piece=hero-xoric]")).to_have_text(
        "Xoric the Barbarian: seen on the mat"
    )

    # 3. The trackers, and 4. the health check.
    board_1 = page.locator("#wiz-trackers li[data-tracker=board-1] span")
    expect(board_1).to_have_text("board-1 (wled, wled/board-1): beside Xoric the Barbarian ")
    # The tracker goes to Elani's board instead: the WLED device beside it shows her 7 health, not Xoric's 9.
    with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as device:
        device.subscribe("wled/board-1/api")
        device.wait_for(lambda seen: any(b'"i":[0,9,"00C800"' in s.payload for s in seen))
        page.select_option("#wiz-trackers li[data-tracker=board-1] select", "hero-elani")
        page.click("#wiz-trackers li[data-tracker=board-1] button")
        expect(board_1).to_have_text("board-1 (wled, wled/board-1): beside Elani the Thief ")
        device.wait_for(lambda seen: b'"i":[0,7,"00C800",7,12,"000000"]' in seen[-1].payload)

    expect(page.locator("#wiz-health li[data-check=trackers]")).to_have_text(
        "Trackers: 1 of 1 assigned, 0 of 1 WLED devices online"
    )
    with MqttProbe(mosquitto_broker.host, mosquitto_broker.port) as device:
        device.publish("wled/board-1/status", "online", retain=True)  # as WLED says when it connects
    expect(page.locator("#wiz-health li")).to_have_text(
        [
            "Mat: connected over its serial link",
            "Broker: the table is online",
            "Trackers: 1 of 1 assigned, 1 of 1 WLED devices online",
            "Calibration: calibrated 60 minutes ago",
        ]
    )
    expect(page.locator("#wiz-health li[data-ok=true]")).to_have_count(4)
    expect(page.locator("#wiz-verdict")).to_have_text("Everything is ready: let the game begin.")
    page.screenshot(path=str(shots_dir / "referee-setup.png"), full_page=True)

    table.mat.pull_cable()  # the health check notices a pulled cable
    expect(page.locator("#wiz-health li[data-check=serial]")).to_have_text(
        "Mat: no serial link (is the USB cable in?)"
    )
    expect(page.locator("#wiz-verdict")).to_have_text("1 check(s) need attention before play.")
    assert errors == []
