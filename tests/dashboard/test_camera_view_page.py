"""The calibrate page's camera step (docs/camera.md, "The camera step"): the referee asks the camera for a
picture and sees it, with the mapping error in mm and the enrolled discs not seen, in words; spectators can
neither fetch the picture nor ask for one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.camera.wire import encode_view
from tests.dashboard.conftest import PIN, PIN_HASH, Referee, csrf_of, serve_on
from tests.dashboard.table_game import opening_board, opening_state
from tests.helpers.browser import chromium, log_in, needs_chromium, phone  # noqa: F401
from web_dashboard.server import DashboardServer
from web_dashboard.table import create_app
from web_dashboard.table.camera_views import CameraViews
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed

SUMMARY = {
    "mapped": True,
    "fiducials_seen": 8,
    "mapping_error_mm": 0.42,
    "seen": ["hero-1", "orc-1"],
    "missing": ["troll-1"],
    "names": {"hero-1": "hero-1", "orc-1": "orc-1", "troll-1": "troll-1"},
    "problem": None,
}


def _jpeg() -> bytes:
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    image = np.full((120, 160, 3), (40, 120, 40), np.uint8)
    ok, encoded = cv2.imencode(".jpg", image)
    assert ok
    return bytes(encoded.tobytes())


class _Camera:
    """The camera process as the dashboard meets it: each ask is answered with one view."""

    def __init__(self) -> None:
        self.asks = 0
        self.views = CameraViews(self.ask)

    def ask(self) -> bool:
        self.asks += 1
        self.views.take(encode_view(SUMMARY, _jpeg()))
        return True


@pytest.fixture
def camera_app() -> Iterator[tuple[Flask, _Camera]]:
    feed, camera = FakeFeed("t1"), _Camera()
    app = create_app(
        {
            "TESTING": True,
            "TABLE": "t1",
            "TABLE_FEED": feed.feed,
            "COMMAND_CHANNEL": FakeCommandChannel(),
            "CAMERA_VIEWS": camera.views,
            "REFEREE_PIN_HASH": PIN_HASH,
        }
    )
    yield app, camera
    feed.feed.close()


def test_a_referee_asks_for_the_view_and_fetches_the_jpeg(camera_app: tuple[Flask, _Camera]) -> None:
    app, camera = camera_app
    referee = Referee(app.test_client())
    assert referee.login().status_code == 302
    token = csrf_of(referee.client.get("/referee/setup/calibrate").get_data(as_text=True))
    assert referee.client.post("/referee/setup/camera/ask").status_code == 400  # no CSRF token
    assert camera.asks == 0
    assert referee.client.post("/referee/setup/camera/ask", headers={"X-CSRF-Token": token}).json == {
        "ok": True
    }
    assert camera.asks == 1
    picture = referee.client.get("/referee/setup/camera/view.jpg")
    assert picture.status_code == 200 and picture.mimetype == "image/jpeg"
    assert picture.data == _jpeg() and picture.headers["Cache-Control"] == "no-store"
    state = referee.client.get("/referee/setup/camera/view.json").get_json()
    assert state is not None
    assert state["view"]["mapping_error_mm"] == 0.42 and state["view"]["missing"] == ["troll-1"]


def test_spectators_can_neither_fetch_the_view_nor_ask_for_one(camera_app: tuple[Flask, _Camera]) -> None:
    app, camera = camera_app
    camera.ask()  # a picture is there to be stolen
    spectator: FlaskClient = app.test_client()
    for path in ("/referee/setup/camera/view.jpg", "/referee/setup/camera/view.json"):
        answer = spectator.get(path)
        assert answer.status_code == 302 and "/login" in answer.headers["Location"]
        assert answer.data != _jpeg()
    token = csrf_of(spectator.get("/login").get_data(as_text=True))
    assert spectator.post("/referee/setup/camera/ask", headers={"X-CSRF-Token": token}).status_code == 401
    assert camera.asks == 1


def test_a_table_without_a_camera_link_has_no_picture(client: FlaskClient, referee: Referee) -> None:
    assert client.get("/referee/setup/camera/view.jpg").status_code == 404
    state = client.get("/referee/setup/camera/view.json").get_json()
    assert state is not None and state["camera_link"] is False


@pytest.mark.browser
@needs_chromium
def test_the_calibrate_page_shows_the_picture_the_error_and_the_missing_disc(chromium: Any) -> None:  # noqa: F811
    sync_api = pytest.importorskip("playwright.sync_api")
    feed, camera = FakeFeed("t1"), _Camera()
    feed.online()
    feed.snapshot(opening_state(), seq=3)
    feed.board(opening_board())
    server: DashboardServer = serve_on(feed, CAMERA_VIEWS=camera.views)
    try:
        page, errors = phone(chromium, server.url + "login?next=/referee/setup/calibrate")
        log_in(page, PIN)
        expect = sync_api.expect
        expect(page.locator("#cam-error")).to_have_text("Mapping error: 0.42 mm.")
        expect(page.locator("#cam-discs")).to_have_text("Not seen: troll-1.")
        expect(page.locator("#cam-image")).to_be_visible()
        width = page.evaluate("document.getElementById('cam-image').naturalWidth")
        assert width == 160  # the camera's JPEG itself, loaded through the referee's URL
        page.locator("#cam-refresh").click()
        expect(page.locator("#cam-status")).to_contain_text("8 corner markers found")
        assert camera.asks >= 2
        assert errors == []
    finally:
        server.stop()


@pytest.mark.browser
@needs_chromium
def test_a_table_without_a_camera_says_so_on_the_card(chromium: Any) -> None:  # noqa: F811
    sync_api = pytest.importorskip("playwright.sync_api")
    feed = FakeFeed("t1")
    feed.online()
    feed.snapshot(opening_state(), seq=3)
    feed.board(opening_board())
    server: DashboardServer = serve_on(feed)
    try:
        page, errors = phone(chromium, server.url + "login?next=/referee/setup/calibrate")
        log_in(page, PIN)
        expect = sync_api.expect
        expect(page.locator("#cam-status")).to_have_text(
            "This table has no camera connection: the camera step does not apply."
        )
        expect(page.locator("#cam-image")).to_be_hidden()
        expect(page.locator("#cam-refresh")).to_be_hidden()
        assert errors == []
    finally:
        server.stop()
