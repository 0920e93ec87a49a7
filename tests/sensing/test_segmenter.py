"""Shot segmentation, scan by scan: pieces rest, a flick is heard, the mat goes quiet, a shot comes out."""

from __future__ import annotations

import pytest

from firmware_bridge.messages import Button, Impact, ReaderGrid, ScanDone, TagSeen
from service.sensing.segmenter import (
    BoardUpdated,
    MotionStarted,
    ScanWanted,
    SegmenterSettings,
    ShotObserved,
    ShotSegmenter,
)
from service.sensing.tags import RegisteredPiece, TableConfigError, TagRegistry, parse_registry

GRID = ReaderGrid(cols=20, rows=20, pitch_mm=25.0, origin_mm=(12.5, 12.5))
XORIC = bytes.fromhex("04a1b2c3d4e5f6")
TROLL = bytes.fromhex("04010203040506")


class Table:
    """A tiny harness: the mat reports scans of pieces at given cells; time is advanced by hand."""

    def __init__(self) -> None:
        registry = TagRegistry(
            [
                RegisteredPiece("hero-xoric", XORIC, "hero"),
                RegisteredPiece("monster-troll-1", TROLL, "monster-large", "dungeon"),
            ]
        )
        self.segmenter = ShotSegmenter(GRID, registry, settings=SegmenterSettings(quiet_s=0.3, rest_scans=2))
        self.now_s = 0.0
        self.t_us = 0
        self.scan_id = 0
        self.events: list[object] = []

    def scan(self, **cells: tuple[int, int]) -> list[object]:
        self.scan_id += 1
        self.t_us += 100_000
        uids = {"xoric": XORIC, "troll": TROLL}
        out: list[object] = []
        for name, (col, row) in cells.items():
            # the tag sits on the cell centre: three antennas see it, the centre one strongest
            for dc, rssi in ((0, -30), (-1, -48), (1, -48)):
                msg = TagSeen(self.scan_id, col + dc, row, uids[name], rssi)
                out += self.segmenter.on_message(msg, self.now_s)
        out += self.segmenter.on_message(ScanDone(self.scan_id, self.t_us, 400), self.now_s)
        self.events += out
        return out

    def edge_scan(self, xoric: tuple[int, int], troll_cell: tuple[int, int]) -> list[object]:
        """A scan in which the troll, at the mat's edge, is seen by one antenna only (read to ±pitch)."""
        self.scan_id += 1
        self.t_us += 100_000
        out: list[object] = []
        col, row = xoric
        for dc, rssi in ((0, -30), (-1, -48), (1, -48)):
            out += self.segmenter.on_message(TagSeen(self.scan_id, col + dc, row, XORIC, rssi), self.now_s)
        out += self.segmenter.on_message(TagSeen(self.scan_id, *troll_cell, TROLL, -40), self.now_s)
        out += self.segmenter.on_message(ScanDone(self.scan_id, self.t_us, 400), self.now_s)
        self.events += out
        return out

    def impact(self, sensor: int = 0, amplitude: int = 200) -> list[object]:
        self.t_us += 1_000
        out = self.segmenter.on_message(Impact(sensor, self.t_us, amplitude), self.now_s)
        self.events += out
        return out

    def advance(self, seconds: float) -> list[object]:
        self.now_s += seconds
        self.t_us += int(seconds * 1e6)
        out = self.segmenter.tick(self.now_s)
        self.events += out
        return out


def test_resting_pieces_are_located_on_the_board() -> None:
    table = Table()
    events = table.scan(xoric=(4, 4), troll=(10, 4))
    (board,) = [e for e in events if isinstance(e, BoardUpdated)]
    where = board.scan.by_piece()
    assert where["hero-xoric"].x_mm == pytest.approx(12.5 + 4 * 25)
    assert where["monster-troll-1"].y_mm == pytest.approx(12.5 + 4 * 25)


def test_a_flick_becomes_one_shot_with_pre_and_post_positions_and_its_impacts() -> None:
    table = Table()
    table.scan(xoric=(4, 4), troll=(10, 4))
    assert isinstance(table.impact(sensor=3)[0], MotionStarted)
    table.impact(sensor=5)
    assert table.advance(0.1) == []  # still ringing: not quiet yet
    assert table.advance(0.3) == [ScanWanted()]
    table.scan(xoric=(9, 4), troll=(12, 5))
    shots = [e for e in table.scan(xoric=(9, 4), troll=(12, 5)) if isinstance(e, ShotObserved)]
    assert len(shots) == 1
    shot = shots[0]
    assert [i.sensor_id for i in shot.impacts] == [3, 5]
    assert shot.pre.by_piece()["hero-xoric"].x_mm == pytest.approx(112.5)
    assert shot.post.by_piece()["monster-troll-1"].x_mm == pytest.approx(312.5)


