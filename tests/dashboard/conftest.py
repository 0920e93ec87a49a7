"""Fixtures: a fresh dashboard app per test on a fake feed and a recording command channel."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.dashboard.table_broker import table  # noqa: F401  (a fixture for the broker tests)
from tests.dashboard.table_game import opening_board, opening_state
from web_dashboard.security import hash_pin
from web_dashboard.server import DashboardServer, serve_dashboard
from web_dashboard.table import create_app
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed

PIN = "owl-bear-42"
PIN_HASH = hash_pin(PIN)  # scrypt is deliberately slow: hash once per session


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def serve_on(feed: FakeFeed, **more: Any) -> DashboardServer:
    """The table's dashboard served for real on a free port over a fake feed, with the test PIN and a
    recording command channel; ``more`` adds to its configuration (e.g. ``CAMERA_VIEWS``)."""
    config = {"TABLE": "t1", "PORT": 0, "TABLE_FEED": feed.feed, "COMMAND_CHANNEL": FakeCommandChannel()}
    return serve_dashboard({**config, "REFEREE_PIN_HASH": PIN_HASH, **more})


@pytest.fixture
def feed() -> FakeFeed:
    fake = FakeFeed("t1")
    fake.online()
    fake.snapshot(opening_state(), seq=3)
    fake.board(opening_board())
    return fake


@pytest.fixture
def commands() -> FakeCommandChannel:
    return FakeCommandChannel()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(feed: FakeFeed, commands: FakeCommandChannel, clock: Clock) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "TABLE": "t1",
            "TABLE_FEED": feed.feed,
            "COMMAND_CHANNEL": commands,
            "REFEREE_PIN_HASH": PIN_HASH,
            "LOGIN_CLOCK": clock,
            "SSE_KEEPALIVE_S": 0.2,
        }
    )
    yield app
    feed.feed.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def csrf_of(html: str) -> str:
    match = re.search(r'(?:data-csrf|name="csrf_token" value)="([^"]+)"', html)
    assert match, "page carries no CSRF token"
    return match.group(1)


@dataclass
class Referee:
    client: FlaskClient

    def login(self, name: str = "anna", pin: str = PIN) -> Any:
        token = csrf_of(self.client.get("/login").get_data(as_text=True))
        return self.client.post("/login", data={"name": name, "pin": pin, "csrf_token": token, "next": "/"})

    def csrf(self) -> str:
        return csrf_of(self.client.get("/referee/turn").get_data(as_text=True))

    def command(self, command: str, **args: Any) -> Any:
        return self.client.post(
            "/api/command", json={"command": command, "args": args}, headers={"X-CSRF-Token": self.csrf()}
        )


@pytest.fixture
def referee(client: FlaskClient) -> Referee:
    ref = Referee(client)
    assert ref.login().status_code == 302
    return ref


from tests.helpers.browser import chromium, module_chromium, shots_dir  # noqa: E402, F401  (fixtures for the browser tests)
