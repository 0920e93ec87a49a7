"""Why a shot goes to the referee: checks on the chosen reading that the posterior alone cannot make.

Every check here only holds a shot back; none changes what the readings are or how they rank (apart from
``best_fitting_first``, which orders them for the referee). Each one names its reason in words, and each
came from wrongly applied shots on hidden mats (docs/attribution.md, "Benchmark on hidden mats").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from service.mat.trace import ShotTrace

from .acoustics import AcousticPicture, HeardEvent
from .evidence import ImpactMatch
from .heard_touches import hits_each_heard, obstacle_touches_heard, push_heard
from .model import COVER_KINDS, Rollout
from .reading import Candidate


@dataclass(frozen=True)
class BestRollout:
    """The chosen reading's best rollout, run again to see what it touched and what the sensors heard."""

    rollout: Rollout
    matches: tuple[ImpactMatch, ...]
    closest: dict[str, float] = field(default_factory=dict)  # nearest surface gap to each piece, mm


def referee_reasons(
    trace: ShotTrace,
    candidates: Sequence[Candidate],
    likeliest: Candidate,
    best: BestRollout,
    picture: AcousticPicture,
    auto_apply_threshold: float,
) -> list[str]:
    """Every reason, in words, why the first of ``candidates`` (best fitting first) is not applied on its own;
    empty when nothing holds it back. ``likeliest`` is the reading with most posterior mass."""
    first = candidates[0]
    return [
        *_posterior_reasons(trace, candidates, likeliest, best, auto_apply_threshold),
        *_several_hits_reasons(trace, candidates, best),
        *_reading_reasons(trace, first),
        *_touch_reasons(trace, first, best),
        *_scan_reasons(trace, first, best, candidates),
        *_sound_reasons(trace, first, best, picture),
    ]


def _posterior_reasons(
    trace: ShotTrace,
    candidates: Sequence[Candidate],
    likeliest: Candidate,
    best: BestRollout,
    auto_apply_threshold: float,
) -> list[str]:
    """The posterior's doubts: too unsure, a close or as-well-fitting rival reading."""
    reasons: list[str] = []
    first = candidates[0]
    if first is not likeliest:
        reasons.append(
            f"this reading fits the sensors best, but the model's prior favours "
            f"{_described(likeliest.direct_hits)} ({likeliest.probability:.0%})"
        )
    elif first.probability < auto_apply_threshold:
        if len(candidates) > 1 and candidates[1].probability > 0.15:
            reasons.append(
                f"two readings are close ({first.probability:.0%} against {candidates[1].probability:.0%})"
            )
        else:
            reasons.append(f"the best reading is only {first.probability:.0%} sure")
    # The posterior's margin over a reading with one more hit can rest on the prior alone: a second hit
    # needs the flick lined up within a fraction of a degree, so it holds little prior volume. When that
    # reading fits the sensors as well, the volume argument is all that stands against it, and on a mat that
    # is not the model's mat it is the first thing to break.
    rival = as_well_fitting_rival(candidates)
    if rival is not None:
        added = ", ".join(sorted(rival.direct_hits - first.direct_hits))
        reasons.append(f"a reading that also counts a hit on {added} fits the sensors as well")
    else:
        runner_up = nearly_as_well_fitting(candidates)
        obstacle_rival = touch_on_an_obstacle_in_doubt(trace, candidates)
        if runner_up is not None:
            reasons.append(
                f"a reading with {_described(runner_up.direct_hits)} fits the sensors nearly as well"
            )
        elif obstacle_rival is not None and not obstacle_touches_heard(
            trace, first, obstacle_rival, best.matches
        ):
            # (a rival that only leaves out an obstacle touch the reading counts and the piezos heard must
            # explain that sound otherwise: heard_touches.py)
            reasons.append(
                f"a reading with {_described(obstacle_rival.direct_hits)} fits the sensors almost as well, "
                "and a bounce off a movable obstacle is what the model reproduces least well"
            )
    return reasons


