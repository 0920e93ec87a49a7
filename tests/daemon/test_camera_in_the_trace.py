"""The overhead camera's tracks in the live table (docs/camera.md, "The camera at the table"): frames the
camera process sends land in the shot's trace as its ``camera`` block, once two shots have matched the
camera's clock to the board's; a camera that is silent leaves the shot to the other sensors, with the reason
in words on the console and in the health check, and never holds the shot up.

catacombs-3e-reference.txt: Character Shots (the flicked disc is the character's own; a rush follows the
melee in Xoric's turn): the two shots played here.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from service.camera.frames import FrameResult
from service.camera.wire import CameraHealth
from service.daemon.camera import CameraLink, FakeCamera
from service.daemon.daemon import DaemonOptions
from service.eventlog.memory import MemoryEventLog
from tests.daemon.table_harness import FakeTable
from tests.daemon.test_shot_reading import HeldAttribution

OFFSET_US = 2_000_000  # the camera's clock minus the board's
FRAME_US = 8333  # 120 frames a second
SHOT_US = 850_000  # GameScript.flick: the board's clock from before the flick to its last rest scan
IMPACT_US = 450_000  # ... and to its impact
HOME = (100.0, 100.0)
PAUSE_US = 3_000_000


def slide(after_s: float) -> tuple[float, float]:
    """The flicked disc, set off at the impact along +x at 1.5 m/s and slowed by the mat (3.9 m/s²)."""
    if after_s <= 0:
        return HOME
    t = min(after_s, 1500.0 / 3900.0)
    return HOME[0] + 1500.0 * t - 0.5 * 3900.0 * t * t, HOME[1]


class Filmed:
    """The camera process's part: films each flick the table is about to see and sends the frames."""

    def __init__(self, table: FakeTable, camera: FakeCamera) -> None:
        self.table, self.camera = table, camera
        self.index = 0
        self.next_board_us: int | None = None  # the next frame's moment, on the board's clock
        self.impacts: list[int] = []  # each flick's impact (board clock): Xoric sets off from where it rests

    def beat(self) -> None:
        discs = (self.table.disc_of("hero-xoric"),)
        now_us = round(self.table.clock.wall() * 1e6)
        self.camera.beat(
            CameraHealth("online", sent_us=now_us, fps=120.0, frames=1, mapping_error_mm=0.5, discs=discs)
        )

    def place(self, board_us: int) -> tuple[float, float]:
        x, y = HOME
        for impact in self.impacts:
            if board_us > impact:
                x = slide((board_us - impact) / 1e6)[0] - HOME[0] + x
        return x, y

    def film_next_flick(self) -> None:
        """Frames of the next GameScript.flick, sent before the board's messages: the camera's frames are
        in hand when the daemon reads the shot. The host's clock (the daemon's wall clock) runs with the
        board's."""
        xoric = self.table.disc_of("hero-xoric")
        base = self.table.t_us  # the board's clock before the flick
        now_us = round(self.table.clock.wall() * 1e6)
        self.camera.cam_to_host_us = now_us - (base + SHOT_US + OFFSET_US)
        self.impacts.append(base + IMPACT_US)
        board_us = base if self.next_board_us is None else self.next_board_us
        frames = []
        while board_us <= base + SHOT_US + FRAME_US:
            frames.append(FrameResult(self.index, board_us + OFFSET_US, {xoric: self.place(board_us)}, True))
            self.index += 1
            board_us += FRAME_US
        self.next_board_us = board_us
        self.camera.send(frames, now_us)
        self.beat()

    def flick(self) -> None:
        """Xoric's disc flicked (the orc, struck by the melee, leaves the mat with its wounds)."""
        xoric, column = self.table.disc_of("hero-xoric"), 3 + 4 * len(self.impacts)
        self.film_next_flick()
        self.table.flick(before={xoric: (column, 3)}, after={xoric: (column + 4, 3)})


