"""The table carries the flicked disc from the mat into the shot action, the game log and the referee's view.

catacombs-3e-reference.txt: Character Shots (a character shot flicks the character's own piece); the rules
check the disc (tests/games/test_flicked_disc.py); here: the mat's reading, the referee's commands and the
published shot name it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.daemon.daemon import DaemonOptions
from service.eventlog.memory import MemoryEventLog
from service.mat.trace import Scan, SeenPiece
from service.sensing.shot_trace import flicked_piece
from tests.daemon.test_shot_reading import HeldAttribution, flick
from tests.helpers.game_script import GameScript


@pytest.fixture
def held() -> HeldAttribution:
    return HeldAttribution(hit="")


@pytest.fixture
def table(held: HeldAttribution) -> Iterator[GameScript]:
    table = GameScript(eventlog=MemoryEventLog(), options=DaemonOptions(attribute=held))
    assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
    assert table.declare("hero-xoric", 0)["ok"]
    held.hit = table.disc_of("monster-orc-1")
    yield table
    held.release.set()
    table.close()


def test_a_sure_reading_names_the_flicked_disc_in_its_action_and_the_shot_line(
    table: GameScript, held: HeldAttribution
) -> None:
    """docs/game-log.md: shot (``flicked_character``) and the resolve_shot action (``flicked``)."""
    flick(table)
    assert held.started.wait(5)
    shot = table.eventlog.records()[-1]
    assert shot.kind == "shot" and shot.payload["flicked"] == table.disc_of("hero-xoric")
    assert shot.payload["flicked_character"] == "hero-xoric"
    assert table.shots()[-1]["flicked_character"] == "hero-xoric"
    held.release.set()
    table.until(lambda: not table.daemon.reading_shots(), "the reading to land")
    action = table.eventlog.records()[-1]
    assert action.payload["action"] == "resolve_shot" and action.payload["flicked"] == "hero-xoric"


def test_a_manual_shot_carries_the_flicked_disc_and_a_wrong_one_is_refused_citing_the_rule(
    table: GameScript,
) -> None:
    """catacombs-3e-reference.txt: Character Shots: the referee's flicked disc goes into the action; a disc
    the melee does not flick is refused, with the rule, and nothing is logged."""
    before = table.eventlog.last_seq()
    wrong = table.send("manual_shot", flicked=table.disc_of("hero-elani"), direct_hits=["monster-orc-1"])
    assert not wrong["ok"] and "Character Shots" in wrong["error"] and "Elani" in wrong["error"]
    assert table.eventlog.last_seq() == before
    right = table.send("manual_shot", flicked=table.disc_of("hero-xoric"), direct_hits=["monster-orc-1"])
    assert right["ok"], right
    record = table.eventlog.records()[-1]
    assert record.payload["flicked"] == "hero-xoric"


def test_the_mat_reads_the_allowed_piece_that_moved_when_the_expected_one_stayed_put() -> None:
    """catacombs-and-castles-1e-manual.txt: Team Actions: when the rules allow several pieces (``pieces``),
    the disc read as flicked is the expected one if it moved, else the allowed one that moved farthest."""

    class Ctx:
        discs = {"hero-larra": "disc-larra", "hero-kethyst": "disc-kethyst"}

    def scan(larra: float, kethyst: float) -> Scan:
        return Scan(0, (SeenPiece("disc-larra", larra, 100, 2), SeenPiece("disc-kethyst", kethyst, 300, 2)))

    expected = {"piece": "hero-larra", "pieces": ["hero-larra", "hero-kethyst"], "shot": "rush"}
    assert flicked_piece(scan(100, 300), expected, Ctx(), scan(100, 420)) == "disc-kethyst"  # type: ignore[arg-type]
    assert flicked_piece(scan(100, 300), expected, Ctx(), scan(180, 420)) == "disc-larra"  # type: ignore[arg-type]
    alone = {"piece": "hero-larra", "shot": "rush"}
    assert flicked_piece(scan(100, 300), alone, Ctx(), scan(100, 420)) == "disc-larra"  # type: ignore[arg-type]
