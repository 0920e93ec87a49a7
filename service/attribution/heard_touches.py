"""Touches a reading makes that the piezos heard: what lets a doubt about a hit or push be answered by sound.

A gate in gates.py holds a reading whose hits or pushes these sensors check poorly (a second hit, a bounce
off a movable obstacle, a push of a piece read only roughly). The danger each one names is a touch the
reading *leaves out* or misplaces. Where the touch the reading counts was heard by four or more piezos,
matched to the place and time where its best rollout makes it, and the sensors prefer the reading clearly
over every reading that differs there, the doubt is answered by the sound rather than by the model
(docs/attribution.md, "Touches heard where the reading puts them").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .evidence import ImpactMatch
from .reading import Candidate

if TYPE_CHECKING:
    from service.mat.trace import ShotTrace

# A touch this many piezos heard is placed by the sound itself (four arrivals, three unknowns).
HIT_HEARD_SENSORS = 4
# The margin by which the reading must fit the sensors better than any reading that differs in the touches
# at stake: the obstacle margin of gates.py (a deflection is what the model reproduces least well).
HEARD_FIT_NATS = 12.0


def touch_heard(matches: Sequence[ImpactMatch], a: str, b: str, taken: set[int] | None = None) -> bool:
    """The best rollout makes a touch between ``a`` and ``b`` that an event heard by ``HIT_HEARD_SENSORS``
    piezos or more explains (``matches``: its contacts matched to heard events; an event not in ``taken``,
    which then takes it)."""
    for match in matches:
        if {match.contact.a, match.contact.b} != {a, b} or match.event.sensors < HIT_HEARD_SENSORS:
            continue
        if taken is not None:
            if id(match.event) in taken:
                continue
            taken.add(id(match.event))
        return True
    return False


def clearly_best(first: Candidate, candidates: Sequence[Candidate], differs: frozenset[str] | None) -> bool:
    """``first`` fits the sensors ``HEARD_FIT_NATS`` better than every other reading (with ``differs``:
    every other reading that counts a hit on one of those pieces, or leaves out one ``first`` counts)."""
    for other in candidates:
        if other is first or other.direct_hits == first.direct_hits:
            continue
        if differs is not None and not (other.direct_hits ^ first.direct_hits) & differs:
            continue
        if first.best_fit - other.best_fit < HEARD_FIT_NATS:
            return False
    return True


def hits_each_heard(
    trace: ShotTrace, first: Candidate, matches: Sequence[ImpactMatch], candidates: Sequence[Candidate]
) -> bool:
    """Every hit of ``first`` is a touch of the flicked disc that a heard event of its own explains, and
    ``first`` fits clearly better than any reading with other hits."""
    flicked = trace.declaration.flicked
    taken: set[int] = set()
    return all(touch_heard(matches, pid, flicked, taken) for pid in first.direct_hits) and clearly_best(
        first, candidates, None
    )


def obstacle_touches_heard(
    trace: ShotTrace, first: Candidate, rival: Candidate, matches: Sequence[ImpactMatch]
) -> bool:
    """The rival differs from ``first`` only by obstacle touches ``first`` counts (it leaves none out), and
    each of those was heard: the rival is the reading that would have to explain that sound otherwise."""
    flicked = trace.declaration.flicked
    differ = rival.direct_hits ^ first.direct_hits
    return differ <= first.direct_hits and all(touch_heard(matches, pid, flicked) for pid in differ)


def push_heard(
    trace: ShotTrace,
    first: Candidate,
    matches: Sequence[ImpactMatch],
    piece: str,
    candidates: Sequence[Candidate],
) -> bool:
    """The piece ``first`` pushes was heard being struck by the piece that pushed it (not by the flicked
    disc), and every reading that counts a hit on it fits clearly worse."""
    flicked = trace.declaration.flicked
    struck_by = {
        m.contact.a if m.contact.b == piece else m.contact.b
        for m in matches
        if piece in (m.contact.a, m.contact.b) and m.event.sensors >= HIT_HEARD_SENSORS
    }
    return bool(struck_by - {flicked, "wall"}) and clearly_best(first, candidates, frozenset({piece}))