def _several_hits_reasons(trace: ShotTrace, candidates: Sequence[Candidate], best: BestRollout) -> list[str]:
    """A reading with two or more hits, unless every hit has its own sound and the sensors prefer it clearly.

    A reading's later hits rest on weaker evidence than its first: they come after a deflection the model
    reproduces less well, and are softer. Applied readings with two or more hits were wrong 2 times in 33 on
    hidden mats, against 9 in 1,622 for the rest (docs/attribution.md), so the referee confirms them, unless
    each hit is a touch of the flicked disc that four or more piezos heard, matched to where the reading puts
    it, and no other reading fits the sensors within 12 nats: then the second hit is heard, not inferred
    (heard_touches.py)."""
    first = candidates[0]
    if len(first.direct_hits) < 2 or hits_each_heard(trace, first, best.matches, candidates):
        return []
    return [f"it counts {len(first.direct_hits)} hits: a shot with more than one is confirmed by the referee"]


def _reading_reasons(trace: ShotTrace, first: Candidate) -> list[str]:
    """What the reading itself claims that these sensors check poorly: a light disc touching nothing, pieces
    moved that it leaves unexplained."""
    reasons: list[str] = []
    # A missile or a small monster weighs a third of a hero: a touch by it sounds a third as loud and moves
    # what it strikes a third as far, often below what these sensors notice. A reading that it touched
    # nothing rests on that silence alone; one that counts a hit rests on what was heard or seen to move
    # (the soft-touch check below covers the rest). On hidden mats light discs read as touching nothing were
    # wrong 2 times in 28 once every other check had passed them; read as hitting something, 0 in 179.
    flicked_mass = trace.spec(trace.declaration.flicked).mass_g
    if flicked_mass < LIGHT_DISC_G and not first.direct_hits:
        reasons.append(
            f"the flicked disc weighs {flicked_mass:g} g and the reading has it touch nothing: so light a "
            "disc's touch is rarely heard and barely moves what it strikes"
        )
    if first.unexplained:
        reasons.append(
            "a piece moved that no reading explains (" + ", ".join(sorted(first.unexplained)) + ")"
        )
    beside = moved_beside_path(trace, first)
    if beside:
        reasons.append(
            ", ".join(f"{pid} moved {moved:.0f} mm" for pid, moved in beside)
            + " beside the flicked disc's path, and the best reading leaves "
            + ("it" if len(beside) == 1 else "them")
            + " where "
            + ("it was" if len(beside) == 1 else "they were")
        )
    return reasons


def _touch_reasons(trace: ShotTrace, first: Candidate, best: BestRollout) -> list[str]:
    """Touches too soft for the sensors: a near miss the reading does not count, a hit nothing confirmed."""
    reasons: list[str] = []
    # A soft touch no piezo hears and that barely moves the piece is invisible to these sensors, so a
    # reading whose flicked disc brushes past a piece it does not count is not applied on its own say-so.
    brushed = sorted(
        pid
        for pid, gap in best.closest.items()
        if gap <= NEAR_MISS_MM
        and pid not in first.direct_hits
        and pid in best.rollout.final
        and trace.spec(pid).kind not in COVER_KINDS
    )
    if brushed:
        reasons.append(
            "the flicked disc passed within a few millimetres of "
            + ", ".join(brushed)
            + ": a touch too soft to hear cannot be ruled out"
        )
    # The other way round: a touch the reading counts, that no piezo heard and that left the piece where
    # the scans cannot tell it moved, rests on the model alone.
    heard_contacts = {id(m.contact) for m in best.matches}
    unconfirmed = sorted(
        pid
        for pid in first.direct_hits
        if _barely_moved(trace, pid)
        and not any(
            id(c) in heard_contacts
            for c in best.rollout.contacts
            if {c.a, c.b} == {pid, trace.declaration.flicked}
        )
    )
    if unconfirmed:
        reasons.append(
            "the touch on "
            + ", ".join(unconfirmed)
            + " was too soft for any sensor to confirm (nothing heard, no clear movement)"
        )
    return reasons


