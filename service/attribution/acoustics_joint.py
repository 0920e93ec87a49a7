"""The table's acoustics from many events at once: the sound speed and every piezo channel's lag, refitted
together from the well-heard events a table keeps (acoustics.py places one shot's events with them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .acoustics import (
    MIN_SENSORS_ANCHORED,
    MIN_SENSORS_FOR_SPEED,
    SPEED_MAX,
    SPEED_MIN,
    KeptEvent,
    coarse_start_xy,
    fit_event,
    solve3,
)

OFFSET_PRIOR_SD_US = 60.0  # piezo channels rarely lag each other by more than this
MAX_JOINT_EVENTS = 120
JOINT_ITERATIONS = 15
HUBER_K = 2.0  # arrivals beyond this many timing sigmas off the fit are down-weighted


@dataclass(frozen=True)
class JointAcoustics:
    speed_mm_per_us: float
    speed_log_sd: float
    offsets_us: tuple[tuple[int, float], ...]
    jitter_us: float
    jitter_dof: int
    events_used: int


def solve_joint(
    kept_events: list[KeptEvent],
    sensors: tuple[tuple[int, float, float], ...],
    width_mm: float,
    height_mm: float,
    gap_mm: float,
    speed0: float,
    offsets0: dict[int, float],
    jitter0: float,
) -> JointAcoustics | None:
    """Sound speed and every piezo's lag, fitted together with the places of many well-heard events.

    One event alone cannot tell a lagging piezo from a slower mat, and fitting the speed event by event with
    the lags ignored biases it low (the lags widen the spread of arrival times, which a slower speed
    explains). So the table keeps its well-heard events and refits everything at once: a Gauss-Newton
    bundle adjustment of arrival = emission + distance × slowness + lag over the events' places and
    emissions, the slowness and the lags, with each event's 3 × 3 block eliminated (Schur complement) so
    the solve stays small. Alternating between placing events and fitting the speed crawls along the
    valley where speed and lags trade off; solving them together does not. Where a sure reading put an
    event (its anchor), that place is a prior on it.
    """
    positions = {sid: (x, y) for sid, x, y in sensors}
    usable = [
        e
        for e in kept_events
        if len(e.arrivals) >= (MIN_SENSORS_FOR_SPEED if e.anchor is None else MIN_SENSORS_ANCHORED)
        and all(s in positions for s, _ in e.arrivals)
    ]
    if not usable:
        return None
    ids = sorted(positions)
    g = gap_mm + 40.0
    fit = _Fit(
        positions,
        {sid: i + 1 for i, sid in enumerate(ids)},
        (-g, -g, width_mm + g, height_mm + g),
        max(jitter0, 15.0),
        1 / speed0,
        [0.0] + [offsets0.get(sid, 0.0) for sid in ids],  # index 0 unused (the slowness slot)
    )
    events = fit.placed(usable)
    if not events:
        return None
    schur: list[list[float]] = []
    for _ in range(JOINT_ITERATIONS):
        schur, rhs, blocks = fit.normal_equations(events)
        step = _solve(schur, rhs)
        if step is None:
            return None
        fit.apply(step, events, blocks)
        if abs(step[0]) < 1e-6 * fit.slowness and max(abs(v) for v in step[1:]) < 0.05:
            break
    return fit.summary(events, ids, jitter0, schur)


_Block = tuple[list[float], list[list[float]]] | None  # an event's A⁻¹a and A⁻¹B, None where degenerate


@dataclass
class _Fit:
    """The joint fit's state: slowness and lags (``offsets[index[sid]]``), refined step by step."""

    positions: dict[int, tuple[float, float]]
    index: dict[int, int]
    bounds: tuple[float, float, float, float]
    sigma: float
    slowness: float
    offsets: list[float]

    @property
    def n(self) -> int:
        return len(self.index) + 1

    def placed(self, usable: list[KeptEvent]) -> list[tuple[KeptEvent, list[float]]]:
        """Each event placed with the current speed and lags; badly fitting events are left out."""
        events: list[tuple[KeptEvent, list[float]]] = []
        for kept in usable:
            corrected = [(sid, t - self.offsets[self.index[sid]]) for sid, t in kept.arrivals]
            start = coarse_start_xy(corrected, self.positions, 1 / self.slowness, self.bounds)
            x, y, t0, rss = fit_event(
                corrected, self.positions, 1 / self.slowness, start, self.bounds, 8, kept.anchor, self.sigma
            )
            if rss <= _degrees_of_freedom(kept) * (5 * self.sigma) ** 2:
                events.append((kept, [x, y, t0]))
        return events

    def normal_equations(
        self, events: list[tuple[KeptEvent, list[float]]]
    ) -> tuple[list[list[float]], list[float], list[_Block]]:
        """The reduced normal equations over slowness and lags (every event's own unknowns eliminated), with
        the lags' prior and the constraint that holds their sum at zero."""
        n = self.n
        schur = [[0.0] * n for _ in range(n)]
        rhs = [0.0] * n
        blocks = [self._eliminate(kept, local, schur, rhs) for kept, local in events]
        ridge = (self.sigma / OFFSET_PRIOR_SD_US) ** 2
        for p in range(1, n):
            schur[p][p] += ridge
            rhs[p] -= ridge * self.offsets[p]
            total = sum(self.offsets[1:])
            rhs[p] -= total  # the lags are relative: their sum is held at zero
            for q in range(1, n):
                schur[p][q] += 1.0
        return schur, rhs, blocks

    def _eliminate(
        self, kept: KeptEvent, local: list[float], schur: list[list[float]], rhs: list[float]
    ) -> _Block:
        """Add one event's arrivals to the normal equations, its (x, y, t0) eliminated (Schur complement)."""
        n, sigma = self.n, self.sigma
        x, y, t0 = local
        a = [[0.0] * 3 for _ in range(3)]
        av = [0.0] * 3
        bmat = [[0.0] * n for _ in range(3)]
        cv = [0.0] * n
        for sid, t in kept.arrivals:
            sx, sy = self.positions[sid]
            d = max(1.0, math.hypot(x - sx, y - sy))
            r = t - t0 - self.slowness * d - self.offsets[self.index[sid]]
            # Huber weights: an arrival far off the fit (a heavy-tailed jitter, a merged echo) pulls
            # linearly, not quadratically, so a few of them cannot drag the speed and the lags.
            hw = min(1.0, HUBER_K * sigma / max(abs(r), 1e-9))
            jl = (self.slowness * (x - sx) / d, self.slowness * (y - sy) / d, 1.0)
            jg = {0: d, self.index[sid]: 1.0}
            for p in range(3):
                av[p] += hw * jl[p] * r
                for q in range(3):
                    a[p][q] += hw * jl[p] * jl[q]
                for k, v in jg.items():
                    bmat[p][k] += hw * jl[p] * v
            for k, v in jg.items():
                cv[k] += hw * v * r
                for k2, v2 in jg.items():
                    schur[k][k2] += hw * v * v2
        if kept.anchor is not None:
            w = (sigma / kept.anchor[2]) ** 2
            a[0][0] += w
            a[1][1] += w
            av[0] += w * (kept.anchor[0] - x)
            av[1] += w * (kept.anchor[1] - y)
        # Eliminate this event's (x, y, t0): S -= Bᵀ A⁻¹ B, rhs -= Bᵀ A⁻¹ a.
        inv_cols = [solve3(a, [1.0 if i == j else 0.0 for i in range(3)]) for j in range(3)]
        if any(col is None for col in inv_cols):
            return None  # a degenerate event: it keeps its place this step
        inv = [[inv_cols[j][i] for j in range(3)] for i in range(3)]  # type: ignore[index]
        inv_b = [[sum(inv[i][k] * bmat[k][c] for k in range(3)) for c in range(n)] for i in range(3)]
        inv_a = [sum(inv[i][k] * av[k] for k in range(3)) for i in range(3)]
        for r_ in range(n):
            rhs[r_] += cv[r_] - sum(bmat[k][r_] * inv_a[k] for k in range(3))
            for c in range(n):
                schur[r_][c] -= sum(bmat[k][r_] * inv_b[k][c] for k in range(3))
        return inv_a, inv_b

    def apply(
        self, step: list[float], events: list[tuple[KeptEvent, list[float]]], blocks: list[_Block]
    ) -> None:
        """One Gauss-Newton step: slowness and lags, then each event's place back-substituted."""
        n = self.n
        self.slowness = min(1 / SPEED_MIN, max(1 / SPEED_MAX, self.slowness + step[0]))
        self.offsets = [0.0] + [self.offsets[p] + step[p] for p in range(1, n)]
        bounds = self.bounds
        for kept_and_local, block in zip(events, blocks, strict=True):
            if block is None:
                continue
            inv_a, inv_b = block
            local = kept_and_local[1]
            for i in range(3):
                local[i] += inv_a[i] - sum(inv_b[i][c] * step[c] for c in range(n))
            local[0] = min(bounds[2], max(bounds[0], local[0]))
            local[1] = min(bounds[3], max(bounds[1], local[1]))

    def summary(
        self,
        events: list[tuple[KeptEvent, list[float]]],
        ids: list[int],
        jitter0: float,
        schur: list[list[float]],
    ) -> JointAcoustics:
        """The fit's timing jitter, and the slowness's uncertainty with every event's place left free.

        The jitter reported is the plain one (what placing a contact must allow for); the speed's uncertainty
        uses the weighted residuals, as the weighted normal matrix does."""
        positions, slowness, sigma = self.positions, self.slowness, self.sigma
        rss, weighted_rss, dof = 0.0, 0.0, 0
        for kept, (x, y, t0) in events:
            for sid, t in kept.arrivals:
                d = math.hypot(x - positions[sid][0], y - positions[sid][1])
                r = t - t0 - slowness * d - self.offsets[self.index[sid]]
                rss += r**2
                weighted_rss += min(1.0, HUBER_K * sigma / max(abs(r), 1e-9)) * r**2
            dof += _degrees_of_freedom(kept)
        fit_sigma = max(15.0, math.sqrt((weighted_rss + jitter0**2 * 4) / (dof + 4)))
        jitter = max(15.0, math.sqrt((rss + jitter0**2 * 4) / (dof + 4)))
        first = _solve(schur, [1.0] + [0.0] * (self.n - 1)) if schur else None
        var_s = first[0] if first else 1.0
        log_sd = fit_sigma * math.sqrt(max(var_s, 0.0)) / slowness
        return JointAcoustics(
            1 / slowness,
            log_sd,
            tuple((sid, self.offsets[self.index[sid]]) for sid in ids),
            jitter,
            dof,
            len(events),
        )


def _degrees_of_freedom(kept: KeptEvent) -> int:
    """Arrivals left over once the event's own unknowns are fitted: (x, y, t0), or t0 where anchored."""
    return len(kept.arrivals) - (3 if kept.anchor is None else 1)


def _solve(a: list[list[float]], b: list[float]) -> list[float] | None:
    """Gaussian elimination with partial pivoting (systems of ten unknowns or so)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-15:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] for i in range(n)]
