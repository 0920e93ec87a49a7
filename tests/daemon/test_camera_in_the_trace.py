"""The overhead camera at a live table (docs/camera.md, "Into the live table"): the camera process's
frames reach the daemon over MQTT; a shot waits a bounded while, on the daemon's clock, for the frames of it;
a camera that is silent, lags past the wait or sends nonsense leaves the shot to the mat's own sensors, says
why in words, and never holds up play."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from service.camera.frames import FrameResult
from service.camera.wire import CapturedFrame, encode_frames
from service.daemon.camera_link import CameraLink
from service.daemon.daemon import DaemonOptions
from service.publish import topics
from tests.helpers.game_script import GameScript

WAIT_S = 2.0


@pytest.fixture
def table() -> Iterator[GameScript]:
    table = GameScript(options=DaemonOptions(camera=CameraLink(), camera_wait_s=WAIT_S))
    assert table.send("enter_room")["ok"] and table.send("start_battle")["ok"]
    assert table.declare("hero-xoric", 0)["ok"]
    yield table
    table.close()


def flick(table: GameScript) -> None:
    xoric, orc = table.disc_of("hero-xoric"), table.disc_of("monster-orc-1")
    table.flick(before={xoric: (3, 3), orc: (8, 3)}, after={xoric: (7, 3), orc: (10, 3)})


def shot_records(table: GameScript) -> list[dict[str, Any]]:
    return [r.payload for r in table.eventlog.records() if r.kind == "shot"]


def frames_until(table: GameScript, host_s: float, count: int = 3) -> bytes:
    """A few frames of the mat, the last captured at ``host_s`` on the daemon's clock."""
    frames = [
        CapturedFrame(
            round((host_s - (count - 1 - i) / 60) * 1e6),
            FrameResult(i, 5_000_000 + i * 16_667, {"hero-1": (100.0, 100.0)}, True),
        )
        for i in range(count)
    ]
    return encode_frames(frames, fps=60.0, sigma_mm=0.5)


def test_a_silent_camera_leaves_the_shot_to_the_mat_and_says_so(table: GameScript) -> None:
    flick(table)
    table.until(lambda: bool(shot_records(table)), "the shot recorded")
    (shot,) = shot_records(table)
    assert shot["camera"] == "the camera sent no frames"
    assert "camera" not in shot["trace"]
    table.until(lambda: not table.daemon.reading_shots(), "the shot read from the mat alone")
    assert table.state["table"]["attributing"] is None


def test_a_shot_waits_for_frames_on_their_way_then_is_recorded_with_what_came(table: GameScript) -> None:
    now = table.clock.monotonic()
    table.camera_sends(frames_until(table, now - 0.5))  # the camera is up, its frames half a second behind
    flick(table)
    assert shot_records(table) == [], "the frames of the shot's end have not come yet: it waits"
    table.advance(WAIT_S / 4)
    assert shot_records(table) == []
    table.camera_sends(frames_until(table, table.clock.monotonic()))  # they came
    table.advance(0.1)
    (shot,) = shot_records(table)
    # Frames came, but none showed the flick: the clock cannot be matched, and the shot goes without a block.
    assert "camera" not in shot["trace"] and shot["camera"]


def test_a_camera_that_lags_past_the_wait_never_holds_up_play(table: GameScript) -> None:
    table.camera_sends(frames_until(table, table.clock.monotonic() - 0.5))
    flick(table)
    assert shot_records(table) == []
    table.advance(WAIT_S + 0.2)
    (shot,) = shot_records(table)
    assert "camera" not in shot["trace"] and shot["camera"].startswith("the camera")
    table.until(lambda: not table.daemon.reading_shots(), "the shot read from the mat alone")


def test_a_malformed_camera_message_is_dropped_and_changes_nothing(
    table: GameScript, caplog: pytest.LogCaptureFixture
) -> None:
    link = table.daemon.options.camera
    assert link is not None
    with caplog.at_level("ERROR"):
        table.camera_sends(b'{"v": 1, "fps": 60, "sigma_mm": 0.5, "frames": [{"i": "x"}]}')
        table.camera_sends(b"not json")
    assert link.refused == 2 and link.feed is None
    assert "frames[0].i must be a whole number" in caplog.text
    flick(table)
    table.until(lambda: bool(shot_records(table)), "the shot recorded")
    assert shot_records(table)[0]["camera"] == "the camera sent no frames"


def test_the_camera_process_saying_offline_shows_in_the_tables_health(table: GameScript) -> None:
    table.camera_sends(frames_until(table, table.clock.monotonic()))
    assert table.daemon.health().camera == "camera: frames arriving"
    assert table.daemon.health().ok
    table.camera_sends(b'{"state": "offline"}', kind=topics.CAMERA_STATUS)
    assert table.daemon.health().camera == "camera: the camera process is offline"
    assert table.daemon.health().ok, "a camera that stops never stops the table"


def test_the_snapshot_names_the_discs_the_camera_does_not_see(table: GameScript) -> None:
    """Set-up on the day (issue 34): the snapshot's ``camera`` section."""
    seen = table.disc_of("hero-xoric")
    frames = [CapturedFrame(1_000_000, FrameResult(0, 5_000_000, {seen: (100.0, 100.0)}, True))]
    table.camera_sends(encode_frames(frames, fps=60.0, sigma_mm=0.5))
    table.until(lambda: seen in table.state.get("camera", {}).get("seen", []), "the camera section published")
    camera = table.state["camera"]
    enrolled = sorted(p.piece for p in table.table.registry.pieces)
    assert camera["seen"] == [seen]
    assert camera["not_seen"] == [name for name in enrolled if name != seen]
    assert camera["frames_arriving"] is True and camera["online"] is False  # no status yet
