"""Where and when the contacts of a shot happened, from the piezo impacts, on a mat of unknown sound speed.

A contact's sound reaches each piezo after ``distance / v`` (plus that sensor's own timing offset), so an
event heard by three sensors can be placed if ``v`` is known, and an event heard by five or more also says
what ``v`` is. Neoprene mats differ widely (0.3–1.0 mm/µs), so ``v`` is never taken from a constant: each
shot's well-heard events give a likelihood over a grid of speeds, which is combined with what the table has
learnt so far (calibration.py) before the events are placed.

Each placed event carries its emission time on the device clock and a location uncertainty from the fit's
geometry (sensors all on one side place a contact poorly along that side), so evidence.py can weigh a
predicted contact against it honestly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from service.mat.trace import ShotTrace

# Sound speeds the grid covers (mm/µs): log-spaced, 3 % apart, well beyond any neoprene mat.
SPEED_MIN, SPEED_MAX, SPEED_STEPS = 0.2, 1.6, 72
SPEED_GRID: tuple[float, ...] = tuple(
    SPEED_MIN * (SPEED_MAX / SPEED_MIN) ** (i / (SPEED_STEPS - 1)) for i in range(SPEED_STEPS)
)
MIN_SENSORS_TO_PLACE = 3
MIN_SENSORS_FOR_SPEED = 5  # four unknowns (x, y, t0, v): five sensors leave one degree of freedom to check
# Where a sure reading says the contact happened (an anchor), (x, y) are known to a centimetre or so, and four
# sensors leave two degrees of freedom: on a mat that carries sound poorly few contacts reach five piezos.
MIN_SENSORS_ANCHORED = 4
OUTLIER_Z = 4.0  # a sensor this many timing sigmas off the fit is a merged false trigger or another contact


@dataclass(frozen=True)
class HeardEvent:
    """One contact heard by several piezos."""

    t_us: float  # emission time on the device clock (first arrival when it could not be placed)
    x_mm: float | None  # None when fewer than three sensors heard it
    y_mm: float | None
    sensors: int
    sigma_mm: float = 35.0  # location uncertainty (per axis)
    readings: tuple[tuple[int, float, float], ...] = ()  # (sensor id, arrival µs corrected, amplitude)
    # Raw arrivals (sensor, µs after the first, no lag correction) when four or more piezos heard it: what
    # the table keeps to refit its sound speed and lags (solve_joint; four only with an anchor).
    raw: tuple[tuple[int, float], ...] = ()


@dataclass(frozen=True)
class KeptEvent:
    """A well-heard event the table keeps, with where the shot's sure reading put it (if it was sure)."""

    arrivals: tuple[tuple[int, float], ...]
    anchor: tuple[float, float, float] | None = None  # (x_mm, y_mm, sigma_mm)


@dataclass(frozen=True)
class AcousticPicture:
    """What one shot's impacts say, with the sound speed they were read with."""

    events: tuple[HeardEvent, ...]
    speed_mm_per_us: float
    speed_log_sd: float  # uncertainty of log(speed) after this shot's own events
    speed_loglik: tuple[float, ...]  # this shot's log-likelihood over SPEED_GRID (for learning)


def fit_event(
    group: list[tuple[int, float]],
    positions: dict[int, tuple[float, float]],
    v: float,
    start: tuple[float, float],
    bounds: tuple[float, float, float, float],
    iterations: int = 6,
    anchor: tuple[float, float, float] | None = None,
    timing_sigma: float = 30.0,
) -> tuple[float, float, float, float]:
    """Least-squares (x, y, t0) of one event at sound speed v (Gauss-Newton); returns x, y, t0 and the RSS.

    ``anchor`` (x, y, sigma): where the event is known to have been, as a prior on its place.
    """
    x, y = start
    lo_x, lo_y, hi_x, hi_y = bounds
    t0 = 0.0
    for _ in range(iterations):
        # Normal equations of the residuals r_s = t_s - t0 - d_s / v in (x, y, t0).
        a = [[0.0] * 3 for _ in range(3)]
        b = [0.0, 0.0, 0.0]
        dists = []
        for sid, _ in group:
            sx, sy = positions[sid]
            dists.append(max(1.0, math.hypot(x - sx, y - sy)))
        t0 = sum(t - d / v for (_, t), d in zip(group, dists, strict=True)) / len(group)
        for (sid, t), d in zip(group, dists, strict=True):
            sx, sy = positions[sid]
            r = t - t0 - d / v
            j = ((x - sx) / (d * v), (y - sy) / (d * v), 1.0)
            for p in range(3):
                b[p] += j[p] * r
                for q in range(3):
                    a[p][q] += j[p] * j[q]
        if anchor is not None:
            w = (timing_sigma / anchor[2]) ** 2  # the anchor's pull, in the timing residuals' units
            a[0][0] += w
            a[1][1] += w
            b[0] += w * (anchor[0] - x)
            b[1] += w * (anchor[1] - y)
        step = solve3(a, b)
        if step is None:
            break
        x = min(hi_x, max(lo_x, x + step[0]))
        y = min(hi_y, max(lo_y, y + step[1]))
        if abs(step[0]) + abs(step[1]) < 0.05:
            break
    dists = [math.hypot(x - positions[s][0], y - positions[s][1]) for s, _ in group]
    t0 = sum(t - d / v for (_, t), d in zip(group, dists, strict=True)) / len(group)
    rss = sum((t - t0 - d / v) ** 2 for (_, t), d in zip(group, dists, strict=True))
    return x, y, t0, rss


