"""A disc's slide across the mat and its bounce off a wall: the physics a prescribed flick is read through
(flicks.py). The slide is integrated in steps of ``STEP_MM`` under the attribution model's friction (its mat
and its strip off the mat); the bounce keeps the speed along the face less the grip's share. Pure."""

from __future__ import annotations

import math
from collections.abc import Callable

from service.attribution.model import ModelParams

GRAVITY_MM_S2 = 9810.0
STEP_MM = 1.0  # the slide is integrated over steps this long


def friction_scale(
    start: tuple[float, float],
    inward: tuple[float, float],
    length: float,
    slide_s: float,
    hit: tuple[float, float],
    outward: tuple[float, float],
    back: float,
    keeps: float,
    width_mm: float,
    height_mm: float,
    params: ModelParams,
) -> float:
    """The friction scale at which a disc covering ``length`` in ``slide_s`` slides ``back`` after the wall.

    More friction means a faster start for the same time to the wall but a slower arrival, so less slide
    after it: the slide back falls as the scale rises, and bisection finds it.
    """

    def decel(x: float, y: float, scale: float) -> float:
        on_mat = 0.0 <= x <= width_mm and 0.0 <= y <= height_mm
        return (params.sliding_friction if on_mat else params.off_mat_friction) * scale * GRAVITY_MM_S2

    def slide_back(scale: float) -> float:
        low, high = 1.0, 20_000.0  # the speed at the spot, mm/s: the one that reaches the wall in slide_s
        for _ in range(40):
            u = math.sqrt(low * high)
            arrived, took = slide(start, inward, u, length, lambda x, y: decel(x, y, scale))
            if arrived is None or took > slide_s:
                low = u
            else:
                high = u
        arrived, _ = slide(start, inward, high, length, lambda x, y: decel(x, y, scale))
        out = keeps * (arrived or 0.0)
        return stopping(hit, outward, out, lambda x, y: decel(x, y, scale))

    low, high = 0.2, 5.0
    for _ in range(30):
        mid = math.sqrt(low * high)
        if slide_back(mid) > back:
            low = mid
        else:
            high = mid
    return math.sqrt(low * high)


def slide(
    start: tuple[float, float],
    direction: tuple[float, float],
    speed: float,
    length: float,
    decel: Callable[[float, float], float],
) -> tuple[float | None, float]:
    """The speed after sliding ``length`` from ``start`` (None if it stops first), and the time it took."""
    v2, took, x = speed * speed, 0.0, 0.0
    while x < length:
        step = min(STEP_MM, length - x)
        px, py = start[0] + (x + step / 2) * direction[0], start[1] + (x + step / 2) * direction[1]
        before = math.sqrt(v2)
        v2 -= 2 * decel(px, py) * step
        if v2 <= 0.0:
            return None, math.inf
        took += step / ((before + math.sqrt(v2)) / 2)
        x += step
    return math.sqrt(v2), took


def stopping(
    start: tuple[float, float],
    direction: tuple[float, float],
    speed: float,
    decel: Callable[[float, float], float],
) -> float:
    """How far a disc sliding at ``speed`` goes before it stops."""
    v2, x = speed * speed, 0.0
    while v2 > 0.0 and x < 5_000.0:
        px, py = start[0] + (x + STEP_MM / 2) * direction[0], start[1] + (x + STEP_MM / 2) * direction[1]
        lose = 2 * decel(px, py) * STEP_MM
        if lose >= v2:
            return x + STEP_MM * v2 / lose
        v2 -= lose
        x += STEP_MM
    return x


def wall_bounce(normal: float, along: float, tan_out: float, grip: float) -> tuple[float, float]:
    """The restitution that sends a disc out at ``tan_out`` (from the normal), and its speed out over in.

    At the wall the disc keeps ``e`` of its speed into the wall; its grip on the face (Coulomb, as in the
    model's contacts) takes some speed along it, at most a third (then the disc's edge rolls along the face).
    More restitution sends it out straighter, so bisection finds it.
    """

    def out(e: float) -> tuple[float, float]:
        kept_along = along - min(along / 3, grip * (1 + e) * normal)
        return e * normal, kept_along

    low, high = 0.01, 1.5
    for _ in range(40):
        mid = (low + high) / 2
        n_out, t_out = out(mid)
        if t_out / n_out > tan_out:
            low = mid
        else:
            high = mid
    e = (low + high) / 2
    n_out, t_out = out(e)
    return e, math.hypot(n_out, t_out) / math.hypot(normal, along)
