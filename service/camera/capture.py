"""Frames with timestamps, from a camera or from a recording, behind one small interface.

A :class:`FrameSource` yields :class:`Frame` s (an image and the time its exposure was centred, on the
camera's own clock, in µs) until it has no more, then ``None``. Where the source knows when the exposure was
on this computer's monotonic clock (``time.monotonic``) — the sensor's own time stamps — the frame carries
that too (``host_us``); otherwise only the moment it was read can date it, a few milliseconds late, and the
source's ``no_sensor_time`` says why. Back ends:

* ``picamera2[:WxH@FPS]`` — a Raspberry Pi camera (Camera Module 3: 1536x864 at 120 fps is its fast mode),
  through Raspberry Pi OS's ``python3-picamera2``; timestamps are the sensor's own (libcamera's
  ``SensorTimestamp``: the first row's exposure, ns on the kernel's boot-time clock).
* ``v4l2:N`` or ``/dev/videoN`` — any V4L2 / UVC camera through OpenCV's ``VideoCapture``; the driver's buffer
  time stamps (``CAP_PROP_POS_MSEC``) when they are on the monotonic clock, else the time it was read.
* ``dir:PATH`` — a folder of ``NNNNNN.png`` frames with ``timestamps.txt`` (one µs value a line).
* ``video:PATH`` — a video file; timestamps from its frame times.
* ``pipe:PATH`` or ``pipe:-`` — raw frames on a pipe (``write_raw_frame``): what the rendered camera of
  ``smartmat run --camera sim`` streams (with each frame's true exposure time on this computer's clock), and a
  way to feed frames from any other program.
"""

from __future__ import annotations

import logging
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    Image = NDArray[np.uint8]
else:
    Image = Any

log = logging.getLogger(__name__)

RAW_MAGIC = b"SMF1"
RAW_HEADER = struct.Struct("<4sqHHB")  # magic, t_us, height, width, channels
RAW_MAGIC_TIMED = b"SMF2"  # the same, then the exposure's centre on this computer's monotonic clock (µs)
RAW_HOST_TIME = struct.Struct("<q")
SENSOR_TIME_SLACK_US = (
    1_000_000  # a driver's time stamp further from the time it was read is on another clock
)
TIMESTAMPS_FILE = "timestamps.txt"


class CaptureError(Exception):
    """A camera or recording that cannot be opened or read; the message says which and why."""


@dataclass(frozen=True)
class Frame:
    index: int  # frames counted from 0 as the source delivered them (a gap means frames the source lost)
    t_us: int  # the exposure's centre on the camera's clock
    image: Image  # height x width x 3, BGR, uint8
    # the exposure's centre on this computer's monotonic clock, when the source knows it (the sensor's own
    # time stamps); None: only the moment it was read can date it
    host_us: int | None = None


def monotonic_us() -> int:
    return time.monotonic_ns() // 1000


class FrameSource(Protocol):
    # why the frames carry no sensor time on this computer's clock (None: they do, or it is not known yet)
    no_sensor_time: str | None

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def frames(source: FrameSource) -> Iterator[Frame]:
    try:
        while (frame := source.read()) is not None:
            yield frame
    finally:
        source.close()


class FrameDater:
    """Dates each frame on this computer's monotonic clock, the clock the table dates its shots on:
    ``sensor`` by the exposure's own time where the source gives it (the moment it was read otherwise, the
    reason logged once each time it falls back), ``arrival`` by the moment it was read, ``host`` by its
    camera-clock time stamp taken as already on that clock."""

    def __init__(self, how: str, source: FrameSource) -> None:
        if how not in ("sensor", "arrival", "host"):
            raise ValueError(f"--clock: expected sensor, arrival or host, got {how!r}")
        self.how, self.source = how, source
        self.by_sensor = 0
        self.by_arrival = 0
        self._falling_back = False  # said so already, and no sensor time since

    def date(self, frame: Frame) -> int:
        if self.how == "host":
            return frame.t_us
        if self.how == "sensor" and frame.host_us is not None:
            self.by_sensor += 1
            self._falling_back = False
            return frame.host_us
        self.by_arrival += 1
        if self.how == "sensor" and not self._falling_back:
            reason = getattr(self.source, "no_sensor_time", None) or "the source gives no sensor time"
            log.warning("frames dated when read, a few ms after their exposure: %s", reason)
            self._falling_back = True
        return monotonic_us()


# ---- recordings ----


