"""The simulated people at a Catacombs & Castles 1E table: a target shot's Target Token, named by the referee
when the shot is settled (the mat cannot see a token)."""

from __future__ import annotations

from typing import Any

from service.simulator.table import Pace, SimulatedTable
from service.table.config import load_table


class Listening(SimulatedTable):
    """The table's people, with what they say written down instead of sent (no broker)."""

    def __init__(self) -> None:
        table = load_table("castles-1e-demo")
        super().__init__(table, "mqtt://127.0.0.1:1", play=False, pace=Pace(0, 0.01, 0.01))
        self.said: list[tuple[str, dict[str, Any]]] = []

    def say(self, command: str, timeout_s: float = 10.0, **args: Any) -> dict[str, Any]:
        self.said.append((command, args))
        return {"ok": True}


def test_the_referee_names_the_enemy_the_target_token_was_put_on() -> None:
    """catacombs-and-castles-1e-manual.txt: Shot Reference — a target shot (Target Ice) is aimed at the enemy
    the Target Token is placed on."""
    sim = Listening()
    try:
        fighters = [
            {"id": "hero-delilah", "piece": "hero-delilah", "side": "castle", "on_mat": True},
            {"id": "hero-hakoru", "piece": "hero-hakoru", "side": "catacomb", "on_mat": True},
        ]
        state = {"seq": 3, "sides": [{"id": "castle"}, {"id": "catacomb"}], "characters": fighters}
        sim.sees(state)
        sim.put_down("hero-delilah", "castle", 0.12)
        sim.put_down("hero-hakoru", "catacomb", 0.8)
        expected = {"character": "hero-delilah", "actor": "hero-delilah", "piece": "hero-delilah"}
        sim.flick(state, {**expected, "shot": "target_ice", "ranged": True, "team": "castle"})
        assert sim.last_shot is not None
        sim.said.clear()
        sim.referee_confirms({"candidates": [{"direct_hits": sorted(sim.last_shot.direct_hits)}]})
        [(command, args)] = sim.said
        assert command == "confirm_hits" and args["target"] == "hero-hakoru"
        assert set(args["direct_hits"]) <= {"hero-hakoru"}

        sim.said.clear()  # a shot without a Target Token is settled by the reading the referee saw
        sim.flick(state, {**expected, "shot": "melee"})
        sim.said.clear()
        sim.referee_confirms({"candidates": [{"direct_hits": sorted(sim.last_shot.direct_hits)}]})
        assert sim.said == [("confirm_hits", {"candidate": 0})]
    finally:
        sim.stop()
