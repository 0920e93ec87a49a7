"""The camera process's side of the wire: frames batched onto ``camera/tracks`` and a heartbeat on
``camera/health`` (service/camera/wire.py says what they hold).

The frames go out about ten times a second, each batch with the camera's clock against the host's wall clock
(the median of how long after its exposure each frame was read, so one late frame moves nothing). The
heartbeat goes out every second, retained, with the figures a referee needs on the day: frames per second,
frames lost, the mapping's error, bumps, the discs not seen lately; its last will says "offline" at once if
the process dies.
"""

from __future__ import annotations

import logging
import statistics
import threading
from collections import deque
from collections.abc import Sequence

from service.camera.frames import FrameResult
from service.camera.wire import CameraHealth, TrackBatch, encode_health, encode_tracks
from service.publish import topics
from service.publish.transport import MqttTransport, Will

log = logging.getLogger(__name__)

BATCH_S = 0.1  # frames are sent this often
HEARTBEAT_S = 1.0
CLOCK_FRAMES = 240  # the clock against the host is the median over this many latest frames


class CameraStreamer:
    def __init__(
        self,
        table: str,
        discs: Sequence[str],
        transport: MqttTransport,
        *,
        batch_s: float = BATCH_S,
        heartbeat_s: float = HEARTBEAT_S,
    ) -> None:
        self.table = topics.check_id(table, "table id")
        self.discs = tuple(sorted(discs))
        self.transport = transport
        self.batch_us, self.heartbeat_us = round(batch_s * 1e6), round(heartbeat_s * 1e6)
        self.tracks_topic = topics.topic(self.table, topics.CAMERA_TRACKS)
        self.health_topic = topics.topic(self.table, topics.CAMERA_HEALTH)
        self._lock = threading.Lock()
        self._pending: list[FrameResult] = []
        self._pending_since_us: int | None = None
        self._seq = 0
        self._lags: deque[int] = deque(maxlen=CLOCK_FRAMES)  # host µs at reading minus camera µs
        self.frames = self.lost = self.unmapped = 0
        self._last_index: int | None = None
        self._beat_frames = 0
        self._beat_seen: set[str] = set()
        self._last_beat_us: int | None = None
        self.problem: str | None = None
        self.mapping_error_mm: float | None = None
        self.bumps = 0

    def start(self) -> None:
        self.transport.start(
            self._on_connect, lambda message: None, Will(self.health_topic, _OFFLINE, 1, True)
        )

    def stop(self) -> None:
        with self._lock:
            self._send_batch()
            self.transport.publish(self.health_topic, _OFFLINE, 1, True)
        self.transport.flush(2.0)
        self.transport.stop()

    def _on_connect(self) -> None:
        log.info("camera: connected to the broker; streaming on %s", self.tracks_topic)

    def add(self, result: FrameResult, host_us: int) -> None:
        """One frame read at ``host_us`` (the host's wall clock, µs)."""
        with self._lock:
            self.frames += 1
            self._beat_frames += 1
            if self._last_index is not None and result.index > self._last_index + 1:
                self.lost += result.index - self._last_index - 1
            self._last_index = result.index
            self._lags.append(host_us - result.t_us)
            if result.mapped:
                self._beat_seen |= set(result.places)
            else:
                self.unmapped += 1
            if result.problem:
                self.problem = result.problem
            self._pending.append(result)
            if self._pending_since_us is None:
                self._pending_since_us = host_us
            if host_us - self._pending_since_us >= self.batch_us:
                self._send_batch(host_us)
        self.tick(host_us)

    def set_mapping(self, error_mm: float | None, bumps: int) -> None:
        with self._lock:
            self.mapping_error_mm, self.bumps = error_mm, bumps

    def tick(self, now_us: int) -> None:
        """Send what is due: a batch waiting too long (frames stopped coming) and the heartbeat."""
        with self._lock:
            if self._pending_since_us is not None and now_us - self._pending_since_us >= self.batch_us:
                self._send_batch(now_us)
            if self._last_beat_us is None or now_us - self._last_beat_us >= self.heartbeat_us:
                self.transport.publish(self.health_topic, encode_health(self._health(now_us)), 1, True)
                self._last_beat_us = now_us
                self._beat_frames = 0
                self._beat_seen = set()

    def cam_to_host_us(self) -> float | None:
        return float(statistics.median(self._lags)) if self._lags else None

    def _health(self, now_us: int) -> CameraHealth:
        span_s = (now_us - self._last_beat_us) / 1e6 if self._last_beat_us is not None else 0.0
        offset = self.cam_to_host_us()
        jitter = None
        if offset is not None and len(self._lags) >= 3:
            jitter = 1.4826 * statistics.median(abs(lag - offset) for lag in self._lags)
        return CameraHealth(
            "online",
            sent_us=now_us,
            fps=self._beat_frames / span_s if span_s > 0 else 0.0,
            frames=self.frames,
            lost=self.lost,
            unmapped=self.unmapped,
            mapping_error_mm=self.mapping_error_mm,
            bumps=self.bumps,
            discs=self.discs,
            unseen=tuple(d for d in self.discs if d not in self._beat_seen),
            problem=self.problem,
            cam_to_host_us=offset,
            clock_jitter_us=jitter,
        )

    def _send_batch(self, now_us: int | None = None) -> None:
        if not self._pending:
            return
        offset = self.cam_to_host_us()
        self._seq += 1
        batch = TrackBatch(
            self._seq,
            now_us if now_us is not None else self._pending[-1].t_us + round(offset or 0),
            offset or 0.0,
            tuple(self._pending),
        )
        self.transport.publish(self.tracks_topic, encode_tracks(batch), 0, False)
        self._pending = []
        self._pending_since_us = None


_OFFLINE = encode_health(CameraHealth("offline"))