def solve3(a: list[list[float]], b: list[float]) -> tuple[float, float, float] | None:
    """Solve the 3×3 system a·s = b (Cramer's rule; the systems here are tiny and well scaled)."""

    def det(m: list[list[float]]) -> float:
        return (
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        )

    d = det(a)
    if abs(d) < 1e-18:
        return None
    out = []
    for col in range(3):
        m = [row[:] for row in a]
        for r in range(3):
            m[r][col] = b[r]
        out.append(det(m) / d)
    return (out[0], out[1], out[2])


def _coarse_start(
    group: list[tuple[int, float]], positions: dict[int, tuple[float, float]], v: float, trace: ShotTrace
) -> tuple[float, float]:
    """A starting point for the fit: the best of a coarse grid over the mat and its walls."""
    g = trace.mat.wall_gap_mm
    return coarse_start_xy(group, positions, v, (-g, -g, trace.mat.width_mm + g, trace.mat.height_mm + g))


def _location_sigma(
    x: float,
    y: float,
    group: list[tuple[int, float]],
    positions: dict[int, tuple[float, float]],
    v: float,
    timing_sigma_us: float,
) -> float:
    """Per-axis location uncertainty from the fit's geometry: sqrt of the mean variance of (x, y)."""
    a = [[0.0] * 3 for _ in range(3)]
    for sid, _ in group:
        sx, sy = positions[sid]
        d = max(1.0, math.hypot(x - sx, y - sy))
        j = ((x - sx) / (d * v), (y - sy) / (d * v), 1.0)
        for p in range(3):
            for q in range(3):
                a[p][q] += j[p] * j[q]
    # Variances are the diagonal of the inverse normal matrix, times the timing variance.
    inv_diag = []
    for k in range(2):
        e = [0.0, 0.0, 0.0]
        e[k] = 1.0
        col = solve3(a, e)
        inv_diag.append(col[k] if col else 1e6)
    var = max(0.0, (inv_diag[0] + inv_diag[1]) / 2) * timing_sigma_us**2
    return math.sqrt(var)


def group_impacts(
    trace: ShotTrace, slowest_mm_per_us: float, jitter_us: float
) -> list[list[tuple[int, float, float]]]:
    """Cluster impacts into events: arrivals within the slowest sound's crossing of the mat, one a sensor."""
    positions = {sid: (x, y) for sid, x, y in trace.mat.sensors}
    diagonal = math.hypot(
        trace.mat.width_mm + 2 * trace.mat.wall_gap_mm, trace.mat.height_mm + 2 * trace.mat.wall_gap_mm
    )
    window = diagonal / slowest_mm_per_us + 4 * jitter_us
    events: list[list[tuple[int, float, float]]] = []
    for impact in sorted(trace.impacts, key=lambda i: i.t_us):
        if impact.sensor_id not in positions:
            continue
        if (
            events
            and impact.t_us - events[-1][0][1] <= window
            and impact.sensor_id not in {s for s, _, _ in events[-1]}
        ):
            events[-1].append((impact.sensor_id, float(impact.t_us), impact.amplitude))
        else:
            events.append([(impact.sensor_id, float(impact.t_us), impact.amplitude)])
    return events


