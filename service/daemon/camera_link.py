"""The table's overhead camera, as the daemon sees it: the camera process's frames and health arrive over MQTT
(``camera/frames``, ``camera/status``; service/camera/wire.py), and each shot gets its ``camera`` block cut
from them (service/camera/feed.py), or the reason in words why it goes without one.

The camera never holds up play: a shot is cut from the frames that have arrived when the shot ends, and a
camera that stopped, lags, lost the mat or is not yet matched to the board's clock leaves the shot to the
other sensors, with the reason on the referee's console. A malformed message is logged and dropped. Frames are
dated on the table computer's monotonic clock (the camera process runs beside the daemon), the same clock the
daemon's shots are dated on.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from service.camera.feed import CameraFeed, ShotWindow
from service.camera.wire import CameraMessageError, decode_frames, decode_status
from service.mat.camera_trace import CameraRecord
from service.publish import topics
from service.sensing.segmenter import ShotObserved

log = logging.getLogger(__name__)

SILENT_AFTER_S = 3.0  # a camera that sent nothing for this long is reported silent


class CameraLink:
    def __init__(self) -> None:
        self._lock = threading.Lock()  # messages arrive on the MQTT thread, shots are cut on the game thread
        self.feed: CameraFeed | None = None
        self.status: dict[str, Any] | None = None
        self.last_frame_host_us: int | None = None
        self.refused = 0  # malformed messages dropped

    def on_message(self, kind: str, payload: bytes) -> None:
        try:
            if kind == topics.CAMERA_STATUS:
                status = decode_status(payload)
                with self._lock:
                    self.status = status
                return
            batch = decode_frames(payload)
        except CameraMessageError as error:
            with self._lock:
                self.refused += 1
            log.error("dropped a malformed camera message: %s", error)
            return
        with self._lock:
            if self.feed is None or (self.feed.fps, self.feed.sigma_mm) != (batch.fps, batch.sigma_mm):
                self.feed = CameraFeed(batch.fps, batch.sigma_mm)
            for frame in batch.frames:
                self.feed.add(frame.result, frame.host_us)
                self.last_frame_host_us = frame.host_us

    def caught_up(self, host_s: float) -> bool:
        """Whether the camera has sent its frames up to this moment (or is not sending at all)."""
        with self._lock:
            last = self.last_frame_host_us
        if last is None:
            return True  # a camera that never sent a frame is not waited for
        return last >= host_s * 1e6

    def block_for(
        self, shot: ShotObserved, flicked: str, host_now_s: float
    ) -> tuple[CameraRecord | None, str]:
        """The shot's ``camera`` block, or None; and what the camera gave, in words."""
        host_now_us = round(host_now_s * 1e6)
        end_us = shot.post.t_us  # the scan after the shot came in just now
        start_us = shot.impacts[0].t_us if shot.impacts else shot.pre.t_us
        window = ShotWindow(
            flicked=flicked,
            board_start_us=start_us,
            board_end_us=end_us,
            host_start_us=host_now_us - (end_us - start_us),
            host_end_us=host_now_us,
            impacts_us=tuple(i.t_us for i in shot.impacts),
        )
        with self._lock:
            if self.feed is None:
                return None, "the camera sent no frames"
            record, why = self.feed.block_for(window)
        if record is None:
            return None, why or "the camera gave nothing for this shot"
        return record, f"the camera followed {len(record.tracks)} disc(s) through the shot"

    def health(self, host_now_s: float) -> tuple[bool, str]:
        """Whether the camera is well, and what it is doing, in words (the table's health check)."""
        with self._lock:
            status, last = self.status, self.last_frame_host_us
        if status is not None and status.get("state") == "offline":
            return False, "camera: the camera process is offline"
        if last is None:
            return False, "camera: no frames received yet"
        ago = host_now_s - last / 1e6
        if ago > SILENT_AFTER_S:
            return False, f"camera: silent for {ago:.0f} s"
        problems = (status or {}).get("problems") or []
        return True, "camera: frames arriving" + (f" ({problems[-1]})" if problems else "")
