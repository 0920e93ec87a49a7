"""A phone watching a Catacombs & Castles 2E game, and the referee performing a card from the turn controller,
in headless Chromium: the Health Pools, Armour Tokens and card charges drawn from the published snapshot (the
table session's own, from a real game's log, published through the real publisher on a private Mosquitto).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.fake import FakeConnection
from service.daemon.daemon import Daemon
from service.eventlog.memory import MemoryEventLog
from service.publish.paho_transport import PahoTransport
from service.publish.publisher import TablePublisher
from service.table.config import load_table, with_game
from service.table.games import table_game
from service.table.session import TableSession
from tests.dashboard.conftest import PIN, PIN_HASH
from tests.helpers.broker import start_mosquitto
from tests.helpers.browser import log_in, needs_chromium, open_tools, phone
from web_dashboard.server import serve_dashboard

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]

sync_api = pytest.importorskip("playwright.sync_api")


@dataclass
class CastlesTable:
    """A Boss Mode game's log, folded by the table session and published as the daemon publishes it."""

    log: MemoryEventLog
    session: TableSession
    publisher: TablePublisher

    def play(self, kind: str, payload: dict[str, Any]) -> None:
        seq = self.log.append(kind, payload, "referee:anna")
        self.session.apply(self.log.records(after_seq=seq - 1)[0])
        self.publisher.publish_state(self.session.snapshot(), self.session.seq)

    def turn(self, character: str, hits: list[str]) -> None:
        """The character performs its shot sequence; its last shot hits ``hits``; captured tokens go onto
        its first card."""
        self.play("action", {"action": "declare", "character": character, "alternative": 0})
        while (expected := self.session.expected_shot()) is not None:
            last = len(self.session.state.turn.queue if self.session.state.turn else ()) == 1
            shot = {"action": "resolve_shot", "character": expected["character"], "shot": expected["shot"]}
            self.play("action", {**shot, "direct_hits": hits if last else []})
        pending = self.session.snapshot()["pending"]
        if pending and pending["kind"] == "transfer":
            self.play(
                "action",
                {"action": "decide", "decision": pending["id"], "option": pending["options"][0]["id"]},
            )


@pytest.fixture
def castles(tmp_path: Path) -> Iterator[tuple[CastlesTable, str]]:
    broker = start_mosquitto(tmp_path / "broker")
    table_file = with_game(load_table("castles-demo"), mode="boss")
    setup = {**table_game(table_file.ruleset).setup_payload(table_file, 0), "first": "catacomb"}
    publisher = TablePublisher("castles-demo", PahoTransport(broker.url(), client_id="castles-daemon"))
    publisher.start()
    table = CastlesTable(MemoryEventLog(), TableSession(), publisher)
    dashboard = serve_dashboard(
        {
            "TABLE": "castles-demo",
            "PORT": 0,
            "MQTT_URL": broker.url(),
            "MQTT_REFEREE_URL": broker.url(),
            "SSE_KEEPALIVE_S": 1.0,  # an open page's stream notices the server stopping within a second
        }
    )
    try:
        deadline = time.monotonic() + 10
        while not publisher.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        table.play("setup", setup)
        yield table, dashboard.url
    finally:
        dashboard.stop()
        publisher.stop()
        broker.stop()


def test_a_phone_shows_both_pools_the_boss_armour_and_a_charged_card(chromium, castles, shots_dir) -> None:  # type: ignore[no-untyped-def]
    """catacombs-and-castles-2e-manual.md: Boss Mode Rules (the boss player's Health and Reinforcement
    Tokens); Health and Transfer Types (a captured token charges the attacker's card)."""
    table, url = castles
    expect = sync_api.expect
    page, errors = phone(chromium, url)
    pools = page.locator("#pools")
    expect(pools).to_be_visible()
    expect(page.locator("#pools-mode")).to_have_text("Boss Mode")
    expect(page.locator("#room-name")).to_have_text("Boss Mode")  # no rooms: the summary names the mode
    expect(page.locator("#moment")).to_have_text("Waiting for Team Catacomb to declare")
    expect(page.locator(".pool[data-side=castle] .pool-health")).to_have_text("12 / 12")
    expect(page.locator(".pool[data-side=catacomb] .pool-health")).to_have_text("14 / 14")
    expect(page.locator(".pool[data-side=catacomb] .pool-line")).to_contain_text("2 Reinforcement Tokens")
    expect(page.locator("#monsters")).to_be_hidden()  # the Catacombs lists say nothing here

    # The boss player's side goes first (the First Strike Rule: it inflicts nothing on its first turn): the
    # boss, then each warrior on the playmat. Then Larra's missile hits the boss: the boss player's pool loses
    # a token and Larra banks it on a card.
    table.turn("boss-xaugorth", [])
    for warrior in ("a", "b", "c"):
        table.turn(f"warrior-catacomb-catacomb-warrior-{warrior}-1", [])
    table.turn("hero-larra", ["boss-xaugorth"])
    expect(page.locator(".pool[data-side=catacomb] .pool-health")).to_have_text("13 / 14")
    larra = next(c for c in table.session.snapshot()["characters"] if c["id"] == "hero-larra")
    assert larra["charges"] == 1
    expect(page.locator("[data-character=hero-larra] .charges")).to_contain_text("ability: 1 token")
    expect(page.locator("[data-character=boss-xaugorth] .charges")).to_contain_text("boss (starting form)")

    # The referee hands Delilah a full and a half Armour Token (a correction): words and icons, not colour.
    correction = {"action": "set_armour", "character": "hero-delilah", "armour": [2, 1], "reason": "dropped"}
    table.play("correction", {"action": correction, "reason": "dropped"})
    expect(page.locator("[data-character=hero-delilah] .charges")).to_contain_text(
        "● full armour · ◐ half armour"
    )
    pools.screenshot(path=str(shots_dir / "castles-pools.png"))
    assert not errors, errors