def _scan_reasons(
    trace: ShotTrace, first: Candidate, best: BestRollout, candidates: Sequence[Candidate]
) -> list[str]:
    """What the scans before and after the shot could not check: pieces unseen or read roughly, the flicked
    disc's end unseen, or at rest against a piece the reading leaves alone."""
    reasons: list[str] = []
    # A piece the pre-scan missed is not in the model at all: no reading can say it was not hit, and on the
    # hidden mats such shots were applied wrongly seven times as often as the rest.
    pre_seen = trace.pre.by_piece()
    unseen = sorted(
        spec.piece
        for spec in trace.pieces
        if spec.piece not in pre_seen
        and spec.piece != trace.declaration.flicked
        and spec.kind not in COVER_KINDS
    )
    if unseen:
        reasons.append(_were(unseen, "not seen before the shot, so a hit on {it} cannot be ruled out"))
    # A piece the reading pushes that no scan saw afterwards: where it ended is what tells a push from a hit
    # (on the hidden mats one such applied shot in twelve was a missed second hit).
    post_seen = trace.post.by_piece()
    unchecked = sorted(pid for pid in first.pushed if pid not in post_seen and pid in pre_seen)
    if unchecked:
        reasons.append(
            _were(
                unchecked,
                "not seen after the shot, so whether the flicked disc pushed or hit {it} cannot be checked",
            )
        )
    # The same when it was read only roughly, by the last antennas at the grid's edge: a push and a hit
    # differ by centimetres where it ends, which such a read blurs (on hidden mats, 1 wrong in 23 applied),
    # unless the push itself was heard where the reading makes it and no hit on it fits nearly as well.
    rough = sorted(
        pid
        for pid in first.pushed
        if pid not in unchecked
        and any(seen.sigma_mm > ROUGH_READ_MM for seen in (pre_seen.get(pid), post_seen.get(pid)) if seen)
        and not push_heard(trace, first, best.matches, pid, candidates)
    )
    if rough:
        reasons.append(
            _were(
                rough,
                "read only roughly (at the edge of the tag grid), so whether the flicked disc pushed or hit "
                "{it} cannot be checked",
            )
        )
    # Where the flicked disc stopped is the one fixed point of its path after the start. Without it a last
    # touch cannot be told from none: on hidden mats, applied shots whose flicked disc no scan saw
    # afterwards were wrong 2 times in 15, against 2 in 256 for the rest.
    flicked = trace.declaration.flicked
    if flicked not in post_seen:
        reasons.append(
            "the flicked disc was not seen after the shot, so where its run ended, which tells a last touch "
            "from none, is unknown"
        )
    against = came_to_rest_against(trace, first)
    if against:
        reasons.append(
            "the flicked disc came to rest against "
            + ", ".join(against)
            + ", which the best reading neither hits nor pushes: a last touch too soft to hear cannot be "
            "ruled out"
        )
    return reasons


def _sound_reasons(
    trace: ShotTrace, first: Candidate, best: BestRollout, picture: AcousticPicture
) -> list[str]:
    """Loud impacts the reading does not explain."""
    reasons: list[str] = []
    located = [e for e in picture.events if e.x_mm is not None]
    unmatched_loud = [
        e for e in located if e.sensors >= LOUD_SENSORS and all(m.event is not e for m in best.matches)
    ]
    if len(unmatched_loud) >= 2:
        reasons.append(f"{len(unmatched_loud)} loud impacts that no reading explains (a hand on the mat?)")
    leftover = loud_touches_left_over(trace, first, best, picture)
    if len(leftover) == 1:
        # One loud impact the reading leaves over is most often a touch it is missing: on hidden mats, three
        # of the last wrongly applied shots were a second touch on an obstacle, heard by every piezo, that
        # the reading explained by nothing.
        (event,) = leftover
        reasons.append(
            f"an impact heard by {event.sensors} piezos at ({event.x_mm:.0f}, {event.y_mm:.0f}) mm is one "
            "the best reading does not explain"
        )
    return reasons


def loud_touches_left_over(
    trace: ShotTrace, first: Candidate, best: BestRollout, picture: AcousticPicture
) -> list[HeardEvent]:
    """The loud impacts on the mat that the reading's best rollout explains by none of its contacts.

    A piece the reading has leave the mat is not followed beyond its edge, where it may still strike the
    rim: only an impact on the mat, away from where a piece left it, counts as one the reading is missing."""
    return [
        e
        for e in picture.events
        if e.x_mm is not None
        and e.sensors >= LOUD_SENSORS
        and all(m.event is not e for m in best.matches)
        and _on_the_mat_away_from_exits(e, trace, first)
    ]


def _on_the_mat_away_from_exits(event: HeardEvent, trace: ShotTrace, reading: Candidate) -> bool:
    if event.x_mm is None or event.y_mm is None:
        return False
    x, y = event.x_mm, event.y_mm
    if not (0.0 <= x <= trace.mat.width_mm and 0.0 <= y <= trace.mat.height_mm):
        return False
    return all(math.hypot(x - ex, y - ey) > EXIT_REACH_MM for _, ex, ey in reading.left_mat_at)


