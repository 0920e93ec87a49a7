"""The simulated mat's overhead camera: each flick filmed (camera_render.py) and its frames written to a pipe,
where the table's camera process (`smartmat camera run --source pipe:PATH`) reads them exactly as
it reads a real camera's. The frames carry only pixels and their time stamps; the truth stays here.

The camera's clock is the computer's monotonic clock (as a Camera Module's sensor time stamps are), so the
frames of a flick are stamped when the flick happened on the emulated board, whatever the rendering costs
(each frame carries that time as its sensor time, which ``--clock sensor`` dates it by);
the daemon matches that clock to the board's from the shots themselves, as it would a real camera's.
Rendering runs on a thread of its own and never holds up the players or the board.
"""

from __future__ import annotations

import logging
import queue
import threading
from pathlib import Path
from typing import IO

from service.camera.capture import write_raw_frame
from service.camera.layout import DiscLook, MatLayout
from service.simulator.camera_render import CameraRenderer, RenderSettings
from service.simulator.table_edges import ShotRecord

log = logging.getLogger(__name__)

FPS = 60.0  # a demo camera: a Camera Module 3's 60 fps mode, at a size the pipeline reads fast enough
WIDTH, HEIGHT = 960, 720


class SimulatedCamera:
    def __init__(self, out: Path, layout: MatLayout, looks: dict[str, DiscLook], host_offset_us: int) -> None:
        """``host_offset_us``: the computer's monotonic clock minus the emulated board's, in µs."""
        settings = RenderSettings(width=WIDTH, height=HEIGHT, fps=FPS, clock_offset_us=host_offset_us)
        self.renderer = CameraRenderer(layout, looks, settings)
        self.out = out
        self._shots: queue.Queue[tuple[ShotRecord, int] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="simulated camera", daemon=True)
        self.filmed = 0

    def start(self) -> SimulatedCamera:
        self._thread.start()
        return self

    def film(self, record: ShotRecord, start_board_us: int) -> None:
        """A flick that started at ``start_board_us`` on the board's clock."""
        self._shots.put((record, start_board_us))

    def stop(self) -> None:
        self._shots.put(None)

    def _run(self) -> None:
        stream: IO[bytes] | None = None
        try:
            stream = open(self.out, "wb")  # noqa: SIM115 (a FIFO: blocks until the camera process reads)
            while (shot := self._shots.get()) is not None:
                record, start_us = shot
                for rendered in self.renderer.film_shot(record, start_us):
                    frame = rendered.frame
                    # the exposure's true centre, on this computer's clock: a sensor's own time stamp
                    write_raw_frame(stream, frame.t_us, frame.image, host_us=frame.t_us)
                stream.flush()
                self.filmed += 1
        except (BrokenPipeError, OSError) as error:
            log.warning("the simulated camera stopped: %s", error)
        finally:
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
