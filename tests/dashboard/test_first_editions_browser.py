"""A phone watching the first editions, in headless Chromium: a Catacombs 1E hero incapacitated by his own
frenzy, and a Catacombs & Castles 1E hero's Ability cards charged by a hit. The snapshots are the table
session's own, folded from a played game's log and published through the real publisher on a private
Mosquitto.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from service.eventlog.memory import MemoryEventLog
from service.publish.paho_transport import PahoTransport
from service.publish.publisher import TablePublisher
from service.table.config import load_table, with_game
from service.table.games import table_game
from service.table.session import TableSession
from tests.helpers.broker import start_mosquitto
from tests.helpers.browser import needs_chromium, phone
from web_dashboard.server import serve_dashboard

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]

sync_api = pytest.importorskip("playwright.sync_api")

Play = Callable[[str, dict[str, Any]], None]
PublishBoard = Callable[[dict[str, Any], int], None]


@pytest.fixture
def watched(tmp_path: Path) -> Iterator[Callable[[str], tuple[Play, TableSession, str, PublishBoard]]]:
    """A table publishing what its log folds to, and a dashboard for it; one table per test."""
    broker = start_mosquitto(tmp_path / "broker")
    running: list[Any] = []

    def table(table_id: str) -> tuple[Play, TableSession, str, PublishBoard]:
        publisher = TablePublisher(table_id, PahoTransport(broker.url(), client_id=f"{table_id}-daemon"))
        publisher.start()
        running.append(publisher)
        dashboard = serve_dashboard(
            {
                "TABLE": table_id,
                "PORT": 0,
                "MQTT_URL": broker.url(),
                "MQTT_REFEREE_URL": broker.url(),
                "SSE_KEEPALIVE_S": 1.0,
            }
        )
        running.append(dashboard)
        deadline = time.monotonic() + 10
        while not publisher.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        log, session = MemoryEventLog(), TableSession()

        def play(kind: str, payload: dict[str, Any]) -> None:
            seq = log.append(kind, payload, "referee:anna")
            session.apply(log.records(after_seq=seq - 1)[0])
            publisher.publish_state(session.snapshot(), session.seq)

        return play, session, str(dashboard.url), publisher.publish_board

    try:
        yield table
    finally:
        for thing in reversed(running):
            thing.stop()
        broker.stop()


def test_a_phone_shows_the_barbarian_incapacitated_after_his_frenzy(chromium, watched) -> None:  # type: ignore[no-untyped-def]
    """catacombs-1e-rules-italian.txt: Incapacità — an incapacitated hero takes no action; Colpi in sequenza
    (the Barbarian's Furia leaves him incapacitated); Preparazione degli eroi (his rage track, which the
    Frenzy spends)."""
    play, session, url, publish_board = watched("catacombs-1e-demo")
    table = load_table("catacombs-1e-demo")
    setup = table_game(table.ruleset).setup_payload(table, 0)
    play("setup", {**setup, "rooms": ["caserma", "mercante", "corridoio"]})
    play("action", {"action": "enter_room"})
    play("action", {"action": "start_battle"})
    play("action", {"action": "play_card", "character": "hero-barbaro", "card": "furia"})
    for orc in ("monster-orco-1", "monster-orco-2"):
        play(
            "action",
            {"action": "resolve_shot", "character": "hero-barbaro", "shot": "melee", "direct_hits": [orc]},
        )
    while session.expected_shot() is not None:
        play(
            "action",
            {"action": "resolve_shot", "character": "hero-barbaro", "shot": "melee", "direct_hits": []},
        )
    barbaro = next(c for c in session.snapshot()["characters"] if c["id"] == "hero-barbaro")
    assert "incapacitated" in barbaro["status"]
    assert barbaro["rage"] == 1  # Preparazione degli eroi: level 2; the Frenzy spent one

    page, errors = phone(chromium, url)
    tag = page.locator("#heroes [data-character=hero-barbaro] .tag")
    sync_api.expect(tag).to_have_text("incapacitated: no action")
    sync_api.expect(page.locator("#heroes [data-character=hero-barbaro] .rage")).to_have_text("rage 1")
    assert not page.locator("#heroes [data-character=hero-elfo] .tag").count()
    assert not page.locator("#heroes [data-character=hero-elfo] .rage").count()  # no rage track
    # Tapping his disc on the mat says the same.
    disc = {"piece": "hero-barbaro", "character": "hero-barbaro", "side": "heroes", "kind": "hero"}
    board = {
        "mat": {"width_mm": 900, "height_mm": 600},
        "pieces": [{**disc, "x_mm": 300, "y_mm": 100, "radius_mm": 16}],
    }
    publish_board(board, session.seq)
    page.locator("svg.board [data-piece=hero-barbaro]").click()
    sync_api.expect(page.locator(".piece-details .status")).to_have_text("incapacitated: no action")
    sync_api.expect(page.locator(".piece-details .rage")).to_have_text("Rage 1")
    assert errors == []


def test_a_phone_shows_a_first_edition_hero_s_ability_cards_and_their_tokens(chromium, watched) -> None:  # type: ignore[no-untyped-def]
    """catacombs-and-castles-1e-manual.txt: Ability Cards — charged by the opposing team's Health Tokens;
    Armour Tokens — one on each hero's Rules card (Team Mode Setup)."""
    play, session, url, _ = watched("castles-1e-demo")
    table = with_game(load_table("castles-1e-demo"), mode="team")
    play("setup", table_game(table.ruleset).setup_payload(table, 0))
    page, errors = phone(chromium, url)
    hakoru = page.locator(".pool[data-side=catacomb] [data-character=hero-hakoru] .charges")
    sync_api.expect(hakoru).to_contain_text("● full armour")
    sync_api.expect(hakoru).to_contain_text("hail xaugorth: 0 tokens")
    sync_api.expect(hakoru).not_to_contain_text("catacomb hail")  # the card's name, not its team

    # Team Catacomb first (the Castle side of the board): Hakoru's last shot hits Larra, who keeps her Armour
    # Token; the Health Token taken goes onto Hakoru's first Ability card.
    play("action", {"action": "declare", "character": "hero-hakoru", "alternative": 0})
    while (expected := session.expected_shot()) is not None:
        last = len(session.state.turn.queue) == 1
        hits = ["hero-larra"] if last else []
        play(
            "action",
            {
                "action": "resolve_shot",
                "character": expected["character"],
                "shot": expected["shot"],
                "direct_hits": hits,
            },
        )
    while (pending := session.snapshot()["pending"]) is not None:
        choice = "take" if pending["kind"] == "armour" else pending["options"][0]["id"]
        play("action", {"action": "decide", "decision": pending["id"], "option": choice})
    cards = next(c for c in session.snapshot()["characters"] if c["id"] == "hero-hakoru")["cards"]
    assert sum(cards.values()) == 1
    sync_api.expect(page.locator(".pool[data-side=castle] .pool-health")).to_have_text("7 / 8")
    charged = next(card for card, n in cards.items() if n == 1).removeprefix("catacomb-").replace("-", " ")
    sync_api.expect(hakoru).to_contain_text(f"{charged}: 1 token")
    assert errors == []
