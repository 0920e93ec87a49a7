"""Frames with timestamps, from a camera or from a recording, behind one small interface.

A :class:`FrameSource` yields :class:`Frame` s (an image and the time its exposure was centred, on the
camera's own clock, in µs) until it has no more, then ``None``. Back ends:

* ``picamera2[:WxH@FPS]`` — a Raspberry Pi camera (Camera Module 3: 1536x864 at 120 fps is its fast mode),
  through Raspberry Pi OS's ``python3-picamera2``; timestamps are the sensor's own.
* ``v4l2:N`` or ``/dev/videoN`` — any V4L2 / UVC camera through OpenCV's ``VideoCapture``.
* ``dir:PATH`` — a folder of ``NNNNNN.png`` frames with ``timestamps.txt`` (one µs value a line).
* ``video:PATH`` — a video file; timestamps from its frame times.
* ``pipe:PATH`` or ``pipe:-`` — raw frames on a pipe (``write_raw_frame``): what the rendered camera of
  ``smartmat run --camera sim`` streams, and a way to feed frames from any other program.
"""

from __future__ import annotations

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

RAW_MAGIC = b"SMF1"
RAW_HEADER = struct.Struct("<4sqHHB")  # magic, t_us, height, width, channels
TIMESTAMPS_FILE = "timestamps.txt"


class CaptureError(Exception):
    """A camera or recording that cannot be opened or read; the message says which and why."""


@dataclass(frozen=True)
class Frame:
    index: int  # frames counted from 0 as the source delivered them (a gap means frames the source lost)
    t_us: int  # the exposure's centre on the camera's clock
    image: Image  # height x width x 3, BGR, uint8


class FrameSource(Protocol):
    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def frames(source: FrameSource) -> Iterator[Frame]:
    try:
        while (frame := source.read()) is not None:
            yield frame
    finally:
        source.close()


# ---- recordings ----


class DirectorySource:
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
    """Raw frames: each a header (``RAW_HEADER``: b"SMF1", t_us, height, width, channels) then its pixels."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self._index = 0

    def read(self) -> Frame | None:
        import numpy as np

        header = self.stream.read(RAW_HEADER.size)
        if not header:
            return None
        if len(header) < RAW_HEADER.size:
            raise CaptureError(f"frame {self._index}: the pipe ended inside a frame header")
        magic, t_us, height, width, channels = RAW_HEADER.unpack(header)
        if magic != RAW_MAGIC:
            raise CaptureError(
                f"frame {self._index}: not a raw frame (header starts {magic!r}, not {RAW_MAGIC!r})"
            )
        if channels != 3 or not height or not width:
            raise CaptureError(f"frame {self._index}: {width}x{height}x{channels}; expected a BGR image")
        size = height * width * channels
        data = self.stream.read(size)
        if len(data) < size:
            raise CaptureError(
                f"frame {self._index}: the pipe ended inside the pixels ({len(data)} of {size} bytes)"
            )
        frame = Frame(self._index, t_us, np.frombuffer(data, np.uint8).reshape(height, width, channels))
        self._index += 1
        return frame

    def close(self) -> None:
        self.stream.close()


def write_raw_frame(stream: IO[bytes], t_us: int, image: Image) -> None:
    height, width, channels = image.shape
    stream.write(RAW_HEADER.pack(RAW_MAGIC, t_us, height, width, channels))
    stream.write(image.tobytes())


class OpenCVSource:
    """A video file, or a V4L2 / UVC camera (``device`` an index or /dev/videoN), through OpenCV."""

    def __init__(self, device: int | str, *, width: int = 0, height: int = 0, fps: float = 0.0) -> None:
        import cv2

        self._cv2 = cv2
        self.live = not (isinstance(device, str) and Path(device).is_file())
        self._capture = cv2.VideoCapture(device, cv2.CAP_V4L2) if self.live else cv2.VideoCapture(device)
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
        if self.live:  # the driver's timestamps are not always on a steady clock; the grab time is
            t_us = time.monotonic_ns() // 1000
        else:
            t_us = round(self._capture.get(self._cv2.CAP_PROP_POS_MSEC) * 1000)
        frame = Frame(self._index, t_us, image)
        self._index += 1
        return frame

    def close(self) -> None:
        self._capture.release()


class Picamera2Source:
    """A Raspberry Pi camera through picamera2 (Raspberry Pi OS: ``sudo apt install python3-picamera2``)."""

    def __init__(
        self, width: int = 1536, height: int = 864, fps: float = 120.0, exposure_us: int = 2000
    ) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found,unused-ignore]
        except ImportError:
            raise CaptureError(
                "picamera2 is not installed: on Raspberry Pi OS, sudo apt install python3-picamera2 "
                "(and create the virtual environment with --system-site-packages)"
            ) from None
        self._camera = Picamera2()
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
            # SensorTimestamp: the start of the frame's exposure (ns, the kernel's monotonic clock).
            start_us = int(request.get_metadata()["SensorTimestamp"]) // 1000
        finally:
            request.release()
        frame = Frame(self._index, start_us + self._exposure_us // 2, image)
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
