"""Frames dated by their exposure, not by when they were read: the capture back ends carry the sensor's own
time stamps (picamera2's SensorTimestamp, a V4L2 driver's buffer times, a rendered feed's true times) to the
camera process's batch for the table (docs/camera.md). Driven by the stand-ins in service/camera/fakes.py:
neither picamera2 nor a camera is needed."""

from __future__ import annotations

import io
import logging
import time

import pytest

np = pytest.importorskip("numpy")

from service.camera.capture import (  # noqa: E402
    FrameDater,
    OpenCVSource,
    Picamera2Source,
    PipeSource,
    monotonic_us,
    write_raw_frame,
)
from service.camera.fakes import FakeCv2, FakePicamera2, FakeVideoCapture  # noqa: E402
from service.camera.frames import FrameResult  # noqa: E402
from service.camera.wire import CapturedFrame, decode_frames, encode_frames  # noqa: E402


def _images(n: int) -> list[object]:
    return [np.full((8, 12, 3), i, np.uint8) for i in range(n)]


def _boot_ahead_us() -> int:
    return (time.clock_gettime_ns(time.CLOCK_BOOTTIME) - time.monotonic_ns()) // 1000


def test_a_camera_modules_sensor_time_stamps_reach_the_tables_frame_batch() -> None:
    # Three frames at 120 fps, each exposed 2 ms; the first exposed 50 ms ago (boot-time clock, ns).
    first_ns = (monotonic_us() + _boot_ahead_us() - 50_000) * 1000
    sensor_ns = [first_ns + n * 8_333_333 for n in range(3)]
    camera = FakePicamera2(_images(3), sensor_ns, exposure_us=2000)
    source = Picamera2Source(1536, 864, 120.0, camera=camera)
    dater = FrameDater("sensor", source)
    captured = []
    while len(captured) < 3:
        frame = source.read()
        assert frame is not None
        result = FrameResult(frame.index, frame.t_us, {"orc-1": (420.0, 310.0)}, True)
        captured.append(CapturedFrame(dater.date(frame), result))
    assert all(r.released for r in camera.requests)  # each buffer went back to the camera
    batch = decode_frames(encode_frames(captured, 120.0, 0.5))
    for n, got in enumerate(batch.frames):
        exposure_centre_us = sensor_ns[n] // 1000 + 1000
        assert got.result.t_us == exposure_centre_us  # on the camera's clock
        # on this computer's monotonic clock: the same moment, within the clocks' measuring
        assert abs(got.host_us - (exposure_centre_us - _boot_ahead_us())) <= 2
        assert got.host_us < monotonic_us() - 30_000  # not the moment it was read (just now)
    assert dater.by_sensor == 3 and dater.by_arrival == 0


def test_a_v4l2_cameras_buffer_times_are_used_when_they_are_on_this_computers_clock() -> None:
    stamps_ms = [(monotonic_us() - 40_000) / 1000, (monotonic_us() - 31_000) / 1000]
    capture = FakeVideoCapture(_images(2), stamps_ms)
    source = OpenCVSource(0, capture=capture, cv2_module=FakeCv2, fps=120)
    assert capture.settings[FakeCv2.CAP_PROP_FPS] == 120
    frames = [source.read(), source.read()]
    assert [f.host_us for f in frames if f] == [round(s * 1000) for s in stamps_ms]
    assert source.no_sensor_time is None
    assert source.read() is None


def test_a_driver_whose_times_start_from_zero_falls_back_to_the_time_read_and_says_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    source = OpenCVSource(0, capture=FakeVideoCapture(_images(3), [0.0, 8.3, 16.7]), cv2_module=FakeCv2)
    dater = FrameDater("sensor", source)
    with caplog.at_level(logging.WARNING):
        dates = []
        while (frame := source.read()) is not None:
            before = monotonic_us()
            dates.append(dater.date(frame))
            assert frame.host_us is None
            assert before <= dates[-1] <= monotonic_us()  # dated when read
    assert dater.by_arrival == 3 and dater.by_sensor == 0
    warnings = [r.getMessage() for r in caplog.records if "dated when read" in r.getMessage()]
    assert len(warnings) == 1  # said once, not for every frame
    assert "not on this computer's monotonic clock" in warnings[0]


def test_a_rendered_feed_carries_each_frames_true_exposure_time_through_the_pipe() -> None:
    pipe = io.BytesIO()
    image = np.full((6, 10, 3), 90, np.uint8)
    write_raw_frame(pipe, 5_000_123, image, host_us=7_000_456)
    write_raw_frame(pipe, 5_008_456, image)  # an older writer: no sensor time
    pipe.seek(0)
    source = PipeSource(pipe)
    timed, plain = source.read(), source.read()
    assert timed is not None and plain is not None
    assert (timed.t_us, timed.host_us) == (5_000_123, 7_000_456)
    assert (plain.t_us, plain.host_us) == (5_008_456, None)
    assert "SMF1" in (source.no_sensor_time or "")
    assert source.read() is None
    dater = FrameDater("sensor", source)
    assert dater.date(timed) == 7_000_456


def test_the_clock_choice_is_checked() -> None:
    source = PipeSource(io.BytesIO())
    with pytest.raises(ValueError, match="expected sensor, arrival or host"):
        FrameDater("exposure", source)


@pytest.mark.slow
@pytest.mark.broker
def test_the_camera_process_dates_its_frames_by_the_sensor_times_it_is_given(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`smartmat camera run` on a pipe of rendered frames that carry their exposure times: the batches it
    publishes are dated by those times, not by when the process read the frames."""
    pytest.importorskip("cv2")
    import subprocess
    import sys

    from service.camera.capture import DirectorySource
    from service.camera.wire import decode_frames
    from service.cli import main
    from tests.helpers.broker import start_mosquitto
    from tests.helpers.mqtt_probe import MqttProbe

    discs, clip, pipe = tmp_path / "discs.yaml", tmp_path / "clip", tmp_path / "frames.raw"
    assert main(["camera", "render", "--out", f"dir:{clip}", "--discs-out", str(discs), "--shots", "1"]) == 0
    exposed_at: dict[int, int] = {}
    source = DirectorySource(clip)
    with pipe.open("wb") as out:
        while (frame := source.read()) is not None:
            exposed_at[frame.index] = 1_000_000 + frame.index * 8333  # long before the process runs
            write_raw_frame(out, frame.t_us, frame.image, host_us=exposed_at[frame.index])
    broker = start_mosquitto(tmp_path / "broker")
    try:
        watcher = MqttProbe(broker.host, broker.port)
        watcher.subscribe("smartmat/table-1/camera/#")
        command = [sys.executable, "-m", "service.cli", "camera", "run", "--table-id", "table-1"]
        command += ["--source", f"pipe:{pipe}", "--discs", str(discs), "--broker", broker.url()]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        seen = watcher.wait_for(
            lambda seen: any(b'"offline"' in s.payload and b'"frames"' in s.payload for s in seen)
        )
        watcher.close()
    finally:
        broker.stop()
    frames = [f for s in seen if s.topic.endswith("camera/frames") for f in decode_frames(s.payload).frames]
    assert len(frames) == len(exposed_at)
    assert all(f.host_us == exposed_at[f.result.index] for f in frames)
    assert "dated when read" not in done.stderr
