"""A doubt a gate names answered by the sound: a touch the reading counts, heard where it makes it.

The rules deal damage for direct hits only (catacombs-3e-reference.txt, Taking Damage: "Multiple targets can
be damaged by a single (unmodified) shot provided the shot hits them directly"; a piece pushed into another
takes none). So whether a touch was the flicked disc's or a pushed piece's decides the damage, and a gate
holds a reading whose second hit, obstacle bounce or push of a roughly read piece rests on the model alone
(gates.py). heard_touches.py lets such a reading through only when the touch at stake was heard by four or
more piezos where the reading makes it, and the sensors prefer the reading by 12 nats."""

from __future__ import annotations

from service.attribution.acoustics import HeardEvent
from service.attribution.evidence import ImpactMatch
from service.attribution.heard_touches import (
    clearly_best,
    hits_each_heard,
    obstacle_touches_heard,
    push_heard,
    touch_heard,
)
from service.attribution.model import ModelContact
from service.attribution.reading import Candidate
from service.mat.trace import Declaration, MatGeometry, PieceSpec, Scan, SeenPiece, ShotTrace

HERO = "hero-1"


def _trace() -> ShotTrace:
    pieces = (
        PieceSpec(HERO, 19.0, 7.4, "hero", "heroes"),
        PieceSpec("orc-1", 16.0, 6.0, "monster", "overseer"),
        PieceSpec("orc-2", 16.0, 6.0, "monster", "overseer"),
        PieceSpec("barrel-1", 20.0, 20.0, "obstacle", "none"),
    )
    seen = tuple(SeenPiece(p.piece, 100.0 + 100 * i, 300.0, 3.0) for i, p in enumerate(pieces))
    return ShotTrace(
        MatGeometry(860, 610, 60, ((0, 0.0, 0.0), (1, 860.0, 0.0), (2, 860.0, 610.0), (3, 0.0, 610.0))),
        pieces,
        Scan(0, seen),
        Declaration(HERO, "melee"),
        (),
        Scan(10_000_000, seen),
    )


def _heard(a: str, b: str, sensors: int, t_us: float = 0.0) -> ImpactMatch:
    contact = ModelContact(t_us / 1e6, 300.0, 300.0, a, b, "disc", 500.0)
    return ImpactMatch(contact, HeardEvent(t_us, 300.0, 300.0, sensors))


def _best(*matches: ImpactMatch) -> tuple[ImpactMatch, ...]:
    """What the best rollout's contacts matched to heard events."""
    return matches


def _reading(hits: set[str], fit: float, pushed: frozenset[str] = frozenset()) -> Candidate:
    return Candidate(frozenset(hits), pushed, frozenset(), 0.96, (), raw_probability=0.96, best_fit=fit)


def test_a_touch_counts_as_heard_only_when_four_piezos_heard_it_and_each_sound_only_once() -> None:
    best = _best(_heard("orc-1", HERO, 4), _heard(HERO, "orc-2", 3))
    assert touch_heard(best, HERO, "orc-1")
    assert not touch_heard(best, HERO, "orc-2")  # three piezos: not placed by the sound alone
    taken: set[int] = set()
    assert touch_heard(best, HERO, "orc-1", taken)
    assert not touch_heard(best, HERO, "orc-1", taken)  # that sound explains one touch, not two


def test_two_hits_need_each_its_own_sound_and_a_clear_fit() -> None:
    trace = _trace()
    both = _reading({"orc-1", "orc-2"}, -50.0)
    one = _reading({"orc-1"}, -63.0)
    heard_both = _best(_heard(HERO, "orc-1", 8, 1000.0), _heard(HERO, "orc-2", 6, 90_000.0))
    assert hits_each_heard(trace, both, heard_both, [both, one])
    # The second touch unheard: the model alone says it happened.
    assert not hits_each_heard(trace, both, _best(_heard(HERO, "orc-1", 8)), [both, one])
    # A one-hit reading within 12 nats: the sensors do not prefer the second hit clearly enough.
    close = _reading({"orc-1"}, -58.0)
    assert not hits_each_heard(trace, both, heard_both, [both, close])


def test_an_obstacle_bounce_the_reading_counts_and_the_piezos_heard_answers_the_obstacle_doubt() -> None:
    trace = _trace()
    bounce = _reading({"barrel-1", "orc-1"}, -50.0)
    without = _reading({"orc-1"}, -56.0)
    assert obstacle_touches_heard(trace, bounce, without, _best(_heard(HERO, "barrel-1", 7)))
    assert not obstacle_touches_heard(trace, bounce, without, _best(_heard(HERO, "barrel-1", 3)))
    # The other way round is the danger the gate names: a rival that adds a bounce the reading leaves out.
    plain, with_bounce = _reading({"orc-1"}, -50.0), _reading({"barrel-1", "orc-1"}, -56.0)
    assert not obstacle_touches_heard(trace, plain, with_bounce, _best(_heard(HERO, "orc-1", 8)))


def test_a_push_of_a_roughly_read_piece_is_answered_when_the_push_was_heard_and_no_hit_on_it_fits() -> None:
    trace = _trace()
    push = _reading({"orc-1"}, -50.0, pushed=frozenset({"orc-2"}))
    hit = _reading({"orc-1", "orc-2"}, -63.0)
    pushed_heard = _best(_heard(HERO, "orc-1", 8), _heard("orc-1", "orc-2", 5, 40_000.0))
    assert push_heard(trace, push, pushed_heard, "orc-2", [push, hit])
    # Only the flicked disc's touch on it was heard: that is a hit's sound, not a push's.
    assert not push_heard(trace, push, _best(_heard(HERO, "orc-2", 8)), "orc-2", [push, hit])
    # A reading that counts it as hit fits within 12 nats.
    assert not push_heard(trace, push, pushed_heard, "orc-2", [push, _reading({"orc-1", "orc-2"}, -55.0)])
    # A reading that differs elsewhere (not about orc-2) is not this doubt's business.
    assert clearly_best(push, [push, _reading({"orc-1", "barrel-1"}, -51.0)], frozenset({"orc-2"}))
