"""What the camera saw in one frame, as plain data: the vision pipeline (pipeline.py, which needs OpenCV)
makes it, the camera's message to the table (wire.py) carries it, and the table's side (feed.py, clock.py,
shots.py) reads it. Nothing here imports OpenCV or NumPy: a daemon takes a camera's frames without either."""

from __future__ import annotations

from dataclasses import dataclass, field

SLIDE_DECELERATION = 3900.0  # mm/s²: wood sliding on neoprene (friction about 0.4 g) slows a disc this much


@dataclass
class FrameResult:
    index: int
    t_us: int  # on the camera's clock
    places: dict[str, tuple[float, float]]  # every disc seen, mat mm, at the frame's time
    mapped: bool  # False: the mat could not be mapped in this frame (``problem`` says why)
    problem: str | None = None
    # µs after the frame's time that each disc's row was exposed (a rolling shutter; 0 for a global one):
    # before its velocity is known, a disc's place is of that moment, not of the frame's
    row_delay_us: dict[str, float] = field(default_factory=dict)
    by_marker: set[str] = field(default_factory=set)  # discs known by their marker (the rest by colour)
    cpu_s: float = 0.0
