"""Writes the Catacombs 1E example log (a whole catacomb against the Dragon) and its expected end state.

Run from the repository root: ``python examples/logs/generate_catacombs1e.py``. Every action is applied live
while writing. ``catacombs1e-expected.json`` holds the end state;
``tests/games/catacombs/first_edition/test_example_log.py`` replays the log against it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from service.gamelog.replay import new_game_from_setup
from service.gamelog.writer import LogWriter
from service.games.catacombs.first_edition import actions as A
from service.games.catacombs.flow.state import GameState

HERE = Path(__file__).parent
SETUP = {
    "ruleset": "catacombs-1e",
    "heroes": ["barbaro", "elfo", "ladra", "mago"],
    "lord": "dragone",
    "seed": 11,
}


class Game:
    def __init__(self) -> None:
        self.log = LogWriter()
        self.log.setup(SETUP)
        self.rules, self.state = new_game_from_setup(dict(SETUP))

    def do(self, action: A.Action, by: str = "referee:anna") -> None:
        self.state, _ = self.rules.apply(self.state, action)
        self.log.action(action, "sensor" if isinstance(action, A.ResolveShot) else by)

    @property
    def s(self) -> GameState:
        assert isinstance(self.state, GameState)
        return self.state

    def play(self, limit: int = 2000) -> None:
        """Heroes hit the Keeper's pieces in turn, the Keeper hits a hero every other attack; in the
        Merchant's room the first hero who can pay buys the cheapest item, at the Healer the most wounded
        hero is touched while the party can pay. The Barbarian opens the first and the last battle room with
        his Frenzy, which spends his rage (Preparazione degli eroi), and his sheet gives him a level back at
        the Healer's (``gain_rage``: when is the sheet's rule, docs/rulings.md)."""
        frenzies, gained = 0, False
        for n in range(limit):
            s = self.s
            if s.outcome is not None:
                return
            if s.pending is not None:
                self.do(A.Decide(s.pending.id, s.pending.options[0].id))
            elif s.phase == "special_room":
                if s.room_kind == "healer" and not gained:
                    gained = True
                    self.do(A.GainRage("hero-barbaro"))
                    continue
                services = [a for a in self.rules.choices(s) if isinstance(a, A.UseService)]
                bought = sum(1 for r in self.log.records[-3:] if '"use_service"' in str(r))
                self.do(services[0] if services and bought < 2 else A.EnterRoom())
            elif s.phase in ("setup", "resolution"):
                starts = s.phase == "setup" and s.room_index >= 0
                self.do(A.StartBattle() if starts else A.EnterRoom())
            elif s.turn is None:
                frenzy = A.PlayCard("hero-barbaro", "furia")
                opens = s.round == 1 and s.room_index in (0, 6)
                if opens and frenzies < 2 and self.rules.is_legal(s, frenzy):
                    frenzies += 1
                    self.do(frenzy)
                    continue
                declares = [a for a in self.rules.choices(s) if isinstance(a, (A.DeclareAction, A.PlayCard))]
                self.do(declares[0])
            else:
                head = s.turn.queue[0]
                actor = s.character(head.actor or s.turn.character)
                foes = [c.id for c in s.characters if c.side not in (actor.side, "neutral") and c.on_mat]
                foes = [f for f in foes if s.character(f).kind != "fire_wall"]
                pick = foes[n % len(foes)] if foes and (actor.side == "heroes" or n % 2) else None
                hits = (pick,) if pick and head.shot.kind not in ("rush", "summon") else ()
                self.do(A.ResolveShot(s.turn.character, head.shot.kind, direct_hits=hits))
        raise RuntimeError("the game did not end")


def expected(s: GameState) -> dict[str, Any]:
    return {
        "phase": s.phase,
        "outcome": s.outcome,
        "room": s.room_id,
        "treasury": s.treasury,
        "heroes": {
            h.id: {
                "alive": h.alive,
                "health": h.health,
                "gold": h.gold,
                "items": list(h.items),
                "rage": h.rage,
            }
            for h in s.heroes
        },
    }


if __name__ == "__main__":
    game = Game()
    game.play()
    (HERE / "catacombs1e-dragon.jsonl").write_text(game.log.lines(), encoding="utf-8")
    # Earlier logs kept beside it (catacombs1e-dragon-before-round-end.jsonl: written when a room ended at its
    # last monster's fall) keep their recorded end states.
    path = HERE / "catacombs1e-expected.json"
    result = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    result["catacombs1e-dragon.jsonl"] = expected(game.s)
    path.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
