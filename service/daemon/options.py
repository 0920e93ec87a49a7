"""How a daemon is set up beyond its table file: attribution, the tick, the demo loop, enrolment, traces."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from service.attribution.infer import AttributionConfig, attribute
from service.attribution.learning import CalibrationKeeper
from service.daemon.camera_link import CameraLink
from service.table.shot_actions import Attribute


@dataclass
class DaemonOptions:
    attribution: AttributionConfig = field(default_factory=AttributionConfig)
    tick_s: float = 0.05  # the periodic job's period, and the longest the loop waits for an input
    dump_traces: Callable[[dict[str, Any]], None] | None = None  # called with every live shot's trace JSON
    # The table's self-calibration (service/attribution/learning.py); None: the built-in constants.
    calibration: CalibrationKeeper | None = None
    # A demo table that runs all day: once a game is over and this many seconds have passed with its result
    # on show, the daemon starts the next game itself. None: the referee starts it (the new_game command).
    next_game_after_s: float | None = None
    # Where discs enrolled from the set-up page are written (<set>.yaml); None: enrolment there is refused.
    sets_dir: Path | None = None
    # How a shot is attributed (service.attribution.infer.attribute); tests pass a slow or failing one.
    attribute: Attribute = attribute
    # The overhead camera's frames (docs/camera.md): each shot's trace gets its camera block from them, or the
    # reason why not. None: a table without a camera.
    camera: CameraLink | None = None
    # How long a shot waits for the camera's frames of it before it is read without them (a live camera
    # process lags by its processing; a simulated one by its rendering too).
    camera_wait_s: float = 1.0
