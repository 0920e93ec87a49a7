"""Discs crowded into one corner of the simulated mat, as a spectator's phone draws them: against the real
daemon, the discs put down touching one another by the simulated players' hands."""

from __future__ import annotations

import math
from typing import Any

import pytest

from service.simulator.players import clear_of_fixed_obstacles
from tests.helpers.browser import needs_chromium, phone
from tests.integration.live_table import LiveTable
from tests.integration.test_game_end_browser import MAT_TEXT_OVERLAPS, TOUCH_AND_TEXT
from tests.integration.test_game_end_browser import live as live  # the table, its daemon and its dashboard
from web_dashboard.table.commands import build_request
from web_dashboard.table.resources import dashboard_of

pytestmark = [pytest.mark.browser, pytest.mark.broker, pytest.mark.slow, needs_chromium]
sync_api = pytest.importorskip("playwright.sync_api")


def referee_says(table: LiveTable, command: str, **args: Any) -> None:
    """A command as the referee's phone sends it, through the dashboard's referee connection."""
    assert table.dashboard is not None
    request = build_request("anna", {"command": command, "args": args})
    result = dashboard_of(table.dashboard.app).commands.send(request, 10.0)
    assert result.ok, result.error


def pending_decision(table: LiveTable) -> str | None:
    return ((table.state() or {}).get("pending") or {}).get("id")


# Each disc's and each health badge's box on the screen, read at one instant (the board is redrawn whenever
# the mat is scanned).
DRAWN = """() => Object.fromEntries([...document.querySelectorAll("#board .piece")].map((g) => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  return [g.dataset.piece, { disc: box(g.querySelector(".disc")), badge: box(g.querySelector(".hp-badge")) }];
}))"""


def put_down_in_a_crowd(table: LiveTable, near: tuple[float, float]) -> None:
    """Every character's disc put down as close to ``near`` (mm) as it fits, 1 mm from its neighbours."""
    sim = table.sim
    assert sim is not None
    state = table.state() or {}
    with sim.source.hands():  # hands on the mat: the board must not scan half a move
        for character in state["characters"]:
            piece = character.get("piece")
            if not piece or not character.get("on_mat") or piece in sim.world.pieces:
                continue
            cls = sim.classes[sim.table.registry.entry(piece).piece_class]
            x, y = nearest_clear(sim, near, cls.radius_mm)
            sim.world.place(piece, cls, x, y, kind=cls.name, side=character["side"])


def nearest_clear(sim: Any, near: tuple[float, float], radius: float) -> tuple[float, float]:
    for ring in range(0, 400, 2):
        steps = max(1, ring // 2)
        for step in range(steps):
            angle = 2 * math.pi * step / steps
            x, y = near[0] + ring * math.cos(angle), near[1] + ring * math.sin(angle)
            if not (radius <= x <= sim.mat.width_mm - radius and radius <= y <= sim.mat.height_mm - radius):
                continue
            others = ((sim.world.position(p), sim.world.radius(p)) for p in sim.world.pieces)
            if clear_of_fixed_obstacles(sim.world, x, y, radius + 1) and all(
                math.hypot(ox - x, oy - y) >= radius + r + 1 for (ox, oy), r in others
            ):
                return x, y
    raise AssertionError(f"no room on the mat near {near}")


def test_discs_crowded_into_a_corner_are_drawn_apart_legibly_and_each_can_be_tapped(live, chromium) -> None:
    expect = sync_api.expect
    spectator, errors = phone(chromium, live.dashboard.url)
    # The one room of this demo, its Monster Metre answered (an Orc, a Zombie), from the referee's account.
    referee_says(live, "enter_room")
    answered: list[str] = []
    for option in ("orc:1", "zombie:1"):
        live.wait_until(
            lambda: pending_decision(live) not in (None, *answered), 20, "the next Monster Metre icon"
        )
        answered.append(pending_decision(live))
        referee_says(live, "answer", decision=answered[-1], option=option)
    live.wait_until(lambda: live.state()["phase"] == "setup" and not live.state()["pending"], 20, "monsters")
    characters = {c["piece"]: c for c in live.state()["characters"] if c.get("piece") and c.get("on_mat")}
    assert len(characters) == 6  # four heroes, the Orc, the Zombie

    # All six discs put down in the near left corner, touching one another.
    put_down_in_a_crowd(live, near=(30.0, 30.0))
    discs = spectator.locator("#board .piece .disc")
    expect(discs).to_have_count(6)
    expect(spectator.locator("#board .leader")).not_to_have_count(0)  # lines back to where they really are
    drawn = spectator.evaluate(DRAWN)
    assert set(drawn) == set(characters)
    centre = lambda box: (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # noqa: E731
    for piece, a in drawn.items():
        assert a["disc"]["width"] >= 33, "a disc is drawn at least 34 px across on a phone"
        for other, b in drawn.items():
            if other == piece:
                continue
            # (a box includes the disc's 3 px outline, which may touch its neighbour's)
            apart = math.dist(centre(a["disc"]), centre(b["disc"]))
            assert apart >= (a["disc"]["width"] + b["disc"]["width"]) / 2 - 3, f"{piece} drawn on {other}"
            # Its health number sits where it covers no other disc.
            clear = (a["badge"]["width"] + b["disc"]["width"]) / 2 - 4  # (outlines of 1.5-3 px included)
            assert math.dist(centre(a["badge"]), centre(b["disc"])) >= clear, (
                f"{piece}'s health covers {other}"
            )
    # Every initial and number 16 px, none drawn over another.
    assert spectator.evaluate(TOUCH_AND_TEXT) == []
    assert spectator.evaluate(MAT_TEXT_OVERLAPS) == []
    # Each disc still opens its own character.
    details = spectator.locator(".piece-details")
    for piece, character in characters.items():
        spectator.click(f"#board .piece[data-piece='{piece}']")
        expect(details.locator(".name")).to_have_text(character["name"])
        expect(details.locator(".hp")).to_have_text(
            f"Health {character['health']} of {character['max_health']}"
        )
    assert errors == []