def test_a_still_sliding_piece_delays_the_end_of_the_shot() -> None:
    table = Table()
    table.scan(xoric=(4, 4), troll=(10, 4))
    table.impact()
    table.advance(0.5)
    table.scan(xoric=(8, 4), troll=(10, 4))
    later = table.scan(xoric=(11, 4), troll=(10, 4))  # moved on since the last scan: not at rest yet
    assert not [e for e in later if isinstance(e, ShotObserved)]
    final = table.scan(xoric=(11, 4), troll=(10, 4))
    (shot,) = [e for e in final if isinstance(e, ShotObserved)]
    assert shot.post.by_piece()["hero-xoric"].x_mm == pytest.approx(12.5 + 11 * 25)


def test_a_poorly_read_disc_at_the_edge_does_not_hold_the_shot_open() -> None:
    # A disc at the edge is read by one antenna, and at rest its reads flip between two neighbouring
    # antennas, 25 mm apart. Judged against its reads' noise that is rest (docs/latency.md); judged against a
    # flat 6 mm, the shot waited for the motion timeout.
    table = Table()
    table.edge_scan(xoric=(4, 4), troll_cell=(10, 0))
    table.impact()
    table.advance(0.5)
    table.edge_scan(xoric=(9, 4), troll_cell=(10, 0))
    (shot,) = [e for e in table.edge_scan(xoric=(9, 4), troll_cell=(11, 0)) if isinstance(e, ShotObserved)]
    assert not shot.timed_out
    assert shot.post.by_piece()["monster-troll-1"].x_mm == pytest.approx(12.5 + 10.5 * 25)


def test_a_poorly_read_disc_that_moves_two_antennas_is_still_sliding() -> None:
    table = Table()
    table.edge_scan(xoric=(4, 4), troll_cell=(10, 0))
    table.impact()
    table.advance(0.5)
    table.edge_scan(xoric=(9, 4), troll_cell=(10, 0))
    later = table.edge_scan(xoric=(9, 4), troll_cell=(12, 0))  # 50 mm: more than any read's noise allows
    assert not [e for e in later if isinstance(e, ShotObserved)]


def test_placing_a_piece_by_hand_is_not_a_shot() -> None:
    table = Table()
    table.scan(xoric=(4, 4), troll=(10, 4))
    events = table.scan(xoric=(5, 4), troll=(10, 4))  # nudged 25 mm, no impact heard
    assert not [e for e in events if isinstance(e, MotionStarted | ShotObserved)]


def test_a_silent_long_slide_is_still_a_shot() -> None:
    table = Table()
    table.scan(xoric=(4, 4), troll=(10, 4))
    events = table.scan(xoric=(8, 4), troll=(10, 4))  # 100 mm with no impact over the threshold
    assert any(isinstance(e, MotionStarted) for e in events)
    table.advance(0.5)
    (shot,) = [e for e in table.scan(xoric=(8, 4), troll=(10, 4)) if isinstance(e, ShotObserved)]
    assert shot.impacts == ()


def test_a_missed_read_at_rest_keeps_the_piece_on_the_board() -> None:
    table = Table()
    table.scan(xoric=(4, 4), troll=(10, 4))
    (board,) = [e for e in table.scan(xoric=(4, 4)) if isinstance(e, BoardUpdated)]
    assert "monster-troll-1" in board.scan.by_piece()


def test_unknown_tags_are_ignored_and_remembered() -> None:
    table = Table()
    stray = bytes.fromhex("deadbeef")
    table.segmenter.on_message(TagSeen(1, 3, 3, stray, -30), 0.0)
    events = table.segmenter.on_message(ScanDone(1, 10, 400), 0.0)
    (board,) = events
    assert board.scan.pieces == ()
    assert table.segmenter.registry.unknown_uids == {stray}


def test_the_shot_done_button_ends_the_shot_at_the_next_scan() -> None:
    table = Table()
    table.scan(xoric=(4, 4), troll=(10, 4))
    table.impact()
    assert table.segmenter.end_shot_now(table.now_s) == [ScanWanted()]
    table.t_us += 10_000
    assert any(isinstance(e, ShotObserved) for e in table.scan(xoric=(6, 4), troll=(10, 4)))
    assert table.segmenter.on_message(Button(1, True, 5), 0.0)[0].button_id == 1


def test_a_table_file_with_a_bad_uid_names_the_key() -> None:
    with pytest.raises(TableConfigError, match=r"tags\[1\]\.uid"):
        parse_registry(
            [
                {"piece": "hero-a", "uid": "04a1b2c3", "class": "hero"},
                {"piece": "hero-b", "uid": "xyz", "class": "hero"},
            ],
            "table.yaml",
        )
