"""The camera process's messages to its table (service/camera/wire.py, docs/mqtt.md): what it sends is what
the daemon reads, a malformed message is refused naming its key, and the process batches its frames and
leaves a last will that says it is offline."""

from __future__ import annotations

from typing import Any

import pytest

from service.camera.frames import FrameResult
from service.camera.wire import (
    CameraMessageError,
    CapturedFrame,
    decode_frames,
    decode_status,
    encode_frames,
)
from service.camera_process.process import BATCH_FRAMES, CameraProcess
from service.publish import topics
from service.publish.transport import Will


def test_frames_sent_are_the_frames_read() -> None:
    sent = [
        CapturedFrame(10_000_000, FrameResult(7, 3_000_000, {"orc-1": (420.123, 310.0)}, True)),
        CapturedFrame(
            10_016_667,
            FrameResult(8, 3_016_667, {"orc-1": (421.5, 310.25)}, True, None, {"orc-1": 812.5}, {"orc-1"}),
        ),
        CapturedFrame(10_033_333, FrameResult(9, 3_033_333, {}, False, "only 2 of the mat's 8 markers seen")),
    ]
    batch = decode_frames(encode_frames(sent, fps=60.0, sigma_mm=0.5))
    assert (batch.fps, batch.sigma_mm) == (60.0, 0.5)
    assert [f.host_us for f in batch.frames] == [10_000_000, 10_016_667, 10_033_333]
    first, second, third = (f.result for f in batch.frames)
    assert first.places == {"orc-1": (420.12, 310.0)} and first.mapped
    assert second.row_delay_us == {"orc-1": 812.5} and second.by_marker == {"orc-1"}
    assert not third.mapped and third.problem == "only 2 of the mat's 8 markers seen"


@pytest.mark.parametrize(
    ("payload", "key"),
    [
        (b"[1, 2]", "the message must be a JSON object"),
        (b'{"v": 2, "fps": 60, "sigma_mm": 0.5, "frames": []}', "'v' must be 1"),
        (b'{"v": 1, "fps": 0, "sigma_mm": 0.5, "frames": []}', "'fps'"),
        (b'{"v": 1, "fps": 60, "sigma_mm": 0.5, "frames": {}}', "'frames'"),
        (b'{"v": 1, "fps": 60, "sigma_mm": 0.5, "frames": [{"i": 1, "t_us": 2}]}', "frames[0].host_us"),
        (
            b'{"v": 1, "fps": 60, "sigma_mm": 0.5, "frames": [{"i": 1, "t_us": 2, "host_us": 3, '
            b'"mapped": true, "places": {"orc-1": [1, NaN]}}]}',
            "frames[0].places.orc-1",
        ),
        (
            b'{"v": 1, "fps": 60, "sigma_mm": 0.5, "frames": [{"i": 1, "t_us": 2, "host_us": 3, '
            b'"mapped": true, "places": {}, "by_marker": ["troll-1"]}]}',
            "frames[0].by_marker",
        ),
    ],
)
def test_a_malformed_message_is_refused_naming_its_key(payload: bytes, key: str) -> None:
    with pytest.raises(CameraMessageError, match="camera frames") as refused:
        decode_frames(payload)
    assert key in str(refused.value)


def test_a_status_must_say_whether_the_camera_is_online() -> None:
    assert decode_status(b'{"state": "online", "frames": 12}')["frames"] == 12
    with pytest.raises(CameraMessageError, match="'state'"):
        decode_status(b'{"state": "asleep"}')


class RecordingTransport:
    def __init__(self) -> None:
        self.published: list[tuple[str, bytes, int, bool]] = []
        self.will: Will | None = None
        self.stopped = self.flushed = False

    def start(self, on_connect: Any, on_message: Any, will: Will | None = None) -> None:
        self.will = will
        on_connect()

    def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        self.published.append((topic, payload, qos, retain))

    def subscribe(self, topic_filter: str, qos: int) -> None:
        pass

    def flush(self, timeout_s: float) -> None:
        self.flushed = True

    def stop(self) -> None:
        self.stopped = True


def test_the_camera_process_batches_its_frames_and_says_when_it_is_offline() -> None:
    clock = [100.0]
    transport = RecordingTransport()
    process = CameraProcess("table-1", transport, fps=120.0, sigma_mm=0.5, host_now=lambda: clock[0])
    process.start()
    status_topic = topics.topic("table-1", topics.CAMERA_STATUS)
    frames_topic = topics.topic("table-1", topics.CAMERA_FRAMES)
    assert transport.will is not None and transport.will.topic == status_topic and transport.will.retain
    assert decode_status(transport.will.payload)["state"] == "offline"
    assert decode_status(transport.published[0][1])["state"] == "online"
    for i in range(BATCH_FRAMES * 2 + 1):  # all within one batch period: batches fill up
        process.take(FrameResult(i, i * 8333, {"orc-1": (1.0, 2.0)}, True), 1_000_000 + i * 8333)
    batches = [p for t, p, _, _ in transport.published if t == frames_topic]
    assert [len(decode_frames(b).frames) for b in batches] == [BATCH_FRAMES, BATCH_FRAMES]
    clock[0] += 0.2  # a batch never waits long: the next frame sends what is there
    process.take(FrameResult(99, 99, {}, False, "an arm over the mat"), 2_000_000)
    batches = [p for t, p, _, _ in transport.published if t == frames_topic]
    assert [len(decode_frames(b).frames) for b in batches] == [BATCH_FRAMES, BATCH_FRAMES, 2]
    process.stop()
    last = transport.published[-1]
    assert last[0] == status_topic and last[3] is True
    status = decode_status(last[1])
    assert (status["state"], status["frames"], status["problems"]) == ("offline", 50, ["an arm over the mat"])
    assert transport.flushed and transport.stopped