def read_impacts(
    trace: ShotTrace,
    *,
    prior_loglik: tuple[float, ...],
    offsets_us: dict[int, float],
    jitter_us: float,
) -> AcousticPicture:
    """Group, read the sound speed (this shot's events with the table's belief) and place the events."""
    positions = {sid: (x, y) for sid, x, y in trace.mat.sensors}
    g = trace.mat.wall_gap_mm + 40.0
    bounds = (-g, -g, trace.mat.width_mm + g, trace.mat.height_mm + g)
    # Group with the slowest speed the table still finds plausible, so no event is split in two.
    top = max(prior_loglik)
    plausible = [v for v, ll in zip(SPEED_GRID, prior_loglik, strict=True) if ll > top - 8.0]
    raw_groups = group_impacts(trace, min(plausible), jitter_us)
    groups = [[(sid, t - offsets_us.get(sid, 0.0), amp) for sid, t, amp in group] for group in raw_groups]
    sigma2 = jitter_us**2
    shot_loglik = [0.0] * SPEED_STEPS
    usable: list[list[tuple[int, float, float]]] = []
    mid = SPEED_GRID[max(range(SPEED_STEPS), key=lambda i: prior_loglik[i])]
    for group in groups:
        if len(group) < MIN_SENSORS_FOR_SPEED:
            continue
        timing = _clean(group, positions, mid, bounds, jitter_us, trace)
        if len(timing) < MIN_SENSORS_FOR_SPEED:
            continue
        start = _coarse_start(timing, positions, mid, trace)
        curve = []
        for v in SPEED_GRID:
            x, y, _, rss = fit_event(timing, positions, v, start, bounds)
            start = (x, y)
            curve.append(-0.5 * rss / sigma2)
        best = max(curve)
        # One event's curve is capped in depth: a contact merged with a reflection must not veto a speed.
        shot_loglik = [s + max(c - best, -12.0) for s, c in zip(shot_loglik, curve, strict=True)]
        usable.append(group)
    combined = [p + s for p, s in zip(prior_loglik, shot_loglik, strict=True)]
    speed, log_sd = _mean_and_sd(combined)
    events: list[HeardEvent] = []
    for group in groups:
        t_first = min(t for _, t, _ in group)
        if len(group) < 2:
            continue  # a lone trigger: a false trigger, or too weak to place
        timing = (
            _clean(group, positions, speed, bounds, jitter_us, trace)
            if len(group) >= 4
            else [(s, t) for s, t, _ in group]
        )
        if len(timing) < MIN_SENSORS_TO_PLACE:
            events.append(HeardEvent(t_first, None, None, len(group)))
            continue
        start = _coarse_start(timing, positions, speed, trace)
        x, y, t0, rss = fit_event(timing, positions, speed, start, bounds, iterations=10)
        # The sound speed's own uncertainty moves a placed contact too: ~log_sd of its distance to sensors.
        mean_d = sum(math.hypot(x - positions[s][0], y - positions[s][1]) for s, _ in timing) / len(timing)
        sigma = math.hypot(
            _location_sigma(x, y, timing, positions, speed, jitter_us), 0.5 * log_sd * mean_d, 8.0
        )
        kept = {s for s, _ in timing}
        readings = tuple((s, t, a) for s, t, a in group if s in kept)
        raw_arrivals: tuple[tuple[int, float], ...] = ()
        if len(timing) >= MIN_SENSORS_ANCHORED:
            raw = [(s, t + offsets_us.get(s, 0.0)) for s, t in timing]
            first = min(t for _, t in raw)
            raw_arrivals = tuple((s, round(t - first, 1)) for s, t in raw)
        events.append(HeardEvent(t0, x, y, len(timing), min(sigma, 150.0), readings, raw_arrivals))
    return AcousticPicture(tuple(events), speed, log_sd, tuple(shot_loglik))


def _clean(
    group: list[tuple[int, float, float]],
    positions: dict[int, tuple[float, float]],
    v: float,
    bounds: tuple[float, float, float, float],
    jitter_us: float,
    trace: ShotTrace,
) -> list[tuple[int, float]]:
    """The group's arrivals without the worst one while it sits far off the fit (at most two dropped)."""
    timing = [(s, t) for s, t, _ in group]
    for _ in range(2):
        if len(timing) < 5:
            break
        start = _coarse_start(timing, positions, v, trace)
        x, y, t0, _ = fit_event(timing, positions, v, start, bounds)
        worst = max(
            timing,
            key=lambda st: abs(st[1] - t0 - math.hypot(x - positions[st[0]][0], y - positions[st[0]][1]) / v),
        )
        d = math.hypot(x - positions[worst[0]][0], y - positions[worst[0]][1])
        if abs(worst[1] - t0 - d / v) < OUTLIER_Z * jitter_us * 2.5:
            break
        timing = [st for st in timing if st != worst]
    return timing


def _mean_and_sd(loglik: list[float]) -> tuple[float, float]:
    """Posterior mean speed (geometric) and sd of log speed, over the grid (uniform in log speed)."""
    top = max(loglik)
    weights = [math.exp(v - top) for v in loglik]
    total = sum(weights)
    logs = [math.log(v) for v in SPEED_GRID]
    mean = sum(w * lv for w, lv in zip(weights, logs, strict=True)) / total
    var = sum(w * (lv - mean) ** 2 for w, lv in zip(weights, logs, strict=True)) / total
    return math.exp(mean), math.sqrt(max(var, 0.0))


def coarse_start_xy(
    group: list[tuple[int, float]],
    positions: dict[int, tuple[float, float]],
    v: float,
    bounds: tuple[float, float, float, float],
) -> tuple[float, float]:
    lo_x, lo_y, hi_x, hi_y = bounds
    best, best_cost = ((lo_x + hi_x) / 2, (lo_y + hi_y) / 2), math.inf
    for i in range(9):
        for j in range(7):
            x = lo_x + (hi_x - lo_x) * i / 8
            y = lo_y + (hi_y - lo_y) * j / 6
            emitted = [t - math.hypot(x - positions[s][0], y - positions[s][1]) / v for s, t in group]
            mean = sum(emitted) / len(emitted)
            cost = sum((e - mean) ** 2 for e in emitted)
            if cost < best_cost:
                best, best_cost = (x, y), cost
    return best
