"""The table's side of a camera: its frames kept for a while, and each shot's ``camera`` block cut from them,
or the reason in words why this shot goes without one.

A camera process reads frames into disc places (pipeline.py) and hands them over with the time each arrived
(the receiver's clock). When a shot ends, the receiver knows roughly when it happened on its own clock and
exactly when on the board's (its impacts). The frames that arrived around the shot date the moments discs set
off, which match the shot's impacts and so the camera's clock to the board's (clock.py); once two shots agree,
the shot's frames are cut into the block (shots.py). A camera that stopped, lost the mat, lost too many frames
or is not yet matched to the board's clock gives no block, and the reason says which: the shot is then read
from the other sensors, as on a table without a camera.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from service.camera.clock import ClockSync, onsets_us
from service.camera.frames import FrameResult
from service.camera.shots import CutError, cut_shot
from service.mat.camera_trace import CameraRecord

KEEP_S = 20.0  # frames kept this long (the longest shot and its settling, with room to spare)
AROUND_S = 0.6  # frames that arrived this long before and after a shot may belong to it
MIN_MAPPED = 0.8  # a shot needs the mat mapped in this share of its frames
MAX_LOST = 0.25  # ... and no more than this share of its frames lost


@dataclass(frozen=True)
class ShotWindow:
    flicked: str
    board_start_us: int  # the flick, on the board's clock
    board_end_us: int  # the discs at rest
    host_start_us: int  # the same two moments, roughly, on the receiver's clock
    host_end_us: int
    impacts_us: tuple[int, ...]  # the shot's impacts on the board's clock


@dataclass(frozen=True)
class Arrived:
    host_us: int
    result: FrameResult


class CameraFeed:
    def __init__(self, fps: float, sigma_mm: float) -> None:
        self.fps, self.sigma_mm = fps, sigma_mm
        self.frames: deque[Arrived] = deque()
        self.clock = ClockSync()

    def add(self, result: FrameResult, host_us: int) -> None:
        self.frames.append(Arrived(host_us, result))
        while self.frames and host_us - self.frames[0].host_us > KEEP_S * 1e6:
            self.frames.popleft()

    def block_for(self, shot: ShotWindow) -> tuple[CameraRecord | None, str | None]:
        """The shot's ``camera`` block, or None and why not (in words, for the referee and the log)."""
        around = round(AROUND_S * 1e6)
        window = [
            a.result
            for a in self.frames
            if shot.host_start_us - around <= a.host_us <= shot.host_end_us + around
        ]
        if not window:
            last = self.frames[-1].host_us if self.frames else None
            if last is None:
                return None, "the camera sent no frames"
            ago = (shot.host_start_us - last) / 1e6
            return None, f"the camera sent no frames during the shot (its last came {ago:.1f} s before it)"
        mapped = [r for r in window if r.mapped]
        if len(mapped) < MIN_MAPPED * len(window):
            problem = next(
                (r.problem for r in reversed(window) if r.problem), "the mat's fiducials were hidden"
            )
            hidden = len(window) - len(mapped)
            return None, f"the camera could not see the mat in {hidden} of {len(window)} frames ({problem})"
        span = window[-1].index - window[0].index + 1
        if span > 0 and 1 - len(window) / span > MAX_LOST:
            return None, f"the camera lost {100 * (1 - len(window) / span):.0f} % of the shot's frames"
        self.clock.add_shot(list(onsets_us(mapped).values()), list(shot.impacts_us))
        offset = self.clock.offset_us
        if offset is None:
            return None, f"the camera's clock is not matched to the board's yet ({self.clock.describe()})"
        try:
            record = cut_shot(
                mapped,
                flicked=shot.flicked,
                start_cam_us=shot.board_start_us + offset,
                end_cam_us=shot.board_end_us + offset,
                offset_us=offset,
                fps=self.fps,
                sigma_mm=self.sigma_mm,
            )
        except CutError as error:
            return None, str(error)
        flicked = record.track(shot.flicked)
        if flicked is None or len(flicked.points) < 2:
            return None, f"the camera did not see {shot.flicked} move"
        return record, None
