"""The table's side of a camera (service/camera/feed.py): a shot's camera block cut from the frames that
arrived around it, once the camera's clock is matched to the board's, and a reason in words instead when the
camera stopped, lost the mat or is not yet matched."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("cv2")

from service.camera.feed import CameraFeed, ShotWindow  # noqa: E402
from service.camera.frames import FrameResult  # noqa: E402

FPS = 120.0
OFFSET_US = 1_500_000  # the camera's clock minus the board's
HOST_LAG_US = 20_000  # frames reach the receiver this late (its clock happens to be the board's here)
HEARD_US = 300  # the piezos hear a contact this late


def _slide(t_s: float, start: tuple[float, float], speed: float) -> tuple[float, float]:
    """A disc set off at t=0 along +x at ``speed``, slowed by friction to a stop."""
    if t_s <= 0:
        return start
    stop = speed / 3900.0
    t = min(t_s, stop)
    return start[0] + speed * t - 0.5 * 3900.0 * t * t, start[1]


def _shot(feed: CameraFeed, flick_us: int, hit_after_s: float, *, mapped: bool = True) -> ShotWindow:
    """Frames of a shot: a-1 flicked along +x, b-1 struck ``hit_after_s`` later; c-1 stays put."""
    first = flick_us - 200_000
    index0 = round((first + OFFSET_US) * FPS / 1e6)
    for k in range(round(0.9 * FPS)):
        t_board = first + round(k * 1e6 / FPS)
        t_s = (t_board - flick_us) / 1e6
        places = {
            "a-1": _slide(t_s, (100.0, 300.0), 900.0),
            "b-1": _slide(t_s - hit_after_s, (400.0, 300.0), 700.0),
            "c-1": (600.0, 500.0),
        }
        result = FrameResult(index0 + k, t_board + OFFSET_US, places if mapped else {}, mapped)
        if not mapped:
            result.problem = "only 1 of the mat's 8 fiducial markers seen"
        feed.add(result, t_board + HOST_LAG_US)
    hit_us = flick_us + round(hit_after_s * 1e6) + HEARD_US
    return ShotWindow("a-1", flick_us, flick_us + 500_000, flick_us, flick_us + 500_000, (hit_us,))


def test_a_shot_gets_its_camera_block_once_two_shots_agree_on_the_clock() -> None:
    feed = CameraFeed(FPS, 0.5)
    record, reason = feed.block_for(_shot(feed, 10_000_000, 0.20))
    assert record is None and reason is not None and "not matched to the board's yet" in reason
    window = _shot(feed, 14_000_000, 0.25)
    record, reason = feed.block_for(window)
    assert reason is None and record is not None
    assert feed.clock.offset_us == pytest.approx(OFFSET_US - HEARD_US, abs=1500)
    assert abs(record.start_us - window.board_start_us) <= 1e6 / FPS + 1500
    assert {t.piece for t in record.tracks} == {"a-1", "b-1"}
    assert [p for p, _, _ in record.still] == ["c-1"]
    a = record.track("a-1")
    assert a is not None and a.points[0][1:] == pytest.approx((100.0, 300.0))
    assert math.dist(a.points[-1][1:], _slide(0.5, (100.0, 300.0), 900.0)) < 1.0


def test_a_stopped_or_blind_camera_gives_a_reason_not_a_block() -> None:
    feed = CameraFeed(FPS, 0.5)
    _shot(feed, 10_000_000, 0.20)
    _shot(feed, 14_000_000, 0.25)
    silent = ShotWindow("a-1", 19_000_000, 19_500_000, 19_000_000, 19_500_000, (19_200_000,))
    record, reason = feed.block_for(silent)
    assert record is None
    assert reason == "the camera sent no frames during the shot (its last came 4.3 s before it)"
    blind = _shot(feed, 20_000_000, 0.2, mapped=False)
    record, reason = feed.block_for(blind)
    assert record is None and reason is not None
    assert reason.startswith("the camera could not see the mat in 108 of 108 frames (only 1 of the mat's 8")