class DirectorySource:
    no_sensor_time: str | None = "recorded frames carry their camera's times, not this computer's"

    def __init__(self, folder: Path) -> None:
        import cv2

        self._cv2 = cv2
        self.folder = Path(folder)
        stamps = self.folder / TIMESTAMPS_FILE
        if not stamps.is_file():
            raise CaptureError(
                f"{self.folder}: no {TIMESTAMPS_FILE} (one µs timestamp a line, frame by frame)"
            )
        self._stamps: list[int] = []
        for n, line in enumerate(stamps.read_text(encoding="utf-8").splitlines(), 1):
            try:
                self._stamps.append(int(line.strip()))
            except ValueError:
                raise CaptureError(f"{stamps}:{n}: expected an integer µs timestamp, got {line!r}") from None
        self._next = 0

    def read(self) -> Frame | None:
        if self._next >= len(self._stamps):
            return None
        path = self.folder / f"{self._next:06d}.png"
        image = self._cv2.imread(str(path), self._cv2.IMREAD_COLOR)
        if image is None:
            raise CaptureError(f"{path}: missing or not an image")
        frame = Frame(self._next, self._stamps[self._next], image)
        self._next += 1
        return frame

    def close(self) -> None:
        self._next = len(self._stamps)


def write_directory(folder: Path, frames_: list[Frame]) -> None:
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    for i, frame in enumerate(frames_):
        cv2.imwrite(str(folder / f"{i:06d}.png"), frame.image)
    (folder / TIMESTAMPS_FILE).write_text("".join(f"{f.t_us}\n" for f in frames_), encoding="utf-8")


