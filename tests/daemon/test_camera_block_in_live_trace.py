"""A filmed shot at a live table carries the camera's paths in its trace (docs/camera.md, "Into the live
table"): the camera process's frames of two flicks reach the daemon over MQTT; the first shot matches
nothing yet (one shot cannot tell the camera's clock from the board's), the second does, and its trace's
``camera`` block follows the flicked disc from where the first flick left it to where the second took it.

catacombs-3e-reference.txt: Character Shots (a character shot flicks the character's own disc; Xoric's melee
is followed by a rush in the same turn): the two shots played here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.camera.frames import FrameResult
from service.camera.wire import CapturedFrame, encode_frames
from service.daemon.camera_link import CameraLink
from service.daemon.daemon import DaemonOptions
from tests.helpers.game_script import GameScript

OFFSET_US = 2_000_000  # the camera's clock minus the board's
FRAME_US = 8333  # 120 frames a second
SHOT_US = 850_000  # GameScript.flick: the board's clock from before the flick to its last rest scan
IMPACT_US = 450_000  # ... and to its impact
PAUSE_US = 3_000_000  # between the two shots
HOME = (100.0, 100.0)
SPEED_MM_S, FRICTION_MM_S2 = 1500.0, 3900.0
GLIDE_MM = SPEED_MM_S**2 / (2 * FRICTION_MM_S2)  # how far a disc set off at 1.5 m/s slides on the mat


class Filmed:
    """The camera process's part: Xoric's disc filmed through each flick, sent before the board's messages
    (so the frames are in hand when the shot is read). The host's clock runs with the board's."""

    def __init__(self, table: GameScript) -> None:
        self.table = table
        self.index = 0
        self.next_board_us: int | None = None
        self.impacts: list[int] = []  # each flick's impact, board clock

    def place(self, board_us: int) -> tuple[float, float]:
        x = HOME[0]
        for impact in self.impacts:
            if board_us > impact:
                t = min((board_us - impact) / 1e6, SPEED_MM_S / FRICTION_MM_S2)
                x += SPEED_MM_S * t - 0.5 * FRICTION_MM_S2 * t * t
        return x, HOME[1]

    def flick(self) -> None:
        xoric, column = self.table.disc_of("hero-xoric"), 3 + 4 * len(self.impacts)
        base = self.table.t_us  # the board's clock before the flick
        host_minus_board = round(self.table.clock.monotonic() * 1e6) - (base + SHOT_US)
        self.impacts.append(base + IMPACT_US)
        board_us = base if self.next_board_us is None else self.next_board_us
        frames = []
        while board_us <= base + SHOT_US + FRAME_US:
            result = FrameResult(self.index, board_us + OFFSET_US, {xoric: self.place(board_us)}, True)
            frames.append(CapturedFrame(board_us + host_minus_board, result))
            self.index += 1
            board_us += FRAME_US
        self.next_board_us = board_us
        for at in range(0, len(frames), 120):  # a second of frames a message, as the camera batches them
            self.table.camera_sends(encode_frames(frames[at : at + 120], fps=120.0, sigma_mm=0.5))
        self.table.flick(before={xoric: (column, 3)}, after={xoric: (column + 4, 3)})


@pytest.fixture
def table() -> Iterator[GameScript]:
    table = GameScript(options=DaemonOptions(camera=CameraLink(), camera_wait_s=2.0))
    assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
    assert table.declare("hero-xoric", 0)["ok"]
    yield table
    table.close()


def shot_records(table: GameScript) -> list[dict[str, Any]]:
    return [r.payload for r in table.eventlog.records() if r.kind == "shot"]


def test_the_second_filmed_shot_carries_the_cameras_path_of_the_flicked_disc(table: GameScript) -> None:
    filmed = Filmed(table)
    filmed.flick()  # Xoric's melee
    table.until(lambda: len(shot_records(table)) == 1, "the melee recorded")
    first = shot_records(table)[0]
    assert "camera" not in first["trace"]
    assert "not matched to the board's yet" in first["camera"], "one shot cannot match the clocks"
    table.until(lambda: not table.daemon.reading_shots(), "the melee read")
    table.t_us += PAUSE_US  # a pause, on the board's clock and the host's alike
    table.advance((SHOT_US + PAUSE_US) / 1e6)
    filmed.flick()  # Xoric's rush
    table.until(lambda: len(shot_records(table)) == 2, "the rush recorded")
    second = shot_records(table)[1]
    assert second["camera"] == "the camera followed 1 disc(s) through the shot"
    camera = second["trace"]["camera"]
    assert camera["fps"] == 120.0
    path = camera["tracks"][table.disc_of("hero-xoric")]
    assert path[0][1] == pytest.approx(HOME[0] + GLIDE_MM, abs=1.0), "from where the melee left it"
    assert path[-1][1] == pytest.approx(HOME[0] + 2 * GLIDE_MM, abs=2.0), "to where the rush took it"
    table.until(lambda: not table.daemon.reading_shots(), "the rush read with the camera")