def _barely_moved(trace: ShotTrace, piece: str) -> bool:
    """The scans cannot tell that the piece moved (within three sigmas of where it was)."""
    before, after = trace.pre.by_piece().get(piece), trace.post.by_piece().get(piece)
    if before is None or after is None:
        return False
    moved = math.hypot(after.x_mm - before.x_mm, after.y_mm - before.y_mm)
    return moved < 3 * math.hypot(before.sigma_mm, after.sigma_mm)


def moved_beside_path(trace: ShotTrace, reading: Candidate) -> list[tuple[str, float]]:
    """Pieces within reach of the flicked disc's path that the scans saw move (``MOVED_SIGMAS``) though the
    reading neither hits nor pushes them: a touch the reading does not have, or a model that is not the mat.
    Anywhere on the mat a 2.5-sigma wobble is common; beside the path it is what a missed hit looks like."""
    flicked = trace.declaration.flicked
    specs = {spec.piece: spec for spec in trace.pieces}
    before, after = trace.pre.by_piece(), trace.post.by_piece()
    path = [(x, y) for _, x, y in reading.path]
    accounted = reading.direct_hits | reading.pushed | reading.left_mat | {flicked}
    out = []
    for pid, was in before.items():
        now = after.get(pid)
        if now is None or pid in accounted or pid not in specs or specs[pid].kind in COVER_KINDS:
            continue
        moved = math.hypot(now.x_mm - was.x_mm, now.y_mm - was.y_mm)
        if moved < MOVED_SIGMAS * math.hypot(was.sigma_mm, now.sigma_mm):
            continue
        reach = specs[flicked].radius_mm + specs[pid].radius_mm + BESIDE_PATH_MM
        if any(
            _segment_distance((was.x_mm, was.y_mm), a, b) <= reach
            for a, b in zip(path, path[1:], strict=False)
        ):
            out.append((pid, moved))
    return out


def came_to_rest_against(trace: ShotTrace, reading: Candidate) -> list[str]:
    """Pieces the flicked disc came to rest touching, or where they stood before the shot, within what the
    scans can tell (``REST_GAP_MM`` plus the two reads' uncertainty), that the reading leaves alone.

    A run ends slowly: a disc that stops against another may have kissed it on the way in, too softly to be
    heard or to move it beyond the scans' noise. The model cannot rule that out, only prefer against it."""
    flicked = trace.declaration.flicked
    before, after = trace.pre.by_piece(), trace.post.by_piece()
    stopped = after.get(flicked)
    if stopped is None:
        return []
    accounted = reading.direct_hits | reading.pushed | reading.left_mat | {flicked}
    radius = trace.spec(flicked).radius_mm
    out = []
    for spec in trace.pieces:
        if spec.piece in accounted or spec.kind in COVER_KINDS:
            continue
        for seen in (before.get(spec.piece), after.get(spec.piece)):
            if seen is None:
                continue
            gap = math.hypot(seen.x_mm - stopped.x_mm, seen.y_mm - stopped.y_mm) - radius - spec.radius_mm
            if gap < REST_GAP_MM + math.hypot(seen.sigma_mm, stopped.sigma_mm):
                out.append(spec.piece)
                break
    return sorted(out)


def _segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


# Surface gap of a pass the sensors cannot tell from a soft touch: the scans place each disc to about ±3 mm
# per axis, so two discs' relative position to about ±4 mm; on the hidden mats a 3 mm margin let missed
# grazes through (docs/attribution.md).
NEAR_MISS_MM = 5.0
AS_WELL_FITTING_NATS = 1.0  # a log-likelihood margin this small is one the sensors cannot tell apart
CLEAR_FIT_NATS = 6.0  # a reading is applied only if it fits the sensors this much better than any other
LIGHT_DISC_G = 3.0  # missiles (2 g) and the smallest monsters (2.5 g), against a hero's 7.4 g
OBSTACLE_FIT_NATS = 12.0  # the same margin against a reading that differs only by touches on obstacles
# A piece this close to the flicked disc's path (beyond touching) that moved this many scan sigmas, and that
# the reading leaves alone, keeps the shot for the referee.
BESIDE_PATH_MM = 20.0
MOVED_SIGMAS = 2.5
# A read this uncertain (mm) comes from the last antennas of the grid, for a disc centred beyond them
# (docs/sensor-model.md).
ROUGH_READ_MM = 10.0
LOUD_SENSORS = 5  # an impact this many piezos heard is a real touch on the mat, not noise
# A reading that leaves such a touch over is stated at most this sure: the touch is most likely a second hit
# the search did not reproduce (its window is a fraction of a degree), so the share the sampler gives the
# readings it found overstates the first one. On development tables (seed 2801) such first readings were
# stated at 8-96 % and right 4 times in 10.
LEFT_OVER_TOUCH_DOUBT = 0.5
EXIT_REACH_MM = 100.0  # how far from where a piece left the mat its strike on the rim may be placed
# A flicked disc at rest this close to a piece (beyond the reads' own uncertainty) may have touched it last.
REST_GAP_MM = 2.0
# The weight of the prior's volume (log posterior share) against the fit when readings are ranked, and the
# share below which a reading's share is sampling noise.
PRIOR_WEIGHT = 0.1
SHARE_FLOOR = 1e-6


