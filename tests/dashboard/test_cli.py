"""`smartmat dashboard set-pin` and `serve_dashboard`: install a PIN, serve pages and streams, stop."""

from __future__ import annotations

import argparse
import io
import threading
import urllib.request
from pathlib import Path

import pytest

from tests.dashboard.conftest import Referee
from web_dashboard.cli import register_cli
from web_dashboard.server import serve_dashboard
from web_dashboard.table.fake_feed import FakeCommandChannel, FakeFeed


def smartmat(argv: list[str], stdin: str = "") -> int:
    parser = argparse.ArgumentParser(prog="smartmat")
    register_cli(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.StringIO(stdin))
        return int(args.func(args))


def test_the_installer_sets_a_pin_and_the_referee_logs_in_with_it(tmp_path: Path) -> None:
    pin_file = tmp_path / "state" / "referee-pin"
    assert smartmat(["dashboard", "set-pin", "--pin-stdin", "--pin-file", str(pin_file)], "red-dragon\n") == 0
    assert "red-dragon" not in pin_file.read_text()
    assert pin_file.stat().st_mode & 0o077 == 0  # only the owner may read the hash

    feed = FakeFeed("t1")
    server = serve_dashboard(
        {
            "PORT": 0,
            "TABLE": "t1",
            "TABLE_FEED": feed.feed,
            "COMMAND_CHANNEL": FakeCommandChannel(),
            "REFEREE_PIN_FILE": str(pin_file),
        }
    )
    try:
        referee = Referee(server.app.test_client())
        assert referee.login(pin="red-dragon").status_code == 302
        assert Referee(server.app.test_client()).login(pin="red-drag0n").status_code == 401
    finally:
        server.stop()


def test_a_too_short_pin_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pin_file = tmp_path / "referee-pin"
    assert smartmat(["dashboard", "set-pin", "--pin-stdin", "--pin-file", str(pin_file)], "12\n") == 1
    assert "at least 4 characters" in capsys.readouterr().err
    assert not pin_file.exists()


def test_the_server_streams_to_a_phone_and_stops_with_it_attached() -> None:
    feed = FakeFeed("t1")
    feed.snapshot({"phase": "battle", "round": 1}, seq=1)
    server = serve_dashboard(
        {"PORT": 0, "TABLE": "t1", "TABLE_FEED": feed.feed, "COMMAND_CHANNEL": FakeCommandChannel()}
    )
    assert server.url.startswith("http://127.0.0.1:")
    page = urllib.request.urlopen(server.url, timeout=5).read().decode()
    assert 'data-events-url="/table/t1/events"' in page
    stream = urllib.request.urlopen(server.url + "table/t1/events", timeout=5)
    lines: list[str] = []

    def read() -> None:
        for raw in stream:
            lines.append(raw.decode())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    feed.event("damage", "Xoric's melee hits the Troll (1 damage)", seq=2)
    stopper = threading.Thread(target=server.stop)
    stopper.start()
    stopper.join(timeout=10)
    assert not stopper.is_alive(), "stop() hung with a phone still attached"
    reader.join(timeout=5)
    text = "".join(lines)
    assert "event: hello" in text
    assert "id: 2\n" in text
