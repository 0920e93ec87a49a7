"""The camera process's stream (service/camerad/streamer.py, service/camera/wire.py; docs/mqtt.md, "The
overhead camera"): frames batched onto camera/tracks and read back as they were, a heartbeat whose figures
and words say how the camera is doing, a last will that says it stopped, and bad messages refused by key."""

from __future__ import annotations

import json

import pytest

from service.camera.frames import FrameResult
from service.camera.wire import (
    CameraHealth,
    CameraWireError,
    decode_health,
    decode_tracks,
    describe_health,
    encode_health,
)
from service.camerad.streamer import CameraStreamer
from service.publish.fake import FakeBroker, FakeMqttClient

TRACKS = "smartmat/table-1/camera/tracks"
HEALTH = "smartmat/table-1/camera/health"
FRAME_US = 8333  # 120 frames a second
LAG_US = 5_000_000_000  # the host's wall clock minus the camera's


def frame(
    index: int, *, mapped: bool = True, places: dict[str, tuple[float, float]] | None = None
) -> FrameResult:
    seen = {"hero-a": (100.0 + index, 200.0), "goblin-1": (400.25, 300.5)} if places is None else places
    return FrameResult(
        index,
        1_000_000 + index * FRAME_US,
        seen if mapped else {},
        mapped,
        None if mapped else "2 of the mat's 4 fiducials hidden",
        row_delay_us={"hero-a": 120.0} if mapped else {},
        by_marker={"hero-a"} if mapped else set(),
    )


def streamer() -> tuple[FakeBroker, CameraStreamer]:
    broker = FakeBroker()
    camera = CameraStreamer("table-1", ["hero-a", "goblin-1", "goblin-2"], FakeMqttClient(broker, "camera"))
    camera.start()
    return broker, camera


def sent(broker: FakeBroker, topic: str) -> list[bytes]:
    return [p.payload for p in broker.log if p.topic == topic]


def test_frames_go_out_in_batches_and_come_back_as_they_were() -> None:
    broker, camera = streamer()
    results = [frame(i) for i in range(30)] + [frame(30, mapped=False)]
    for result in results:
        camera.add(result, result.t_us + LAG_US)
    camera.tick(results[-1].t_us + LAG_US + 200_000)  # frames stopped: the last batch goes anyway
    batches = [decode_tracks(p) for p in sent(broker, TRACKS)]
    assert len(batches) >= 3, "about ten batches a second, not one message a frame"
    assert [b.seq for b in batches] == list(range(1, len(batches) + 1))
    received = [f for b in batches for f in b.frames]
    assert [f.index for f in received] == list(range(31))
    assert received[5].places == {"hero-a": (105.0, 200.0), "goblin-1": (400.25, 300.5)}
    assert received[5].row_delay_us == {"hero-a": 120.0} and received[5].by_marker == {"hero-a"}
    assert not received[30].mapped and received[30].problem == "2 of the mat's 4 fiducials hidden"
    assert batches[-1].cam_to_host_us == LAG_US
    assert all(p.qos == 0 and not p.retain for p in broker.log if p.topic == TRACKS)


def test_the_heartbeat_counts_lost_frames_unmapped_frames_and_unseen_discs() -> None:
    broker, camera = streamer()
    camera.add(frame(0), frame(0).t_us + LAG_US)  # the first heartbeat
    for i in [*range(1, 100), *range(110, 121)]:  # the source skipped 10 frames
        camera.add(frame(i, mapped=i % 20 != 0), frame(i).t_us + LAG_US)
    camera.set_mapping(0.42, 1)
    camera.tick(frame(0).t_us + LAG_US + 1_000_000)  # the next heartbeat, a second after the first
    beats = [decode_health(p) for p in sent(broker, HEALTH)]
    last = beats[-1]
    assert last.state == "online" and last.frames == 111 and last.lost == 10 and last.unmapped == 5
    assert last.unseen == ("goblin-2",) and last.discs == ("goblin-1", "goblin-2", "hero-a")
    assert last.mapping_error_mm == 0.42 and last.bumps == 1
    assert last.cam_to_host_us == LAG_US and last.clock_jitter_us == 0
    assert 100 < last.fps < 120
    assert all(p.retain and p.qos == 1 for p in broker.log if p.topic == HEALTH)
    words = describe_health(last, last.sent_us + 1_000_000)
    assert words.startswith("camera: ") and "not seeing goblin-2" in words and "0.4 mm" in words


def test_a_camera_that_stops_or_dies_says_so() -> None:
    broker, camera = streamer()
    camera.add(frame(0), frame(0).t_us + LAG_US)
    camera.stop()
    assert decode_health(sent(broker, HEALTH)[-1]).state == "offline"
    broker, camera = streamer()
    camera.add(frame(0), frame(0).t_us + LAG_US)
    client = camera.transport
    assert isinstance(client, FakeMqttClient)
    client.lose_connection()
    assert decode_health(broker.retained[HEALTH]).state == "offline", "the last will"
    assert "stopped" in describe_health(CameraHealth("offline"), 0)


def test_the_health_in_words_for_each_way_a_camera_fails() -> None:
    now = 100_000_000
    seeing = CameraHealth(
        "online", sent_us=now, fps=119.6, frames=500, mapping_error_mm=0.61, discs=("a", "b"), unseen=()
    )
    assert describe_health(seeing, now) == "camera: 120 frames/s, the mat mapped to 0.6 mm, every disc seen"
    assert "silent for 12 s" in describe_health(seeing, now + 12_000_000)
    lost_mat = CameraHealth(
        "online", sent_us=now, fps=120, frames=9, problem="the mat's fiducials were hidden"
    )
    assert "not mapped (the mat's fiducials were hidden)" in describe_health(lost_mat, now)
    assert "never heard from" in describe_health(None, now)


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ({"v": 1, "seq": 1, "sent_us": 5, "cam_to_host_us": 0, "frames": {}}, "'frames'"),
        ({"v": 1, "seq": "1", "sent_us": 5, "cam_to_host_us": 0, "frames": []}, "'seq'"),
        (
            {
                "v": 1,
                "seq": 1,
                "sent_us": 5,
                "cam_to_host_us": 0,
                "frames": [{"i": 0, "t": 1, "p": {"a": [1]}}],
            },
            "'p'.a",
        ),
        (
            {"v": 1, "seq": 1, "sent_us": 5, "cam_to_host_us": 0, "frames": [{"i": 0, "p": {}}]},
            "frames[0]: 't'",
        ),
        ({"v": 2, "seq": 1, "sent_us": 5, "cam_to_host_us": 0, "frames": []}, "'v' must be 1"),
    ],
)
def test_a_bad_tracks_message_is_refused_naming_its_key(body: dict[str, object], key: str) -> None:
    with pytest.raises(CameraWireError) as refused:
        decode_tracks(json.dumps(body).encode())
    assert key in str(refused.value)


def test_a_bad_heartbeat_is_refused_naming_its_key() -> None:
    good = json.loads(encode_health(CameraHealth("online", sent_us=1, fps=120.0, frames=3)))
    assert decode_health(json.dumps(good).encode()).frames == 3
    with pytest.raises(CameraWireError, match="'unseen'"):
        decode_health(json.dumps({**good, "unseen": "goblin-1"}).encode())
    with pytest.raises(CameraWireError, match="'state'"):
        decode_health(json.dumps({**good, "state": "asleep"}).encode())
    with pytest.raises(CameraWireError, match="not JSON"):
        decode_health(b"{")
