"""Writes the example game logs in this folder by playing scripted games through the rules core.

Run from the repository root: ``python -m examples.logs.generate``. Every action is applied live while
writing, so an example can never hold an illegal action by accident.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from service.gamelog.replay import new_game_from_setup
from service.gamelog.writer import LogWriter
from service.games.catacombs.flow import actions as A

HERE = Path(__file__).parent


class Game:
    def __init__(self, setup: dict[str, Any]) -> None:
        self.log = LogWriter()
        self.log.setup(setup)
        self.rules, self.state = new_game_from_setup(setup)

    def do(self, action: A.Action, by: str = "daemon") -> int:
        self.state, _ = self.rules.apply(self.state, action)
        return self.log.action(action, by).seq

    def shot(self, character: str, shot: str, *hits: str, **extra: Any) -> int:
        return self.do(A.ResolveShot(character, shot, direct_hits=hits, **extra), by="sensor")

    def turn(self, character: str, *shots: tuple[str, ...], alternative: int | None = None) -> None:
        self.do(A.DeclareAction(character, alternative), by="referee:anna")
        for shot, *hits in shots:
            self.shot(character, shot, *hits)
        if self.state.turn is not None and self.state.turn.character == character:
            self.do(A.EndTurn(character), by="referee:anna")

    def decide(self, option: str) -> None:
        assert self.state.pending is not None
        self.do(A.Decide(self.state.pending.id, option), by="referee:anna")

    def write(self, name: str) -> None:
        (HERE / name).write_text(self.log.lines(), encoding="utf-8")


# Every example plays with the shipped cards, so that ``smartmat replay`` replays each one as it is.
SHIPPED = {
    "ruleset": "catacombs-3e",
    "content": "shipped",
    "heroes": ["xoric", "varesh", "roosan", "elani"],
    "lord": "hmotha-the-lich-lord",
    "seed": 2026,
}


def barracks_cleared() -> None:
    """The Barracks from setup to the Resolution Phase: two rounds, a flipped Troll, gold paid out."""
    g = Game({**SHIPPED, "rooms": ["the-barracks", "althea-the-healer", "catacomb-lords-lair"]})
    g.do(A.EnterRoom(), by="referee:anna")
    g.do(A.StartBattle(), by="referee:anna")
    g.turn("hero-xoric", ("rush",), ("melee", "monster-troll-1", "monster-orc-1"))
    g.turn("hero-elani", ("melee", "monster-orc-2"), ("rush",))
    g.turn("hero-varesh", ("rush",), ("melee", "monster-orc-3"))
    g.turn("hero-roosan", ("rush",), ("melee", "hero-xoric"), ("rush",), ("rush",))
    g.turn("monster-orc-4", ("missile", "hero-varesh"), alternative=1)
    g.turn("monster-pit-viper-1", ("missile", "hero-roosan"), alternative=0)
    g.turn("monster-troll-1", ("melee", "hero-elani"))
    g.turn("hero-xoric", ("rush",), ("melee", "monster-troll-1"))
    g.turn("hero-elani", ("melee", "monster-troll-1", "monster-orc-4"), ("rush",))
    g.turn("hero-roosan", ("rush",), ("melee", "monster-pit-viper-1"))
    g.write("barracks-cleared.jsonl")


def referee_corrections() -> None:
    """A shot attributed to the wrong Orc, corrected by the referee; a mistaken declaration undone."""
    g = Game({**SHIPPED, "rooms": ["the-barracks"]})
    g.do(A.EnterRoom(), by="referee:anna")
    g.do(A.StartBattle(), by="referee:anna")
    g.do(A.DeclareAction("hero-xoric"), by="referee:anna")
    g.shot("hero-xoric", "rush")
    wrong = g.shot("hero-xoric", "melee", "monster-orc-1")
    g.log.correction(A.ResolveShot("hero-xoric", "melee", direct_hits=("monster-orc-2",)), replaces=wrong)
    g.do(A.DeclareAction("hero-elani"), by="referee:anna")
    g.log.undo()  # Elani was declared by mistake: Roosan goes next
    g.log.action(A.DeclareAction("hero-roosan"), by="referee:anna")
    g.log.correction(A.SetHealth("hero-varesh", 7, "bumped by a fire wall the sensors missed"))
    g.write("referee-corrections.jsonl")


def pending_decision() -> None:
    """The Overseer declares an Orc without saying which alternative: the log stops at the decision."""
    g = Game({**SHIPPED, "rooms": ["the-barracks"]})
    g.do(A.EnterRoom(), by="referee:anna")
    g.do(A.StartBattle(), by="referee:anna")
    for hero in ("hero-xoric", "hero-varesh", "hero-roosan", "hero-elani"):
        g.do(A.DeclareAction(hero), by="referee:anna")
        g.do(A.EndTurn(hero), by="referee:anna")
    g.do(A.DeclareAction("monster-orc-1"), by="referee:anna")
    g.write("pending-decision.jsonl")


def mitholaq_hive_setup() -> None:
    """The Mitholaq Hive: two level 1 Monster Metre icons, one chosen, one drawn at random."""
    g = Game({**SHIPPED, "rooms": ["the-mitholaq-hive"]})
    g.do(A.EnterRoom(), by="referee:anna")
    g.decide("zombie")
    g.decide("random")
    g.do(A.StartBattle(), by="referee:anna")
    g.write("mitholaq-hive-setup.jsonl")


def poison_and_healer() -> None:
    """A Pit Viper poisons the Wizard in the Barracks; Althea cures him for free and heals him for gold."""
    g = Game(
        {
            **SHIPPED,
            "rooms": ["the-barracks", "althea-the-healer", "catacomb-lords-lair"],
            "spells": {"varesh": ["heal", "cure-poison"]},
        }
    )
    g.do(A.EnterRoom(playmat="campfire"), by="referee:anna")
    g.do(A.StartBattle(), by="referee:anna")
    g.turn("hero-xoric", ("rush",), ("melee", "monster-troll-1", "monster-orc-1"))
    g.turn("hero-elani", ("melee", "monster-orc-2"), ("rush",))
    g.turn("hero-varesh", ("rush",), ("melee", "monster-orc-3"))
    g.turn("hero-roosan", ("rush",), ("melee",), ("rush",), ("rush",))
    g.turn("monster-orc-4", ("missile", "hero-varesh"), alternative=1)
    g.turn("monster-pit-viper-1", ("missile", "hero-varesh"), alternative=0)
    g.turn("monster-troll-1", ("melee",))
    g.turn("hero-xoric", ("rush",), ("melee", "monster-troll-1"))
    g.turn("hero-elani", ("melee", "monster-troll-1", "monster-orc-4"), ("rush",))
    g.turn("hero-roosan", ("rush",), ("melee", "monster-pit-viper-1"))
    g.do(A.EnterRoom(), by="referee:anna")
    g.do(A.UseService("free_cure", target="hero-varesh"), by="referee:anna")
    g.decide("0")
    g.do(
        A.UseService("heal", target="hero-varesh", payment=(("hero-elani", 2), ("hero-xoric", 1))),
        by="referee:anna",
    )
    g.write("poison-and-healer.jsonl")


def shipped_cards_first_room() -> None:
    """The shipped card data (stand-in hero values included): the first room of the tutorial heroes."""
    g = Game(
        {
            "ruleset": "catacombs-3e",
            "content": "shipped",
            "heroes": ["xoric", "varesh", "roosan", "elani"],
            "lord": "vasesak-the-sorcerer",
            "rooms": ["the-outer-bailey", "izchak-the-merchant"],
            "seed": 7,
            "spells": {"varesh": ["drain-energy", "heal"]},
        }
    )
    g.do(A.EnterRoom(playmat="mausoleum"), by="referee:anna")
    g.do(A.StartBattle(), by="referee:anna")
    g.do(A.PlayCard("hero-varesh", "drain-energy"), by="referee:anna")
    g.shot("hero-varesh", "missile", "monster-centaur-1")
    g.write("shipped-cards-first-room.jsonl")


def castles_heroes_in_3e() -> None:
    """Castles heroes in a 3E party on the shipped cards (catacombs-and-castles-2e-manual.md: Catacombs 3E
    Integration): the heroes choose a Start Zone on the Castles playmat, Hakoru's shuriken and Larra's longbow
    clear the Barracks with Xoric and Varesh, and at the Amaranth Inn Hakoru's gold is his own."""
    g = Game(
        {
            "ruleset": "catacombs-3e",
            "content": "shipped",
            "expansions": ["castles"],
            "heroes": ["varesh", "xoric", "hakoru", "larra"],
            "lord": "vasesak-the-sorcerer",
            "rooms": ["the-barracks", "amaranth-inn", "zothas-gatehouse"],
            "seed": 3,
        }
    )
    g.do(A.EnterRoom(playmat="castles-front"), by="referee:anna")
    g.decide("start-zone-a")
    g.do(A.StartBattle(), by="referee:anna")
    g.turn("hero-hakoru", ("rush",), ("shuriken", "monster-orc-1"), ("rush",))
    g.turn("hero-larra", ("rush",), ("longbow", "monster-orc-2", "monster-orc-3"))
    g.turn("hero-xoric", ("rush",), ("melee", "monster-orc-4", "monster-pit-viper-1"))
    g.turn("hero-varesh", ("rush",), ("melee", "monster-troll-1"))
    g.turn("monster-troll-1", ("melee",))
    g.turn("hero-hakoru", ("rush",), ("shuriken", "monster-troll-1"))
    g.do(A.EnterRoom(), by="referee:anna")
    g.write("castles-heroes-in-3e.jsonl")


