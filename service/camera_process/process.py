"""``smartmat camera run``: the camera process of a table. It reads frames from a camera (or a recording, or
the simulated mat's rendered frames), finds and follows every disc (service/camera/pipeline.py) and publishes
the frames' disc places in small batches on ``smartmat/<table>/camera/frames``, with its health retained on
``…/camera/status`` (its last will says ``offline``). Its own process, its own MQTT account (``camera``, the
only one that may write those topics) and its own systemd unit (deploy/systemd/smartmat-camera.service), like
the LED trackers. The daemon takes the frames (service/daemon/camera_link.py); a camera that stops or lags
never holds up play.

Each frame is dated on the table computer's monotonic clock, the clock the daemon dates shots on: by its
exposure where the source gives that time (``--clock sensor``, the default: a Camera Module's sensor time
stamps, a V4L2 driver's buffer times on that clock, the simulated mat's rendered frames), else by the moment
it was read (``--clock arrival``, a few milliseconds after the exposure; capture.FrameDater).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.camera.frames import FrameResult
from service.camera.wire import CapturedFrame, encode_frames, encode_status
from service.publish import topics
from service.publish.transport import InboundMessage, OnConnect, OnMessage, Will

log = logging.getLogger(__name__)

BATCH_S = 0.05  # frames go out at least this often (a shot's frames reach the daemon within ~50 ms)
BATCH_FRAMES = 24
STATUS_EVERY_S = 2.0
VIEW_EVERY_S = 2.0  # at most one picture for the set-up page this often, however often it is asked


class Publisher(Protocol):  # the slice of a transport the camera needs (PahoTransport; a fake in tests)
    def start(self, on_connect: OnConnect, on_message: OnMessage, will: Will | None = None) -> None: ...
    def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None: ...
    def subscribe(self, topic_filter: str, qos: int) -> None: ...
    def flush(self, timeout_s: float) -> None: ...
    def stop(self) -> None: ...


@dataclass
class CameraHealth:
    frames: int = 0
    mapped: int = 0
    cpu_s: float = 0.0
    problems: list[str] = field(default_factory=list)
    mapping_error_mm: float | None = None  # the mat mapping's misfit at its fiducials, once mapped

    def add(self, result: FrameResult) -> None:
        self.frames += 1
        self.mapped += result.mapped
        self.cpu_s += result.cpu_s
        if result.problem and (not self.problems or self.problems[-1] != result.problem):
            self.problems = [*self.problems[-4:], result.problem]

    def status(self, state: str) -> dict[str, Any]:
        return {
            "state": state,
            "frames": self.frames,
            "mapped_share": round(self.mapped / self.frames, 3) if self.frames else None,
            "cpu_ms_per_frame": round(1000 * self.cpu_s / self.frames, 2) if self.frames else None,
            "problems": self.problems,
            "mapping_error_mm": None if self.mapping_error_mm is None else round(self.mapping_error_mm, 2),
        }


class CameraProcess:
    def __init__(
        self,
        table: str,
        transport: Publisher,
        fps: float,
        sigma_mm: float,
        host_now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table, self.transport, self.fps, self.sigma_mm = table, transport, fps, sigma_mm
        self.host_now = host_now
        self.health = CameraHealth()
        self._batch: list[CapturedFrame] = []
        self._batch_since = 0.0
        self._status_at = 0.0
        self._frames_topic = topics.topic(table, topics.CAMERA_FRAMES)
        self._status_topic = topics.topic(table, topics.CAMERA_STATUS)
        self._ask_topic = topics.topic(table, topics.CAMERA_VIEW_ASK)
        self._view_topic = topics.topic(table, topics.CAMERA_VIEW)
        self._asked = False  # set on the MQTT thread, read by the frame loop
        self._view_at: float | None = None

    def start(self) -> None:
        will = Will(self._status_topic, encode_status({"state": "offline"}))
        self.transport.start(self._on_connect, self._on_message, will)

    def _on_connect(self) -> None:
        self.transport.subscribe(self._ask_topic, 1)
        self._publish_status()

    def _on_message(self, message: InboundMessage) -> None:
        if message.topic == self._ask_topic and not message.retain:
            self._asked = True  # the referee's set-up page wants a picture (its payload says nothing)

    def view_wanted(self) -> bool:
        """Whether to make the set-up page's picture from this frame: asked since the last one, and that
        one at least ``VIEW_EVERY_S`` ago. No ask, no picture: tracking pays nothing for it."""
        if not self._asked:
            return False
        now = self.host_now()
        if self._view_at is not None and now - self._view_at < VIEW_EVERY_S:
            return False
        self._asked, self._view_at = False, now
        return True

    def send_view(self, payload: bytes) -> None:
        self.transport.publish(self._view_topic, payload, qos=0, retain=False)

    def _publish_status(self) -> None:
        payload = encode_status(self.health.status("online"))
        self.transport.publish(self._status_topic, payload, qos=1, retain=True)

    def take(self, result: FrameResult, host_us: int) -> None:
        """One frame seen: into the batch, which goes out when full or old enough."""
        now = self.host_now()
        self.health.add(result)
        if not self._batch:
            self._batch_since = now
        self._batch.append(CapturedFrame(host_us, result))
        if len(self._batch) >= BATCH_FRAMES or now - self._batch_since >= BATCH_S:
            self.flush()
        if now - self._status_at >= STATUS_EVERY_S:
            self._status_at = now
            self._publish_status()

    def flush(self) -> None:
        if self._batch:
            payload = encode_frames(self._batch, self.fps, self.sigma_mm)
            self.transport.publish(self._frames_topic, payload, qos=0, retain=False)
            self._batch = []

    def stop(self) -> None:
        self.flush()
        self.transport.publish(self._status_topic, encode_status(self.health.status("offline")), 1, True)
        self.transport.flush(2.0)  # its last word reaches the broker before it disconnects
        self.transport.stop()


def view_message(
    pipeline: Any, image: Any, result: FrameResult, names: dict[str, str] | None = None
) -> bytes:
    """The set-up page's picture of this frame and its summary (service/camera/view.py), as sent on
    ``camera/view``; ``names`` are the discs' shown names (default: their ids in the discs file)."""
    from service.camera.view import disc_names, render_view, summary_of
    from service.camera.wire import encode_view

    mapping = pipeline.watch.mapping if pipeline.watch is not None else None
    shown = disc_names(pipeline.looks, names)
    radii = {disc: look.radius_mm for disc, look in pipeline.looks.items()}
    jpeg = render_view(image, result, mapping, pipeline.layout, radii, shown)
    return encode_view(summary_of(result, mapping, pipeline.looks, shown), jpeg)
