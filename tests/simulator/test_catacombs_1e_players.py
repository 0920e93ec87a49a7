"""The simulated people at a Catacombs 1E table: who may act, who strikes back, and what they do at the
Merchant and the Healer."""

from __future__ import annotations

from typing import Any

import pytest

from service.simulator.table import Pace, SimulatedTable
from service.table.config import load_table


class Listening(SimulatedTable):
    """The table's people, with what they say written down instead of sent (no broker)."""

    def __init__(self) -> None:
        super().__init__(
            load_table("catacombs-1e-demo"), "mqtt://127.0.0.1:1", play=False, pace=Pace(0, 0.01)
        )
        self.said: list[tuple[str, dict[str, Any]]] = []

    def say(self, command: str, timeout_s: float = 10.0, **args: Any) -> dict[str, Any]:
        self.said.append((command, args))
        return {"ok": True}


@pytest.fixture
def sim():
    table = Listening()
    yield table
    table.stop()


def hero(name: str, **fields: Any) -> dict[str, Any]:
    base = {"id": f"hero-{name}", "piece": f"hero-{name}", "side": "heroes", "kind": "hero", "on_mat": True}
    return {**base, "alive": True, "health": 10, "max_health": 10, "gold": 0, **fields}


def test_an_incapacitated_hero_is_passed_over_for_one_the_table_offers(sim: Listening) -> None:
    """catacombs-1e-rules-italian.txt: Incapacità — "Eroi incapaci non possono effettuare nessuna azione"."""
    state = {
        "phase": "battle",
        "seq": 1,
        "characters": [hero("barbaro", status=["incapacitated"]), hero("elfo")],
        "turn": {"side": "heroes", "character": None, "acted": []},
        "actions": [{"id": "hero-elfo:0", "character": "hero-elfo", "alternative": 0}],
    }
    sim.act(state)
    assert sim.said == [("declare", {"character": "hero-elfo", "alternative": 0})]


def test_a_retaliating_monster_strikes_at_the_heroes(sim: Listening) -> None:
    """catacombs-1e-rules-italian.txt: Rappresaglia — the Keeper melees with the monster at once, in the
    hero's turn."""
    minotaur = {"id": "monster-minotauro-1", "piece": "mythological-4", "side": "overseer", "kind": "monster"}
    characters = [hero("mago"), hero("elfo"), {**minotaur, "on_mat": True}]
    sim.put_down("hero-mago", "heroes", 0.12)
    sim.put_down("hero-elfo", "heroes", 0.12)
    sim.put_down("mythological-4", "overseer", 0.8)
    aimed: list[list[str]] = []
    plan = sim.player.plan_character_shot

    def watched(world: Any, piece: str, targets: list[str]) -> Any:
        aimed.append(targets)
        return plan(world, piece, targets)

    sim.player.plan_character_shot = watched  # type: ignore[method-assign]
    expected = {"character": "hero-mago", "actor": minotaur["id"], "piece": minotaur["id"], "shot": "melee"}
    sim.flick({"seq": 5, "characters": characters}, expected)
    assert sim.last_shot is not None and sim.last_shot.flicked == "mythological-4"
    assert sorted(aimed[0]) == ["hero-elfo", "hero-mago"]


def test_at_the_merchant_each_hero_with_gold_buys_and_at_the_healer_the_hurt_are_healed(
    sim: Listening,
) -> None:
    """catacombs-1e-rules-italian.txt: Il mercante; Il guaritore (Tocco rigenerante, Resurrezione)."""
    merchant = {
        "ruleset": "catacombs-1e",
        "phase": "special_room",
        "room": {"index": 2, "kind": "merchant"},
        "market": ["amuleto-runico", "mantello-ombra"],
        "characters": [hero("barbaro", gold=200), hero("elfo")],
    }
    sim.act(merchant)
    sim.act(merchant)  # the party has shopped here already: it walks on
    assert sim.said == [
        ("use_service", {"service": "buy", "target": "hero-barbaro", "item": "amuleto-runico"}),
        ("enter_room", {}),
        ("enter_room", {}),
    ]
    sim.said.clear()
    healer = {
        **merchant,
        "room": {"index": 5, "kind": "healer"},
        "characters": [hero("barbaro", health=7), hero("elfo", alive=False, health=0), hero("ladra")],
    }
    sim.act(healer)
    assert sim.said == [
        ("use_service", {"service": "restoring_touch", "target": "hero-barbaro"}),
        ("use_service", {"service": "resurrection", "target": "hero-elfo"}),
        ("enter_room", {}),
    ]


def test_the_familiar_takes_its_action_when_the_heroes_have_acted(sim: Listening) -> None:
    """catacombs-1e-rules-italian.txt: Alleati — allies are controlled by the heroes, with actions of their
    own; the familiar's action is a melee that causes no damage. The heroes' turn waits for it."""
    familiar = {"id": "familiar-famiglio", "piece": "familiar-famiglio", "side": "heroes", "kind": "familiar"}
    state = {
        "phase": "battle",
        "seq": 1,
        "characters": [hero("mago"), {**familiar, "on_mat": True, "alive": True, "owner": "hero-mago"}],
        "turn": {"side": "heroes", "character": None, "acted": ["hero-mago"]},
        "actions": [{"id": "familiar-famiglio:0", "character": "familiar-famiglio", "alternative": 0}],
    }
    sim.act(state)
    assert sim.said == [("declare", {"character": "familiar-famiglio", "alternative": 0})]
