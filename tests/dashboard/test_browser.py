"""Headless Chromium plays a short turn through the referee's pages while a second browser watches.

Runs against the fake daemon on a private Mosquitto (tests/dashboard/table_broker.py) with the dashboard
served for real. Screenshots of the three views at phone size go to $SMARTMAT_SCREENSHOT_DIR (the docs use
docs/screenshots/) or to the test's temporary folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dashboard.conftest import PIN, PIN_HASH, Referee
from tests.dashboard.table_broker import Table
from tests.helpers.browser import log_in as browser_log_in
from tests.helpers.browser import needs_chromium, open_tools, phone
from web_dashboard.server import DashboardServer, serve_dashboard
from web_dashboard.table.resources import dashboard_of

pytestmark = [pytest.mark.browser, pytest.mark.broker, needs_chromium]

sync_api = pytest.importorskip("playwright.sync_api")


# A rulebook transcription for the "rule" links (the real ones are the publisher's text, kept outside the
# repository): headings on lines of their own, as in catacombs-3e-reference.txt.
RULEBOOK = "Battle Phase\n\nEach round the heroes act first.\n\nTracking Health\n\nHealth Trackers show...\n"


@pytest.fixture
def dashboard(table: Table, tmp_path: Path) -> Iterator[DashboardServer]:
    (tmp_path / "catacombs-3e-reference.txt").write_text(RULEBOOK, encoding="utf-8")
    server = serve_dashboard(
        {
            "RULEBOOKS_DIR": str(tmp_path),
            "TABLE": "t1",
            "PORT": 0,
            "MQTT_URL": table.url("spectator"),
            "MQTT_REFEREE_URL": table.url("referee"),
            "REFEREE_PIN_HASH": PIN_HASH,
            "SSE_KEEPALIVE_S": 1.0,
        }
    )
    try:
        yield server
    finally:
        server.stop()


def log_in(page, name: str = "anna") -> None:  # type: ignore[no-untyped-def]
    browser_log_in(page, PIN, name)


def test_a_short_turn_played_from_the_phone_is_seen_by_a_spectator(
    chromium,
    dashboard: DashboardServer,
    table: Table,
    shots_dir: Path,  # type: ignore[no-untyped-def]
) -> None:
    expect = sync_api.expect
    spectator, spectator_errors = phone(chromium, dashboard.url)
    expect(spectator.locator("#room-name")).to_have_text("Room 1: The Barracks")
    expect(spectator.locator("#turn-who")).to_have_text("the heroes")
    expect(spectator.locator("#monsters-left")).to_have_text("2")
    expect(spectator.locator("#board .piece")).to_have_count(4)

    referee, referee_errors = phone(chromium, dashboard.url + "referee/turn")
    log_in(referee)
    expect(referee.locator("#actions button")).to_have_text(
        ["Xoric the Barbarian acts", "Elyra the Elf acts"]
    )

    # Xoric plays his Rules card; the rules ask "melee or rush?"; answer melee.
    referee.click("button[data-action=hero-xoric]")
    expect(referee.locator("#decision-prompt")).to_contain_text("Melee or rush?")
    referee.screenshot(path=str(shots_dir / "turn-controller.png"))
    referee.click("#decision-options button[data-option='0']")
    expect(referee.locator("#expected-shot")).to_have_text(
        "Next: Xoric the Barbarian — melee, flick its disc"
    )
    expect(spectator.locator("#feed li").first).to_have_text("Xoric the Barbarian chooses melee")

    # The mat was unsure: the referee picks the second reading (Troll and Zombie hit).
    referee.click("a[href='/referee/console']")
    open_tools(referee)
    expect(referee.locator("#candidates li")).to_have_count(2)
    expect(referee.locator("#candidates li .prob")).to_have_text(["55%", "40%"])
    expect(referee.locator("#board polyline.candidate")).to_have_count(2)
    referee.screenshot(path=str(shots_dir / "referee-console.png"))
    referee.click("#candidates button[data-candidate='1']")
    expect(referee.locator("#shot-card .result")).to_have_text("✔ Hits confirmed")  # beside the readings
    expect(referee.locator("#candidates li[data-state='chosen'] button")).to_have_attribute(
        "data-candidate", "1"
    )
    expect(spectator.locator("#feed li").first).to_have_text(
        "Xoric the Barbarian's melee hits the Zombie (1 damage)"
    )
    expect(spectator.locator("#monsters-left")).to_have_text("1")
    expect(spectator.locator("#last-shot")).to_have_text(
        "Last shot: Xoric the Barbarian's melee — −1 Troll, −1 Zombie (confirmed by the referee)"
    )
    expect(spectator.locator("li[data-character=troll] .hp")).to_have_text("2")
    spectator.screenshot(path=str(shots_dir / "spectator.png"))

    # That was wrong after all: undo it.
    referee.fill("#undo-form input[name=reason]", "zombie was only pushed")
    referee.click("#undo-form button")
    expect(spectator.locator("#monsters-left")).to_have_text("2")
    expect(spectator.locator("li[data-character=troll] .hp")).to_have_text("3")

    # A slip of the finger: more health than the Troll starts with is refused, beside the form, in words; the
    # rule it cites is a link in the "rule" detail that opens the rulebook at that section.
    referee.select_option("#correct-target", "troll")
    referee.select_option("#correct-form select[name=field]", "health")
    referee.fill("#correct-form input[name=value]", "20")
    referee.fill("#correct-form input[name=reason]", "tracker misread")
    referee.click("#correct-form button")
    refused = referee.locator("#correct-form").locator("xpath=ancestor::*[contains(@class,'card')][1]")
    expect(refused.locator(".result.refused")).to_contain_text(
        "✘ Not done: Troll starts with 3 health; a correction cannot give more"
    )
    link = refused.locator(".result details.rule a.rule-link")
    expect(link).to_be_hidden()  # the citation is seen only once "rule" is opened
    refused.locator(".result details.rule summary").click()
    expect(link).to_have_text("catacombs-3e-reference.txt: Tracking Health")
    with referee.context.expect_page() as opened:
        link.click()
    rulebook = opened.value
    rulebook.wait_for_load_state()
    assert rulebook.url.endswith("/rules/book/catacombs-3e-reference.txt#tracking-health")
    expect(rulebook.locator(":target")).to_have_text("Tracking Health")
    rulebook.close()

    # And the Troll's tracker was off by one: correct its health.
    referee.fill("#correct-form input[name=value]", "2")
    referee.fill("#correct-form input[name=reason]", "tracker misread")
    referee.click("#correct-form button")
    expect(spectator.locator("li[data-character=troll] .hp")).to_have_text("2")
    expect(spectator.locator("#feed li").first).to_have_text(
        "Referee anna set Troll's health to 2 (tracker misread)"
    )
    story = spectator.locator("#feed li").all_text_contents()
    assert len(story) == len(set(story)) == 6
    assert [c.command for c in table.daemon.received] == [
        "declare",
        "answer",
        "confirm_hits",
        "undo",
        "correct",
        "correct",
    ]
    assert spectator_errors == []
    # The one refusal is answered 409, which the browser reports; nothing else went wrong.
    assert referee_errors == ["Failed to load resource: the server responded with a status of 409 (CONFLICT)"]


def test_a_spectator_with_a_dropped_connection_catches_up_exactly(
    chromium,
    dashboard: DashboardServer,
    table: Table,  # type: ignore[no-untyped-def]
) -> None:
    expect = sync_api.expect
    referee = Referee(dashboard.app.test_client())
    referee.login()
    spectator, errors = phone(chromium, dashboard.url)
    expect(spectator.locator("#link-status")).to_have_text("live")
    assert referee.command("rescan").status_code == 200
    expect(spectator.locator("#feed li")).to_have_count(1)

    # The phone loses the network: its stream is cut and it cannot reconnect for a while.
    spectator.context.set_offline(True)
    dashboard_of(dashboard.app).feed.disconnect_all()
    expect(spectator.locator("#link-status")).to_have_text("reconnecting…")
    for _ in range(3):
        assert referee.command("rescan").status_code == 200
    spectator.context.set_offline(False)

    expect(spectator.locator("#feed li")).to_have_count(4)
    ids = spectator.locator("#feed li").evaluate_all("items => items.map(i => i.dataset.id)")
    assert ids == ["7", "6", "5", "4"]
    assert spectator.evaluate("() => window.Smartmat.table.eventMessages") == 4  # nothing sent twice
    assert errors == [] or all("ERR_INTERNET_DISCONNECTED" in e for e in errors)


def test_the_last_shot_is_told_in_the_games_words_never_in_citations_or_ids(
    chromium,
    dashboard: DashboardServer,
    table: Table,  # type: ignore[no-untyped-def]
) -> None:
    """catacombs-3e-reference.txt: Battle Phase: Taking Damage (no friendly fire) and Character Shots (a rush
    does no damage): what the rules decided, as a spectator reads it."""
    spectator, errors = phone(chromium, dashboard.url)
    sync_api.expect(spectator.locator("#room-name")).to_have_text("Room 1: The Barracks")
    story = spectator.evaluate(
        """() => {
      const W = window.SmartmatWords, names = { "orc-2": "Orc 2", "hero-elani": "Elani" };
      const nameOf = (id) => names[id] || id;
      const rush = { declaration: { shot: "rush" }, auto_apply: true, shot_seq: 40,
                     candidates: [{ direct_hits: ["dungeon-2"], hit_characters: ["orc-2"] }] };
      const melee = { declaration: { shot: "melee" }, resolved: true, chosen: 0, resolved_seq: 51,
                      candidates: [{ hit_characters: ["orc-2", "hero-elani"] }] };
      const events = [
        { id: "51", type: "damaged", character: "orc-2", amount: 1, text: "Orc 2 loses 1 health" },
        { id: "51.1", type: "destroyed", character: "orc-2", text: "Orc 2 is removed until the next room" },
        { id: "51.2", type: "hit_ignored", character: "hero-elani", reason: "no friendly fire",
          text: "Xoric hits Elani: no effect, no friendly fire " +
                "(catacombs-3e-reference.txt: Battle Phase: Taking Damage)" },
      ];
      return {
        rush: W.shotStory(rush, events, nameOf),
        melee: W.shotStory(melee, events, nameOf),
        plain: W.plain(events[2].text),
        refusal: W.split("Xoric has already acted (catacombs-3e-reference.txt: Battle Phase: Turn Order)"),
        undone: W.shotStory({ ...melee, undone: true }, events, nameOf),
        links: ["RULINGS.md 5", "catacombs-3e-reference.txt: Battle Phase: Turn Order"].map(W.ruleHref),
      };
    }"""
    )
    assert story["rush"] == ["Orc 2: no damage from a rush"]
    assert story["melee"] == ["−1 Orc 2", "Orc 2 destroyed", "Elani: no friendly fire"]
    assert story["plain"] == "Xoric hits Elani: no effect, no friendly fire"
    assert story["refusal"] == {
        "text": "Xoric has already acted",
        "rules": ["catacombs-3e-reference.txt: Battle Phase: Turn Order"],
    }
    assert story["undone"] == []  # a shot taken back did nothing
    # The referee's "rule" links: a ruling opens the rulings at its own row, a rulebook citation its section.
    assert story["links"] == [
        "/rules/rulings#ruling-5",
        "/rules/book/catacombs-3e-reference.txt?section=Battle%20Phase%3A%20Turn%20Order",
    ]
    spectator.goto(dashboard.url + story["links"][0][1:])
    sync_api.expect(spectator.locator(":target")).to_contain_text("stunned hero is freed only by a teammate")
    assert errors == []


def test_a_side_that_wins_a_game_without_rooms_is_shown_from_the_snapshot(
    chromium,
    dashboard: DashboardServer,
    table: Table,  # type: ignore[no-untyped-def]
) -> None:
    """The page draws the result the rule set publishes: a Castles side wins with no gold and no rooms."""
    expect = sync_api.expect
    spectator, errors = phone(chromium, dashboard.url)
    expect(spectator.locator("#outcome")).to_be_hidden()
    state = {
        **table.daemon.state,
        "phase": "game_over",
        "turn": None,
        "outcome": "side-b",
        "result": {
            "winner": "side-b",
            "headline": "Team Catacomb wins",
            "summary": "Team Catacomb wins in round 4.",
            "gold": None,
            "rooms_cleared": None,
            "rooms_total": None,
        },
    }
    table.daemon.publisher.publish_state(state, table.daemon.seq + 1)
    expect(spectator.locator("#result-headline")).to_have_text("★ Team Catacomb wins")
    expect(spectator.locator("#result-rooms")).to_have_text("–")
    expect(spectator.locator("#result-gold")).to_have_text("–")
    expect(spectator.locator("#moment")).to_have_text("Game over")
    assert errors == []
