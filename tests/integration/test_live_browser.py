"""A short game through the turn controller and the referee console, against the real daemon and the simulated
mat, while a second phone watches the spectator page.

The test is the people at the table: it taps the referee's phone and flicks discs on the simulated mat. Every
shot is made doubtful on purpose (an auto-apply threshold above 1), so the referee confirms it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.attribution.infer import AttributionConfig
from tests.helpers.broker import start_mosquitto
from tests.helpers.browser import log_in, needs_chromium, open_tools, phone
from tests.integration.live_table import BRISK, LiveTable, quick_table
from tests.integration.test_game_end_browser import TOUCH_AND_TEXT
from web_dashboard.security import hash_pin

pytestmark = [pytest.mark.browser, pytest.mark.broker, pytest.mark.slow, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")

ACL = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto" / "acl"
ACCOUNTS = {"daemon": ("daemon", "d-pw"), "referee": ("referee", "r-pw"), "spectator": ("spectator", "s-pw")}
PIN = "four-torches"


@pytest.fixture
def live(tmp_path: Path):
    broker = start_mosquitto(tmp_path / "broker", users=dict(ACCOUNTS.values()), acl=ACL)
    table = LiveTable(
        broker,
        tmp_path,
        quick_table(rooms=("the-mitholaq-hive",)),
        accounts=ACCOUNTS,
        attribution=AttributionConfig(workers=1, seed=0, auto_apply_threshold=1.01),
        dashboard_config={"REFEREE_PIN_HASH": hash_pin(PIN), "SSE_KEEPALIVE_S": 1.0},
        pace=BRISK,
    )
    try:
        yield table.start(players=False, dashboard=True)
    finally:
        table.stop()
        broker.stop()


def test_a_short_game_from_the_referees_phone_is_seen_by_a_spectator(live, chromium, shots_dir) -> None:
    expect = sync_api.expect
    url = live.dashboard.url
    spectator, spectator_errors = phone(chromium, url)
    referee, referee_errors = phone(chromium, url + "referee/turn")
    log_in(referee, PIN)

    # Into the room: the referee flips the Room card and answers its Monster Metre icons (one Orc, then one
    # Zombie), the players put the discs down, the battle starts.
    referee.click("button[data-action=enter_room]")
    expect(spectator.locator("#room-name")).to_contain_text("The Mitholaq Hive")
    expect(referee.locator("#decision-prompt")).to_contain_text("Monster Metre")
    # The page can get the state before the test's own MQTT probe does: wait for the probe.
    live.wait_until(lambda: (live.state() or {}).get("pending"), 20, "the Monster Metre decision")
    first = live.state()["pending"]["id"]
    referee.click("#decision-options button[data-option='orc:1']")
    live.wait_until(
        lambda: (live.state()["pending"] or {}).get("id") not in (None, first), 20, "the second icon"
    )
    second = live.state()["pending"]["id"]
    expect(referee.locator(f"#decision-card[data-decision='{second}']")).to_be_visible()
    referee.click("#decision-options button[data-option='zombie:1']")
    live.wait_until(
        lambda: live.state()["phase"] == "setup" and not live.state()["pending"], 20, "the monsters"
    )
    assert {
        c["card"] if "card" in c else c["id"] for c in live.state()["characters"] if c["kind"] == "monster"
    } >= {"monster-orc-1", "monster-zombie-1"}
    live.sim.put_pieces_down(live.state())
    referee.click("button[data-action=start_battle]")
    expect(spectator.locator("#phase")).to_contain_text("battle")

    # Xoric declares his Rules card; the turn controller shows the shot it expects.
    referee.click("button[data-action='hero-xoric:0']")
    expect(referee.locator("#expected-shot")).to_contain_text("Xoric")
    referee.screenshot(path=str(shots_dir / "turn-controller.png"))
    live.wait_until(lambda: (live.state() or {}).get("expected_shot"), 20, "Xoric's expected shot")
    expected = live.state()["expected_shot"]

    # He flicks at the nearest orc; the mat is made unsure, so the console asks the referee.
    orc = next(c for c in live.state()["characters"] if c["id"] == "monster-orc-1")
    truth = live.sim.flick_at("hero-xoric", orc["piece"])
    live.wait_until(lambda: (live.state().get("table") or {}).get("pending_shot"), 60, "the doubtful shot")
    # The shot message names the shot the console's confirmation will refer to.
    waiting = live.state()["table"]["pending_shot"]["seq"]
    shot_messages = lambda: [s.json() for s in live.probe.seen if s.topic.endswith("/shot")]  # noqa: E731
    live.wait_until(
        lambda: any(m.get("shot_seq") == waiting for m in shot_messages()),
        10,
        "the shot message naming the waiting shot",
    )
    referee.click("a[href='/referee/console']")
    open_tools(referee)
    expect(referee.locator("#candidates li").first).to_be_visible()
    # The console never misleads: the waiting shot comes first, marked and alerted, with the reasons in
    # words; every reading is "waiting" and can be tapped.
    card = referee.locator("#shot-card")
    expect(card).to_have_class(re.compile(r"\bwaiting\b"))
    assert card.bounding_box()["y"] < referee.locator("#table-controls").bounding_box()["y"]
    expect(referee.locator("body")).to_have_attribute("data-alerted", str(waiting))
    expect(referee.locator("#shot-badge")).to_have_text("waiting")
    expect(referee.locator("#shot-reasons li").first).to_be_visible()
    expect(referee.locator("#candidates li").first).to_have_attribute("data-state", "waiting")
    expect(referee.locator("#candidates li button").first).to_be_enabled()
    referee.screenshot(path=str(shots_dir / "referee-console.png"))
    assert referee.evaluate(TOUCH_AND_TEXT) == []  # 44 px targets and 16 px text on the console too
    # Paused, nothing can be confirmed; one switch shows which state the game is in.
    toggle = referee.locator("#pause-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_contain_text("Paused")
    expect(referee.locator("#table-controls .result")).to_have_text("✔ Game paused")  # beside the switch
    expect(spectator.locator("#paused")).to_be_visible()
    expect(referee.locator("#candidates li button").first).to_be_disabled()
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(spectator.locator("#paused")).to_be_hidden()
    candidates = live.state()["table"]["pending_shot"]["candidates"]
    matching = [i for i, c in enumerate(candidates) if set(c["direct_hits"]) == set(truth.direct_hits)]
    if matching:  # the referee saw the flick: the reading that matches the table
        referee.click(f"#candidates button[data-candidate='{matching[0]}']")
    else:  # none matches: enter what happened by hand
        hit_ids = [c["id"] for c in live.state()["characters"] if c.get("piece") in truth.direct_hits]
        for character in hit_ids:
            referee.check(f"#manual-hits input[value='{character}']")
        referee.fill("#manual-form input[name=reason]", "none of the readings matched")
        referee.click("#manual-form button")
    live.wait_until(lambda: not live.state()["table"]["pending_shot"], 20, "the shot to be settled")
    # Settled: the reading chosen is marked, and nothing can be confirmed twice.
    expect(referee.locator("#shot-badge")).not_to_have_text("waiting")
    expect(referee.locator("#candidates li button:enabled")).to_have_count(0)
    expect(referee.locator("#dismiss-shot")).to_be_hidden()
    resolved = [
        r for r in live.eventlog.records() if r.kind == "action" and r.payload["action"] == "resolve_shot"
    ]
    assert resolved and resolved[-1].by == "referee:anna" and resolved[-1].payload["shot"] == expected["shot"]
    hit_characters = resolved[-1].payload["direct_hits"]
    expect(spectator.locator("#last-shot")).to_contain_text("Xoric")

    # That reading was wrong after all: the referee undoes it, and the spectator sees the game as before.
    before_undo = live.state()["seq"]
    referee.fill("#undo-form input[name=reason]", "the orc was only pushed")
    referee.click("#undo-form button")
    live.wait_until(lambda: live.state()["seq"] > before_undo, 20, "the undo")
    assert live.eventlog.records()[-1].kind == "undo"
    expect(spectator.locator("#feed li").first).to_contain_text("the orc was only pushed")
    expect(spectator.locator("#last-shot")).to_contain_text("taken back by the referee")
    expect(referee.locator("#shot-state")).to_have_text("Undone: the referee took this shot back.")
    assert "(record" not in spectator.locator("#feed li").first.text_content()
    assert live.state()["expected_shot"]["index"] == expected["index"]  # the shot is to be played again

    # And Varesh's tracker was off: correct his health, with a reason.
    referee.select_option("#correct-target", "hero-varesh")
    referee.select_option("#correct-form select[name=field]", "health")
    referee.fill("#correct-form input[name=value]", "5")
    referee.fill("#correct-form input[name=reason]", "tracker misread")
    referee.click("#correct-form button")
    expect(spectator.locator("#heroes")).to_contain_text("5")
    live.wait_until(
        lambda: next(c for c in live.state()["characters"] if c["id"] == "hero-varesh")["health"] == 5,
        20,
        "the correction",
    )
    correction = live.eventlog.records()[-1]
    assert correction.kind == "correction" and correction.by == "referee:anna"
    spectator.screenshot(path=str(shots_dir / "spectator.png"), full_page=True)

    # The Zombie is standing on another disc than the one the table handed out: the referee says which.
    zombie = next(c for c in live.state()["characters"] if c["id"] == "monster-zombie-1")
    spare = next(
        e.piece for e in live.table.registry.pieces if e.family == "undead" and e.piece != zombie["piece"]
    )
    referee.select_option("#bind-character", "monster-zombie-1")
    referee.fill("#bind-form input[name=piece]", spare)
    referee.click("#bind-form button")
    live.wait_until(
        lambda: (
            next(c for c in live.state()["characters"] if c["id"] == "monster-zombie-1")["piece"] == spare
        ),
        20,
        "the zombie's new disc",
    )
    assert live.eventlog.records()[-1].kind == "bind"

    # The heroes pass; on the Overseer's turn the Orc's card says melee Or missile: the referee taps missile.
    for hero in ("hero-xoric", "hero-varesh", "hero-roosan", "hero-elani"):
        if hero != "hero-xoric":
            referee.click("a[href='/referee/turn']") if "console" in referee.url else None
            referee.click(f"button[data-action='{hero}:0']")
        else:
            referee.click("a[href='/referee/turn']")
        expect(referee.locator("#expected-shot")).to_contain_text("Next:")
        referee.click("#end-turn")
        live.wait_until(
            lambda h=hero: h in (live.state()["turn"] or {}).get("acted", []), 20, f"{hero}'s turn to end"
        )
    expect(referee.locator("button[data-action='monster-orc-1:1']")).to_contain_text("missile")
    before_missile = live.state()["seq"]
    referee.click("button[data-action='monster-orc-1:1']")
    expect(referee.locator("#expected-shot")).to_contain_text("missile")
    live.wait_until(lambda: live.state()["seq"] > before_missile, 20, "the missile declared")
    assert live.state()["expected_shot"]["ranged"] is True

    kinds = [r.kind for r in live.eventlog.records()]
    assert kinds[0] == "setup" and {"shot", "undo", "correction"} <= set(kinds)
    decided = [
        r.payload for r in live.eventlog.records() if r.kind == "action" and r.payload["action"] == "decide"
    ]
    assert [d["option"] for d in decided] == ["orc:1", "zombie:1"]
    assert hit_characters == [] or all(
        h.startswith("monster-") or h.startswith("hero-") for h in hit_characters
    )
    assert spectator_errors == [] and referee_errors == []