@pytest.fixture
def played() -> Iterator[tuple[FakeTable, CameraLink, HeldAttribution]]:
    held = HeldAttribution(hit="")
    held.release.set()
    link = CameraLink()
    table = FakeTable(eventlog=MemoryEventLog(), options=DaemonOptions(attribute=held, camera=link))
    assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
    assert table.send("declare", character="hero-xoric", alternative=0)["ok"]
    held.hit = table.disc_of("monster-orc-1")
    yield table, link, held
    table.close()


def shot_traces(table: FakeTable) -> list[dict[str, object]]:
    return [r.payload["trace"] for r in table.eventlog.records() if r.kind == "shot" and "trace" in r.payload]


def test_the_cameras_tracks_join_the_shots_trace_once_its_clock_is_matched(
    played: tuple[FakeTable, CameraLink, HeldAttribution], caplog: pytest.LogCaptureFixture
) -> None:
    table, link, _ = played
    filmed = Filmed(table, FakeCamera(link, table.table.table))
    with caplog.at_level(logging.WARNING, logger="service.daemon.shots"):
        filmed.flick()  # Xoric's melee
    table.until(lambda: not table.daemon.reading_shots(), "the melee's reading")
    first = shot_traces(table)[-1]
    assert "camera" not in first, "one shot does not yet match the camera's clock to the board's"
    assert "read without the camera: the camera's clock is not matched to the board's yet" in caplog.text
    table.t_us += PAUSE_US  # a pause between the shots, on the board's clock and the host's alike
    table.advance((SHOT_US + PAUSE_US) / 1e6)
    filmed.flick()  # Xoric's rush
    table.until(lambda: not table.daemon.reading_shots(), "the rush's reading")
    second = shot_traces(table)[-1]
    camera = second["camera"]
    assert isinstance(camera, dict)
    xoric = table.disc_of("hero-xoric")
    assert camera["fps"] == 120.0 and xoric in camera["tracks"]
    path = camera["tracks"][xoric]
    glide = 1500.0**2 / (2 * 3900.0)  # how far a disc set off at 1.5 m/s slides on the mat
    assert path[0][1] == pytest.approx(HOME[0] + glide, abs=1.0), "from where the melee left it"
    assert path[-1][1] == pytest.approx(HOME[0] + 2 * glide, abs=2.0), "to where the rush took it"
    assert table.daemon.shots.camera_note is None
    assert table.daemon.health().camera == "camera: 120 frames/s, the mat mapped to 0.5 mm, every disc seen"


def test_a_silent_camera_leaves_the_shot_to_the_other_sensors_and_says_why(
    played: tuple[FakeTable, CameraLink, HeldAttribution], caplog: pytest.LogCaptureFixture
) -> None:
    table, link, _ = played
    filmed = Filmed(table, FakeCamera(link, table.table.table))
    filmed.beat()
    table.advance(12.0)  # the camera says nothing more: its process hung
    xoric, orc = table.disc_of("hero-xoric"), table.disc_of("monster-orc-1")
    with caplog.at_level(logging.WARNING, logger="service.daemon.shots"):
        table.flick(before={xoric: (3, 3), orc: (8, 3)}, after={xoric: (7, 3), orc: (8, 3)})
    table.until(lambda: not table.daemon.reading_shots(), "the shot's reading")
    assert "camera" not in shot_traces(table)[-1]
    assert [r.kind for r in table.eventlog.records()][-3:] == ["shot", "attribution", "action"], (
        "read as ever"
    )
    assert "read without the camera: the camera has been silent for 12 s" in caplog.text
    assert table.daemon.health().camera == "camera: silent for 12 s; shots are read without it"
    assert table.daemon.health().ok, "a camera never holds the table up"


def test_a_table_without_a_camera_has_no_camera_in_its_health() -> None:
    table = FakeTable(eventlog=MemoryEventLog())
    try:
        assert table.daemon.health().camera is None and table.daemon.shots.camera is None
    finally:
        table.close()
