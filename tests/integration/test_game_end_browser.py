"""A whole game played to its end and the next one started, as people see it: the referee's phone, a
spectator's phone and the TV beside the table, against the real daemon and the simulated mat.

The demo deck here is a single battle room: the party goes in, Xoric flicks at the Orc, the referee clears the
room, the party leaves the catacomb (the last Room card is behind it) and the game ends with its result on
every page; the referee starts the next game. On the way the picture of the mat is read as people read it: the
shot's reconstructed path with its start and end, a tapped disc's details, and words instead of ids.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from service.attribution.infer import AttributionConfig
from tests.helpers.broker import start_mosquitto
from tests.helpers.browser import log_in, needs_chromium, open_tools, phone
from tests.integration.live_table import BRISK, LiveTable, quick_table
from web_dashboard.security import hash_pin

pytestmark = [pytest.mark.browser, pytest.mark.broker, pytest.mark.slow, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")

ACL = Path(__file__).resolve().parents[2] / "deploy" / "mosquitto" / "acl"
ACCOUNTS = {"daemon": ("daemon", "d-pw"), "referee": ("referee", "r-pw"), "spectator": ("spectator", "s-pw")}
PIN = "four-torches"
LAPTOP = {"width": 1280, "height": 720}

# Every visible control at least 44 px tall and wide enough to hit, every visible text at least 16 px; the
# mat's drawing is measured through its scale on the screen (it is drawn in millimetres).
TOUCH_AND_TEXT = """() => {
  const small = [];
  for (const el of document.querySelectorAll("button, a, input, select, summary")) {
    const box = el.getBoundingClientRect();
    if (!box.width || el.closest("[hidden]") || el.type === "hidden" || el.type === "checkbox") continue;
    const name = el.id || el.textContent.trim();
    if (box.height < 44 || box.width < 44) small.push(`${el.tagName} ${name} ${box.width}x${box.height}`);
  }
  for (const el of document.querySelectorAll("main *:not(svg):not(svg *), header *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.getBoundingClientRect().width) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    const text = el.textContent.trim().slice(0, 30);
    if (size < 16) small.push(`text ${el.tagName}.${el.className} ${size}px: ${text}`);
  }
  // The mat's own words and numbers (initials, health, "start" / "end", zone names) are sized in mat
  // millimetres: measured as drawn, through the drawing's scale on this screen.
  for (const el of document.querySelectorAll("main svg text")) {
    if (!el.textContent.trim() || !el.getBoundingClientRect().width) continue;
    const size = parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a;
    const text = el.textContent.trim().slice(0, 30);
    if (size < 15.95) small.push(`mat text ${el.getAttribute("class")} ${size.toFixed(1)}px: ${text}`);
  }
  return small;
}"""

# Words and numbers on the mat drawn over one another (initials, health numbers, "start" / "end"): the pairs.
MAT_TEXT_OVERLAPS = """() => {
  const texts = [...document.querySelectorAll("main svg.board text:not(.zone-label)")]
    .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width);
  const boxes = texts.map((t) => [t.textContent.trim(), t.getBoundingClientRect()]);
  const clash = [];
  boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 1 && h > 1) clash.push(`${a} × ${b}`);
  }));
  return clash;
}"""


@pytest.fixture
def live(tmp_path: Path):
    broker = start_mosquitto(tmp_path / "broker", users=dict(ACCOUNTS.values()), acl=ACL)
    table = LiveTable(
        broker,
        tmp_path,
        quick_table(rooms=("the-mitholaq-hive",)),
        accounts=ACCOUNTS,
        # Sure of every reading: the flick is applied by the table itself, as most are at a real table.
        attribution=AttributionConfig(workers=1, seed=0, auto_apply_threshold=0.0),
        dashboard_config={"REFEREE_PIN_HASH": hash_pin(PIN), "SSE_KEEPALIVE_S": 1.0},
        pace=BRISK,
    )
    try:
        yield table.start(players=False, dashboard=True)
    finally:
        table.stop()
        broker.stop()


def test_a_whole_game_ends_with_its_result_on_every_page_and_the_next_one_starts(
    live, chromium, shots_dir
) -> None:
    expect = sync_api.expect
    url = live.dashboard.url
    table_id = live.table.table
    spectator, spectator_errors = phone(chromium, url)
    referee, referee_errors = phone(chromium, url + "referee/turn")
    tv_context = chromium.new_context(viewport=LAPTOP)
    tv = tv_context.new_page()
    tv_errors: list[str] = []
    tv.on("pageerror", lambda exc: tv_errors.append(str(exc)))
    tv.goto(f"{url}table/{table_id}/tv?theme=dark")  # as a streaming browser source would open it

    # The login page names its table, is not waiting on a connection, and keeps the name after a wrong PIN.
    expect(referee.locator(".brand")).to_have_text(f"smartmat · {table_id}")
    expect(referee.locator("#link-status")).to_have_count(0)
    log_in(referee, "not-the-pin")
    expect(referee.locator(".error")).to_have_text("Wrong PIN.")
    expect(referee.locator("input[name=name]")).to_have_value("anna")
    referee_errors.clear()  # the browser reports the wrong PIN's 401 answer as a failed load
    referee.fill("input[name=pin]", PIN)
    referee.click("button[type=submit]")

    # Before the first room every page says what comes next, in words.
    expect(spectator.locator("#moment")).to_have_text("Next: flip the first Room card")
    expect(referee.locator("button[data-action=enter_room]")).to_contain_text("Flip the next Room card")

    # Into the one room of this demo: the Monster Metre asks for an Orc and a Zombie.
    referee.click("button[data-action=enter_room]")
    expect(referee.locator("#decision-prompt")).to_contain_text("Monster Metre")
    # The page and the test's own MQTT probe get the state by different roads; on a loaded machine the page
    # can be first, so the probe is waited for before the test reads the state.
    live.wait_until(lambda: (live.state() or {}).get("pending"), 20, "the Monster Metre decision")
    first = live.state()["pending"]["id"]
    referee.click("#decision-options button[data-option='orc:1']")
    live.wait_until(lambda: (live.state()["pending"] or {}).get("id") not in (None, first), 20, "icon 2")
    second = live.state()["pending"]["id"]
    expect(referee.locator(f"#decision-card[data-decision='{second}']")).to_be_visible()
    referee.click("#decision-options button[data-option='zombie:1']")
    live.wait_until(lambda: live.state()["phase"] == "setup" and not live.state()["pending"], 20, "monsters")
    expect(spectator.locator("#moment")).to_have_text("Put the pieces on the mat")
    live.sim.put_pieces_down(live.state())
    referee.click("button[data-action=start_battle]")
    expect(spectator.locator("#turn-who")).to_have_text("the heroes")

    # On the phone the mat comes right after the summary, before the character lists.
    board_top = spectator.locator(".board-card").bounding_box()["y"]
    assert board_top < spectator.locator("#heroes").bounding_box()["y"]
    assert board_top < 844, "the mat starts on the first screen"
    # Discs carry initials: Xoric is "Xo".
    xoric = next(c for c in live.state()["characters"] if c["id"] == "hero-xoric")
    expect(spectator.locator(f"#board .piece[data-piece='{xoric['piece']}'] .initials")).to_have_text("Xo")

    # Xoric plays his Rules card and flicks at the Orc; the table applies what it reads.
    referee.click("button[data-action='hero-xoric:0']")
    expect(referee.locator("#expected-shot")).to_contain_text("Next: Xoric the Barbarian — ")
    live.wait_until(lambda: (live.state() or {}).get("expected_shot"), 20, "Xoric's expected shot")
    kind = live.state()["expected_shot"]["shot"]
    orc = next(c for c in live.state()["characters"] if c["id"] == "monster-orc-1")
    live.sim.flick_at(xoric["piece"], orc["piece"])
    # The reading comes back from the shot reader as an ``attribution`` record a moment after the shot.
    live.wait_until(
        lambda: any(r.kind == "attribution" for r in live.eventlog.records()),
        60,
        "the flick to be attributed",
    )
    reading = next(r for r in live.eventlog.records() if r.kind == "attribution")
    if not reading.payload["auto"]:  # a reading the table would not apply alone: the referee's
        live.wait_until(lambda: live.state()["table"]["pending_shot"], 20, "the shot to reach the referee")
        referee.click("a[href='/referee/console']")
        open_tools(referee)
        referee.click("#candidates button[data-candidate='0']")
        referee.click("a[href='/referee/turn']")
    live.wait_until(lambda: not live.state()["table"]["pending_shot"], 20, "the shot to be applied")

    # The spectator sees the shot's reconstructed path from its start to its end, said to be reconstructed,
    # and the last shot in words (no ids).
    expect(spectator.locator("#board polyline.path.shot.reconstructed")).to_have_count(1)
    expect(spectator.locator("#board .path-label")).to_have_text(["start", "end"])
    expect(spectator.locator(".path-note")).to_contain_text("reconstructed")
    expect(spectator.locator(".replay-shot")).to_be_enabled()
    spectator.click(".replay-shot")
    expect(spectator.locator("#board circle.ghost")).to_have_count(1)  # the disc runs along the path again
    last_shot = spectator.locator("#last-shot")
    expect(last_shot).to_contain_text(f"Last shot: Xoric the Barbarian's {kind} — ")
    assert "hero-" not in last_shot.text_content() and "monster-" not in last_shot.text_content()

    # Tapping a disc shows its character.
    spectator.click(f"#board .piece[data-piece='{orc['piece']}']")
    details = spectator.locator(".piece-details")
    expect(details.locator(".name")).to_have_text("Orc 1")
    expect(details.locator(".side")).to_contain_text("Overseer")
    expect(details.locator(".hp")).to_contain_text("Health")
    spectator.screenshot(path=str(shots_dir / "mat-details.png"))
    # Every word on the phone, the mat's initials, health numbers and "start" / "end" included, is 16 px.
    assert spectator.locator("#board .path-label").count() == 2
    assert spectator.locator("#board .hp").count() >= 2
    assert spectator.evaluate(TOUCH_AND_TEXT) == []
    assert spectator.evaluate(MAT_TEXT_OVERLAPS) == []  # and none drawn over another
    details.locator(".close").click()
    expect(details).to_be_hidden()

    # The referee clears the room (the discs were knocked over): health 0 for both monsters, with a reason.
    referee.click("a[href='/referee/console']")
    open_tools(referee)
    for monster in ("monster-orc-1", "monster-zombie-1"):
        if not next(c for c in live.state()["characters"] if c["id"] == monster)["alive"]:
            continue
        referee.select_option("#correct-target", monster)
        referee.select_option("#correct-form select[name=field]", "health")
        referee.fill("#correct-form input[name=value]", "0")
        referee.fill("#correct-form input[name=reason]", "the disc fell off the table")
        referee.click("#correct-form button")
        expect(referee.locator("#correct-form").locator("..").locator(".result")).to_have_text("✔ Corrected")
    live.wait_until(lambda: live.state()["phase"] == "resolution", 20, "the room to be cleared")
    expect(spectator.locator("#moment")).to_have_text(
        "Room cleared — collect gold · Next: leave the catacomb (no Room cards left)"
    )
    story = spectator.locator("#feed li").all_text_contents()
    assert story and not [t for t in story if ".txt:" in t or "(record" in t]  # words, not citations

    # Out of the catacomb: the game is over, and every page says who won, the gold and the rooms cleared.
    referee.click("a[href='/referee/turn']")
    leave = referee.locator("button[data-action=enter_room]")
    expect(leave).to_contain_text("Leave the catacomb: end the game")
    leave.click()
    gold = live.state()["gold"]["party"]
    for page in (spectator, referee, tv):
        expect(page.locator("#outcome")).to_be_visible()
        expect(page.locator("#result-headline")).to_contain_text("The heroes win")
        expect(page.locator("#result-gold")).to_have_text(str(gold))
        expect(page.locator("#result-rooms")).to_have_text("1 of 1")
        expect(page.locator("#moment")).to_have_text("Game over")
    assert live.state()["result"]["summary"].startswith("The party cleared 1 room")
    spectator.screenshot(path=str(shots_dir / "game-over.png"))
    tv.screenshot(path=str(shots_dir / "tv.png"))
    # The TV view: the mat fills the left of a landscape screen, the story on the right.
    expect(tv.locator("html")).to_have_attribute("data-theme", "dark")
    mat_box = tv.locator(".tv-mat svg.board").bounding_box()
    assert mat_box["width"] > 700 and mat_box["y"] < 100

    # A bright room: the light theme is one tap away, and the phone keeps it.
    theme = spectator.locator("#theme-toggle")
    before = spectator.evaluate("() => document.documentElement.dataset.theme")
    theme.click()
    after = spectator.evaluate("() => document.documentElement.dataset.theme")
    assert {before, after} == {"light", "dark"}
    spectator.reload()
    expect(spectator.locator("html")).to_have_attribute("data-theme", after)
    expect(spectator.locator("#result-headline")).to_contain_text("The heroes win")

    # Touch targets and text sizes on the phones, checked on the pages as drawn.
    assert spectator.evaluate(TOUCH_AND_TEXT) == []
    assert referee.evaluate(TOUCH_AND_TEXT) == []

    # The referee starts the next game from the turn controller.
    next_game = referee.locator("button[data-action=new_game]")
    expect(next_game).to_contain_text("Start the next game")
    next_game.click()
    for page in (spectator, tv):
        expect(page.locator("#outcome")).to_be_hidden()
        expect(page.locator("#moment")).to_have_text("Next: flip the first Room card")
        expect(page.locator("#last-shot")).to_be_hidden()
    expect(spectator.locator("#feed li").first).to_have_text("A new game begins.")
    expect(referee.locator("button[data-action=enter_room]")).to_contain_text("Flip the next Room card")
    assert live.state()["table"]["game"] == 2
    # A phone that opens the page now reads the new game's story, not the old one's.
    latecomer, latecomer_errors = phone(chromium, url)
    expect(latecomer.locator("#feed li").first).to_have_text("A new game begins.")
    told = latecomer.locator("#feed li").all_text_contents()
    assert not [t for t in told if "they win" in t or "Orc" in t], told
    assert latecomer_errors == []
    assert [r.kind for r in live.eventlog.records()][-2:] == ["new_game", "setup"]
    assert spectator_errors == [] and referee_errors == [] and tv_errors == []
    tv_context.close()