@pytest.fixture
def castles_daemon(tmp_path: Path) -> Iterator[tuple[Daemon, str]]:
    """The daemon itself (on a fake mat connection) with a Team Mode game whose Hakoru holds a full Ability,
    and the dashboard with a referee PIN, on a private Mosquitto."""
    broker = start_mosquitto(tmp_path / "broker")
    table_file = with_game(load_table("castles-demo"), mode="team")
    log = MemoryEventLog()
    log.append(
        "setup", {**table_game(table_file.ruleset).setup_payload(table_file, 0), "first": "catacomb"}, "d"
    )
    charge = {
        "action": "set_charge",
        "character": "hero-hakoru",
        "card": "ability",
        "tokens": 3,
        "reason": "x",
    }
    log.append("correction", {"action": charge, "reason": "tokens kept from the last game"}, "referee:anna")
    holder: dict[str, Daemon] = {}
    publisher = TablePublisher(
        "castles-demo",
        PahoTransport(broker.url(), client_id="castles-daemon"),
        handler=lambda command: holder["daemon"].on_command(command),
    )
    daemon = holder["daemon"] = Daemon(
        table_file, FakeConnection(), log, publisher, size_of=lambda card: None
    )
    daemon.start()
    daemon.run_in_thread()
    dashboard = serve_dashboard(
        {
            "TABLE": "castles-demo",
            "PORT": 0,
            "MQTT_URL": broker.url(),
            "MQTT_REFEREE_URL": broker.url(),
            "REFEREE_PIN_HASH": PIN_HASH,
            "SSE_KEEPALIVE_S": 1.0,
        }
    )
    try:
        yield daemon, dashboard.url
    finally:
        dashboard.stop()
        daemon.stop()
        broker.stop()


def test_the_turn_controller_performs_a_charged_ability(chromium, castles_daemon) -> None:  # type: ignore[no-untyped-def]
    """catacombs-and-castles-2e-manual.md: Hero Abilities — "if charged", performed instead of the shot
    sequence."""
    daemon, url = castles_daemon
    expect = sync_api.expect
    referee, errors = phone(chromium, url + "referee/turn")
    log_in(referee, PIN)
    card = referee.locator("#actions button[data-action='hero-hakoru:ability:0']")
    expect(card).to_contain_text("Hakoru the Assassin: Suffer in Silence (rush, then shuriken)")
    expect(referee.locator("[data-character=hero-hakoru] .charges")).to_contain_text("ability: 3 tokens")
    card.click()
    expect(referee.locator("#expected-shot")).to_contain_text("Hakoru the Assassin — rush")
    expect(referee.locator("[data-character=hero-hakoru] .charges")).to_contain_text("ability: 0 tokens")
    performed = [r.payload for r in daemon.eventlog.records() if r.payload.get("action") == "perform_card"]
    assert performed == [
        {"action": "perform_card", "character": "hero-hakoru", "card": "ability", "alternative": 0}
    ]

    # A token slipped off the card: the referee puts it back from the console (a logged correction).
    referee.click("a[href='/referee/console']")
    open_tools(referee)
    form = referee.locator("#correct-form")
    form.locator("select[name=target]").select_option("hero-hakoru")
    form.locator("select[name=field]").select_option("charge")
    form.locator("input[name=card]").fill("ability")
    form.locator("input[name=value]").fill("1")
    form.locator("input[name=reason]").fill("a token slipped off the card")
    form.locator("button[type=submit]").click()
    expect(referee.locator("[data-character=hero-hakoru] .charges")).to_contain_text("ability: 1 token")
    assert not errors, errors