def whole_game() -> None:
    """A whole game from the first room to the Lair: the heroes strike the nearest monster, the Overseer
    misses, every decision takes its first option. Shows room flow, gold, shopping and the final battle."""
    g = Game(
        {
            **SHIPPED,
            "layout": ["difficulty_0", "special", "difficulty_1", "special", "lair"],
            "items": {"xoric": ["berserker-battle-axe"]},
        }
    )
    for _ in range(400):
        state = g.state
        if state.outcome is not None:
            break
        if state.pending is not None:
            g.decide(state.pending.options[0].id)
        elif state.phase in ("resolution", "special_room") or state.room_index < 0:
            if state.phase == "special_room" and state.room_kind == "healer" and not state.free_cure_used:
                poisoned = [h for h in state.heroes if h.poison]
                if poisoned:
                    g.do(A.UseService("free_cure", target=poisoned[0].id), by="referee:anna")
                    continue
            g.do(A.EnterRoom(), by="referee:anna")
        elif state.phase == "setup":
            g.do(A.StartBattle(), by="referee:anna")
        elif state.turn is None:
            actor = g.rules.actors(state)[0]
            g.do(A.DeclareAction(actor.id, 0), by="referee:anna")
        else:
            shot = state.expected_shot()
            actor = state.character(state.turn.character)
            if shot is None:
                g.do(A.EndTurn(actor.id), by="referee:anna")
                continue
            foes = [c.id for c in state.room_monsters if c.alive and c.on_mat]
            if actor.side == "heroes" and foes and shot["shot"] != "rush" and not shot["suppressed"]:
                foe = foes[0]
                # A shadow monster is destroyed only by being pushed off the playmat (3E reference: Shadow
                # Monsters), so the heroes knock it off.
                off = (foe,) if state.character(foe).shadow else ()
                g.shot(
                    actor.id,
                    shot["shot"],
                    foe,
                    target=foe if shot["shot"] == "target" else None,
                    pushed_off_mat=off,
                )
            else:
                g.do(A.SkipShot(actor.id), by="referee:anna")
    g.write("whole-game.jsonl")


if __name__ == "__main__":
    whole_game()
    poison_and_healer()
    shipped_cards_first_room()
    barracks_cleared()
    referee_corrections()
    pending_decision()
    mitholaq_hive_setup()
    castles_heroes_in_3e()
