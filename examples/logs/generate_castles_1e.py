"""Writes the Catacombs & Castles 1E example logs (Team Mode and Boss Mode) and their expected end states.

Run from the repository root: ``python examples/logs/generate_castles_1e.py``. Every action is applied live
while writing. ``castles-1e-expected.json`` holds each log's end state (pools, round, winner, charges,
armour); ``tests/games/castles/test_example_logs_1e.py`` replays every log against it, like a perft suite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.gamelog.replay import new_game_from_setup
from service.gamelog.writer import LogWriter
from service.games.castles.core import actions as A
from service.games.castles.core.state import CastlesState

HERE = Path(__file__).parent
RULESET = "catacombs-and-castles-1e"
SAM = {"team": "castle", "heroes": ["larra", "kethyst", "delilah"]}
JEN = {"team": "catacomb", "heroes": ["hakoru", "formilus", "cahreliss"]}
TARGET_SHOTS = ("target_melee", "target_ice", "target_fireball")
NO_HIT = ("rush", "shield", "open_portal")


class Game:
    def __init__(self, setup: dict[str, Any]) -> None:
        self.log = LogWriter()
        self.log.setup({"ruleset": RULESET, **setup})
        self.rules, self.state = new_game_from_setup({"ruleset": RULESET, **setup})

    def do(self, action: A.Action, by: str = "referee:anna") -> None:
        self.state, _ = self.rules.apply(self.state, action)
        self.log.action(action, "sensor" if isinstance(action, A.ResolveShot) else by)

    @property
    def s(self) -> CastlesState:
        assert isinstance(self.state, CastlesState)
        return self.state

    def play_out(self, limit: int = 800) -> None:
        """Plays on until the game ends: each damaging shot hits one enemy on the board in turn, each decision
        takes its first option (armour is kept: "take" comes second), cards are played as soon as they may."""
        for _ in range(limit):
            s = self.s
            if s.outcome is not None:
                return
            if s.pending is not None:
                options = [o.id for o in s.pending.options]
                self.do(A.Decide(s.pending.id, "take" if "take" in options else options[0]))
            elif s.turn is None:
                actions = self.rules.choices(s)
                cards = [a for a in actions if isinstance(a, A.PerformCard)]
                declares = [a for a in actions if isinstance(a, A.DeclareAction)]
                self.do(cards[0] if cards else declares[0])
            else:
                head = s.turn.queue[0]
                actor = s.character(head.actor)
                foes = [c.id for c in s.characters if c.side != actor.side and c.on_mat]
                pick = foes[len(self.log.records) % len(foes)] if foes else None
                hits = (pick,) if pick and head.shot not in NO_HIT and head.piece == actor.id else ()
                target = pick if head.shot in TARGET_SHOTS else None
                self.do(A.ResolveShot(head.actor, head.shot, direct_hits=hits, target=target))
        raise RuntimeError("the game did not end")

    def write(self, name: str) -> dict[str, Any]:
        (HERE / name).write_text(self.log.lines(), encoding="utf-8")
        return expected(self.s)


def expected(s: CastlesState) -> dict[str, Any]:
    return {
        "mode": s.mode,
        "phase": s.phase,
        "round": s.round,
        "outcome": s.outcome,
        "pools": {side.id: side.health for side in s.sides},
        "reinforcements": {side.id: side.reinforcements for side in s.sides},
        "charges": {c.id: dict(c.charges) for c in s.characters if any(n for _, n in c.charges)},
        "armour": {c.id: list(c.armour) for c in s.characters if c.armour},
        "off_mat": [c.id for c in s.characters if not c.on_mat],
    }


def team_tutorial_then_to_the_end() -> dict[str, Any]:
    """Team Mode: the manual's Quick Start Tutorial (its first six actions), then played to an empty pool."""
    g = Game({"mode": "team", "board_side": "castle", "sides": [SAM, JEN], "seed": 7})
    for character, alternative, shots, answers in (
        ("hero-hakoru", 0, (("rush", ()), ("shuriken", ())), ()),
        (
            "hero-delilah",
            0,
            (("ice", ("hero-hakoru",)), ("rush", ())),
            ("take", "power:castle-target-acquired"),
        ),
        ("hero-formilus", 0, (("claw", ("hero-delilah",)), ("rush", ())), ("block",)),
        (
            "hero-larra",
            0,
            (("rush", ()), ("longbow", ("hero-formilus",))),
            ("take", "assist:hero-delilah:castle-target-acquired"),
        ),
        ("hero-cahreliss", 0, (("fireball", ()), ("rush", ())), ()),
        ("hero-kethyst", 0, (("claw", ("hero-formilus",)),), ("take", "health")),
    ):
        g.do(A.DeclareAction(character, alternative))
        pending = list(answers)
        for shot, hits in shots:
            g.do(A.ResolveShot(character, shot, direct_hits=hits))
            while g.s.pending is not None and pending:
                g.do(A.Decide(g.s.pending.id, pending.pop(0)))
        if g.s.turn is not None:
            g.do(A.EndTurn(character))
    g.play_out()
    return g.write("castles-1e-team.jsonl")


def boss_mode() -> dict[str, Any]:
    """Boss Mode: three Catacomb heroes (sixteen Health Tokens) against Sothemir the Castle Lord."""
    g = Game(
        {
            "mode": "boss",
            "seed": 5,
            "sides": [
                {**JEN, "health_tokens": 16},
                {
                    "team": "castle",
                    "boss": "sothemir",
                    "warriors": ["royal-archer", "watch-guard", "querling"],
                },
            ],
        }
    )
    g.play_out()
    return g.write("castles-1e-boss.jsonl")


if __name__ == "__main__":
    results = {
        "castles-1e-team.jsonl": team_tutorial_then_to_the_end(),
        "castles-1e-boss.jsonl": boss_mode(),
    }
    (HERE / "castles-1e-expected.json").write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
