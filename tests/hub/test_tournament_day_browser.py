"""A whole small tournament day on phone-sized pages, without a file edit (docs/tournaments.md, "The day").

Five players on two simulated Catacombs & Castles 2E tables, each a real daemon (the mat faked, its event
log a file) with its own Mosquitto, its log shipper and its own dashboard, bridged into a central Mosquitto
beside the hub, all as ``smartmat hub bridge-config`` writes them. The organiser creates the event and
registers the players with ``smartmat hub`` commands; in headless Chromium the head referee pairs round
one on the hub's overview; each table's referee starts the offered match with one tap on the table's turn
controller; one game is won, the other stopped at time and signed off as a draw; the bye is scored; round
two is paired and reaches the tables; the standings and the TRF export follow (read by py4swiss).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.emulator.source import default_capabilities
from firmware_bridge.fake import FakeConnection
from firmware_bridge.messages import Hello
from service.daemon.daemon import Daemon, DaemonOptions
from service.eventlog import SqliteEventLog
from service.hub.feed import HubFeed
from service.hub.hub import Hub
from service.hub.shipper import sqlite_log_shipper
from service.hub.store import HubStore
from service.publish.paho_transport import PahoTransport
from service.publish.publisher import TablePublisher
from service.table.config import load_table
from tests.helpers.browser import log_in, needs_chromium, phone
from tests.hub.network import TABLE_ROLES, start_network
from web_dashboard.hub import create_hub_app
from web_dashboard.security import hash_pin
from web_dashboard.server import serve_dashboard, serve_hub

pytestmark = [pytest.mark.browser, pytest.mark.broker, pytest.mark.slow, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
HUB_PIN = "2468"
TABLE_PIN = "owl-bear-42"
PLAYERS = "id,name\nada,Ada\nbo,Bo\ncy,Cy\ndee,Dee\neli,Eli\n"


def eventually(condition: Callable[[], Any], timeout_s: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout_s
    while not (value := condition()):
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)
    return value


class SimulatedTable:
    """A Castles table: its daemon (fake mat), event-log file, log shipper and dashboard, on its broker."""

    def __init__(self, network: Any, name: str, tmp_path: Path) -> None:
        shipped = load_table("castles-demo")
        modes = {mode: dict(fields) for mode, fields in shipped.game.modes.items()}
        modes["one-versus-one"]["first"] = "castle"  # no coin flip: the first side opens
        game = dataclasses.replace(shipped.game, mode="team", modes=modes, seed=5)
        self.config = dataclasses.replace(shipped, table=name, game=game)
        self.path = tmp_path / f"{name}.sqlite"
        self.connection = FakeConnection()
        broker = network.tables[name]
        transport = PahoTransport(broker.url("daemon", TABLE_ROLES["daemon"]), f"smartmat-daemon-{name}")
        publisher = TablePublisher(name, transport, handler=lambda c: self.daemon.on_command(c))
        self.daemon = Daemon(
            self.config,
            self.connection,
            SqliteEventLog(self.path),
            publisher,
            size_of=lambda card: None,
            options=DaemonOptions(),
        )
        self.daemon.start()
        self.connection.feed(Hello(default_capabilities(boot_id=7)))
        self.daemon.run_in_thread()
        self.shipper = sqlite_log_shipper(
            name, self.path, PahoTransport(network.logship_url(name), f"logship-{name}", keepalive_s=5)
        )
        self.shipper.start()
        self.dashboard = serve_dashboard(
            {
                "TABLE": name,
                "PORT": 0,
                "MQTT_URL": broker.url("referee", TABLE_ROLES["referee"]),
                "REFEREE_PIN_HASH": hash_pin(TABLE_PIN),
            }
        )

    def close(self) -> None:
        self.dashboard.stop()
        self.shipper.stop()
        self.daemon.stop()


def hub_command(tmp_path: Path, *args: str, stdin: str | None = None) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "service.cli", "hub", *args, "--db", str(tmp_path / "hub.sqlite")],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "SMARTMAT_HUB_PIN": HUB_PIN},
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_a_small_tournament_day_on_phones(tmp_path: Path, chromium: Any, shots_dir: Path) -> None:
    expect = sync_api.expect
    network = start_network(tmp_path, ["t1", "t2"])
    players = tmp_path / "players.csv"
    players.write_text(PLAYERS)
    hub_command(tmp_path, "new", "--name", "Castles Open", "--format", "castles-1v1")
    hub_command(tmp_path, "import-entrants", str(players))
    hub_command(tmp_path, "add-referee", "hana", "--role", "head")
    tables: dict[str, SimulatedTable] = {}
    hub = Hub(HubStore(tmp_path / "hub.sqlite"))
    feed = HubFeed(hub, PahoTransport(network.hub_url(), "smartmat-hub", keepalive_s=5), retry_s=0.3)
    server = None
    try:
        feed.start()
        for name in ("t1", "t2"):
            tables[name] = SimulatedTable(network, name, tmp_path)
        links = {name: table.dashboard.url for name, table in tables.items()}
        server = serve_hub(create_hub_app(hub, table_urls=links), "127.0.0.1", 0)
        eventually(lambda: all(hub.table_view(t)["status"] == "online" for t in tables))

        # The head referee pairs round one on a phone: the tables it names are the two it has heard from.
        head, head_errors = phone(chromium, f"{server.url}hub/login")
        head.fill("input[name=name]", "hana")
        head.fill("input[name=pin]", HUB_PIN)
        head.click("form.login button")
        expect(head.locator("#pair input[name=tables]")).to_have_value("t1,t2")
        head.click("#pair button")
        expect(head.locator("output[data-answer-for=pair]")).to_have_text(
            "Round 1 paired: 2 games; the bye goes to Eli."
        )
        first = {m.table: m for m in hub.tournament.rounds[0] if m.b}
        names = {e.id: e.name for e in hub.tournament.entrants.values()}

        # Each table's referee sees the offer on the turn controller and starts it with one tap.
        referees = {}
        for name, table in tables.items():
            page, errors = phone(chromium, table.dashboard.url + "login?next=/referee/turn")
            log_in(page, TABLE_PIN)
            card = page.locator("#match-card")
            match = first[name]
            expect(card).to_contain_text(f"Castles Open, round 1: {names[match.a]} v {names[match.b]}")
            button = page.locator("#start-match")
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
            if name == "t1":
                page.screenshot(path=str(shots_dir / "table-match-offer-phone.png"))
            button.click()
            expect(card).to_be_hidden()  # the game on the table is now the match
            expect(page.locator("body")).to_contain_text(f"{names[match.a]} (Team Castle)")  # players by name
            referees[name] = (page, errors)
            setup = [r for r in table.daemon.eventlog.records() if r.kind == "setup"][-1]
            assert [s["id"] for s in setup.payload["sides"]] == [match.a, match.b]
            assert setup.by == "referee:anna"

        # Play. At t1 the second side's Health Pool is emptied (the referee's correction stands in for
        # the shots): the first side wins. t2 runs out of time with both players standing.
        t1_page = referees["t1"][0]
        t1_page.evaluate(
            "([side]) => window.SmartmatReferee.send('correct', "
            "{target: side, field: 'health', value: 0, reason: 'shots of the game'})",
            [first["t1"].b],
        )
        eventually(lambda: hub.table_view("t1")["outcome"] == first["t1"].a)
        eventually(lambda: hub.table_view("t1")["log_held"] == hub.table_view("t1")["log_head"] > 2)

        # The head referee signs both off on the hub's overview (a head referee may sign off any table).
        head.reload()
        t1_row = head.locator("tr[data-table=t1]")
        button = t1_row.locator("form.sign-off button")
        expect(button).to_have_text(f"Sign off: {names[first['t1'].a]} won")  # from the game's log
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= 390
        button.click()
        expect(t1_row).to_contain_text("signed off")
        t2_row = head.locator("tr[data-table=t2]")
        expect(t2_row.locator("form.sign-off button")).to_have_text("Stopped at time: sign off")
        t2_row.locator("select[name=winner]").select_option("draw")
        t2_row.locator("form.sign-off button").click()
        expect(t2_row).to_contain_text("signed off")
        head.screenshot(path=str(shots_dir / "hub-overview-phone.png"))
        draw = hub.tournament.results[(1, "t2")]
        assert draw.winner == "draw" and draw.stopped_at_time

        # Round two: paired on the overview, offered to the tables, picked up without a file edit.
        head.click("#pair button")
        expect(head.locator("output[data-answer-for=pair]")).to_contain_text("Round 2 paired: 2 games")
        second = {m.table: m for m in hub.tournament.rounds[1] if m.b}
        for page, _ in referees.values():
            expect(page.locator("#match-card")).to_contain_text("round 2: ")
        assert "Eli" not in [names[m.a] for m in hub.tournament.rounds[1] if m.b is None]  # one bye each
        referees["t2"][0].click("#start-match")
        eventually(
            lambda: (
                hub.table_view("t2")["setup_match"] == {"event": "Castles Open", "round": 2, "table": "t2"}
            )
        )
        assert hub.table_view("t2")["side_ids"] == [second["t2"].a, second["t2"].b]
        eventually(
            lambda: [s["id"] for s in hub.table_view("t2")["sides"]] == hub.table_view("t2")["side_ids"]
        )
        # At t1 the referee lets the players choose their heroes in the set-up wizard: its game is the match.
        wizard = referees["t1"][0]
        wizard.goto(tables["t1"].dashboard.url + "referee/setup")
        expect(wizard.locator("#wiz-match")).to_be_visible()
        names_2 = f"{names[second['t1'].a]} v {names[second['t1'].b]}"
        expect(wizard.locator("#wiz-match-names")).to_have_text(f"round 2, {names_2}")
        expect(wizard.locator("#wiz-mode")).to_have_value("one-versus-one")
        wizard.locator(".wiz-side[data-team=castle] .heroes input[value=larra]").check()
        wizard.locator(".wiz-side[data-team=catacomb] .heroes input[value=hakoru]").check()
        wizard.click("#wiz-start")
        expect(wizard.locator("#wiz-start + .answer")).to_have_text("✔ The new game is on the table")
        eventually(lambda: (hub.table_view("t1")["setup_match"] or {}).get("round") == 2)
        assert hub.table_view("t1")["side_ids"] == [second["t1"].a, second["t1"].b]
        chosen = [r for r in tables["t1"].daemon.eventlog.records() if r.kind == "setup"][-1].payload
        assert [s["heroes"] for s in chosen["sides"]] == [["larra"], ["hakoru"]]

        # The public standings, on a phone, and the exports.
        board, board_errors = phone(chromium, f"{server.url}hub/standings")
        rows = board.locator("table.standings tbody tr")
        expect(rows).to_have_count(5)
        expected = hub.standings()
        assert [rows.nth(i).inner_text().split("\t")[1] for i in range(5)] == [r["name"] for r in expected]
        board.screenshot(path=str(shots_dir / "hub-standings-phone.png"))
        standings = list(csv.DictReader(io.StringIO(get(f"{server.url}hub/export/standings.csv"))))
        points = {r["entrant"]: float(r["points"]) for r in standings}
        # Round one: a win (1), a draw (½ each), Eli's bye (1); round two's bye already counts (1).
        round_two_bye = next(m.a for m in hub.tournament.rounds[1] if m.b is None)
        assert points[first["t1"].a] == 1.0 and points[first["t1"].b] == (
            1.0 if round_two_bye == first["t1"].b else 0.0
        )
        assert points[first["t2"].a] + points[first["t2"].b] == 1.0 + (
            round_two_bye in (first["t2"].a, first["t2"].b)
        )
        eli = next(r for r in standings if r["entrant"] == "eli")
        assert (float(eli["points"]), eli["byes"], eli["wins"]) == (1.0, "1", "0")
        trf = tmp_path / "day.trf"
        trf.write_text(get(f"{server.url}hub/export/tournament.trf"))
        from py4swiss.trf import TrfParser

        parsed = TrfParser.parse(trf, strict=True)
        assert parsed.x_section.number_of_rounds == 2 and len(parsed.player_sections) == 5
        for _, errors in [(head, head_errors), (board, board_errors), *referees.values()]:
            assert errors == [], errors
    finally:
        if server is not None:
            server.stop()
        for table in tables.values():
            table.close()
        feed.stop()
        hub.store.close()
        network.stop()


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return str(response.read().decode("utf-8"))
