"""Writes the Catacombs & Castles 2E example logs (one per mode) and their expected end states.

Run from the repository root: ``python examples/logs/generate_castles.py``. Every action is applied live
while writing. ``castles-2e-expected.json`` holds each log's end state (pools, round, winner, charges,
armour); ``tests/games/castles/test_example_logs.py`` replays every log against it, like a perft suite.
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
RULESET = "catacombs-and-castles-2e"
TEAM_SIDES = [
    {"team": "castle", "heroes": ["larra", "kethyst", "delilah"]},
    {"team": "catacomb", "heroes": ["hakoru", "formilus", "cahreliss"]},
]
CASTLE_WARRIORS = ["castle-warrior-a", "castle-warrior-b", "castle-warrior-c"]
CATACOMB_WARRIORS = ["catacomb-warrior-a", "catacomb-warrior-b", "catacomb-warrior-c"]


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

    def play_out(self, limit: int = 600, charged_first: bool = True) -> None:
        """Plays on until the game ends: each damaging shot hits the first enemy on the playmat, each
        decision takes its first option, charged cards are performed as soon as they may be."""
        for _ in range(limit):
            s = self.s
            if s.outcome is not None:
                return
            if s.pending is not None:
                self.do(A.Decide(s.pending.id, s.pending.options[0].id))
            elif s.turn is None:
                actions = self.rules.choices(s)
                cards = [a for a in actions if isinstance(a, A.PerformCard)]
                declares = [a for a in actions if isinstance(a, A.DeclareAction)]
                self.do(cards[0] if cards and charged_first else declares[0])
            else:
                head = s.turn.queue[0]
                actor = s.character(head.actor)
                foes = [c.id for c in s.characters if c.side != actor.side and c.on_mat]
                pick = foes[len(self.log.records) % len(foes)] if foes else None
                hits = (pick,) if pick and head.shot not in ("rush", "shield", "hook") else ()
                target = pick if head.shot in ("target", "target_melee") else None
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
    """Team Mode: the manual's tutorial round, then played to an empty Health Pool."""
    g = Game({"mode": "team", "first": "catacomb", "sides": TEAM_SIDES, "seed": 7})
    for character, hits, answer in (
        ("hero-hakoru", (), None),
        ("hero-delilah", ("hero-hakoru",), "power:delilah-ability"),
        ("hero-formilus", ("hero-delilah",), "power:formilus-ability"),
        ("hero-larra", ("hero-formilus",), "power:larra-team-action"),
        ("hero-cahreliss", (), None),
        ("hero-kethyst", ("hero-cahreliss",), "power:kethyst-ability"),
    ):
        g.do(A.DeclareAction(character, 0))
        g.do(A.ResolveShot(character, "rush"))
        g.do(A.ResolveShot(character, g.s.turn.queue[0].shot if g.s.turn else "missile", direct_hits=hits))
        if answer:
            g.do(A.Decide(g.s.pending.id, answer))
    g.play_out()
    return g.write("castles-2e-team.jsonl")


def one_versus_one() -> dict[str, Any]:
    g = Game(
        {
            "mode": "one-versus-one",
            "first": "castle",
            "seed": 11,
            "sides": [
                {"team": "castle", "heroes": ["delilah"]},
                {"team": "catacomb", "heroes": ["formilus"]},
            ],
        }
    )
    g.play_out()
    return g.write("castles-2e-one-versus-one.jsonl")


def boss_mode() -> dict[str, Any]:
    g = Game(
        {
            "mode": "boss",
            "first": "catacomb",
            "seed": 5,
            "sides": [
                {"team": "castle", "heroes": ["larra", "kethyst", "delilah"], "health_tokens": 12},
                {
                    "team": "catacomb",
                    "boss": "xaugorth",
                    "warriors": CATACOMB_WARRIORS,
                    "health_tokens": 14,
                    "reinforcement_tokens": 2,
                },
            ],
        }
    )
    g.play_out()
    return g.write("castles-2e-boss.jsonl")


def boss_versus_boss() -> dict[str, Any]:
    g = Game(
        {
            "mode": "boss-versus-boss",
            "game_length": "short",
            "first": "castle",
            "seed": 9,
            "sides": [
                {"team": "castle", "boss": "sothemir", "warriors": CASTLE_WARRIORS},
                {"team": "catacomb", "boss": "xaugorth", "warriors": CATACOMB_WARRIORS},
            ],
        }
    )
    g.play_out()
    return g.write("castles-2e-boss-versus-boss.jsonl")


if __name__ == "__main__":
    results = {
        "castles-2e-team.jsonl": team_tutorial_then_to_the_end(),
        "castles-2e-one-versus-one.jsonl": one_versus_one(),
        "castles-2e-boss.jsonl": boss_mode(),
        "castles-2e-boss-versus-boss.jsonl": boss_versus_boss(),
    }
    (HERE / "castles-2e-expected.json").write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
