"""The prescribed touches run by the daemon: after the taps, a referee flicks one disc softly into another at
a few marked places on the simulated mat, and the table's calibration file learns how loud a disc-on-disc
touch is on it (the ``disc_loudness`` belief the referee's answers teach in play, learning.py).

Rulebook: none (a set-up routine, not a game rule); documented in docs/setup.md ("The touches") and
docs/calibration.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from service.attribution.calibration import load_calibration
from service.mat.geometry import load_piece_classes
from tests.guided.test_calibrate_at_the_table import CalibratingTable
from tests.guided.test_flicks_at_the_table import seen_at, tap_one_round

HERO = load_piece_classes()["hero"]


def heard_so_far(table: CalibratingTable) -> int:
    """How many touches the routine has judged so far, read or refused."""
    return int((table.calibration_view["flicks"].get("last") or {}).get("heard", 0))


def both_seen(
    table: CalibratingTable, at: tuple[float, float], beside: tuple[float, float]
) -> Callable[[], bool]:
    return lambda: seen_at(table, "hero-xoric", *at) and seen_at(table, "hero-varesh", *beside)


def judged_after(table: CalibratingTable, heard: int, piece: str, heading: float) -> Callable[[], bool]:
    """Flick ``piece`` softly; then: has the routine judged one more touch?"""
    table.source.flick(piece, heading, 600.0)
    return lambda: heard_so_far(table) > heard


@pytest.fixture
def table(tmp_path: Path) -> Iterator[CalibratingTable]:
    running = CalibratingTable(tmp_path)
    try:
        yield running
    finally:
        running.close()


@pytest.mark.slow
def test_the_referee_makes_the_touches_and_the_table_learns_how_loud_a_touch_is(
    table: CalibratingTable,
) -> None:
    assert table.send("calibrate_touches")["error"].startswith("tap the marked points first")
    tap_one_round(table)
    before = load_calibration(table.calibration_file)
    assert table.send("calibrate_touches")["ok"]
    touches = table.calibration_view["flicks"]
    assert (touches["kind"], touches["done"], touches["total"]) == ("touches", 0, 4)

    for number in range(1, 5):
        spot = table.calibration_view["flicks"]["spot"]
        assert spot["number"] == number
        heading = math.atan2(spot["aim_y_mm"] - spot["y_mm"], spot["aim_x_mm"] - spot["x_mm"])
        beside = (spot["x_mm"] - 60 * math.cos(heading), spot["y_mm"] - 60 * math.sin(heading))
        for _ in range(3):
            with table.source.hands() as world:
                for piece in ("hero-xoric", "hero-varesh"):
                    if piece in world.pieces:
                        world.remove(piece)
                world.place("hero-xoric", HERO, spot["x_mm"], spot["y_mm"], side="heroes")
                world.place("hero-varesh", HERO, *beside, side="heroes")
            table.until(both_seen(table, (spot["x_mm"], spot["y_mm"]), beside))
            table.until(judged_after(table, heard_so_far(table), "hero-varesh", heading))
            last = table.calibration_view["flicks"]["last"]
            if last["ok"]:
                break
        assert last["ok"], last["text"]
        assert last["text"].startswith(f"touch {number} read: heard by ")

    finished = table.send("calibrate_finish", mat_confirmed=True)
    assert finished["ok"], finished
    written = load_calibration(table.calibration_file)
    keeper = table.daemon.options.calibration
    assert keeper is not None and keeper.calibration.digest == written.digest  # the next shot reads with it
    # The file changed: the touch loudness now rests on the four touches, and is surer than before.
    assert written.disc_loudness.shots == before.disc_loudness.shots + 4
    assert written.disc_loudness.sd < before.disc_loudness.sd
    assert written.speed_mm_per_us == before.speed_mm_per_us  # the taps' figures are kept
    figures = table.calibration_view["outcome"]["figures"]
    assert (figures["touches"], figures["touches_read"]) == (4, 4)
    assert figures["touch_loudness"] == round(written.disc_loudness.scale, 3)
    assert figures["soft_touch_heard_within_mm"] > 0
    assert table.calibration_view["status"]["figures"]["touches"]["touches_read"] == 4
    assert table.daemon.eventlog.last_seq() == 1  # touches are not shots
