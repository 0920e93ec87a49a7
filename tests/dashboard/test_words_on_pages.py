"""The spectator page and the referee's console of each game, at a phone's 390 px, after a whole example game
has been played through them: the checker (tests/helpers/page_words.py) finds no raw id, command name, record
number, file name or Python literal in what they show, and neither page scrolls sideways."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from service.gamelog.records import read_log
from service.publish.paho_transport import PahoTransport
from service.publish.publisher import TablePublisher
from service.table.session import TableSession
from tests.helpers.broker import start_mosquitto
from tests.helpers.browser import chromium, log_in, module_chromium, needs_chromium, phone  # noqa: F401
from tests.helpers.page_words import page_problems, text_problems
from web_dashboard.security import hash_pin
from web_dashboard.server import serve_dashboard

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "logs"
PIN = "owl-bear-42"
GAMES = {
    "catacombs-3e": "whole-game.jsonl",
    "catacombs-1e": "catacombs1e-dragon.jsonl",
    "castles-1e": "castles-1e-team.jsonl",
    "castles-2e": "castles-2e-team.jsonl",
}


IN_ENGLISH = {"Barbaro": "Barbarian"}  # Catacombs 1E's cards are Italian; pages read them in English


def test_the_checker_catches_each_kind_of_developer_string() -> None:
    caught = text_problems(
        "hero-roosan hit · ✔ setup_game accepted · record 42 · (catacombs-3e-reference.txt) · "
        "['elani'] · health: None"
    )
    kinds = {problem.split(":")[0] for problem in caught}
    assert kinds == {"raw id", "command name", "code name", "record number", "file name", "Python literal"}
    assert text_problems("Roosan the Chicken Champion hits Orc 2 · Team Castle to act · −1 health") == []


@pytest.fixture
def played(tmp_path: Path) -> Iterator[Any]:
    broker = start_mosquitto(tmp_path / "broker")
    running: list[Any] = []

    def table(table_id: str) -> tuple[str, Any]:
        publisher = TablePublisher(table_id, PahoTransport(broker.url(), client_id=f"{table_id}-daemon"))
        publisher.start()
        running.append(publisher)
        config = {"TABLE": table_id, "PORT": 0, "MQTT_URL": broker.url(), "MQTT_REFEREE_URL": broker.url()}
        dashboard = serve_dashboard({**config, "REFEREE_PIN_HASH": hash_pin(PIN), "SSE_KEEPALIVE_S": 1.0})
        running.append(dashboard)
        deadline = time.monotonic() + 10
        while not publisher.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        return str(dashboard.url), publisher

    try:
        yield table
    finally:
        for thing in reversed(running):
            thing.stop()
        broker.stop()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_spectator_page_and_console_speak_to_people(chromium, played, game: str) -> None:  # noqa: F811  # type: ignore[no-untyped-def]
    expect = sync_api.expect
    table_id = f"words-{game}"
    url, publisher = played(table_id)
    spectator, errors = phone(chromium, f"{url}table/{table_id}")
    console, console_errors = phone(chromium, f"{url}login?next=/referee/console")
    log_in(console, PIN)
    session = TableSession()
    for record in read_log(EXAMPLES / GAMES[game]):
        for event in session.apply(record):
            publisher.publish_event(event, record.seq)
    publisher.publish_state(session.snapshot(), session.seq)
    expect(spectator.locator("#feed li").first).to_be_visible()
    first = session.snapshot()["characters"][0]["name"]
    expect(console.locator("body")).to_contain_text(IN_ENGLISH.get(first, first))
    time.sleep(0.5)  # the last events of the stream drawn
    assert page_problems(spectator) == [], "spectator page"
    assert page_problems(console) == [], "console"
    assert errors == [] and console_errors == []


def test_a_shot_that_clears_a_room_reads_as_one_line_with_the_bookkeeping_one_tap_away(
    chromium,  # noqa: F811
    played,
) -> None:  # type: ignore[no-untyped-def]
    """The Barracks' last shot destroys the Pit Viper and clears the room: the line says so; the gold each
    hero collects and the discs going back to the pool are behind a tap."""
    expect = sync_api.expect
    url, publisher = played("words-room-clear")
    spectator, errors = phone(chromium, f"{url}table/words-room-clear")
    session = TableSession()
    records = read_log(EXAMPLES / "barracks-cleared.jsonl")
    for record in records:
        for event in session.apply(record):
            publisher.publish_event(event, record.seq)
    publisher.publish_state(session.snapshot(), session.seq)
    last = records[-1]
    shot = {
        "shot_seq": last.seq - 1,
        "resolved_seq": last.seq,
        "character": "hero-roosan",
        "shot": "melee",
        "candidates": [{"direct_hits": ["monster-pit-viper-1"], "probability": 0.97}],
        "auto_apply": False,
        "resolved": True,
        "status": "resolved",
    }
    publisher.publish_shot(shot, last.seq)
    line = spectator.locator("#last-shot")
    expect(line).to_contain_text("Pit Viper 1 destroyed")
    expect(line).to_contain_text("room cleared")
    more = line.locator("details.shot-details")
    expect(more.locator("summary")).to_have_text("and 9 more (gold, discs)")
    expect(more.locator("p")).to_be_hidden()
    assert "gold" not in line.evaluate("el => el.firstChild.textContent")  # the line itself: no bookkeeping
    more.locator("summary").click()
    expect(more.locator("p")).to_contain_text("Elani the Thief +7 gold")
    assert page_problems(spectator) == []
    assert errors == []
