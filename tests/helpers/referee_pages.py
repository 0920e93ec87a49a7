"""The referee's set-up pages served for real against a daemon on the simulated mat, for browser tests.

A test module imports the fixtures ``table`` and ``dashboard``; it picks another table file by setting
``TABLE_FILE`` (a path) at module level, and the dashboard then serves that file's table name; ``CARDS``
("sample", the default, or "shipped") picks the cards the table's game is played with.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.guided.test_calibrate_at_the_table import CalibratingTable
from tests.helpers.broker import MosquittoBroker
from web_dashboard.security import hash_pin
from web_dashboard.server import DashboardServer, serve_dashboard

PIN = "owl-bear-42"


@pytest.fixture
def table(
    tmp_path: Path, mosquitto_broker: MosquittoBroker, request: pytest.FixtureRequest
) -> Iterator[CalibratingTable]:
    table_file = getattr(request.module, "TABLE_FILE", None)
    cards = getattr(request.module, "CARDS", "sample")
    running = CalibratingTable(
        tmp_path, broker_url=mosquitto_broker.url(), table_file=table_file, content=cards
    )
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def dashboard(
    table: CalibratingTable, mosquitto_broker: MosquittoBroker, request: pytest.FixtureRequest
) -> Iterator[DashboardServer]:
    table_file = getattr(request.module, "TABLE_FILE", None)
    name = yaml.safe_load(Path(table_file).read_text())["table"] if table_file else "demo"
    server = serve_dashboard(
        {"TABLE": name, "PORT": 0, "MQTT_URL": mosquitto_broker.url(), "REFEREE_PIN_HASH": hash_pin(PIN)}
    )
    try:
        yield server
    finally:
        server.stop()