class PipeSource:
    """Raw frames: each a header (``RAW_HEADER``: b"SMF1", t_us, height, width, channels) then its pixels;
    or b"SMF2" and the same header followed by the exposure's centre on this computer's monotonic clock."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self._index = 0
        self.no_sensor_time: str | None = None

    def read(self) -> Frame | None:
        import numpy as np

        header = self.stream.read(RAW_HEADER.size)
        if not header:
            return None
        if len(header) < RAW_HEADER.size:
            raise CaptureError(f"frame {self._index}: the pipe ended inside a frame header")
        magic, t_us, height, width, channels = RAW_HEADER.unpack(header)
        if magic not in (RAW_MAGIC, RAW_MAGIC_TIMED):
            raise CaptureError(
                f"frame {self._index}: not a raw frame (header starts {magic!r}, not {RAW_MAGIC!r} "
                f"or {RAW_MAGIC_TIMED!r})"
            )
        host_us: int | None = None
        if magic == RAW_MAGIC_TIMED:
            stamp = self.stream.read(RAW_HOST_TIME.size)
            if len(stamp) < RAW_HOST_TIME.size:
                raise CaptureError(f"frame {self._index}: the pipe ended inside a frame header")
            host_us = int(RAW_HOST_TIME.unpack(stamp)[0])
        else:
            self.no_sensor_time = "the frames on the pipe carry no time on this computer's clock (SMF1)"
        if channels != 3 or not height or not width:
            raise CaptureError(f"frame {self._index}: {width}x{height}x{channels}; expected a BGR image")
        size = height * width * channels
        data = self.stream.read(size)
        if len(data) < size:
            raise CaptureError(
                f"frame {self._index}: the pipe ended inside the pixels ({len(data)} of {size} bytes)"
            )
        pixels = np.frombuffer(data, np.uint8).reshape(height, width, channels)
        frame = Frame(self._index, t_us, pixels, host_us)
        self._index += 1
        return frame

    def close(self) -> None:
        self.stream.close()


def write_raw_frame(stream: IO[bytes], t_us: int, image: Image, host_us: int | None = None) -> None:
    """One frame onto a pipe; ``host_us``, when known, is its exposure's centre on the reader's monotonic
    clock (the same computer's), which the camera process then dates it by."""
    height, width, channels = image.shape
    magic = RAW_MAGIC if host_us is None else RAW_MAGIC_TIMED
    stream.write(RAW_HEADER.pack(magic, t_us, height, width, channels))
    if host_us is not None:
        stream.write(RAW_HOST_TIME.pack(host_us))
    stream.write(image.tobytes())


class OpenCVSource:
    """A video file, or a V4L2 / UVC camera (``device`` an index or /dev/videoN), through OpenCV."""

    def __init__(
        self,
        device: int | str,
        *,
        width: int = 0,
        height: int = 0,
        fps: float = 0.0,
        capture: Any = None,
        cv2_module: Any = None,
    ) -> None:
        """``capture`` and ``cv2_module`` stand in for OpenCV's (service/camera/fakes.py)."""
        if cv2_module is None:
            import cv2 as cv2_module

        cv2 = cv2_module
        self._cv2 = cv2
        self.live = not (isinstance(device, str) and Path(device).is_file())
        self.no_sensor_time: str | None = None if self.live else "a video file's frames have no live time"
        if capture is not None:
            self._capture = capture
        elif self.live:
            self._capture = cv2.VideoCapture(device, cv2.CAP_V4L2)
        else:
            self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            raise CaptureError(f"{device}: cannot open it as {'a camera' if self.live else 'a video file'}")
        for prop, value in ((cv2.CAP_PROP_FRAME_WIDTH, width), (cv2.CAP_PROP_FRAME_HEIGHT, height)):
            if value:
                self._capture.set(prop, value)
        if fps:
            self._capture.set(cv2.CAP_PROP_FPS, fps)
        self._index = 0

    def read(self) -> Frame | None:
        ok, image = self._capture.read()
        if not ok:
            return None
        stamp_us = round(self._capture.get(self._cv2.CAP_PROP_POS_MSEC) * 1000)
        host_us: int | None = None
        if not self.live:
            t_us = stamp_us
        else:
            # V4L2 stamps each buffer on the monotonic clock as the sensor delivers it; some drivers and
            # OpenCV builds give a time from another origin (or none), which only the read time can replace.
            read_us = monotonic_us()
            if 0 <= read_us - stamp_us <= SENSOR_TIME_SLACK_US:
                t_us = host_us = stamp_us
            else:
                t_us = read_us
                self.no_sensor_time = (
                    f"the driver's frame time ({stamp_us / 1e6:.3f} s) is not on this computer's monotonic "
                    f"clock (it read {read_us / 1e6:.3f} s)"
                )
        frame = Frame(self._index, t_us, image, host_us)
        self._index += 1
        return frame

    def close(self) -> None:
        self._capture.release()


class Picamera2Source:
    """A Raspberry Pi camera through picamera2 (Raspberry Pi OS: ``sudo apt install python3-picamera2``)."""

    no_sensor_time: str | None = None

    def __init__(
        self,
        width: int = 1536,
        height: int = 864,
        fps: float = 120.0,
        exposure_us: int = 2000,
        *,
        camera: Any = None,
    ) -> None:
        """``camera`` stands in for a ``Picamera2()`` (service/camera/fakes.py)."""
        if camera is None:
            try:
                from picamera2 import Picamera2  # type: ignore[import-not-found,unused-ignore]
            except ImportError:
                raise CaptureError(
                    "picamera2 is not installed: on Raspberry Pi OS, sudo apt install python3-picamera2 "
                    "(and create the virtual environment with --system-site-packages)"
                ) from None
            camera = Picamera2()
        self._camera = camera
        # libcamera stamps frames on the boot-time clock, which runs ahead of the monotonic one by the time
        # the computer spent suspended (none, on a table's computer; measured rather than assumed)
        self._boot_ahead_us = (time.clock_gettime_ns(time.CLOCK_BOOTTIME) - time.monotonic_ns()) // 1000
        period = round(1e6 / fps)
        config = self._camera.create_video_configuration(
            main={"size": (width, height), "format": "BGR888"},
            controls={"FrameDurationLimits": (period, period), "ExposureTime": exposure_us},
            buffer_count=6,
        )
        self._camera.configure(config)
        self._camera.start()
        self._index = 0
        self._exposure_us = exposure_us

    def read(self) -> Frame | None:
        request = self._camera.capture_request()
        try:
            image = request.make_array("main")
            metadata = request.get_metadata()
        finally:
            request.release()
        # SensorTimestamp: the first row's exposure (ns, boot-time clock); ExposureTime: how long it was (µs)
        start_us = int(metadata["SensorTimestamp"]) // 1000
        centre_us = start_us + int(metadata.get("ExposureTime", self._exposure_us)) // 2
        frame = Frame(self._index, centre_us, image, centre_us - self._boot_ahead_us)
        self._index += 1
        return frame

    def close(self) -> None:
        self._camera.stop()
        self._camera.close()


def open_source(spec: str) -> FrameSource:
    """A source by its description (the module's docstring lists them); a bad one is a CaptureError."""
    kind, _, rest = spec.partition(":")
    if spec.startswith("/dev/video"):
        return OpenCVSource(spec)
    if kind == "v4l2" and rest.isdigit():
        return OpenCVSource(int(rest))
    if kind == "dir" and rest:
        return DirectorySource(Path(rest))
    if kind == "video" and rest:
        if not Path(rest).is_file():
            raise CaptureError(f"{rest}: no such video file")
        return OpenCVSource(rest)
    if kind == "pipe" and rest:
        import sys

        return PipeSource(sys.stdin.buffer if rest == "-" else open(rest, "rb"))  # noqa: SIM115
    if kind == "picamera2":
        width, height, fps = _mode(rest) if rest else (1536, 864, 120.0)
        return Picamera2Source(width, height, fps)
    raise CaptureError(
        f"unknown camera source {spec!r}: expected picamera2[:WxH@FPS], v4l2:N, /dev/videoN, dir:PATH, "
        "video:PATH or pipe:PATH (pipe:- for standard input)"
    )


def _mode(text: str) -> tuple[int, int, float]:
    size, _, fps = text.partition("@")
    w, _, h = size.partition("x")
    try:
        return int(w), int(h), float(fps or 120)
    except ValueError:
        raise CaptureError(f"picamera2:{text}: expected WIDTHxHEIGHT@FPS, e.g. 1536x864@120") from None
