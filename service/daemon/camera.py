"""The overhead camera, as the daemon hears it: the camera process's tracks and heartbeat (docs/camera.md),
kept for a while and cut into each shot's ``camera`` block, or the reason in words why a shot goes without
one.

The camera is its own process (``smartmat camera run``); the daemon only listens. Its frames arrive on the
network thread with the camera's clock against its host's wall clock, so each frame lands on the daemon's own
clock (the injected one) at the moment it was taken, not when its batch arrived. When a shot ends the daemon
asks for its block at once and never waits longer than the frames already in hand: a camera that stopped,
lags, lost the mat or is not yet matched to the board's clock gives the reason, and the shot is read from
the other sensors, as on a table without a camera.

:class:`FakeCamera` plays the camera process's part in tests: it sends what ``smartmat camera run`` would.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from service.camera.feed import CameraFeed, ShotWindow
from service.camera.frames import FrameResult
from service.camera.wire import (
    STALE_S,
    CameraHealth,
    CameraWireError,
    TrackBatch,
    decode_health,
    decode_tracks,
    describe_health,
    encode_health,
    encode_tracks,
)
from service.mat.camera_trace import CameraRecord
from service.publish import topics
from service.publish.transport import InboundMessage

log = logging.getLogger(__name__)

DEFAULT_FPS = 120.0
DEFAULT_SIGMA_MM = 0.5


class CameraLink:
    """Thread-safe: ``on_message`` runs on the network thread, the rest on the game thread."""

    def __init__(self, fps: float = DEFAULT_FPS, sigma_mm: float = DEFAULT_SIGMA_MM) -> None:
        self.feed = CameraFeed(fps, sigma_mm)
        self.health: CameraHealth | None = None
        self.heard_us: int | None = None  # the daemon's clock when the camera was last heard from
        self.latest_frame_us: int | None = None  # the latest frame's moment on the daemon's clock
        self.refused = 0
        self._lock = threading.Lock()

    def on_message(self, message: InboundMessage) -> None:
        try:
            kind = topics.parse(message.topic).kind
            if kind == topics.CAMERA_TRACKS:
                self.take_tracks(decode_tracks(message.payload))
            elif kind == topics.CAMERA_HEALTH:
                self.take_health(decode_health(message.payload))
        except (CameraWireError, topics.TopicError) as error:
            self.refused += 1
            log.error("ignored a camera message on %s: %s", message.topic, error)

    def take_tracks(self, batch: TrackBatch) -> None:
        with self._lock:
            for frame in batch.frames:
                host_us = frame.t_us + round(batch.cam_to_host_us)
                self.feed.add(frame, host_us)
                self.latest_frame_us = max(self.latest_frame_us or host_us, host_us)

    def take_health(self, health: CameraHealth) -> None:
        with self._lock:
            self.health = health
            if health.fps > 0:
                self.feed.fps = health.fps

    def describe(self, now_us: int) -> str:
        with self._lock:
            return describe_health(self.health, now_us)

    def block_for(self, shot: ShotWindow, now_us: int) -> tuple[CameraRecord | None, str | None]:
        """The shot's ``camera`` block from the frames in hand, or None and why not (in words)."""
        with self._lock:
            health = self.health
            if health is None:
                return None, "the camera was never heard from"
            if health.state == "offline":
                return None, "the camera stopped"
            silent_s = (now_us - health.sent_us) / 1e6
            if silent_s > STALE_S:
                return None, f"the camera has been silent for {silent_s:.0f} s"
            if self.latest_frame_us is not None and self.latest_frame_us < shot.host_end_us:
                behind = (shot.host_end_us - self.latest_frame_us) / 1e6
                return (
                    None,
                    f"the camera lags: its frames of the shot had not arrived ({behind:.1f} s behind)",
                )
            return self.feed.block_for(shot)


class FakeCamera:
    """Sends what the camera process would, through the same decoding as the broker's messages."""

    def __init__(self, link: CameraLink, table: str = "table-1", cam_to_host_us: int = 0) -> None:
        self.link, self.cam_to_host_us = link, cam_to_host_us
        self.tracks_topic = topics.topic(table, topics.CAMERA_TRACKS)
        self.health_topic = topics.topic(table, topics.CAMERA_HEALTH)
        self.seq = 0

    def send(self, frames: Sequence[FrameResult], sent_us: int) -> None:
        self.seq += 1
        batch = TrackBatch(self.seq, sent_us, float(self.cam_to_host_us), tuple(frames))
        self.link.on_message(InboundMessage(self.tracks_topic, encode_tracks(batch), 0, False))

    def beat(self, health: CameraHealth) -> None:
        self.link.on_message(InboundMessage(self.health_topic, encode_health(health), 1, True))
