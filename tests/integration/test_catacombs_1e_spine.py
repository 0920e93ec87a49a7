"""Catacombs 1E: a room played to the end on the simulated mat, then the Merchant: simulated mat → serial →
daemon → rules → event log → Mosquitto. The simulated players are the four heroes and the Keeper (il Custode);
they declare what the table offers, flick heroes and monsters, pay the Merchant, and the referee among them
settles doubtful shots. We watch only what a phone can see.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from service.games.catacombs.content.first_edition import load_catacombs1e_content
from service.simulator.players import SimulatedPlayer, Skill
from service.simulator.table import SimulatedTable
from service.table.config import load_table
from tests.helpers.broker import start_mosquitto
from tests.integration.live_table import BRISK, LiveTable

pytestmark = [pytest.mark.broker, pytest.mark.slow, pytest.mark.timeout(240)]


def hundreds_up(gold: float) -> int:
    return math.ceil(gold / 100) * 100


def test_a_first_edition_room_is_cleared_and_the_merchant_sells_two_items_at_half_price(
    tmp_path: Path,
) -> None:
    """catacombs-1e-rules-italian.txt: 2: La Fase di Preparazione — heroes in their start zone, the Keeper's
    monsters in theirs; 5. La Fase di Risoluzione — every monster destroyed, the room is complete and its gold
    paid in hundreds; Il mercante — the first two items of a visit at half price."""
    table = load_table("catacombs-1e-demo")
    table = replace(table, game=replace(table.game, rooms=("cripta", "mercante", "corridoio"), seed=3))
    broker = start_mosquitto(tmp_path / "broker")
    live = LiveTable(broker, tmp_path, table)
    live.sim = SimulatedTable(table, live.url("referee"), seed=3, pace=BRISK)
    # Practised players (a degree of aim, steady strength): the room is cleared in a dozen flicks.
    live.sim.player = SimulatedPlayer(random.Random(5), Skill(math.radians(1.0), 0.0, 0.05))

    def room_index() -> int | None:
        return ((live.state() or {}).get("room") or {}).get("index")

    try:
        live.sim.start()
        live.start()
        live.wait_until(lambda: (live.state() or {}).get("phase") == "battle", 60, "the battle to start")
        start = live.state() or {}
        live.wait_until(lambda: room_index() == 2, 200, "the room cleared and the Merchant visited")
        events = live.events()
        published = [m.json() for m in live.probe.seen if m.topic.endswith("/state") and m.payload]
    finally:
        live.stop()
        broker.stop()

    assert (start["ruleset"], start["room"]["id"]) == ("catacombs-1e", "cripta")
    monsters = {c["id"] for c in start["characters"] if c["kind"] == "monster"}
    assert monsters, "the Keeper placed the room's monsters"
    cleared = next(e for e in events if e["type"] == "room_cleared")
    destroyed = {e["character"] for e in events if e["type"] == "destroyed" and e["seq"] <= cleared["seq"]}
    assert monsters <= destroyed

    def heroes(state: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {c["id"]: c for c in state["characters"] if c["kind"] == "hero"}

    at_merchant = next(s for s in published if (s.get("room") or {}).get("kind") == "merchant")
    leaving = next(s for s in published if (s.get("room") or {}).get("index") == 2)
    paid_in = heroes(at_merchant)
    assert sum(h["gold"] for h in paid_in.values()) > 0, "the room's gold went to the heroes"
    assert all(h["gold"] % 100 == 0 for h in paid_in.values()), "gold in hundreds"

    # The Merchant: the first two items bought at half price (rounded up to the hundred), any further in full.
    bought = [e for e in events if e["type"] == "item_gained" and e["seq"] > cleared["seq"]]
    assert len(bought) >= 2
    items = [item for h in heroes(leaving).values() for item in h["items"]]
    cards = load_catacombs1e_content()
    costs = {item: cards.card("item", item).cost for item in items}
    order = [next(i for i in items if e["text"].endswith(f"gains {i}")) for e in bought]
    expected = sum(hundreds_up(costs[i] / 2) for i in order[:2]) + sum(costs[i] for i in order[2:])
    spent = sum(h["gold"] for h in paid_in.values()) - sum(h["gold"] for h in heroes(leaving).values())
    assert spent == expected
