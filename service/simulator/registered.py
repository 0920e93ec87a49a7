"""Which direct touches of a shot the sensors registered at all: ground truth for the benchmark's reports.

A touch is *registered* when a piezo heard it or when the two scans show the struck piece moved. A touch no
piezo heard, whose struck piece moved less than the scans can tell from their own noise, left nothing in the
trace that a shot without it would not also have left. No reader of those sensors can be sure of it, however
good its physics; the benchmark reports such shots apart, so the sensors' share of the misses is measured
rather than argued.

Heard is judged as the sensor model hears (sensors.py), at the median of its amplitude noise and with the
table's hidden piezo constants; seen, from the trace's own scans and their stated sigmas.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from service.mat.trace import Scan
from service.simulator.sensors import SensorModel
from service.simulator.table_edges import Contact, ShotRecord

# The scans must show the struck piece this many of their combined sigmas away from where it stood.
SEEN_SIGMAS = 3.0


def loudest_amplitude(contact: Contact, sensors: SensorModel) -> float:
    """The contact's amplitude at its loudest piezo, without the per-impact noise (its median)."""
    return max((median * gain for _, _, median, gain in sensors.carried(contact)), default=0.0)


def heard(contacts: Iterable[Contact], sensors: SensorModel) -> bool:
    threshold = sensors.config.piezo.detection_threshold
    return any(loudest_amplitude(c, sensors) >= threshold for c in contacts)


def seen_moving(piece: str, pre: Scan, post: Scan) -> bool:
    """The scans show the piece moved: it left the mat, or it shifted well beyond their noise."""
    before, after = pre.by_piece().get(piece), post.by_piece().get(piece)
    if before is None:
        return False  # not seen before the shot: nothing to compare
    if after is None:
        return True  # gone from the mat (or missed by the scan, which a reader would also notice)
    sigma = math.hypot(before.sigma_mm, after.sigma_mm)
    return math.hypot(after.x_mm - before.x_mm, after.y_mm - before.y_mm) > SEEN_SIGMAS * sigma


def unregistered_touches(record: ShotRecord, pre: Scan, post: Scan, sensors: SensorModel) -> list[str]:
    """The pieces the flicked piece struck directly that neither a piezo heard nor the scans saw move."""
    flicked = record.flicked
    missed = []
    for piece in sorted(record.direct_hits):
        touches = [c for c in record.contacts if {c.a, c.b} == {flicked, piece}]
        if not heard(touches, sensors) and not seen_moving(piece, pre, post):
            missed.append(piece)
    return missed
