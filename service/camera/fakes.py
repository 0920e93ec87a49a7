"""Stand-ins for picamera2's camera and OpenCV's ``VideoCapture``, so the capture back ends (capture.py) can
be driven without a camera or the library: each hands out the images it is given, stamped as the real one
stamps them. For tests and for trying a set-up on a computer without the camera."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class FakeRequest:
    """A completed picamera2 request: the image and its metadata."""

    image: Any
    metadata: dict[str, Any]
    released: bool = False

    def make_array(self, stream: str) -> Any:
        if stream != "main":
            raise KeyError(stream)
        return self.image

    def get_metadata(self) -> dict[str, Any]:
        return dict(self.metadata)

    def release(self) -> None:
        self.released = True


@dataclass
class FakePicamera2:
    """A ``Picamera2()`` whose frames are ``images``, the n-th exposed from ``sensor_ns[n]`` (libcamera's
    ``SensorTimestamp``: the first row's exposure, ns on the boot-time clock) for ``exposure_us``."""

    images: Sequence[Any]
    sensor_ns: Sequence[int]
    exposure_us: int = 2000
    configured: dict[str, Any] | None = None
    started: bool = False
    closed: bool = False
    requests: list[FakeRequest] = field(default_factory=list)
    _next: Iterator[int] = field(init=False)

    def __post_init__(self) -> None:
        self._next = iter(range(len(self.images)))

    def create_video_configuration(self, **config: Any) -> dict[str, Any]:
        return dict(config)

    def configure(self, config: dict[str, Any]) -> None:
        self.configured = config

    def start(self) -> None:
        self.started = True

    def capture_request(self) -> FakeRequest:
        n = next(self._next)  # past the last frame: StopIteration, as a camera that never delivers hangs
        metadata = {"SensorTimestamp": self.sensor_ns[n], "ExposureTime": self.exposure_us}
        request = FakeRequest(self.images[n], metadata)
        self.requests.append(request)
        return request

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


class FakeCv2:
    """The few names of OpenCV's module that the capture back end uses."""

    CAP_V4L2 = 200
    CAP_PROP_POS_MSEC = 0
    CAP_PROP_FRAME_WIDTH = 3
    CAP_PROP_FRAME_HEIGHT = 4
    CAP_PROP_FPS = 5


@dataclass
class FakeVideoCapture:
    """An opened ``cv2.VideoCapture`` whose frames are ``images``, each with ``pos_msec[n]`` as its
    ``CAP_PROP_POS_MSEC`` (for a V4L2 camera, the driver's buffer time stamp in ms)."""

    images: Sequence[Any]
    pos_msec: Sequence[float]
    settings: dict[int, float] = field(default_factory=dict)
    released: bool = False
    _n: int = -1

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return not self.released

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def read(self) -> tuple[bool, Any]:
        if self._n + 1 >= len(self.images):
            return False, None
        self._n += 1
        return True, self.images[self._n]

    def get(self, prop: int) -> float:
        if prop == FakeCv2.CAP_PROP_POS_MSEC:
            return float(self.pos_msec[self._n]) if self._n >= 0 else 0.0
        return float(self.settings.get(prop, 0.0))

    def release(self) -> None:
        self.released = True