def as_well_fitting_rival(candidates: Sequence[Candidate]) -> Candidate | None:
    """A lower-ranked reading that counts every hit the top one counts and more, and fits the sensors within
    ``AS_WELL_FITTING_NATS`` of it: only the prior ranks it lower."""
    first = candidates[0]
    for other in candidates[1:]:
        if other.direct_hits > first.direct_hits and first.best_fit - other.best_fit < AS_WELL_FITTING_NATS:
            return other
    return None


def nearly_as_well_fitting(candidates: Sequence[Candidate]) -> Candidate | None:
    """The best-fitting other reading when the first does not beat it by ``CLEAR_FIT_NATS``.

    On a mat that is not the model's, the sensors must prefer the reading clearly, not just the posterior:
    the wrongly applied shots of hidden mats had a runner-up within a few nats far more often than the right
    ones (docs/attribution.md, "A clear fit margin")."""
    first = candidates[0]
    others = [c for c in candidates[1:] if c.direct_hits != first.direct_hits]
    if not others:
        return None
    runner_up = max(others, key=lambda c: c.best_fit)
    return runner_up if first.best_fit - runner_up.best_fit < CLEAR_FIT_NATS else None


def touch_on_an_obstacle_in_doubt(trace: ShotTrace, candidates: Sequence[Candidate]) -> Candidate | None:
    """Another reading that differs from the first only in touches on movable obstacles and fits within
    ``OBSTACLE_FIT_NATS`` of it.

    A heavy obstacle barely moves and, touched softly, is not heard; how a disc bounces off one is where the
    model's physics is least like a real mat's. On hidden mats, four of the last six wrongly applied shots
    were a touch on an obstacle the reading left out, while the reading with it fitted 7 to 25 nats worse
    (docs/attribution.md, "An impact the reading leaves over")."""
    first = candidates[0]
    for other in candidates[1:]:
        differ = other.direct_hits ^ first.direct_hits
        if (
            differ
            and all(trace.spec(pid).kind == "obstacle" for pid in differ)
            and first.best_fit - other.best_fit < OBSTACLE_FIT_NATS
        ):
            return other
    return None


def best_fitting_first(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates in the order the referee should weigh them: by how well they fit the sensors, plus a
    tenth (``PRIOR_WEIGHT``) of the log of their share of the posterior.

    Posterior mass adds the prior's volume to the fit: a second hit needs the flick lined up within a
    fraction of a degree, so it holds little volume. On mats that are not the model's, that volume misleads:
    where a reading with one more hit fitted better than the likeliest one, the extra hit was the truth more
    often than not, while the posterior gave it under a quarter. The fit alone ignores the volume altogether;
    a tenth of it ranked the truth first more often than either (docs/attribution.md, "Best fit first" and
    "Ranking with a tempered prior"). A shot whose first reading is not its likeliest is never applied
    automatically."""
    return sorted(
        candidates,
        key=lambda c: -(c.best_fit + PRIOR_WEIGHT * math.log(max(c.raw_probability, SHARE_FLOOR))),
    )


def _were(pieces: Sequence[str], what: str) -> str:
    """'orc-1 was …' or 'orc-1, orc-2 were …', with ``{it}`` in ``what`` made 'it' or 'them'."""
    one = len(pieces) == 1
    return ", ".join(pieces) + (" was " if one else " were ") + what.format(it="it" if one else "them")


def _described(hits: frozenset[str]) -> str:
    return "no hit" if not hits else "a hit on " + " and ".join(sorted(hits))
